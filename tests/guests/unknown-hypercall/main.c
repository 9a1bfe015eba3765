/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hypercalls pvshim doesn't implement return -ENOSYS, as Xen's default
 * case does, and the shim counts them (reported when the VM ends); so do
 * numbers beyond the hypercall page.  Each number is named once in the
 * log, those past 63 together.
 */
#include "guest.h"

const char test_title[] = "Unimplemented hypercalls: -ENOSYS, counted";

/*
 * Past the hypercall page's 128 stubs: the number in %rax and `syscall`,
 * or for a 32-bit guest %eax and `int $0x82`.
 */
static long raw_hypercall(unsigned long nr)
{
    long rc;

#ifdef __x86_64__
    asm volatile ( "syscall" : "=a" (rc) : "0" (nr) : "rcx", "r11", "memory" );
#else
    asm volatile ( "int $0x82" : "=a" (rc) : "0" (nr)
                   : "ebx", "ecx", "edx", "esi", "edi", "memory" );
#endif
    return rc;
}

void test_main(void)
{
    /* 38: __HYPERVISOR_tmem_op, gone since Xen 4.13 (named once); 55-63 unused. */
    check_rc(HYPERCALL(__HYPERVISOR_tmem_op, 0, 0, 0, 0, 0),
             -XEN_ENOSYS);
    check_rc(HYPERCALL(__HYPERVISOR_tmem_op, 0, 0, 0, 0, 0),
             -XEN_ENOSYS);
    check_rc(HYPERCALL(63, 1, 2, 3, 4, 5), -XEN_ENOSYS);
    check_rc(HYPERCALL(127, 0, 0, 0, 0, 0), -XEN_ENOSYS);
    check_rc(raw_hypercall(1000), -XEN_ENOSYS);
    test_success();
}
