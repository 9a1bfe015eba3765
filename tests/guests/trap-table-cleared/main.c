/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * set_trap_table(NULL) clears the whole virtual IDT (Xen's
 * do_set_trap_table()): the next exception has no handler, and the
 * hypervisor crashes the guest (status 3).
 */
#include "guest.h"

const char test_title[] = "set_trap_table(NULL) clears the trap table";

void test_main(void)
{
    check_rc(hypercall_set_trap_table(NULL), 0);

    printf("ud2 after clearing the trap table: the VM should end with "
           "status 3\n");
    asm volatile ( "ud2" );
    test_fail("the #UD came back after set_trap_table(NULL)");
}
