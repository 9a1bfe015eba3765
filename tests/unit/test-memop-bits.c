/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of pv/mm/memop-bits.h: the mem_flags Xen refuses an
 * unprivileged guest, the address bits it keeps (none once they cover
 * every frame), a 32-bit guest's bound by its compat M2P, and the frame
 * limit the allocator gets from both.
 */
#include "tests/unit/unit.h"
#include "pv/mm/memop-bits.h"

static void order_from_pages(void)
{
    CHECK_EQ(memop_order_from_pages(1), 0);
    CHECK_EQ(memop_order_from_pages(2), 1);
    CHECK_EQ(memop_order_from_pages(3), 2);
    CHECK_EQ(memop_order_from_pages(4), 2);
    CHECK_EQ(memop_order_from_pages(5), 3);
    CHECK_EQ(memop_order_from_pages(1UL << 20), 20);
    CHECK_EQ(memop_order_from_pages((1UL << 20) + 1), 21);
    CHECK_EQ(memop_order_from_pages(~0UL), 64);
    CHECK_EQ(memop_order_from_pages(0), 64);    /* Xen's: 0 - 1 wraps */
}

/* 128 MiB of frames: order 15, so 27 address bits cover them all. */
#define MAX_PAGE    0x8000UL

static void address_bits(void)
{
    CHECK_EQ(memop_address_bits(0, MAX_PAGE), 0);
    CHECK_EQ(memop_address_bits(XENMEMF_address_bits(26), MAX_PAGE), 26);
    CHECK_EQ(memop_address_bits(XENMEMF_address_bits(27), MAX_PAGE), 0);
    CHECK_EQ(memop_address_bits(XENMEMF_address_bits(255), MAX_PAGE), 0);
    CHECK_EQ(memop_address_bits(XENMEMF_address_bits(13), MAX_PAGE), 13);
    /* Less than a page: construct_memop_from_reservation()'s -EINVAL. */
    CHECK_EQ(memop_address_bits(XENMEMF_address_bits(12), MAX_PAGE), -1);
    CHECK_EQ(memop_address_bits(XENMEMF_address_bits(1), MAX_PAGE), -1);
    /* ... unless the bits limit nothing (a one-frame machine). */
    CHECK_EQ(memop_address_bits(XENMEMF_address_bits(12), 1), 0);
    /* 2^32 frames: 44 bits cover them, 43 don't. */
    CHECK_EQ(memop_address_bits(XENMEMF_address_bits(43), 1UL << 32), 43);
    CHECK_EQ(memop_address_bits(XENMEMF_address_bits(44), 1UL << 32), 0);
}

static void nodes(void)
{
    unsigned int exact = XENMEMF_exact_node(0);

    /* A node alone is a hint a domU's allocation ignores. */
    CHECK_EQ(memop_address_bits(XENMEMF_node(0), MAX_PAGE), 0);
    CHECK_EQ(memop_address_bits(XENMEMF_node(3) | 20, MAX_PAGE), 20);
    /* Exactly a machine node: refused to a domU (propagate_node()). */
    CHECK_EQ(memop_address_bits(exact, MAX_PAGE), -1);
    CHECK_EQ(memop_address_bits(XENMEMF_exact_node(254), MAX_PAGE), -1);
    /* The flag with no node named (node field 0: NUMA_NO_NODE). */
    CHECK_EQ(memop_address_bits(XENMEMF_exact_node_request, MAX_PAGE), 0);
    /* A virtual node: no vNUMA, ignored, exact or not. */
    CHECK_EQ(memop_address_bits(exact | XENMEMF_vnode, MAX_PAGE), 0);
    CHECK_EQ(memop_address_bits(XENMEMF_vnode | 14, MAX_PAGE), 14);
    CHECK_EQ(memop_address_bits(XENMEMF_vnode | 12, MAX_PAGE), -1);
    /* Populate-on-demand is the op's business, not the bits'. */
    CHECK_EQ(memop_address_bits(XENMEMF_populate_on_demand, MAX_PAGE), 0);
}

static void compat_bits(void)
{
    /* An M2P that covers every frame bounds nothing. */
    CHECK_EQ(memop_compat_bits(MAX_PAGE, MAX_PAGE), 0);
    CHECK_EQ(memop_compat_bits(42UL << 20, MAX_PAGE), 0);
    /* Xen's 168 MiB window, 42M entries, on a bigger machine: 2^25. */
    CHECK_EQ(memop_compat_bits(42UL << 20, 1UL << 28), 25 + 12);
    CHECK_EQ(memop_compat_bits(0x1000, 0x2000), 24);
    CHECK_EQ(memop_compat_bits(0x1fff, 0x2000), 24);
    CHECK_EQ(memop_compat_bits(1, 2), 12);
}

static void limit_pfn(void)
{
    CHECK_EQ(memop_limit_pfn(0, 0), 0);
    CHECK_EQ(memop_limit_pfn(26, 0), 1UL << 14);
    CHECK_EQ(memop_limit_pfn(26, 24), 1UL << 12);
    CHECK_EQ(memop_limit_pfn(24, 26), 1UL << 12);
    CHECK_EQ(memop_limit_pfn(0, 37), 1UL << 25);
    CHECK_EQ(memop_limit_pfn(14, 0), 4);
    CHECK_EQ(memop_limit_pfn(13, 0), 2);
    CHECK_EQ(memop_limit_pfn(0, 12), 2);        /* zone 1: frames 0, 1 */
    CHECK_EQ(memop_limit_pfn(75, 0), 1UL << 63);
    CHECK_EQ(memop_limit_pfn(76, 0), 0);
    CHECK_EQ(memop_limit_pfn(200, 0), 0);
}

int main(void)
{
    RUN(order_from_pages);
    RUN(address_bits);
    RUN(nodes);
    RUN(compat_bits);
    RUN(limit_pfn);
    UNIT_EXIT();
}
