/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_sched_op_compat, the pre-3.0.2 form (Xen's
 * do_sched_op_compat): yield, block (unmasks events and returns once one
 * is pending), unknown commands -ENOSYS, and shutdown with the reason
 * as the argument itself: reboot ends the VM with status 2.
 */
#include "guest.h"
#include "event.h"

const char test_title[] = "sched_op_compat: yield, block, shutdown";

static long compat(unsigned int cmd, unsigned long arg)
{
    return HYPERCALL(__HYPERVISOR_sched_op_compat, cmd, arg, 0, 0, 0);
}

void test_main(void)
{
    long ipi;

    if ( event_init() )
        return test_error("event_init failed");
    check_rc(compat(SCHEDOP_yield, 0), 0);
    check_rc(compat(SCHEDOP_poll, 0), -XEN_ENOSYS);
    check_rc(compat(SCHEDOP_shutdown_code, 0), -XEN_ENOSYS);
    check_rc(compat(99, 0), -XEN_ENOSYS);

    /* Block with an event pending: events unmasked, delivered, back. */
    ipi = evtchn_bind_ipi_on(0);
    evtchn_send(ipi);
    event_log_reset();
    check_rc(compat(SCHEDOP_block, 0), 0);
    if ( event_vcpu_info->evtchn_upcall_mask || event_seen(ipi) != 1 )
        test_fail("block: mask %u, port seen %u times",
                  event_vcpu_info->evtchn_upcall_mask, event_seen(ipi));

    printf("sched-compat: rebooting through sched_op_compat\n");
    compat(SCHEDOP_shutdown, SHUTDOWN_reboot);
    test_fail("compat shutdown returned");
}
