/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * XENMEM_increase_reservation and XENMEM_populate_physmap, as Xen's
 * answer a PV domU: frames given back (decrease_reservation, after a
 * pattern was written into them) come back zeroed, the guest's to map
 * and to make page tables of; increase_reservation leaves their M2P
 * entries invalid, populate_physmap points them at the gpfns asked for;
 * both write the mfns back, extents of order 0, 2 and 9, from the start
 * extent asked for (memory-increase-preempt runs it all again preempted
 * after every extent).  Then the limits: no further than the maximum
 * reservation (a partial count), no frame past the address bits asked
 * for, and what Xen refuses: other domains, too big an order, a count
 * the continuation can't carry, lists out of range or faulting (halfway:
 * the count so far), populate-on-demand on oneself, an exact machine
 * NUMA node.  The shim's own allocations still work once the guest took
 * everything back.
 */
#include "guest.h"
#include "mm.h"
#include "grant.h"
#include <xen/memory.h>

#ifndef TEST_TITLE
#define TEST_TITLE "memory_op: increase_reservation, populate_physmap"
#endif
const char test_title[] = TEST_TITLE;

#define MEMOP_EXTENT_SHIFT  6
#define INVALID_M2P         (~0UL)
#define PATTERN             0xa5
#define NR_GIVEN            64
#define ORDER_MAX           9           /* Xen's DOMU_MAX_ORDER */
#define NR_MAX              (1UL << ORDER_MAX)

static xen_pfn_t given[NR_GIVEN];       /* mfns given back, patterned */
static unsigned long given_pfn[NR_GIVEN];
static unsigned long big_pfn;           /* an order-9 extent given back */
static long want;                       /* current_reservation expected */


static long increase(void *list, unsigned long nr, unsigned int order)
{
    return reservation_op(XENMEM_increase_reservation, list, nr, order, 0,
                          DOMID_SELF);
}

static long populate(void *list, unsigned long nr, unsigned int order)
{
    return reservation_op(XENMEM_populate_physmap, list, nr, order, 0,
                          DOMID_SELF);
}

static long decrease(void *list, unsigned long nr, unsigned int order)
{
    return reservation_op(XENMEM_decrease_reservation, list, nr, order, 0,
                          DOMID_SELF);
}

static void check_reservation(const char *after)
{
    long got = current_reservation();

    if ( got != want )
        test_fail("after %s: current_reservation %ld, expected %ld", after,
                  got, want);
}

static bool was_given(unsigned long mfn)
{
    for ( unsigned int i = 0; i < NR_GIVEN; i++ )
        if ( given[i] == mfn )
            return true;
    return false;
}

/*
 * A frame the guest just got: its M2P entry @m2p, every byte zero, and
 * the guest's to map writable.
 */
static void check_new(unsigned long mfn, unsigned long m2p)
{
    static uint8_t buf[PAGE_SIZE];
    static uint8_t win[PAGE_SIZE] __page_aligned;
    unsigned long w = (unsigned long)win;
    unsigned int i;

    if ( mfn_to_pfn(mfn) != m2p )
        test_fail("mfn %#lx: M2P %#lx, expected %#lx", mfn, mfn_to_pfn(mfn),
                  m2p);
    frame_read(mfn, 0, buf, PAGE_SIZE);
    for ( i = 0; i < PAGE_SIZE && !buf[i]; i++ )
        ;
    if ( i < PAGE_SIZE )
        test_fail("mfn %#lx%s: byte %u is %#x, not zeroed", mfn,
                  was_given(mfn) ? " (given back)" : "", i, buf[i]);
    check_rc(map_frame_at(w, mfn, PTE_RW), 0);
    win[8] = 0x3c;
    check_rc(win[8], 0x3c);
    check_rc(remap_initial(w), 0);
}

/*
 * A pfn from which 512 of the guest's frames are one aligned machine
 * extent (the builder hands out contiguous runs): the highest one, far
 * above what alloc_frame() hands out.  0 if there is none.
 */
static unsigned long find_big_pfn(void)
{
    unsigned long pfn = start_info->nr_pages, i, mfn;

    while ( pfn-- > initial_mapping_end() / PAGE_SIZE + 4 * NR_MAX )
    {
        mfn = pfn_to_mfn(pfn);
        if ( mfn & (NR_MAX - 1) || pfn + NR_MAX > start_info->nr_pages )
            continue;
        for ( i = 1; i < NR_MAX && pfn_to_mfn(pfn + i) == mfn + i; i++ )
            ;
        if ( i == NR_MAX )
            return pfn;
    }
    return 0;
}

/*
 * The budget of the test, given back: frames with a pattern written in
 * them, and an order-9 extent (untouched: writing 512 frames through a
 * window costs a thousand mm-audits).
 */
static bool give_back(void)
{
    xen_pfn_t big;
    unsigned int i;

    for ( i = 0; i < NR_GIVEN; i++ )
    {
        given[i] = alloc_frame();
        given_pfn[i] = mfn_to_pfn(given[i]);
        frame_fill(given[i], PATTERN);
    }
    check_rc(decrease(given, NR_GIVEN, 0), NR_GIVEN);
    want -= NR_GIVEN;
    big_pfn = find_big_pfn();
    if ( !big_pfn )
    {
        test_error("no aligned run of %lu frames to give back", NR_MAX);
        return false;
    }
    big = pfn_to_mfn(big_pfn);
    check_rc(decrease(&big, 1, ORDER_MAX), 1);
    want -= NR_MAX;
    check_reservation("giving frames back");
    return true;
}

/* Address bits: the frames lie below them; too few, nothing. */
static void address_bits(void)
{
    unsigned long low = given[0], bits = 12, mfn;
    xen_pfn_t list[1];
    unsigned int i;

    for ( i = 1; i < NR_GIVEN; i++ )
        low = given[i] < low ? given[i] : low;
    while ( (1UL << (bits - 12)) <= low )
        bits++;
    check_rc(reservation_op(XENMEM_increase_reservation, list, 1, 0, bits,
                            DOMID_SELF), 1);
    mfn = list[0];
    if ( mfn >= (1UL << (bits - 12)) )
        test_fail("address bits %lu: mfn %#lx", bits, mfn);
    check_new(mfn, INVALID_M2P);
    want++;

    /* Fewer than a page's: refused.  Frame 0 is never free: no run. */
    check_rc(reservation_op(XENMEM_increase_reservation, list, 1, 0, 12,
                            DOMID_SELF), 0);
    check_rc(reservation_op(XENMEM_increase_reservation, list, 1, 1, 13,
                            DOMID_SELF), 0);
    check_rc(reservation_op(XENMEM_populate_physmap, list, 1, 2, 14,
                            DOMID_SELF), 0);
    check_reservation("address bits");
}

/* increase_reservation: mfns back, M2P invalid. */
static unsigned long increase_order0(xen_pfn_t *got, unsigned int nr)
{
    unsigned int i, back = 0;

    for ( i = 0; i < nr; i++ )
        got[i] = 0x5a5a;
    check_rc(increase(got, nr, 0), nr);
    want += nr;
    for ( i = 0; i < nr; i++ )
    {
        check_new(got[i], INVALID_M2P);
        back += was_given(got[i]);
    }
    check_reservation("increase_reservation");
    return back;
}

/*
 * populate_physmap of @nr extents at the gpfns in @pfns: mfns back,
 * aligned, M2P entries at the gpfns asked for, frames zeroed (of an
 * order-9 extent every 32nd: each costs four mm-audits).
 */
static void populate_order(const unsigned long *pfns, unsigned int nr,
                           unsigned int order)
{
    xen_pfn_t list[8];
    unsigned long mfn, j;
    unsigned int i;

    for ( i = 0; i < nr; i++ )
        list[i] = pfns[i];
    check_rc(populate(list, nr, order), nr);
    want += nr << order;
    for ( i = 0; i < nr; i++ )
    {
        mfn = list[i];
        if ( mfn & ((1UL << order) - 1) )
            test_fail("order %u extent at mfn %#lx: not aligned", order, mfn);
        for ( j = 0; j < (1UL << order); j++ )
            if ( mfn_to_pfn(mfn + j) != pfns[i] + j )
                test_fail("mfn %#lx: M2P %#lx, expected %#lx", mfn + j,
                          mfn_to_pfn(mfn + j), pfns[i] + j);
        for ( j = 0; j < (1UL << order); j += order > 2 ? 32 : 1 )
            check_new(mfn + j, pfns[i] + j);
    }
    check_reservation("populate_physmap");
}

/* A frame from increase_reservation: given a pfn, then a page table. */
static void as_page_table(unsigned long l1, unsigned long data)
{
    uint64_t maddr = ((uint64_t)l1 << PAGE_SHIFT) + 5 * 8;

    check_rc(mmu_update1(((uint64_t)l1 << PAGE_SHIFT) | MMU_MACHPHYS_UPDATE,
                         given_pfn[0]), 0);
    if ( mfn_to_pfn(l1) != given_pfn[0] )
        test_fail("MMU_MACHPHYS_UPDATE: M2P %#lx", mfn_to_pfn(l1));
    check_rc(pin_table(1, l1), 0);
    check_rc(mmu_update1(maddr, pte_make(data, PTE_RW)), 0);
    check_rc(frame_get_pte(l1, 5) & ~PTE_HV_BITS,
             pte_make(data, PTE_RW) & ~PTE_HV_BITS);
    check_rc(unpin_table(l1), 0);
}

/* A start extent: the extents before it are left alone. */
static void start_extent(void)
{
    xen_pfn_t list[4] = { 1, 2, 3, 4 };
    struct xen_memory_reservation r = {
        .nr_extents = 4, .domid = DOMID_SELF,
    };

    set_xen_guest_handle(r.extent_start, list);
    check_rc(memory_op(XENMEM_increase_reservation |
                       (2UL << MEMOP_EXTENT_SHIFT), &r), 4);
    want += 2;
    check_rc(list[0], 1);
    check_rc(list[1], 2);
    check_new(list[2], INVALID_M2P);
    check_new(list[3], INVALID_M2P);
    /* At or past the end: nothing, that number back. */
    check_rc(memory_op(XENMEM_populate_physmap |
                       (4UL << MEMOP_EXTENT_SHIFT), &r), 4);
    check_reservation("a start extent");
}

/* Arguments Xen refuses, and lists out of range or faulting. */
static void hostile(void)
{
    static uint8_t pages[2 * PAGE_SIZE] __page_aligned;
    xen_pfn_t list[2], *edge = (xen_pfn_t *)(pages + PAGE_SIZE) - 3;
    unsigned long hole;
    unsigned int i;

    /* Xen's: every refusal before the first extent is start_extent. */
    check_rc(reservation_op(XENMEM_increase_reservation, list, 1, 0, 0, 0),
             0);
    check_rc(reservation_op(XENMEM_populate_physmap, list, 1, 0, 0, 7), 0);
    check_rc(reservation_op(XENMEM_increase_reservation, list, 1, 0, 0, 1),
             1);
    want++;
    check_rc(increase(list, 1, 10), 0);
    check_rc(populate(list, 1, 10), 0);
    check_rc(increase(NULL, (UINT32_MAX >> MEMOP_EXTENT_SHIFT) + 1, 0), 0);
    check_rc(memory_op(XENMEM_increase_reservation, BAD_XEN), 0);
    check_rc(memory_op(XENMEM_populate_physmap, BAD_UNMAPPED), 0);
    check_reservation("refused arguments");

    /* Populate-on-demand is for another domain's builder: nothing. */
    list[0] = given_pfn[1];
    check_rc(reservation_op(XENMEM_populate_physmap, list, 1, 0,
                     XENMEMF_populate_on_demand, DOMID_SELF), 0);
    /* increase_reservation ignores the flag, as Xen. */
    check_rc(reservation_op(XENMEM_increase_reservation, list, 1, 0,
                     XENMEMF_populate_on_demand, DOMID_SELF), 1);
    want++;
    /* A machine node, exactly: refused; a virtual one, no vNUMA: any. */
    check_rc(reservation_op(XENMEM_increase_reservation, list, 1, 0,
                     XENMEMF_exact_node(0), DOMID_SELF), 0);
    check_rc(reservation_op(XENMEM_populate_physmap, list, 1, 0,
                     XENMEMF_exact_node(0) | XENMEMF_vnode, DOMID_SELF), 1);
    want++;
    check_rc(reservation_op(XENMEM_increase_reservation, list, 1, 0,
                     XENMEMF_node(1), DOMID_SELF), 1);
    want++;
    check_reservation("mem_flags");

    /* Lists out of the guest's range: nothing done. */
    check_rc(increase(BAD_XEN, 1, 0), 0);
    check_rc(populate(BAD_XEN, 1, 0), 0);
    check_rc(increase(BAD_NONCANONICAL, 1, 0), 0);
    /* Two entries, the second in the hypervisor's hole. */
#ifdef __x86_64__
    hole = 1UL << 47;
#else
    hole = HYPERVISOR_VIRT_START;
#endif
    check_rc(increase((xen_pfn_t *)hole - 1, 2, 0), 0);
    check_rc(populate((xen_pfn_t *)hole - 1, 2, 0), 0);
    /* Unmapped: nothing read, so nothing populated. */
    check_rc(populate(BAD_UNMAPPED, 1, 0), 0);
    check_reservation("lists out of range");
    /* The frame is the guest's before its mfn can't be written: Xen's. */
    check_rc(increase(BAD_UNMAPPED, 1, 0), 0);
    want++;
    check_reservation("an unmapped list");

    /* A list whose fourth entry faults: three done. */
    check_rc(unmap_va((unsigned long)pages + PAGE_SIZE), 0);
    check_rc(increase(edge, 6, 0), 3);
    want += 4;
    for ( i = 0; i < 3; i++ )
        check_new(edge[i], INVALID_M2P);
    check_reservation("a list faulting halfway (increase)");
    for ( i = 0; i < 3; i++ )
        edge[i] = given_pfn[40 + i];
    check_rc(populate(edge, 6, 0), 3);
    want += 3;
    for ( i = 0; i < 3; i++ )
        check_new(edge[i], given_pfn[40 + i]);
    check_reservation("a list faulting halfway (populate)");
    check_rc(remap_initial((unsigned long)pages + PAGE_SIZE), 0);
}

/*
 * No further than the maximum reservation, as Xen's assign_pages(): the
 * count of what fitted, an extent never split; the shim keeps the rest
 * of its memory, and still allocates its own frames.
 */
static void up_to_maximum(long max)
{
    static xen_pfn_t list[NR_GIVEN];
    long left = max - want;

    if ( left < 3 || left + 3 > NR_GIVEN )
    {
        test_error("%ld frames below the maximum, not 3 to %u", left,
                   NR_GIVEN - 3);
        return;
    }
    check_rc(increase(list, left + 3, 0), left);
    want = max;
    check_reservation("an increase past the maximum");
    check_new(list[left - 1], INVALID_M2P);
    check_rc(increase(list, 1, 0), 0);
    check_rc(populate(given_pfn, 1, 0), 0);

    /* Three back: one order-1 extent fits, not two; then one frame. */
    check_rc(decrease(list, 3, 0), 3);
    check_rc(increase(list, 2, 1), 1);
    want = max - 1;
    check_reservation("an order-1 increase past the maximum");
    check_rc(increase(list, 1, 1), 0);
    check_rc(increase(list, 1, 0), 1);
    want = max;
    check_reservation("the last frame");

    gnt_setup(GNT_MAP_FRAMES);
}

void test_main(void)
{
    struct xen_memory_domain md = { .domid = DOMID_SELF };
    static xen_pfn_t got[16], pt[2];
    unsigned long pfns[2], back;
    long max = memory_op(XENMEM_maximum_reservation, &md);

    want = current_reservation();
    check_rc(want, start_info->nr_pages);
    check_rc(max, want);

    if ( !give_back() )
        return;
    address_bits();
    back = increase_order0(got, ARRAY_SIZE(got));
    printf("increase_reservation: %lu of %zu frames given back before\n",
           back, ARRAY_SIZE(got));
    if ( !back )
        test_error("no frame given back came back: zeroing unchecked");
    check_rc(increase(NULL, 2, 0), 2);          /* no list: no mfns */
    want += 2;
    check_reservation("increase_reservation without a list");

    populate_order(&given_pfn[8], 8, 0);
    pfns[0] = given_pfn[20];
    pfns[1] = given_pfn[24];
    populate_order(pfns, 2, 2);
    populate_order(&big_pfn, 1, ORDER_MAX);
    check_rc(increase(pt, 2, 0), 2);
    want += 2;
    as_page_table(pt[0], pt[1]);
    start_extent();
    hostile();
    up_to_maximum(max);

    test_success();
}
