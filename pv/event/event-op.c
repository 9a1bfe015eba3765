/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_event_channel_op and its old form event_channel_op_compat:
 * copying arguments in and out, and the EVTCHNOPs that only read or
 * retarget a port (status, bind_vcpu, unmask, set_priority) or wipe the
 * table (reset), as Xen's do_event_channel_op().
 */
#include "pv/event/private.h"
#include <xen/errno.h>
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/vcpu/smp.h"
#include "shim/perfc.h"

static long evtchn_status(evtchn_status_t *st)
{
    struct domain *d = &dom;
    const struct evtchn *chn;

    if ( st->dom != DOMID_SELF && st->dom != PV_DOMID )
        return st->dom == BACKEND_DOMID ? -XEN_EPERM : -XEN_ESRCH;
    if ( !port_is_valid(d, st->port) )
        return -XEN_EINVAL;
    chn = evtchn_from_port(d, st->port);
    memset(&st->u, 0, sizeof(st->u));
    switch ( chn->state )
    {
    case ECS_FREE:
    case ECS_RESERVED:
        st->status = EVTCHNSTAT_closed;
        break;
    case ECS_UNBOUND:
        st->status = EVTCHNSTAT_unbound;
        st->u.unbound.dom = chn->remote_dom;
        break;
    case ECS_INTERDOMAIN:
        st->status = EVTCHNSTAT_interdomain;
        st->u.interdomain.dom = chn->remote_dom;
        st->u.interdomain.port = chn->remote_port;
        break;
    case ECS_VIRQ:
        st->status = EVTCHNSTAT_virq;
        st->u.virq = chn->virq;
        break;
    case ECS_IPI:
        st->status = EVTCHNSTAT_ipi;
        break;
    default:
        st->status = EVTCHNSTAT_pirq;
        break;
    }
    st->vcpu = chn->notify_vcpu_id;
    return 0;
}

static long evtchn_bind_vcpu(unsigned int port, unsigned int vcpu_id)
{
    struct domain *d = &dom;
    struct evtchn *chn;

    if ( vcpu_id >= d->max_vcpus )
        return -XEN_ENOENT;
    if ( !port_is_valid(d, port) )
        return -XEN_EINVAL;
    chn = evtchn_from_port(d, port);
    spin_lock(&chn->lock);
    switch ( chn->state )
    {
    case ECS_VIRQ:
        if ( !virq_is_global(chn->virq) )
        {
            spin_unlock(&chn->lock);
            return -XEN_EINVAL;         /* per-vCPU virqs stay put */
        }
        /* fall through */
    case ECS_UNBOUND:
    case ECS_INTERDOMAIN:
        chn->notify_vcpu_id = vcpu_id;
        spin_unlock(&chn->lock);
        return 0;
    default:
        spin_unlock(&chn->lock);
        return -XEN_EINVAL;
    }
}

static long evtchn_unmask(unsigned int port)
{
    struct domain *d = &dom;

    struct evtchn *chn;

    if ( !port_is_valid(d, port) )
        return -XEN_EINVAL;
    chn = evtchn_from_port(d, port);
    spin_lock(&chn->lock);
    evtchn_port_unmask(d, chn);
    spin_unlock(&chn->lock);
    return 0;
}

/* Close every port; a FIFO guest goes back to the 2-level ABI. */
static long evtchn_reset(domid_t domid)
{
    struct domain *d = &dom;
    unsigned int port;

    if ( domid != DOMID_SELF && domid != PV_DOMID )
        return domid == BACKEND_DOMID ? -XEN_EPERM : -XEN_ESRCH;
    for ( port = 0; port_is_valid(d, port); port++ )
        evtchn_close(d, port);
    if ( d->evtchn_fifo )
        evtchn_fifo_destroy(d);
    return 0;
}

static long evtchn_set_priority(const struct evtchn_set_priority *set)
{
    struct domain *d = &dom;

    if ( !port_is_valid(d, set->port) )
        return -XEN_EINVAL;
    struct evtchn *chn;
    long rc;

    if ( !d->evtchn_fifo )
        return -XEN_ENOSYS;             /* the 2-level ABI has no queues */
    chn = evtchn_from_port(d, set->port);
    spin_lock(&chn->lock);
    rc = evtchn_fifo_set_priority(d, chn, set->priority);
    spin_unlock(&chn->lock);
    return rc;
}

/*
 * One EVTCHNOP whose argument @arg_ is a guest struct of type @type_:
 * copy in, run @call_ on it, copy back if @out_ and it succeeded.
 */
#define EVTCHN_CALL(type_, out_, call_) ({                                  \
    type_ a_;                                                               \
    long rc_;                                                               \
                                                                            \
    if ( copy_from_guest(&a_, arg, sizeof(a_)) )                            \
        return -XEN_EFAULT;                                                 \
    rc_ = call_(&a_);                                                       \
    if ( (out_) && !rc_ && copy_to_guest(arg, &a_, sizeof(a_)) )            \
        rc_ = -XEN_EFAULT;                                                  \
    rc_;                                                                    \
})

/* The argument structures' callers, for EVTCHN_CALL. */
static long do_close(evtchn_close_t *c)
{
    return evtchn_close(&dom, c->port);
}

static long do_send(evtchn_send_t *s)
{
    return evtchn_send(&dom, s->port);
}

static long do_bind_vcpu(evtchn_bind_vcpu_t *b)
{
    return evtchn_bind_vcpu(b->port, b->vcpu);
}

static long do_unmask(evtchn_unmask_t *u)
{
    return evtchn_unmask(u->port);
}

static long do_reset(evtchn_reset_t *r)
{
    return evtchn_reset(r->dom);
}

static long do_expand(evtchn_expand_array_t *e)
{
    return evtchn_fifo_expand_array(e);
}
/*
 * No physical devices: a domU may bind no pirq (Xen's pirq_access_permitted
 * fails: -EPERM), and one beyond its nr_pirqs (the 24 GSIs of QEMU's one
 * IOAPIC plus extra_domU_pirqs, 32) is -EINVAL first.
 */
#define NR_PIRQS    (24 + 32)

static long do_bind_pirq(evtchn_bind_pirq_t *b)
{
    return (int)b->pirq < 0 || b->pirq >= NR_PIRQS ? -XEN_EINVAL
                                                   : -XEN_EPERM;
}

static long event_channel_op(unsigned long cmd, unsigned long arg)
{
    perfc_incra(evtchn_ops, cmd);
    switch ( cmd )
    {
    case EVTCHNOP_alloc_unbound:
        return EVTCHN_CALL(evtchn_alloc_unbound_t, true,
                           evtchn_alloc_unbound);
    case EVTCHNOP_bind_interdomain:
        return EVTCHN_CALL(evtchn_bind_interdomain_t, true,
                           evtchn_bind_interdomain);
    case EVTCHNOP_bind_virq:
        return EVTCHN_CALL(evtchn_bind_virq_t, true, evtchn_bind_virq);
    case EVTCHNOP_bind_ipi:
        return EVTCHN_CALL(evtchn_bind_ipi_t, true, evtchn_bind_ipi);
    case EVTCHNOP_bind_pirq:
        return EVTCHN_CALL(evtchn_bind_pirq_t, true, do_bind_pirq);
    case EVTCHNOP_close:
        return EVTCHN_CALL(evtchn_close_t, false, do_close);
    case EVTCHNOP_send:
        return EVTCHN_CALL(evtchn_send_t, false, do_send);
    case EVTCHNOP_status:
        return EVTCHN_CALL(evtchn_status_t, true, evtchn_status);
    case EVTCHNOP_bind_vcpu:
        return EVTCHN_CALL(evtchn_bind_vcpu_t, false, do_bind_vcpu);
    case EVTCHNOP_unmask:
        return EVTCHN_CALL(evtchn_unmask_t, false, do_unmask);
    case EVTCHNOP_reset:
        return EVTCHN_CALL(evtchn_reset_t, false, do_reset);
    case EVTCHNOP_init_control:
        return EVTCHN_CALL(evtchn_init_control_t, true,
                           evtchn_fifo_init_control);
    case EVTCHNOP_expand_array:
        return EVTCHN_CALL(evtchn_expand_array_t, false, do_expand);
    case EVTCHNOP_set_priority:
        return EVTCHN_CALL(evtchn_set_priority_t, false, evtchn_set_priority);
    default:
        return -XEN_ENOSYS;
    }
}

/* Did this CPU's last EVTCHNOP take or drop frame references? */
static bool changed_refs[NR_CPUS];

bool pv_evtchn_changed_refs(void)
{
    return changed_refs[smp_processor_id()];
}

/*
 * Every operation but send and unmask under the domain's event_lock, as
 * Xen takes d->event_lock in each of them (send and unmask take only the
 * port's own lock there), and none under the domain lock: reset, which
 * takes the FIFO frames away, waits out each port's lock, under which
 * unmask, send and SCHEDOP_poll read them (evtchn_fifo_destroy()).
 * event_lock is waited for with interrupts on: its holder may flush (a
 * FIFO frame's new type).
 */
long __hot_text do_event_channel_op(unsigned long cmd, unsigned long arg)
{
    struct domain *d = &dom;
    long rc;

    changed_refs[smp_processor_id()] = cmd == EVTCHNOP_init_control ||
                                       cmd == EVTCHNOP_expand_array ||
                                       cmd == EVTCHNOP_reset;
    if ( cmd == EVTCHNOP_send || cmd == EVTCHNOP_unmask )
        return event_channel_op(cmd, arg);
    spin_lock_irq_on_wait(&d->event_lock);
    rc = event_channel_op(cmd, arg);
    spin_unlock(&d->event_lock);
    return rc;
}

/* The pre-3.0.2 form: struct evtchn_op { cmd; union u; } in one buffer. */
long do_event_channel_op_compat(unsigned long arg)
{
    evtchn_op_t op;

    if ( copy_from_guest(&op, arg, sizeof(op)) )
        return -XEN_EFAULT;
    switch ( op.cmd )
    {
    case EVTCHNOP_bind_interdomain:
    case EVTCHNOP_bind_virq:
    case EVTCHNOP_bind_pirq:
    case EVTCHNOP_close:
    case EVTCHNOP_send:
    case EVTCHNOP_status:
    case EVTCHNOP_alloc_unbound:
    case EVTCHNOP_bind_ipi:
    case EVTCHNOP_bind_vcpu:
    case EVTCHNOP_unmask:
        return do_event_channel_op(op.cmd, arg + offsetof(evtchn_op_t, u));
    default:
        return -XEN_ENOSYS;
    }
}
