/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * XENMEM_decrease_reservation, as Xen's answers a PV domU: frames named
 * by mfn leave the guest (current_reservation falls, maximum stays, the
 * M2P entry goes invalid, the frame can't be mapped again); a frame that
 * isn't the guest's stops the batch there and the count returned says
 * how far it got; a frame something still uses (a mapping, a type, the
 * shim's own xenstore and console rings, shared_info) is refused; order
 * 0 and larger extents, a preempted batch (hypercall-batch=8 here) that
 * continues where it stopped, and bad arguments.
 */
#include "guest.h"
#include "mm.h"
#include <xen/memory.h>

const char test_title[] = "memory_op: decrease_reservation";

#define MEMOP_EXTENT_SHIFT 6
#define INVALID_M2P         (~0UL)

static long memory_op(unsigned long cmd, const void *arg)
{
    return HYPERCALL(__HYPERVISOR_memory_op, cmd, arg, 0, 0, 0);
}

static long reservation(void)
{
    struct xen_memory_domain md = { .domid = DOMID_SELF };

    return memory_op(XENMEM_current_reservation, &md);
}

static long decrease(xen_pfn_t *mfns, unsigned long nr, unsigned int order,
                     domid_t domid)
{
    struct xen_memory_reservation r = {
        .nr_extents = nr, .extent_order = order, .domid = domid,
    };

    set_xen_guest_handle(r.extent_start, mfns);
    return memory_op(XENMEM_decrease_reservation, &r);
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

void test_main(void)
{
    long start = reservation(), max;
    struct xen_memory_domain md = { .domid = DOMID_SELF };
    xen_pfn_t mfns[32];
    unsigned int i;

    max = memory_op(XENMEM_maximum_reservation, &md);
    check_rc(max, start_info->nr_pages);
    check_rc(start, start_info->nr_pages);

    /* One frame. */
    mfns[0] = alloc_frame();
    check_rc(decrease(mfns, 1, 0, DOMID_SELF), 1);
    check_rc(reservation(), start - 1);
    check_rc(memory_op(XENMEM_maximum_reservation, &md), max);
    check_gone(mfns[0]);
    /* Given back already: not the guest's any more. */
    check_rc(decrease(mfns, 1, 0, DOMID_SELF), 0);

    /* 20 frames, preempted every 8 (hypercall-batch=8): all go. */
    for ( i = 0; i < 20; i++ )
        mfns[i] = alloc_frame();
    check_rc(decrease(mfns, 20, 0, DOMID_SELF), 20);
    check_rc(reservation(), start - 21);
    for ( i = 0; i < 20; i++ )
        check_gone(mfns[i]);

    /* The batch stops at the first frame refused; the rest stay. */
    mfns[0] = alloc_frame();
    mfns[1] = hypervisor_frame();               /* the shim's */
    mfns[2] = alloc_frame();
    check_rc(decrease(mfns, 3, 0, DOMID_SELF), 1);
    check_rc(reservation(), start - 22);
    check_rc(mfn_to_pfn(mfns[2]) == INVALID_M2P, 0);

    /* Frames in use: mapped, a page table, the rings, shared_info. */
    mfns[0] = pfn_to_mfn(0);                    /* mapped at start of day */
    mfns[1] = pt_base_mfn();
    mfns[2] = start_info->store_mfn;
    mfns[3] = start_info->console.domU.mfn;
    mfns[4] = virt_to_mfn(shared_info);
    mfns[5] = maximum_ram_page() + 1;           /* no such frame */
    mfns[6] = ~0UL;
    for ( i = 0; i < 7; i++ )
        check_rc(decrease(&mfns[i], 1, 0, DOMID_SELF), 0);
    check_rc(reservation(), start - 22);

    /*
     * The rings unmapped by the guest: still the backends' (they write
     * into them for the domain's life), so still refused.
     */
    for ( i = 2; i < 4; i++ )
    {
        unsigned long va = mfn_to_pfn(mfns[i]) << PAGE_SHIFT;

        check_rc(unmap_va(va), 0);
        check_rc(decrease(&mfns[i], 1, 0, DOMID_SELF), 0);
        check_rc(remap_initial(va), 0);
    }
    check_rc(reservation(), start - 22);

    /* An order-1 extent: two frames from the mfn named. */
    do {
        mfns[0] = alloc_frame();
        mfns[1] = alloc_frame();
    } while ( mfns[1] != mfns[0] + 1 );
    check_rc(decrease(mfns, 1, 1, DOMID_SELF), 1);
    check_rc(reservation(), start - 24);
    check_gone(mfns[0]);
    check_gone(mfns[1]);

    /* Arguments: domains, order, the list, the start extent. */
    mfns[0] = alloc_frame();
    check_rc(decrease(mfns, 1, 0, 0), -XEN_EPERM);
    check_rc(decrease(mfns, 1, 0, 7), -XEN_ESRCH);
    check_rc(decrease(mfns, 1, 10, DOMID_SELF), 0);        /* > max order */
    check_rc(decrease(BAD_UNMAPPED, 1, 0, DOMID_SELF), 0);
    check_rc(decrease(BAD_XEN, 1, 0, DOMID_SELF), 0);
    check_rc(decrease(mfns, ~0UL >> 2, 0, DOMID_SELF), 0);
    check_rc(decrease(mfns, 0, 0, DOMID_SELF), 0);
    check_rc(memory_op(XENMEM_decrease_reservation, BAD_XEN), -XEN_EFAULT);
    {
        struct xen_memory_reservation r = {
            .nr_extents = 1, .domid = DOMID_SELF,
        };

        set_xen_guest_handle(r.extent_start, mfns);
        /* A start extent at or past the end: nothing, that number back. */
        check_rc(memory_op(XENMEM_decrease_reservation |
                           (1UL << MEMOP_EXTENT_SHIFT), &r), 1);
    }
    check_rc(reservation(), start - 24);
    check_rc(decrease(mfns, 1, 0, 1), 1);       /* its own id, d1 */
    check_rc(reservation(), start - 25);

    test_success();
}
