/* SPDX-License-Identifier: GPL-2.0-only */
/* SCHEDOP_shutdown(reboot) ends the VM with the reboot status (2). */
#include "guest.h"

const char test_title[] = "sched_op: shutdown with reason reboot";

void test_main(void)
{
    long rc;

    printf("Rebooting: the VM should end with status 2\n");
    rc = hypercall_shutdown(SHUTDOWN_reboot);
    test_fail("SCHEDOP_shutdown(reboot) returned %ld", rc);
}
