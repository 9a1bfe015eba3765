/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Binding the shim's backends (domain 0) to ports the guest allocated
 * for them, as a dom0 backend does with EVTCHNOP_bind_interdomain on the
 * frontend's EVTCHNOP_alloc_unbound(remote_dom=0) port, and closing
 * that end again (Xen's evtchn_bind_interdomain() and evtchn_close()
 * seen from domain 0; pv/pv.h).
 */
#include "pv/event/private.h"
#include "arch/x86/smp.h"
#include <xen/errno.h>
#include "pv/pv.h"
#include "shim/softirq.h"

/*
 * Xen: the remote (guest) port must be unbound and offered to domain 0;
 * both ends become interdomain.  Xen then raises the binder's own port,
 * which here is the backend's softirq: it looks at its ring once.
 */
int pv_evtchn_bind_backend(unsigned int guest_port, unsigned int softirq,
                           unsigned int cpu)
{
    struct domain *d = &dom;
    struct evtchn *chn;
    int rc = -XEN_EINVAL;
    unsigned int i;

    ASSERT(pv_backend_locked());
    ASSERT(cpu_online(cpu));
    spin_lock_irq_on_wait(&d->event_lock);
    if ( !port_is_valid(d, guest_port) )
        goto out;
    chn = evtchn_from_port(d, guest_port);
    if ( chn->state != ECS_UNBOUND || chn->remote_dom != BACKEND_DOMID )
        goto out;
    rc = -XEN_ENOSPC;
    for ( i = EVTCHN_CONSOLE_PORT; i < NR_BACKEND_PORTS; i++ )
        if ( !backend_ports[i].in_use )
            break;
    if ( i == NR_BACKEND_PORTS )
        goto out;
    spin_lock(&chn->lock);
    backend_ports[i] = (struct backend_port){ true, guest_port, softirq,
                                              cpu };
    chn->state = ECS_INTERDOMAIN;
    chn->remote_port = i + 1;
    spin_unlock(&chn->lock);
    rc = i + 1;
    cpu_raise_softirq(cpu, softirq);
 out:
    spin_unlock(&d->event_lock);
    return rc;
}

/*
 * Xen's evtchn_close() of domain 0's end: the guest's end, if still
 * bound to it, goes back to unbound (offered to domain 0), so a send on
 * it is dropped, and the backend port is free for another binding.  A
 * guest that closed its end first left guest_port 0: nothing of its
 * (perhaps reused) port is touched.
 */
void pv_evtchn_unbind_backend(unsigned int backend_port)
{
    struct domain *d = &dom;
    int b = backend_index(backend_port);
    struct evtchn *chn;

    ASSERT(pv_backend_locked());
    if ( !backend_port_bound(b) )
        return;                         /* not a bound one; the fixed two */
    spin_lock_irq_on_wait(&d->event_lock);
    if ( backend_ports[b].guest_port )
    {
        /* A send in flight on it (no domain lock) finishes first. */
        chn = evtchn_from_port(d, backend_ports[b].guest_port);
        spin_lock(&chn->lock);
        chn->state = ECS_UNBOUND;
        chn->remote_dom = BACKEND_DOMID;
        chn->remote_port = 0;
        backend_ports[b] = (struct backend_port){ false, 0, 0, 0 };
        spin_unlock(&chn->lock);
    }
    else
        backend_ports[b] = (struct backend_port){ false, 0, 0, 0 };
    spin_unlock(&d->event_lock);
}

/* Is the guest's end of @backend_port still bound to it? */
bool pv_evtchn_backend_bound(unsigned int backend_port)
{
    int b = backend_index(backend_port);

    ASSERT(pv_backend_locked());
    return b >= 0 && backend_ports[b].guest_port;
}
