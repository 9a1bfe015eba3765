/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_stack_switch as Xen's do_stack_switch() (pv/misc-hypercalls.c):
 * it records the kernel stack for the next switch from user mode, checks
 * nothing and always succeeds.  The kernel's own stack is not touched:
 * exceptions still arrive on the stack the kernel is running on.
 */
#include "guest.h"

const char test_title[] = "stack_switch: any stack is recorded, none is used";

static uint8_t kstack[2 * PAGE_SIZE] __attribute__((aligned(16)));

static long stack_switch(unsigned long ss, unsigned long sp)
{
    return HYPERCALL(__HYPERVISOR_stack_switch, ss, sp, 0, 0, 0);
}

/* An int3 bounce lands on the stack we are on, not the recorded one. */
static void check_bounce_stack(void)
{
    unsigned long before, after;
    exinfo_t ex = 0;

    asm volatile ( "mov %" ASM_SP ", %[b]\n\t"
                   "int3; 2:\n\t"
                   ASM_EXTABLE(2b, 2b)
                   "mov %" ASM_SP ", %[a]\n\t"
                   : "+a" (ex), [b] "=r" (before), [a] "=r" (after)
                   :: "memory" );
    if ( ex != EXINFO(X86_EXC_BP, 0) )
        test_fail("int3 after stack_switch: exinfo %#lx", ex);
    if ( before != after )
        test_fail("int3 returned with the stack at %#lx, was %#lx", after,
                  before);
}

void test_main(void)
{
    unsigned long top = (unsigned long)&kstack[sizeof(kstack)];

    check_rc(stack_switch(FLAT_KERNEL_SS, top), 0);
    check_bounce_stack();

    /* Xen fixes the selector's RPL up and validates neither value. */
    check_rc(stack_switch(FLAT_KERNEL_SS & ~3, top), 0);
    check_rc(stack_switch(0, 0), 0);
    check_rc(stack_switch(0xffff, (unsigned long)BAD_XEN), 0);
    check_rc(stack_switch(~0UL, (unsigned long)BAD_NONCANONICAL), 0);
    check_bounce_stack();

    check_rc(stack_switch(FLAT_KERNEL_SS, top), 0);
    test_success();
}
