/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An exception with the guest's %rsp pointing into the hypervisor's
 * range: the frame must not be written there (Xen refuses such a stack
 * before touching it and crashes the guest).
 */
#include "guest.h"

const char test_title[] = "exception with %rsp in the hypervisor crashes";

void test_main(void)
{
    /* Just above the M2P: shim memory, mapped, not the guest's. */
    unsigned long sp = HYPERVISOR_VIRT_START + (1UL << 39) + 0x1000;

    printf("int3 with %%rsp at %#lx\n", sp);
    asm volatile ( "mov %0, %%rsp; int3" :: "r" (sp) : "memory" );
    test_fail("survived");
}
