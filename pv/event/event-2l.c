/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The 2-level ABI (Xen's event_2l.c): a port's pending and mask bits in
 * shared_info, one selector bit per word of them in the vCPU's
 * evtchn_pending_sel, and evtchn_upcall_pending once a selector bit rises.
 */
#include "pv/event/private.h"
#include "pv/compat/layout.h"

/*
 * Where the guest's layout has them: a 32-bit guest's words are 32 bits,
 * its mask array follows 32 of them (1024 ports), and its selector is 4
 * bytes at another offset of vcpu_info.  The pending array is at the
 * same place in both, and a bit's byte is the same whatever the word.
 */
static volatile void *mask_bits(const struct domain *d)
{
    return d->compat ? compat_ptr(d->shared_info, shared_info, evtchn_mask)
                     : (void *)d->shared_info->evtchn_mask;
}

/* Raise the selector bit of @port's word; was it clear? */
static bool set_selector(struct vcpu *v, unsigned int port)
{
    volatile uint32_t *sel32;

    if ( !v->domain->compat )
        return !guest_test_and_set_bit(port / (sizeof(xen_ulong_t) * 8),
                                       &v->vcpu_info->evtchn_pending_sel);
    sel32 = compat_ptr(v->vcpu_info, vcpu_info, evtchn_pending_sel);
    return !((__atomic_fetch_or(sel32, 1u << (port / 32), __ATOMIC_SEQ_CST) >>
              (port / 32)) & 1);
}

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
    if ( !guest_test_bit(port, mask_bits(d)) && set_selector(v, port) )
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
    if ( guest_test_and_clear_bit(port, mask_bits(d)) &&
         guest_test_bit(port, d->shared_info->evtchn_pending) &&
         set_selector(v, port) )
        vcpu_mark_events_pending(v);
}

bool evtchn_2l_is_pending(const struct domain *d, unsigned int port)
{
    return port < max_evtchns(d) &&
           guest_test_bit(port, d->shared_info->evtchn_pending);
}

bool evtchn_2l_is_masked(const struct domain *d, unsigned int port)
{
    return port >= max_evtchns(d) || guest_test_bit(port, mask_bits(d));
}
