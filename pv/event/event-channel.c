/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The port table and the EVTCHNOPs that change it, as Xen's
 * common/event_channel.c for a domU: ports are handed out lowest first
 * from buckets of 64, up to max_evtchn_port (1023, xl's default); port 0
 * is reserved.  The guest is domain 1; "domain 0" is the shim itself as
 * the backend of the console and xenstore ports, whose ends are kept in
 * a small table here (backend_ports[]).
 */
#include "pv/event/private.h"
#include <xen/errno.h>
#include "pv/pv.h"
#include "shim/param.h"
#include "shim/perfc.h"
#include "shim/softirq.h"
#include "shim/timer.h"

#define MAX_EVTCHN_PORT     (EVTCHN_MAX_PORTS - 1)

/*
 * The shim's own (backend) ends, "domain 0"'s port table: port n is
 * entry n - 1.  The store's and console's are fixed; the others are
 * taken by backends that bind to a port the guest allocated for them
 * (pv/event/event-backend.c).
 */
struct backend_port backend_ports[NR_BACKEND_PORTS] = {
    [EVTCHN_STORE_PORT - 1] = { true, 0, XENSTORE_SOFTIRQ },
    [EVTCHN_CONSOLE_PORT - 1] = { true, 0, CONSOLE_SOFTIRQ },
};

int backend_index(unsigned int port)
{
    if ( port < 1 || port > NR_BACKEND_PORTS ||
         !backend_ports[port - 1].in_use )
        return -1;
    return port - 1;
}

/* Xen's evtchn_allocate_port(): grow by a bucket, or say why not. */
static int allocate_port(struct domain *d, unsigned int port)
{
    if ( port > MAX_EVTCHN_PORT || port >= max_evtchns(d) )
        return -XEN_ENOSPC;
    if ( port_is_valid(d, port) )
    {
        if ( d->evtchn[port].state != ECS_FREE ||
             evtchn_port_is_busy(d, port) )
            return -XEN_EBUSY;
    }
    else
        d->valid_evtchns = ROUNDUP(port + 1, EVTCHNS_PER_BUCKET);
    return 0;
}

static int get_free_port(struct domain *d)
{
    unsigned int port;
    int rc;

    ASSERT(spin_is_locked_by_me(&d->event_lock));
    for ( port = 0; port <= MAX_EVTCHN_PORT; port++ )
    {
        rc = allocate_port(d, port);
        if ( rc != -XEN_EBUSY )
            return rc ? rc : (int)port;
    }
    return -XEN_ENOSPC;
}

static void evtchn_free(struct domain *d, struct evtchn *chn)
{
    evtchn_port_clear_pending(d, chn);
    chn->state = ECS_FREE;
    chn->notify_vcpu_id = 0;
}

/* The domain an EVTCHNOP names: DOMID_SELF or our own id. */
static bool is_self(domid_t dom)
{
    return dom == DOMID_SELF || dom == PV_DOMID;
}

long evtchn_alloc_unbound(evtchn_alloc_unbound_t *alloc)
{
    struct domain *d = &dom;
    struct evtchn *chn;
    int port;

    if ( !is_self(alloc->dom) )
        return alloc->dom == BACKEND_DOMID ? -XEN_EPERM : -XEN_ESRCH;
    if ( (port = get_free_port(d)) < 0 )
        return port;
    chn = evtchn_from_port(d, port);
    spin_lock(&chn->lock);
    chn->state = ECS_UNBOUND;
    chn->remote_dom = alloc->remote_dom == DOMID_SELF ? PV_DOMID
                                                      : alloc->remote_dom;
    evtchn_port_init(d, chn);
    spin_unlock(&chn->lock);
    alloc->port = port;
    return 0;
}

/* Bind a new local port to the shim's backend end @rport. */
static long bind_to_backend(struct domain *d, unsigned int rport,
                            unsigned int lport)
{
    int i = backend_index(rport);
    struct evtchn *lchn = evtchn_from_port(d, lport);

    if ( i < 0 || backend_ports[i].guest_port )
        return -XEN_EINVAL;
    spin_lock(&lchn->lock);
    backend_ports[i].guest_port = lport;
    lchn->state = ECS_INTERDOMAIN;
    lchn->remote_dom = BACKEND_DOMID;
    lchn->remote_port = rport;
    evtchn_port_init(d, lchn);
    evtchn_port_set_pending(d, lchn->notify_vcpu_id, lchn);
    spin_unlock(&lchn->lock);
    return 0;
}

long evtchn_bind_interdomain(evtchn_bind_interdomain_t *bind)
{
    struct domain *d = &dom;
    struct evtchn *lchn, *rchn;
    unsigned int rport = bind->remote_port;
    int lport;

    if ( !is_self(bind->remote_dom) && bind->remote_dom != BACKEND_DOMID )
        return -XEN_ESRCH;
    if ( (lport = get_free_port(d)) < 0 )
        return lport;
    if ( bind->remote_dom == BACKEND_DOMID )
    {
        long rc = bind_to_backend(d, rport, lport);

        if ( !rc )
            bind->local_port = lport;
        return rc;
    }

    /* Loopback: both ends in this domain. */
    if ( !port_is_valid(d, rport) )
        return -XEN_EINVAL;
    rchn = evtchn_from_port(d, rport);
    if ( rchn->state != ECS_UNBOUND || rchn->remote_dom != PV_DOMID )
        return -XEN_EINVAL;
    lchn = evtchn_from_port(d, lport);
    double_evtchn_lock(lchn, rchn);
    lchn->state = ECS_INTERDOMAIN;
    lchn->remote_dom = PV_DOMID;
    lchn->remote_port = rport;
    evtchn_port_init(d, lchn);
    rchn->state = ECS_INTERDOMAIN;
    rchn->remote_dom = PV_DOMID;
    rchn->remote_port = lport;
    /* Notifications sent to the unbound end may have been lost. */
    evtchn_port_set_pending(d, lchn->notify_vcpu_id, lchn);
    double_evtchn_unlock(lchn, rchn);
    bind->local_port = lport;
    return 0;
}

long evtchn_bind_virq(evtchn_bind_virq_t *bind)
{
    struct domain *d = &dom;
    struct evtchn *chn;
    uint32_t virq = bind->virq, vcpu = bind->vcpu;
    int port;

    if ( virq >= NR_VIRQS )
        return -XEN_EINVAL;
    if ( virq_is_global(virq) && vcpu != 0 )
        return -XEN_EINVAL;
    if ( vcpu >= d->max_vcpus )
        return -XEN_ENOENT;
    vcpu = array_index_nospec(vcpu, d->max_vcpus);
    virq = array_index_nospec(virq, NR_VIRQS);
    if ( d->vcpu[vcpu].virq_to_evtchn[virq] )
        return -XEN_EEXIST;
    if ( (port = get_free_port(d)) < 0 )
        return port;
    chn = evtchn_from_port(d, port);
    spin_lock(&chn->lock);
    chn->state = ECS_VIRQ;
    chn->notify_vcpu_id = vcpu;
    chn->virq = virq;
    evtchn_port_init(d, chn);
    spin_unlock(&chn->lock);
    d->vcpu[vcpu].virq_to_evtchn[virq] = port;
    bind->port = port;
    return 0;
}

long evtchn_bind_ipi(evtchn_bind_ipi_t *bind)
{
    struct domain *d = &dom;
    struct evtchn *chn;
    int port;

    if ( bind->vcpu >= d->max_vcpus )
        return -XEN_ENOENT;
    if ( (port = get_free_port(d)) < 0 )
        return port;
    chn = evtchn_from_port(d, port);
    spin_lock(&chn->lock);
    chn->state = ECS_IPI;
    chn->notify_vcpu_id = bind->vcpu;
    evtchn_port_init(d, chn);
    spin_unlock(&chn->lock);
    bind->port = port;
    return 0;
}

/*
 * Under event_lock and the port's lock, and for a loopback interdomain
 * pair both ports' (as Xen's evtchn_close()), so a send or unmask in
 * flight on either end finishes first, and none starts on a port half
 * closed.
 */
int evtchn_close(struct domain *d, unsigned int port)
{
    struct evtchn *chn, *rchn = NULL;
    unsigned int i;
    int b;

    ASSERT(spin_is_locked_by_me(&d->event_lock));
    if ( !port_is_valid(d, port) )
        return -XEN_EINVAL;
    chn = evtchn_from_port(d, port);
    /* event_lock keeps the binding, so the peer is known before locking. */
    if ( chn->state == ECS_INTERDOMAIN && chn->remote_dom != BACKEND_DOMID )
        rchn = evtchn_from_port(d, chn->remote_port);
    double_evtchn_lock(chn, rchn ?: chn);
    switch ( chn->state )
    {
    case ECS_FREE:
    case ECS_RESERVED:
        spin_unlock(&chn->lock);
        return -XEN_EINVAL;
    case ECS_UNBOUND:
    case ECS_IPI:
    case ECS_PIRQ:
        break;
    case ECS_VIRQ:
        for ( i = 0; i < d->max_vcpus; i++ )
            if ( d->vcpu[i].virq_to_evtchn[chn->virq] == port )
                d->vcpu[i].virq_to_evtchn[chn->virq] = 0;
        break;
    case ECS_INTERDOMAIN:
        if ( chn->remote_dom == BACKEND_DOMID )
        {
            /* The backend's end waits, unbound, for domain 1 again. */
            if ( (b = backend_index(chn->remote_port)) >= 0 )
                backend_ports[b].guest_port = 0;
            break;
        }
        rchn->state = ECS_UNBOUND;
        rchn->remote_dom = PV_DOMID;
        break;
    }
    evtchn_free(d, chn);
    double_evtchn_unlock(chn, rchn ?: chn);
    return 0;
}

/*
 * backend-batch=<bool> (default on): a block or network backend notified
 * by the vCPU on the CPU that serves its ring (CPU 0, or a queue's own)
 * runs once that vCPU gives the CPU back (its next HYPERVISOR_iret,
 * which ends every Linux system call and event upcall, or sched_op), or
 * after BATCH_NS at most, not on the way out of the notifying hypercall
 * itself.  Meanwhile the ring's req_event stays where it was, so the
 * frontend's next requests raise no further event: netfront's burst of
 * segments of one send, or blk-mq's requests of one io_submit, reach
 * the backend as one batch, one device kick, instead of a hypercall, a
 * backend run and a kick each.  That is what a Xen dom0 backend sharing
 * the guest's pCPU sees too: it runs when the guest's vCPU stops (the
 * credit scheduler's rate limit keeps it running a millisecond).  Off,
 * the backend runs on the notifying hypercall's way out.  A notification
 * from another CPU's vCPU raises the softirq there at once (an IPI).
 */
static bool __read_mostly opt_backend_batch = true;
boolean_param("backend-batch", opt_backend_batch);
#define BATCH_NS        1000000ULL      /* Xen's sched_ratelimit_us */

/* Softirq bits, per CPU: each CPU's own alone. */
unsigned long __hot_data evtchn_batched[NR_CPUS];
static struct timer batch_timer[NR_CPUS];

static void release_batched(void)
{
    unsigned long *batched = &evtchn_batched[smp_processor_id()];
    unsigned long bits = *batched;

    *batched = 0;
    while ( bits )
    {
        raise_softirq(__builtin_ctzl(bits));
        bits &= bits - 1;
    }
}

void evtchn_release_batched_slow(void)
{
    stop_timer(&batch_timer[smp_processor_id()]);
    perfc_incr(backend_batch_released);
    release_batched();
}

static void batch_timer_fn(void *data)
{
    perfc_incr(backend_batch_timeouts);
    release_batched();
}

/*
 * A notification from the guest to the shim's end of a backend port: the
 * backend runs from its softirq on the port's CPU (CPU 0, where serial
 * input comes too, or the CPU of a ring's queue), on its way back to the
 * guest or in its idle loop, kicked from another vCPU's CPU; pv/ never
 * calls into a backend.
 */
static void __hot_text backend_notified(unsigned int backend_port)
{
    int i = backend_index(backend_port);
    unsigned int cpu = smp_processor_id();

    if ( i < 0 )
        return;
    if ( backend_port_bound(i) && opt_backend_batch &&
         backend_ports[i].cpu == cpu )
    {
        if ( !evtchn_batched[cpu] )
            set_timer(&batch_timer[cpu], NOW() + BATCH_NS);
        evtchn_batched[cpu] |= 1UL << backend_ports[i].softirq;
        perfc_incr(backend_batched);
        return;
    }
    cpu_raise_softirq(backend_ports[i].cpu, backend_ports[i].softirq);
}

/*
 * Without the domain lock: under the port's lock (a close or rebinding
 * waits for it), and for a loopback pair the peer's too, whose pending
 * state it raises.  The peer's is tried first; if another CPU holds it,
 * both are taken again in address order and the binding looked at anew.
 */
long __hot_text evtchn_send(struct domain *d, unsigned int port)
{
    struct evtchn *chn, *rchn;
    long rc = 0;

    if ( !port_is_valid(d, port) )
        return -XEN_EINVAL;
    chn = evtchn_from_port(d, port);
 again:
    spin_lock(&chn->lock);
    switch ( chn->state )
    {
    case ECS_INTERDOMAIN:
        if ( chn->remote_dom == BACKEND_DOMID )
        {
            backend_notified(chn->remote_port);
            break;
        }
        rchn = evtchn_from_port(d, chn->remote_port);
        if ( !spin_trylock(&rchn->lock) )
        {
            spin_unlock(&chn->lock);
            double_evtchn_lock(chn, rchn);
            if ( chn->state != ECS_INTERDOMAIN ||
                 chn->remote_dom == BACKEND_DOMID ||
                 evtchn_from_port(d, chn->remote_port) != rchn )
            {
                double_evtchn_unlock(chn, rchn);
                goto again;
            }
        }
        evtchn_port_set_pending(d, rchn->notify_vcpu_id, rchn);
        spin_unlock(&rchn->lock);
        break;
    case ECS_IPI:
        evtchn_port_set_pending(d, chn->notify_vcpu_id, chn);
        break;
    case ECS_UNBOUND:
        break;                          /* silently dropped, as Xen */
    default:
        rc = -XEN_EINVAL;
        break;
    }
    spin_unlock(&chn->lock);
    return rc;
}

/*
 * The guest's end of @backend_port, raised.  Its port number is read
 * without a lock (a close clears it under the port's lock and
 * event_lock, not the backends'), so under the port's lock it must still
 * be that backend port's end, as raise_virq() looks again: a port closed
 * and bound to something else meanwhile is left alone.  The vCPU it
 * notifies is read there too (EVTCHNOP_bind_vcpu moves it).
 */
void pv_evtchn_notify_guest(unsigned int backend_port)
{
    int b = backend_index(backend_port);
    unsigned int port;
    struct evtchn *chn;

    ASSERT(pv_backend_locked());
    if ( b < 0 || !(port = ACCESS_ONCE(backend_ports[b].guest_port)) )
        return;                         /* the guest closed its end */
    chn = evtchn_from_port(&dom, port);
    perfc_incr(evtchn_guest_notify);
    spin_lock(&chn->lock);
    if ( chn->state == ECS_INTERDOMAIN && chn->remote_dom == BACKEND_DOMID &&
         chn->remote_port == backend_port )
        evtchn_port_set_pending(&dom, chn->notify_vcpu_id, chn);
    spin_unlock(&chn->lock);
}

/* Start of day: port 0 reserved, the store and console ports bound. */
void pv_evtchn_init(struct domain *d)
{
    unsigned int i;

    for ( i = 0; i < EVTCHN_MAX_PORTS; i++ )
        spin_lock_init(&d->evtchn[i].lock, LOCK_RANK_EVTCHN);
    for ( i = 0; i < MAX_VCPUS; i++ )
    {
        unsigned int q;

        for ( q = 0; q < EVTCHN_FIFO_MAX_QUEUES; q++ )
            spin_lock_init(&d->vcpu[i].fifo_queue[q].lock,
                           LOCK_RANK_EVTCHN_FIFO_QUEUE);
    }
    d->valid_evtchns = EVTCHNS_PER_BUCKET;
    d->evtchn[0].state = ECS_RESERVED;
    for ( i = 0; i < NR_CPUS; i++ )
        init_timer(&batch_timer[i], batch_timer_fn, NULL, i);
    for ( i = EVTCHN_STORE_PORT; i <= EVTCHN_CONSOLE_PORT; i++ )
    {
        struct evtchn *chn = evtchn_from_port(d, i);

        chn->state = ECS_INTERDOMAIN;
        chn->remote_dom = BACKEND_DOMID;
        chn->remote_port = i;
        backend_ports[i - 1].guest_port = i;
    }
}
