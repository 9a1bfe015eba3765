/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where the frames of increase_reservation and populate_physmap may lie,
 * as Xen decides it for an unprivileged PV guest without vNUMA: the
 * address bits of mem_flags (construct_memop_from_reservation()), a
 * 32-bit guest's bound (domain_set_alloc_bitsize()), and the highest
 * frame they allow (alloc_domheap_pages()).  Pure arithmetic, tested on
 * the host (tests/unit/test-memop-bits.c).
 */
#ifndef PV_MEMOP_BITS_H
#define PV_MEMOP_BITS_H

#include <stdint.h>
#include <xen/xen.h>
#include <xen/memory.h>

#define MEMOP_PAGE_SHIFT    12
#define MEMOP_NO_NODE       0xffu       /* XENMEMF_get_node(0) */

/* Xen's get_order_from_pages(): the least order with 2^order >= @nr. */
static inline unsigned int memop_order_from_pages(unsigned long nr)
{
    unsigned int order = 0;

    for ( nr--; nr; nr >>= 1 )
        order++;
    return order;
}

/*
 * The address bits @mem_flags asks the frames to fit (0: none, including
 * bits that reach past every frame up to @max_page), or -1 where Xen's
 * construct_memop_from_reservation() fails and the op does nothing: bits
 * that would limit but leave less than a page (PAGE_SHIFT or fewer), or
 * a machine NUMA node asked for exactly, which propagate_node() allows
 * only the hardware and control domains.  With XENMEMF_vnode the node is
 * a virtual one; a guest with no vNUMA has its node ignored.
 */
static inline int memop_address_bits(unsigned int mem_flags,
                                     unsigned long max_page)
{
    unsigned int bits = XENMEMF_get_address_bits(mem_flags);

    if ( bits >= memop_order_from_pages(max_page) + MEMOP_PAGE_SHIFT )
        bits = 0;
    if ( bits && bits <= MEMOP_PAGE_SHIFT )
        return -1;
    if ( !(mem_flags & XENMEMF_vnode) &&
         XENMEMF_get_node(mem_flags) != MEMOP_NO_NODE &&
         (mem_flags & XENMEMF_exact_node_request) )
        return -1;
    return bits;
}

/*
 * Xen's domain_set_alloc_bitsize() for a 32-bit guest: it knows machine
 * frames by its compat M2P, @entries long (at least 1).  If that doesn't
 * reach @max_page, its frames must lie below the largest power of two of
 * frames it covers: the address bits of that bound.  0: no bound.
 */
static inline unsigned int memop_compat_bits(unsigned long entries,
                                             unsigned long max_page)
{
    if ( entries >= max_page )
        return 0;
    return 63 - __builtin_clzl(entries) + MEMOP_PAGE_SHIFT;
}

/*
 * alloc_domheap_pages(): address bits @bits (0: none), narrowed to
 * @clamp (0: none) as domain_clamp_alloc_bitsize() does, as the first
 * frame an extent may not reach; 0 for no limit.  Xen's lowest zone
 * holds frames 0 and 1, so the limit is never below 2.
 */
static inline unsigned long memop_limit_pfn(unsigned int bits,
                                            unsigned int clamp)
{
    if ( !bits )
        bits = 64 + MEMOP_PAGE_SHIFT;   /* Xen's BITS_PER_LONG + PAGE_SHIFT */
    if ( clamp && clamp < bits )
        bits = clamp;
    if ( bits <= MEMOP_PAGE_SHIFT + 1 )
        return 2;
    if ( bits - MEMOP_PAGE_SHIFT >= 64 )
        return 0;
    return 1UL << (bits - MEMOP_PAGE_SHIFT);
}

#endif /* PV_MEMOP_BITS_H */
