/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * From a pending port to the guest's event callback: VIRQs raised by the
 * shim, evtchn_upcall_pending and the vCPU it wakes (blocked or polling),
 * and the bounce to the event callback on the way back to the guest, as
 * Xen's vcpu_mark_events_pending() and entry.S's test_guest_events.
 */
#include <xen/errno.h>
#include "pv/event/private.h"
#include "pv/vcpu/time.h"
#include "pv/traps.h"
#include "pv/lifecycle.h"
#include "shim/perfc.h"

void __hot_text vcpu_mark_events_pending(struct vcpu *v)
{
    if ( __atomic_exchange_n(&v->vcpu_info->evtchn_upcall_pending, 1,
                             __ATOMIC_SEQ_CST) )
        return;
    vcpu_unblock(v);                    /* Xen's vcpu_kick() */
}

/*
 * A port went pending (its bit set with a full barrier): wake a vCPU
 * polling for it (or for several).  The sender may hold no domain lock:
 * the poller raises `polling` and then looks at its ports (do_poll()),
 * so one of the two sees the other; the exchange wakes it once.
 */
void __hot_text evtchn_check_pollers(struct domain *d, unsigned int port)
{
    unsigned int i;

    for ( i = 0; i < d->max_vcpus; i++ )
    {
        struct vcpu *v = &d->vcpu[i];
        int want;

        if ( !ACCESS_ONCE(v->polling) )
            continue;
        want = ACCESS_ONCE(v->poll_evtchn);
        if ( (want <= 0 || (unsigned int)want == port) &&
             __atomic_exchange_n(&v->polling, false, __ATOMIC_SEQ_CST) )
            vcpu_unblock(v);
    }
}

/*
 * @virq of @v (vCPU 0's for a global one) raised on the port bound to
 * it.  The binding is read with no lock and checked again under the
 * port's lock, under which a close clears it (and a bind sets it):
 * a port closed or bound to something else meanwhile is left alone,
 * as Xen's v->virq_lock has it.
 */
static void raise_virq(struct domain *d, struct vcpu *v, unsigned int virq,
                       bool global)
{
    unsigned int port = ACCESS_ONCE(v->virq_to_evtchn[virq]);
    struct evtchn *chn;

    if ( !port )
        return;
    chn = evtchn_from_port(d, port);
    spin_lock(&chn->lock);
    if ( chn->state == ECS_VIRQ && chn->virq == virq &&
         ACCESS_ONCE(v->virq_to_evtchn[virq]) == port )
        evtchn_port_set_pending(d, global ? chn->notify_vcpu_id : v->id,
                                chn);
    spin_unlock(&chn->lock);
}

void __hot_text send_guest_vcpu_virq(struct vcpu *v, unsigned int virq)
{
    raise_virq(v->domain, v, virq, false);
}

void send_guest_global_virq(struct domain *d, unsigned int virq)
{
    raise_virq(d, &d->vcpu[0], virq, true);
}

/*
 * SCHEDOP_poll's look at one port, as Xen's: -EINVAL unless the port
 * exists, else whether it is in use and pending, read under its lock,
 * so EVTCHNOP_reset can't take the FIFO frames away meanwhile
 * (evtchn_fifo_destroy() waits each port's lock out).
 */
int pv_evtchn_poll_port(struct domain *d, unsigned int port)
{
    struct evtchn *chn;
    bool pending;

    if ( !port_is_valid(d, port) )
        return -XEN_EINVAL;
    chn = evtchn_from_port(d, port);
    spin_lock(&chn->lock);
    pending = chn->state != ECS_FREE && evtchn_port_is_pending(d, port);
    spin_unlock(&chn->lock);
    return pending;
}

void __hot_text pv_async_exception_cleanup(struct vcpu *v)
{
    v->nmi_masked = false;
}

/*
 * Xen's process_nmi: taken once (pending cleared even with no callback),
 * then masked until the guest's iret; the callback runs with events
 * masked.  Another vCPU raises nmi_pending (VCPUOP_send_nmi) while this
 * one, without the domain lock, takes it: an exchange, so none is lost.
 */
static bool deliver_nmi(struct vcpu *v, struct cpu_regs *regs)
{
    if ( v->nmi_masked ||
         !__atomic_exchange_n(&v->nmi_pending, false, __ATOMIC_SEQ_CST) )
        return false;
    if ( !v->nmi_callback_eip )
        return false;
    v->nmi_masked = true;
    pv_create_bounce_frame(regs, v->nmi_callback_eip,
                           TBF_EXCEPTION | TBF_INTERRUPT, 0);
    return true;
}

void __hot_text pv_deliver_events_slow(struct vcpu *v, struct cpu_regs *regs)
{
    if ( deliver_nmi(v, regs) )
        return;
    if ( !vcpu_event_pending(v) )
        return;
    /* Xen's create_bounce_frame crashes a domain bounced to address 0. */
    if ( !v->event_callback_eip )
        domain_crash("event upcall with no event callback registered");
    perfc_incr(event_upcalls);
    pv_bounce_to(regs, v->event_callback_cs, v->event_callback_eip,
                 TBF_INTERRUPT, 0);
}
