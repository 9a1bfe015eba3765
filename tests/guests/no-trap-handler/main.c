/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An exception with no handler: this kernel never installs a trap table,
 * so Xen's bounce has nowhere to go and the hypervisor crashes the guest
 * (status 3), showing its registers and, as Xen's show_guest_stack(),
 * the words at its rsp: the marker pushed last comes first.  Reaching the
 * result line is the failure.
 */
#include "guest.h"

const char test_title[] = "Exception with no trap table: the guest crashes";

const bool test_no_trap_table = true;

void test_main(void)
{
    printf("ud2 with no trap table: the VM should end with status 3\n");
    asm volatile ( "push $0x5117c0de; ud2" ::: "memory" );
    test_fail("the #UD came back without a handler");
}
