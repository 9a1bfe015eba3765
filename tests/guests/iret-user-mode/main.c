/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_iret to user mode (RPL 3 code selector) with no user page
 * tables: Xen crashes the guest ("Guest switching to user mode with no
 * user page tables").
 */
#include "guest.h"

const char test_title[] = "iret to user mode without user page tables";

void test_main(void)
{
    static unsigned long frame[9] __attribute__((aligned(16)));
    unsigned long sp;

    asm volatile ( "mov %%rsp, %0" : "=r" (sp) );
    frame[4] = (unsigned long)test_main;
    frame[5] = FLAT_USER_CS64;          /* RPL 3: user mode */
    frame[6] = 0x202;
    frame[7] = sp;
    frame[8] = FLAT_USER_SS64;

    printf("iret to cs %#x with no NEW_USER_BASEPTR\n", FLAT_USER_CS64);
    asm volatile ( "mov %0, %%rsp\n\t"
                   "jmp hypercall_page + %c1"
                   :: "r" (&frame[3]), "i" (__HYPERVISOR_iret * 32)
                   : "memory" );
    test_fail("iret returned");
}
