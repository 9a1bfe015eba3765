/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * XENMEM_decrease_reservation, as Xen's answers a PV domU: frames named
 * by mfn leave the guest (current_reservation falls, maximum stays, the
 * M2P entry goes invalid, the frame can't be mapped again); a frame that
 * isn't the guest's stops the batch there and the count returned says
 * how far it got; a frame still mapped goes when its last mapping does;
 * a pinned table is unpinned first; the xenstore ring stays the
 * backend's; shared_info, the grant table's frames and frames not the
 * guest's are refused; order 0 and larger extents, a preempted batch
 * (hypercall-batch=8 here) that continues where it stopped, and bad
 * arguments.
 */
#include "grant.h"
#include <xen/memory.h>

const char test_title[] = "memory_op: decrease_reservation";

#define MEMOP_EXTENT_SHIFT 6
#define INVALID_M2P         (~0UL)

static long decrease(xen_pfn_t *mfns, unsigned long nr, unsigned int order,
                     domid_t domid)
{
    return reservation_op(XENMEM_decrease_reservation, mfns, nr, order, 0,
                          domid);
}

/* After the frame left: no M2P entry, and no mapping of it is allowed. */
static void check_gone(unsigned long mfn)
{
    static uint8_t window[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));

    if ( mfn_to_pfn(mfn) != INVALID_M2P )
        test_fail("mfn %#lx: M2P still %#lx", mfn, mfn_to_pfn(mfn));
    /* Xen's get_page_from_l1e(): a frame that isn't the guest's. */
    check_rc(map_frame_at((unsigned long)window, mfn, _PAGE_PRESENT),
             -XEN_EBUSY);
    remap_initial((unsigned long)window);
}

/* The first grant frame, or (@status) v2 status frame. */
static unsigned long grant_frame(bool status)
{
    struct gnttab_setup_table st = { .dom = DOMID_SELF, .nr_frames = 1 };
    struct gnttab_get_status_frames gs = { .dom = DOMID_SELF, .nr_frames = 1 };
    xen_pfn_t frame = 0;
    uint64_t sframe = 0;

    if ( status )
    {
        set_xen_guest_handle(gs.frame_list, &sframe);
        check_rc(gnttab_op(GNTTABOP_get_status_frames, &gs, 1), 0);
        check_rc(gs.status, GNTST_okay);
        return sframe;
    }
    set_xen_guest_handle(st.frame_list, &frame);
    check_rc(gnttab_op(GNTTABOP_setup_table, &st, 1), 0);
    check_rc(st.status, GNTST_okay);
    return frame;
}

/*
 * The grant table's frames, shared and (v2) status, mapped or not:
 * refused, as the shim keeps writing grant entries and status there.
 * (Xen lets the guest give them back and loses them to it, keeping the
 * frames for the table.)  Before, an unmapped one went back to the
 * allocator at once, and the next frame the guest got could be it: the
 * guest could then make a page table of a frame the shim writes.
 */
static void test_grant_frames(long want)
{
    xen_pfn_t mfn[1];
    unsigned int v;

    for ( v = 1; v <= 2; v++ )
    {
        check_rc(gnt_set_version(v), 0);
        gnt_setup(1);
        mfn[0] = grant_frame(false);
        check_rc(decrease(mfn, 1, 0, DOMID_SELF), 0);
        if ( v == 2 )
        {
            mfn[0] = grant_frame(true);
            check_rc(decrease(mfn, 1, 0, DOMID_SELF), 0);
        }
        gnt_unmap_all();
        check_rc(decrease(mfn, 1, 0, DOMID_SELF), 0);
        mfn[0] = grant_frame(false);
        check_rc(decrease(mfn, 1, 0, DOMID_SELF), 0);
        check_rc(current_reservation(), want);
        /* Still the table's: mapped again, and its entries work. */
        gnt_setup(1);
        gnt_grant(v, 3, 1, alloc_frame(), GTF_readonly);
        check_rc(gnt_status_bits(v, 3), 0);
        gnt_unmap_all();
    }
    check_rc(gnt_set_version(1), 0);
}

void test_main(void)
{
    long start = current_reservation(), max;
    struct xen_memory_domain md = { .domid = DOMID_SELF };
    xen_pfn_t mfns[32];
    unsigned int i;

    max = memory_op(XENMEM_maximum_reservation, &md);
    check_rc(max, start_info->nr_pages);
    check_rc(start, start_info->nr_pages);

    /* One frame. */
    mfns[0] = alloc_frame();
    check_rc(decrease(mfns, 1, 0, DOMID_SELF), 1);
    check_rc(current_reservation(), start - 1);
    check_rc(memory_op(XENMEM_maximum_reservation, &md), max);
    check_gone(mfns[0]);
    /* Given back already: not the guest's any more. */
    check_rc(decrease(mfns, 1, 0, DOMID_SELF), 0);

    /* 20 frames, preempted every 8 (hypercall-batch=8): all go. */
    for ( i = 0; i < 20; i++ )
        mfns[i] = alloc_frame();
    check_rc(decrease(mfns, 20, 0, DOMID_SELF), 20);
    check_rc(current_reservation(), start - 21);
    for ( i = 0; i < 20; i++ )
        check_gone(mfns[i]);

    /* The batch stops at the first frame refused; the rest stay. */
    mfns[0] = alloc_frame();
    mfns[1] = hypervisor_frame();               /* the shim's */
    mfns[2] = alloc_frame();
    check_rc(decrease(mfns, 3, 0, DOMID_SELF), 1);
    check_rc(current_reservation(), start - 22);
    check_rc(mfn_to_pfn(mfns[2]) == INVALID_M2P, 0);

    /* Refused: shared_info, no such frame, the shim's. */
    mfns[0] = hypervisor_frame();
    mfns[1] = start_info->shared_info >> PAGE_SHIFT;
    mfns[2] = maximum_ram_page() + 1;
    mfns[3] = ~0UL;
    for ( i = 0; i < 4; i++ )
        if ( decrease(&mfns[i], 1, 0, DOMID_SELF) != 0 )
            test_fail("frame %u (mfn %#lx) given back", i,
                      (unsigned long)mfns[i]);
    check_rc(current_reservation(), start - 22);

    test_grant_frames(start - 22);

    /* A pinned L1 is unpinned and goes, as in Xen. */
    mfns[0] = alloc_frame();
    check_rc(mmuext1(MMUEXT_PIN_L1_TABLE, mfns[0]), 0);
    check_rc(decrease(mfns, 1, 0, DOMID_SELF), 1);
    check_rc(current_reservation(), start - 23);
    check_gone(mfns[0]);
    check_rc(mmuext1(MMUEXT_UNPIN_TABLE, mfns[0]), -XEN_EINVAL);

    /*
     * A frame still mapped goes with its last mapping, as in Xen: given
     * back at once (no M2P entry, no new mapping), counted in the
     * reservation only once the guest unmaps it.
     */
    {
        static uint8_t win[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));
        unsigned long w = (unsigned long)win;

        mfns[0] = alloc_frame();
        check_rc(map_frame_at(w, mfns[0], _PAGE_PRESENT | _PAGE_RW), 0);
        win[8] = 0x5a;
        check_rc(decrease(mfns, 1, 0, DOMID_SELF), 1);
        check_rc(current_reservation(), start - 23);
        if ( mfn_to_pfn(mfns[0]) != INVALID_M2P )
            test_fail("a given-back frame kept its M2P entry");
        check_rc(win[8], 0x5a);                 /* still mapped */
        check_rc(decrease(mfns, 1, 0, DOMID_SELF), 0);  /* not the guest's */
        check_rc(unmap_va(w), 0);
        check_rc(current_reservation(), start - 24);
        check_gone(mfns[0]);
        remap_initial(w);
    }

    /*
     * The xenstore ring, unmapped by the guest: given back, but the shim's
     * backend still holds it, as xenstored's mapping does in Xen: the
     * frame stays out of the allocator (the reservation doesn't fall).
     */
    {
        unsigned long va = mfn_to_pfn(start_info->store_mfn) << PAGE_SHIFT;

        mfns[0] = start_info->store_mfn;
        check_rc(unmap_va(va), 0);
        check_rc(decrease(mfns, 1, 0, DOMID_SELF), 1);
        check_rc(current_reservation(), start - 24);
        check_rc(remap_initial(va), -XEN_EBUSY);
    }

    /* An order-1 extent: two frames from the mfn named. */
    do {
        mfns[0] = alloc_frame();
        mfns[1] = alloc_frame();
    } while ( mfns[1] != mfns[0] + 1 );
    check_rc(decrease(mfns, 1, 1, DOMID_SELF), 1);
    check_rc(current_reservation(), start - 26);
    check_gone(mfns[0]);
    check_gone(mfns[1]);

    /* Arguments: domains, order, the list, the start extent. */
    mfns[0] = alloc_frame();
    /* Xen's: every refusal before the first extent is start_extent. */
    check_rc(decrease(mfns, 1, 0, 0), 0);               /* XSM: dom0's */
    check_rc(decrease(mfns, 1, 0, 7), 0);               /* no domain 7 */
    check_rc(decrease(mfns, 1, 10, DOMID_SELF), 0);        /* > max order */
    check_rc(decrease(BAD_UNMAPPED, 1, 0, DOMID_SELF), 0);
    check_rc(decrease(BAD_XEN, 1, 0, DOMID_SELF), 0);
    check_rc(decrease(mfns, ~0UL >> 2, 0, DOMID_SELF), 0);
    /* Xen counts extents in an unsigned int, for a 64-bit guest too. */
    check_rc(decrease(mfns, (UINT32_MAX >> MEMOP_EXTENT_SHIFT) + 1, 0,
                      DOMID_SELF), 0);
    check_rc(decrease(mfns, 0, 0, DOMID_SELF), 0);
    check_rc(memory_op(XENMEM_decrease_reservation, BAD_XEN), 0);
    {
        struct xen_memory_reservation r = {
            .nr_extents = 1, .domid = DOMID_SELF,
        };

        set_xen_guest_handle(r.extent_start, mfns);
        /* A start extent at or past the end: nothing, that number back. */
        check_rc(memory_op(XENMEM_decrease_reservation |
                           (1UL << MEMOP_EXTENT_SHIFT), &r), 1);
    }
    check_rc(current_reservation(), start - 26);
    check_rc(decrease(mfns, 1, 0, 1), 1);       /* its own id, d1 */
    check_rc(current_reservation(), start - 27);

    test_success();
}
