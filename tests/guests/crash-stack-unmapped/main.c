/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A crash with the stack pointer on nothing mapped: the shim's dump of the
 * guest stack (Xen's show_guest_stack()) reads it as the guest would, says
 * so, and still ends the VM as a guest crash (status 3), not its own.
 */
#include "guest.h"

const char test_title[] = "Guest crash with an unmapped stack: the dump copes";

const bool test_no_trap_table = true;

void test_main(void)
{
    printf("ud2 with the stack on an unmapped page: the VM should end with "
           "status 3\n");
#ifdef __x86_64__
    asm volatile ( "movabs $0x7fffdead0100, %%rsp; ud2" ::: "memory" );
#else
    asm volatile ( "mov $0x9ead0100, %%esp; ud2" ::: "memory" );
#endif
    test_fail("the #UD came back without a handler");
}
