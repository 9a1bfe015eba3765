/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_multicall as Xen's do_multicall() (common/multicall.c) runs
 * it: each entry's own result in its result field, the batch's -EFAULT
 * only when the list itself is unreadable, and a nested multicall refused
 * with -EINVAL in that entry alone.  Only `result` is read back: a debug
 * Xen poisons the rest of each entry.
 */
#include "guest.h"

const char test_title[] = "multicall: per-entry results, nesting, bad lists";

static const char msg[] = "multicall: written by entry 2 of a batch\n";

static void set(multicall_entry_t *mc, unsigned long op,
                unsigned long a0, unsigned long a1, unsigned long a2)
{
    *mc = (multicall_entry_t){
        .op = op, .result = 0x5a5a5a5a, .args = { a0, a1, a2 },
    };
}

static void check_result(const multicall_entry_t *mc, unsigned int i,
                         long want)
{
    if ( (long)mc[i].result != want )
        test_fail("entry %u: result %ld, expected %ld",
                  i, (long)mc[i].result, want);
}

static void test_batch(void)
{
    multicall_entry_t mc[6];
    long ver = hypercall_xen_version(XENVER_version, NULL);

    set(&mc[0], __HYPERVISOR_xen_version, XENVER_version, 0, 0);
    set(&mc[1], __HYPERVISOR_xen_version, XENVER_pagesize, 0, 0);
    set(&mc[2], __HYPERVISOR_console_io, CONSOLEIO_write, sizeof(msg) - 1,
        (unsigned long)msg);
    set(&mc[3], __HYPERVISOR_sched_op, SCHEDOP_yield, 0, 0);
    set(&mc[4], __HYPERVISOR_xen_version, XENVER_extraversion,
        (unsigned long)BAD_UNMAPPED, 0);
    set(&mc[5], __HYPERVISOR_xen_version, 64, 0, 0);

    check_rc(hypercall_multicall(mc, ARRAY_SIZE(mc)), 0);
    check_result(mc, 0, ver);
    check_result(mc, 1, PAGE_SIZE);
    check_result(mc, 2, 0);
    check_result(mc, 3, 0);
    check_result(mc, 4, -XEN_EFAULT);           /* the entry's own error */
    check_result(mc, 5, -XEN_ENOSYS);
}

static void test_unknown_op(void)
{
    multicall_entry_t mc[2];

    set(&mc[0], 60, 0, 0, 0);                   /* no such hypercall */
    set(&mc[1], __HYPERVISOR_xen_version, XENVER_pagesize, 0, 0);

    check_rc(hypercall_multicall(mc, ARRAY_SIZE(mc)), 0);
    check_result(mc, 0, -XEN_ENOSYS);
    check_result(mc, 1, PAGE_SIZE);
}

/* The inner batch never runs: its entry keeps the result we put there. */
static void test_nested(void)
{
    multicall_entry_t inner[1], outer[3];

    set(&inner[0], __HYPERVISOR_xen_version, XENVER_pagesize, 0, 0);
    set(&outer[0], __HYPERVISOR_xen_version, XENVER_pagesize, 0, 0);
    set(&outer[1], __HYPERVISOR_multicall, (unsigned long)inner, 1, 0);
    set(&outer[2], __HYPERVISOR_xen_version, XENVER_pagesize, 0, 0);

    check_rc(hypercall_multicall(outer, ARRAY_SIZE(outer)), 0);
    check_result(outer, 0, PAGE_SIZE);
    check_result(outer, 1, -XEN_EINVAL);
    check_result(outer, 2, PAGE_SIZE);
    check_result(inner, 0, 0x5a5a5a5a);
}

static void test_bad_lists(void)
{
    check_rc(hypercall_multicall(NULL, 0), 0);
    check_rc(hypercall_multicall(BAD_UNMAPPED, 0), 0);
    check_rc(hypercall_multicall(BAD_UNMAPPED, 1), -XEN_EFAULT);
    check_rc(hypercall_multicall(BAD_NONCANONICAL, 1), -XEN_EFAULT);
    check_rc(hypercall_multicall(BAD_XEN, 1), -XEN_EFAULT);
    check_rc(hypercall_multicall(BAD_XEN, 0x10000), -XEN_EFAULT);
}

void test_main(void)
{
    test_batch();
    test_unknown_op();
    test_nested();
    test_bad_lists();

    test_success();
}
