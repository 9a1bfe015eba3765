/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_memory_op's queries as Xen's do_memory_op() and
 * arch_memory_op() answer a PV domU: the memory map (one RAM entry from 0
 * over the guest's pages), maximum_ram_page, the reservations and
 * maximum_gpfn for DOMID_SELF, with -EFAULT for bad pointers, -EPERM for
 * dom0, -ESRCH for no such domain, -EINVAL for a start extent on a query
 * and -ENOSYS for the rest.
 */
#include "guest.h"
#include <xen/memory.h>

const char test_title[] = "memory_op: memory map, reservations, bad arguments";

#define MEMOP_EXTENT_SHIFT 6

/* The BIOS E820 format XENMEM_memory_map fills in. */
struct e820entry {
    uint64_t addr, size;
    uint32_t type;
} __attribute__((packed));

static long memory_op(unsigned long cmd, const void *arg)
{
    return HYPERCALL(__HYPERVISOR_memory_op, cmd, arg, 0, 0, 0);
}

static void test_memory_map(void)
{
    struct e820entry map[4];
    struct xen_memory_map mm;

    memset(map, 0xa5, sizeof(map));
    mm.nr_entries = ARRAY_SIZE(map);
    set_xen_guest_handle(mm.buffer, map);
    check_rc(memory_op(XENMEM_memory_map, &mm), 0);
    check_rc(mm.nr_entries, 1);
    check_rc(map[0].addr, 0);
    check_rc(map[0].size, start_info->nr_pages * PAGE_SIZE);
    check_rc(map[0].type, 1);                           /* E820_RAM */
    check_rc(map[1].type, 0xa5a5a5a5);                  /* untouched */
    printf("  memory map: [%#lx, %#lx) type %u\n", (unsigned long)map[0].addr,
           (unsigned long)(map[0].addr + map[0].size), map[0].type);

    /* No room: nothing written, nr_entries 0. */
    memset(map, 0xa5, sizeof(map));
    mm.nr_entries = 0;
    check_rc(memory_op(XENMEM_memory_map, &mm), 0);
    check_rc(mm.nr_entries, 0);
    check_rc(map[0].type, 0xa5a5a5a5);
    set_xen_guest_handle(mm.buffer, BAD_XEN);           /* never touched */
    check_rc(memory_op(XENMEM_memory_map, &mm), 0);

    /* Bad buffers and bad arguments. */
    mm.nr_entries = 1;
    set_xen_guest_handle(mm.buffer, BAD_UNMAPPED);
    check_rc(memory_op(XENMEM_memory_map, &mm), -XEN_EFAULT);
    set_xen_guest_handle(mm.buffer, BAD_XEN);
    check_rc(memory_op(XENMEM_memory_map, &mm), -XEN_EFAULT);
    set_xen_guest_handle(mm.buffer, BAD_NONCANONICAL);
    check_rc(memory_op(XENMEM_memory_map, &mm), -XEN_EFAULT);
    check_rc(memory_op(XENMEM_memory_map, BAD_UNMAPPED), -XEN_EFAULT);
    check_rc(memory_op(XENMEM_memory_map, BAD_XEN), -XEN_EFAULT);

    /* A start extent makes it another command, which Xen doesn't have. */
    mm.nr_entries = 1;
    set_xen_guest_handle(mm.buffer, map);
    check_rc(memory_op(XENMEM_memory_map | (1UL << MEMOP_EXTENT_SHIFT), &mm),
             -XEN_ENOSYS);
}

static void test_domain_queries(void)
{
    static const unsigned int ops[] = {
        XENMEM_current_reservation, XENMEM_maximum_reservation,
        XENMEM_maximum_gpfn,
    };
    unsigned long nr = start_info->nr_pages;
    const long want[] = { nr, nr, nr - 1 };
    struct xen_memory_domain md;
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(ops); i++ )
    {
        md.domid = DOMID_SELF;
        check_rc(memory_op(ops[i], &md), want[i]);
        check_rc(memory_op(ops[i] | (1UL << MEMOP_EXTENT_SHIFT), &md),
                 -XEN_EINVAL);
        check_rc(memory_op(ops[i] | (~0UL << MEMOP_EXTENT_SHIFT), &md),
                 -XEN_EINVAL);

        md.domid = 0;                           /* exists, not ours */
        check_rc(memory_op(ops[i], &md), -XEN_EPERM);
        md.domid = 7;                           /* no such domain */
        check_rc(memory_op(ops[i], &md), -XEN_ESRCH);
        md.domid = DOMID_IO;
        check_rc(memory_op(ops[i], &md), -XEN_ESRCH);
        md.domid = DOMID_XEN;
        check_rc(memory_op(ops[i], &md), -XEN_ESRCH);

        check_rc(memory_op(ops[i], BAD_UNMAPPED), -XEN_EFAULT);
        check_rc(memory_op(ops[i], BAD_NONCANONICAL), -XEN_EFAULT);
        check_rc(memory_op(ops[i], BAD_XEN), -XEN_EFAULT);
    }
}

void test_main(void)
{
    long max_page = memory_op(XENMEM_maximum_ram_page, NULL);

    printf("  maximum_ram_page %#lx, nr_pages %#lx\n", max_page,
           start_info->nr_pages);
    if ( max_page <= 0 || (unsigned long)max_page < start_info->nr_pages )
        test_fail("XENMEM_maximum_ram_page: %ld", max_page);
    check_rc(memory_op(XENMEM_maximum_ram_page, BAD_XEN), max_page);
    check_rc(memory_op(XENMEM_maximum_ram_page |
                       (1UL << MEMOP_EXTENT_SHIFT), NULL), -XEN_EINVAL);

    test_memory_map();
    test_domain_queries();

    /* Sub-ops that don't exist. */
    check_rc(memory_op(63, NULL), -XEN_ENOSYS);
    check_rc(memory_op(~0UL, NULL), -XEN_ENOSYS);

    test_success();
}
