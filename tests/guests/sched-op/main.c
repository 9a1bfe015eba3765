/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_sched_op: yield, shutdown_code, and the errors of Xen's
 * do_sched_op() (common/sched/core.c).
 *
 * SCHEDOP_shutdown_code records a reason for the coming shutdown, and the
 * first one recorded wins: this test records poweroff, then reboot (which
 * Xen ignores), then powers off.  The expected status 0 checks both.
 */
#include "guest.h"

const char test_title[] = "sched_op: yield, shutdown_code, bad arguments";

void test_main(void)
{
    struct sched_shutdown poweroff = { .reason = SHUTDOWN_poweroff };
    struct sched_shutdown reboot = { .reason = SHUTDOWN_reboot };
    unsigned int i;

    for ( i = 0; i < 3; i++ )
        check_rc(hypercall_sched_op(SCHEDOP_yield, NULL), 0);

    check_rc(hypercall_sched_op(SCHEDOP_shutdown_code, &poweroff), 0);
    check_rc(hypercall_sched_op(SCHEDOP_shutdown_code, &reboot), 0);

    /* A failed shutdown leaves the guest running. */
    check_rc(hypercall_sched_op(SCHEDOP_shutdown, BAD_UNMAPPED), -XEN_EFAULT);
    check_rc(hypercall_sched_op(SCHEDOP_shutdown, BAD_NONCANONICAL),
             -XEN_EFAULT);
    check_rc(hypercall_sched_op(SCHEDOP_shutdown, BAD_XEN), -XEN_EFAULT);
    check_rc(hypercall_sched_op(SCHEDOP_shutdown_code, BAD_UNMAPPED),
             -XEN_EFAULT);

    check_rc(hypercall_sched_op(0x100, NULL), -XEN_ENOSYS);
    check_rc(hypercall_sched_op(-1, NULL), -XEN_ENOSYS);

    printf("Still running: the library's poweroff comes next; "
           "status 2 would mean the second shutdown_code won\n");
    test_success();
}
