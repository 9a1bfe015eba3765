/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * VCPUOP_send_nmi as Xen: the argument must be NULL, the vCPU must exist;
 * with no NMI callback the NMI is dropped; with one, it is taken on the
 * way back to the guest, before any event upcall, with events masked.
 * A second NMI is taken once the iret that ends the first unmasks NMIs
 * (Xen's async_exception_cleanup()).
 */
#include "guest.h"
#include "event.h"

const char test_title[] = "VCPUOP_send_nmi: checks, callback, events masked";

void test_main(void)
{
    long ipi;

    if ( event_init() )
        return test_error("event_init failed");
    check_rc(vcpu_op(VCPUOP_send_nmi, 0, BAD_XEN), -XEN_EINVAL);
    check_rc(vcpu_op(VCPUOP_send_nmi, 0, (void *)8), -XEN_EINVAL);
    check_rc(vcpu_op(VCPUOP_send_nmi, NO_VCPU, NULL), -XEN_ENOENT);

    /* No callback: dropped. */
    check_rc(vcpu_op(VCPUOP_send_nmi, 0, NULL), 0);
    if ( nmi_count )
        test_fail("an NMI reached no callback?");

    /* With a callback, and an event pending too: the NMI comes first. */
    check_rc(nmi_init(), 0);
    ipi = evtchn_bind_ipi_on(0);
    check_rc(evtchn_send(ipi), 0);
    event_log_reset();
    events_enable();
    check_rc(vcpu_op(VCPUOP_send_nmi, 0, NULL), 0);
    if ( nmi_count != 1 || nmi_mask_seen != 1 )
        test_fail("NMI taken %u times, upcall mask %u in it", nmi_count,
                  nmi_mask_seen);
    /* The NMI callback's iret unmasked events: the upcall followed. */
    if ( event_seen(ipi) != 1 )
        test_fail("the pending event was not delivered after the NMI");

    /* A second and a third NMI: each iret unmasked NMIs again. */
    check_rc(vcpu_op(VCPUOP_send_nmi, 0, NULL), 0);
    if ( nmi_count != 2 )
        test_fail("second NMI: taken %u times in all, not 2", nmi_count);
    check_rc(vcpu_op(VCPUOP_send_nmi, 0, NULL), 0);
    if ( nmi_count != 3 )
        test_fail("third NMI: taken %u times in all, not 3", nmi_count);
    events_disable();
    test_success();
}
