/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_iret whose frame runs off the end of the guest's mapping:
 * the stub's pushes land in the last mapped bytes, the rest of struct
 * iret_context is unmapped, and Xen crashes the guest (pv/iret.c
 * domain_crash); the hypervisor survives.
 */
#include "guest.h"

const char test_title[] = "iret with an unreadable frame crashes the guest";

void test_main(void)
{
    unsigned long end = (unsigned long)start_info;

    /* The first unmapped page above start_info ends the initial map. */
    while ( !probe_read((void *)end) )
        end += PAGE_SIZE;
    printf("iret with its frame running into %#lx\n", end);
#ifdef __x86_64__
    asm volatile ( "mov %0, %%rsp\n\t"
#else
    asm volatile ( "mov %0, %%esp\n\t"
#endif
                   "jmp hypercall_page + %c1"
                   :: "r" (end), "i" (__HYPERVISOR_iret * 32)
                   : "memory" );
    test_fail("iret returned");
}
