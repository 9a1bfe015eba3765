/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_iret to a code selector whose GDT entry is empty: the
 * hypervisor's own iretq faults on it.  That must crash the guest with a
 * reason, never the hypervisor.
 */
#include "guest.h"

const char test_title[] = "iret to an unusable selector crashes the guest";

void test_main(void)
{
    /*
     * struct iret_context, top of stack first (xen-x86_64.h); %rsp goes to
     * flags, and the stub's three pushes fill rax, r11 and rcx.
     */
    static unsigned long frame[9] __attribute__((aligned(16)));
    unsigned long sp;

    asm volatile ( "mov %%rsp, %0" : "=r" (sp) );
    frame[0] = 0;                       /* rax */
    frame[1] = 0;                       /* r11 */
    frame[2] = 0;                       /* rcx */
    frame[3] = 0;                       /* flags */
    frame[4] = (unsigned long)test_main;/* rip */
    frame[5] = 0x10;                    /* cs: kernel mode, GDT entry 2: empty */
    frame[6] = 0x202;                   /* rflags */
    frame[7] = sp;                      /* rsp */
    frame[8] = FLAT_KERNEL_SS;          /* ss */

    printf("iret with cs 0x10 (loaded as 0x13)\n");
    asm volatile ( "mov %0, %%rsp\n\t"
                   "jmp hypercall_page + %c1"
                   :: "r" (&frame[3]), "i" (__HYPERVISOR_iret * 32)
                   : "memory" );
    test_fail("iret returned");
}
