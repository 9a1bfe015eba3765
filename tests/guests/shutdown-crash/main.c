/* SPDX-License-Identifier: GPL-2.0-only */
/* SCHEDOP_shutdown(crash) ends the VM with the guest-crashed status (3). */
#include "guest.h"

const char test_title[] = "sched_op: shutdown with reason crash";

void test_main(void)
{
    long rc;

    printf("Crashing on purpose: the VM should end with status 3\n");
    rc = hypercall_shutdown(SHUTDOWN_crash);
    test_fail("SCHEDOP_shutdown(crash) returned %ld", rc);
}
