/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The 2-level ABI (Xen's event_2l.c): a port's pending and mask bits in
 * shared_info, one selector bit per word of them in the vCPU's
 * evtchn_pending_sel, and evtchn_upcall_pending once a selector bit rises.
 */
#include "pv/event/private.h"

#define BITS_PER_EVTCHN_WORD    (sizeof(xen_ulong_t) * 8)

void evtchn_2l_set_pending(struct vcpu *v, struct evtchn *chn)
{
    struct domain *d = v->domain;
    unsigned int port = evtchn_port(d, chn);

    /*
     * The pending bit first, then the selector: the guest clears them in
     * the other order, so it sees every event at least once.
     */
    if ( guest_test_and_set_bit(port, d->shared_info->evtchn_pending) )
        return;
    if ( !guest_test_bit(port, d->shared_info->evtchn_mask) &&
         !guest_test_and_set_bit(port / BITS_PER_EVTCHN_WORD,
                                 &v->vcpu_info->evtchn_pending_sel) )
        vcpu_mark_events_pending(v);
    evtchn_check_pollers(d, port);
}

void evtchn_2l_clear_pending(struct domain *d, struct evtchn *chn)
{
    guest_test_and_clear_bit(evtchn_port(d, chn),
                             d->shared_info->evtchn_pending);
}

void evtchn_2l_unmask(struct domain *d, struct evtchn *chn)
{
    struct vcpu *v = &d->vcpu[chn->notify_vcpu_id];
    unsigned int port = evtchn_port(d, chn);

    /* Pending and now unmasked: the selector and the upcall, as a send. */
    if ( guest_test_and_clear_bit(port, d->shared_info->evtchn_mask) &&
         guest_test_bit(port, d->shared_info->evtchn_pending) &&
         !guest_test_and_set_bit(port / BITS_PER_EVTCHN_WORD,
                                 &v->vcpu_info->evtchn_pending_sel) )
        vcpu_mark_events_pending(v);
}

bool evtchn_2l_is_pending(const struct domain *d, unsigned int port)
{
    return port < EVTCHN_2L_NR_CHANNELS &&
           guest_test_bit(port, d->shared_info->evtchn_pending);
}

bool evtchn_2l_is_masked(const struct domain *d, unsigned int port)
{
    return port >= EVTCHN_2L_NR_CHANNELS ||
           guest_test_bit(port, d->shared_info->evtchn_mask);
}
