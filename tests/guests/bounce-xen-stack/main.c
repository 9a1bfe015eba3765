/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An exception with the guest's %rsp pointing into the hypervisor's
 * range: the frame must not be written there (Xen refuses such a stack
 * before touching it and crashes the guest).
 */
#include "guest.h"

const char test_title[] =
    "exception with the stack in the hypervisor crashes";

void test_main(void)
{
#ifdef __x86_64__
    /* Just above the M2P: shim memory, mapped, not the guest's. */
    unsigned long sp = HYPERVISOR_VIRT_START + (1UL << 39) + 0x1000;
#else
    /* In the M2P, the one part of the area mapped (read-only) for us. */
    unsigned long sp = HYPERVISOR_VIRT_START + 0x1000;
#endif

    printf("int3 with the stack pointer at %#lx\n", sp);
    asm volatile ( "mov %0, %" ASM_SP "; int3" :: "r" (sp) : "memory" );
    test_fail("survived");
}
