/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_memory_op: what a PV kernel asks about its memory, as Xen's
 * do_memory_op() (common/memory.c) and arch_memory_op() (arch/x86/mm.c)
 * answer, the frames it gives back (XENMEM_decrease_reservation) and
 * takes again (increase_reservation, populate_physmap: a balloon going
 * down, then up), never past its maximum reservation.  A 32-bit guest's
 * arguments are its own layout (pv/compat/), read and answered by the
 * same code, as Xen's compat_memory_op() and compat_arch_memory_op()
 * answer them.
 *
 * No domain lock, as in Xen: a frame changes owner under page_alloc_lock
 * (one vCPU wins a frame two give back; the reservation is counted under
 * it), its references and pin by the frame table's cmpxchg, its M2P
 * entry is one word, the allocator has heap_lock, and the frames given
 * back wait for their flush in page_alloc_lock's queue, which any CPU may
 * empty (pv_mm_free_dying()).
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/errno.h>
#include <xen/memory.h>
#include <xen/arch-x86/hvm/start_info.h>
#include "pv/domain.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "arch/x86/flush.h"
#include "pv/mm/guest-flush.h"
#include "pv/mm/m2p.h"
#include "pv/mm/memop-bits.h"
#include "pv/mm/mm.h"
#include "pv/mm/page-type.h"
#include "pv/compat/handle.h"
#include "pv/compat/layout.h"
#include "pv/compat/xlat.h"
#include "pv/grant/grant.h"
#include "shim/console.h"
#include "shim/frame.h"

/*
 * cmd carries a continuation's start extent above the sub-op (Xen's
 * xen/hypercall.h: not in the public headers, but part of the ABI).
 */
#define MEMOP_EXTENT_SHIFT  6
#define MEMOP_CMD_MASK      ((1UL << MEMOP_EXTENT_SHIFT) - 1)

/* Our guest's domain id: the log calls it d1. */
#define PV_DOMID            1

/*
 * One entry of the guest's memory map, in the BIOS INT 15h E820 format
 * that xen/memory.h names but defines no structure for.
 */
struct e820entry {
    uint64_t addr;
    uint64_t size;
    uint32_t type;
} __packed;

/*
 * XENMEM_memory_map.  The toolstack gives a PV domU one RAM entry from 0
 * (libxl's xc_domain_set_memmap_limit()); ours covers nr_pages.  Fewer
 * slots than entries truncate the map, as in Xen.  The entries are laid
 * out alike for a 32-bit guest; the structure around them is not.
 */
static always_inline long memory_map(unsigned long arg, bool compat)
{
    uint8_t c[COMPAT_SIZEOF(xen_memory_map)];
    struct xen_memory_map map;
    const struct e820entry ram = {
        .addr = 0,
        .size = (uint64_t)dom.nr_pages << PAGE_SHIFT,
        .type = XEN_HVM_MEMMAP_TYPE_RAM,
    };

    if ( compat )
    {
        if ( copy_from_guest(c, arg, sizeof(c)) )
            return -XEN_EFAULT;
        xlat_memory_map_from_compat(&map, c);
    }
    else if ( copy_from_guest(&map, arg, sizeof(map)) )
        return -XEN_EFAULT;
    map.nr_entries = MIN(map.nr_entries, 1u);
    if ( map.nr_entries &&
         copy_to_guest((unsigned long)map.buffer.p, &ram, sizeof(ram)) )
        return -XEN_EFAULT;
    if ( compat )
    {
        /* The buffer came in 32 bits wide: it goes back out so. */
        (void)xlat_memory_map_to_compat(c, &map);
        return copy_to_guest(arg, c, sizeof(c)) ? -XEN_EFAULT : 0;
    }
    if ( copy_to_guest(arg, &map, sizeof(map)) )
        return -XEN_EFAULT;
    return 0;
}

/*
 * The reservation queries take a struct xen_memory_domain.  Xen finds the
 * domain (-ESRCH if none), then refuses an unprivileged guest any domain
 * but its own (-EPERM).  Here the only other domain the guest knows of is
 * dom0, the backend its console and xenstore ports name.
 */
static always_inline long domain_query(unsigned int op, unsigned long arg,
                                       bool compat)
{
    struct xen_memory_domain md;
    unsigned long max_pfn;

    if ( copy_from_guest(&md, arg, sizeof(md)) )
        return -XEN_EFAULT;
    if ( md.domid == 0 )
        return -XEN_EPERM;
    if ( md.domid != DOMID_SELF && md.domid != PV_DOMID )
        return -XEN_ESRCH;

    switch ( op )
    {
    case XENMEM_current_reservation:
        return ACCESS_ONCE(dom.tot_pages);  /* page_alloc_lock's: a glance */
    case XENMEM_maximum_reservation:
        return ACCESS_ONCE(dom.max_pages);

    default:
        /*
         * XENMEM_maximum_gpfn: Xen's domain_get_maximum_gpfn() for PV
         * reads shared_info's max_pfn, which the guest may rewrite (Linux
         * does), and which holds a page count, hence the - 1.  A 32-bit
         * guest's is 32 bits, elsewhere in its layout.
         */
        if ( compat )
            max_pfn = compat_get(dom.shared_info, shared_info, arch__max_pfn);
        else
            max_pfn = ACCESS_ONCE(dom.shared_info->arch.max_pfn);
        return (max_pfn ?: 1) - 1;
    }
}

/*
 * XENMEM_add_to_physmap(_batch), whatever the space (grant-table frames,
 * their status frames, shared_info...): Xen's xatp_permission_check()
 * refuses every guest that isn't paging-translated, so a PV domU gets
 * -EACCES once its arguments are read and its domain found; it learns
 * its grant frames from GNTTABOP_setup_table and get_status_frames.
 */
static always_inline long add_to_physmap(unsigned int op,
                                         unsigned long start_extent,
                                         unsigned long arg, bool compat)
{
    uint8_t c[MAX(COMPAT_SIZEOF(xen_add_to_physmap),
                  COMPAT_SIZEOF(xen_add_to_physmap_batch))];
    const size_t idx_size = compat ? COMPAT_SIZEOF(xen_ulong_t)
                                   : sizeof(xen_ulong_t);
    struct xen_add_to_physmap_batch xatpb;
    struct xen_add_to_physmap xatp;
    domid_t domid;

    if ( start_extent != (uint16_t)start_extent )
        return -XEN_EDOM;
    if ( op == XENMEM_add_to_physmap )
    {
        if ( compat )
        {
            if ( copy_from_guest(c, arg, COMPAT_SIZEOF(xen_add_to_physmap)) )
                return -XEN_EFAULT;
            xlat_add_to_physmap_from_compat(&xatp, c);
        }
        else if ( copy_from_guest(&xatp, arg, sizeof(xatp)) )
            return -XEN_EFAULT;
        if ( xatp.space == XENMAPSPACE_gmfn_foreign )
            return -XEN_ENOSYS;
        domid = xatp.domid;
    }
    else
    {
        if ( compat )
        {
            if ( copy_from_guest(c, arg,
                                 COMPAT_SIZEOF(xen_add_to_physmap_batch)) )
                return -XEN_EFAULT;
            xlat_add_to_physmap_batch_from_compat(&xatpb, c);
        }
        else if ( copy_from_guest(&xatpb, arg, sizeof(xatpb)) )
            return -XEN_EFAULT;
        if ( compat ? !compat_handle_okay((unsigned long)xatpb.idxs.p,
                                          xatpb.size, idx_size) ||
                      !compat_handle_okay((unsigned long)xatpb.gpfns.p,
                                          xatpb.size, XEN_PFN_SIZE(compat)) ||
                      !compat_handle_okay((unsigned long)xatpb.errs.p,
                                          xatpb.size, sizeof(int))
                    : !guest_range_ok((unsigned long)xatpb.idxs.p,
                                      xatpb.size * idx_size) ||
                      !guest_range_ok((unsigned long)xatpb.gpfns.p,
                                      xatpb.size * XEN_PFN_SIZE(compat)) ||
                      !guest_range_ok((unsigned long)xatpb.errs.p,
                                      xatpb.size * sizeof(int)) )
            return -XEN_EFAULT;
        if ( xatpb.space == XENMAPSPACE_gmfn_range )
            return -XEN_EOPNOTSUPP;
        domid = xatpb.domid;
    }
    if ( domid != DOMID_SELF && domid != PV_DOMID && domid != 0 )
        return -XEN_ESRCH;
    return -XEN_EACCES;
}

/*
 * Xen's max_order() for a domU (CONFIG_DOMU_MAX_ORDER): the largest
 * extent, as a power of two of frames, a reservation op may name.
 */
#define DOMU_MAX_ORDER      9

/*
 * One frame the guest gives back, Xen's guest_remove_page() for a PV
 * guest (there gmfn is the mfn): its allocation's reference goes, and the
 * frame goes with its last reference, now or when the guest drops its
 * last mapping or type of it (PGO_DYING meanwhile: no new reference, the
 * M2P entry already invalid).  A pinned page table is unpinned, as
 * Xen's put_page_and_type() there (GNU Mach gives back pinned L1s whose
 * tables it no longer uses).  Refused ("Bad page free"): a frame that
 * isn't the guest's, shared_info, and the grant table's frames, which
 * Xen keeps for the table when a guest gives them back (its xenheap),
 * the guest losing them: here the guest keeps them, so no frame the
 * shim still writes grant entries into can go back to the allocator
 * (the table held still from the look to the frame's taking: one the
 * table takes from the allocator meanwhile, freed by another vCPU's
 * decrease_reservation after the look, would go otherwise).
 */
static bool remove_frame(unsigned long mfn)
{
    struct page_info *pg = mfn_to_page(mfn);
    bool ok;

    gnttab_hold();
    ok = pg && page_owner(pg) == PGO_GUEST && page_count(pg) &&
         mfn != dom.shared_info_mfn && !gnttab_shares_frame(mfn);
    if ( ok )
    {
        spin_lock(&dom.page_alloc_lock);
        ok = page_change_owner(pg, PGO_GUEST, PGO_DYING);
        spin_unlock(&dom.page_alloc_lock);
    }
    gnttab_unhold();
    if ( !ok )
    {
        printk(XENLOG_DEBUG "d1: bad page free: mfn %#lx\n", mfn);
        return false;
    }
    /*
     * Unpinned once dying (unpin_table() takes a dying frame): a pin
     * another vCPU made up to the owner change goes too, and none can
     * start after it.
     */
    if ( page_flags(pg) & PGF_PINNED )
        unpin_table(mfn);
    pv_m2p_set(mfn, ~0UL);
    page_put(pg);                       /* may release it: see below */
    return true;
}

/*
 * The reservation that increase_reservation, decrease_reservation and
 * populate_physmap name, read and checked as Xen's do_memory_op() does
 * before the first extent.  false: the op ends there, returning
 * start_extent whatever the reason, as Xen's does: a struct it can't
 * read, a domain it doesn't find (any but DOMID_SELF and d1) or XSM
 * refuses (dom0, the backend's: a domU may not adjust its reservation),
 * a count whose continuation its unsigned int can't carry, nothing left
 * to do, too big an order, a list out of the guest's range.  A compat
 * list must lie below the guest's hole, all of it.  (increase_reservation
 * may name no list: Xen doesn't check one then, but a null one is in
 * range anyway.)
 */
static always_inline bool read_reservation(struct xen_memory_reservation *r,
                                           unsigned long start_extent,
                                           unsigned long arg, bool compat)
{
    uint8_t c[COMPAT_SIZEOF(xen_memory_reservation)];
    const size_t esize = XEN_PFN_SIZE(compat);
    const unsigned long max_extents = UINT32_MAX >> MEMOP_EXTENT_SHIFT;
    unsigned long list;

    if ( compat )
    {
        if ( copy_from_guest(c, arg, sizeof(c)) )
            return false;
        xlat_memory_reservation_from_compat(r, c);
    }
    else if ( copy_from_guest(r, arg, sizeof(*r)) )
        return false;
    if ( r->domid != DOMID_SELF && r->domid != PV_DOMID )
        return false;
    if ( r->nr_extents > max_extents ||
         start_extent >= r->nr_extents || r->extent_order > DOMU_MAX_ORDER )
        return false;
    list = (unsigned long)r->extent_start.p;
    return compat ? compat_handle_okay(list, r->nr_extents, esize)
                  : guest_range_ok(list + start_extent * esize,
                                   (r->nr_extents - start_extent) * esize);
}

/*
 * XENMEM_decrease_reservation, as Xen's: extents of 2^extent_order frames
 * named by mfn, order up to 9; returns how many extents went, stopping at
 * the first frame refused; preempted once its extents add up to
 * hypercall-batch= frames, continuing at the next.  The frames released
 * go back to the allocator after one flush of every CPU running the
 * guest (pv_mm_free_dying()): a TLB may still translate to one, even
 * read-only, and the allocator may give it to the shim itself next.
 */
static always_inline long decrease_reservation(unsigned long start_extent,
                                               unsigned long arg,
                                               bool compat)
{
    const size_t esize = XEN_PFN_SIZE(compat);
    struct xen_memory_reservation r;
    unsigned long i, j, mfn;
    long rc;

    if ( !read_reservation(&r, start_extent, arg, compat) )
        return start_extent;

    for ( i = start_extent; i < r.nr_extents; i++ )
    {
        if ( i != start_extent &&
             hypercall_preempt_check((i - start_extent) << r.extent_order) )
        {
            rc = hypercall_create_continuation(
                __HYPERVISOR_memory_op,
                XENMEM_decrease_reservation | (i << MEMOP_EXTENT_SHIFT), arg,
                0, 0);
            goto out;
        }
        if ( copy_elem_from_guest(&mfn, (unsigned long)r.extent_start.p, i,
                                  esize) )
            break;
        for ( j = 0; j < (1UL << r.extent_order); j++ )
            if ( !remove_frame(mfn + j) )
                goto done;
    }
 done:
    rc = i;
 out:
    pv_mm_free_dying();
    return rc;
}

/*
 * A 32-bit guest knows machine frames by its compat M2P (pv/mm/m2p.c):
 * its frames must have an entry there (Xen's domain_clamp_alloc_bitsize()).
 */
static unsigned int compat_alloc_bits(void)
{
    return memop_compat_bits(pv_m2p_compat_bytes() / COMPAT_SIZEOF(xen_pfn_t),
                             frames_max_pfn());
}

/*
 * One extent for the guest, as Xen's alloc_domheap_pages() gives one:
 * 2^@order frames aligned to their size, below frame @limit (0: any),
 * counted first against the guest's maximum reservation (INVALID_PFN if
 * they would pass it, as when the allocator has no such run).  Zeroed
 * first: they may have held the shim's data, or what the guest wrote
 * before it gave them back.  Their M2P entries are invalid, as Xen's
 * free_heap_pages() leaves them: a frame lost its entry when it left the
 * guest (remove_frame(), a failed grant transfer), and the shim's own
 * frames never had one.  With @gpfn (populate_physmap) they point at
 * *@gpfn onwards before the frames are the guest's: no other vCPU's
 * decrease_reservation (no domain lock) can give them back first and
 * leave a freed frame an entry.
 */
static unsigned long alloc_extent(unsigned int order, unsigned long limit,
                                  const unsigned long *gpfn)
{
    unsigned long nr = 1UL << order, mfn;

    if ( !pv_mm_reserve_frames(nr) )
        return INVALID_PFN;
    mfn = frames_alloc(nr, order, limit);
    if ( mfn == INVALID_PFN )
    {
        pv_mm_unreserve_frames(nr);
        return INVALID_PFN;
    }
    memset(__va(mfn << PAGE_SHIFT), 0, nr << PAGE_SHIFT);
    if ( gpfn )
        pv_m2p_set_run(mfn, *gpfn, nr, 1);
    pv_mm_give_frames(mfn, nr);
    return mfn;
}

/*
 * XENMEM_increase_reservation and XENMEM_populate_physmap, as Xen's for a
 * PV guest that isn't translated: extents of 2^extent_order frames,
 * order up to 9, below the address bits mem_flags asks for; returns how
 * many extents the guest got, stopping at the first the allocator can't
 * give or that would pass the guest's maximum.  Each extent's first mfn
 * goes back into the list (increase_reservation's only if it has one);
 * populate_physmap first reads a gpfn there and points the extent's M2P
 * entries at gpfn + j.  An extent whose mfn can't be written back stays
 * the guest's (its reservation counts it) but not in the count returned,
 * as in Xen.  Preempted once its extents add up to hypercall-batch=
 * frames (an order-9 extent zeroes 2 MiB), at
 * least one extent an invocation.  Populate-on-demand fills another
 * domain's physmap, never the caller's: Xen's does nothing for it.
 */
static always_inline long populate(unsigned int op,
                                   unsigned long start_extent,
                                   unsigned long arg, bool compat)
{
    const size_t esize = XEN_PFN_SIZE(compat);
    const bool physmap = op == XENMEM_populate_physmap;
    struct xen_memory_reservation r;
    unsigned long i, list, limit, mfn, gpfn = 0;
    int bits;

    if ( !read_reservation(&r, start_extent, arg, compat) )
        return start_extent;
    bits = memop_address_bits(r.mem_flags, frames_max_pfn());
    if ( bits < 0 || (physmap && (r.mem_flags & XENMEMF_populate_on_demand)) )
        return start_extent;
    limit = memop_limit_pfn(bits, compat ? compat_alloc_bits() : 0);
    list = (unsigned long)r.extent_start.p;

    for ( i = start_extent; i < r.nr_extents; i++ )
    {
        if ( i != start_extent &&
             hypercall_preempt_check((i - start_extent) << r.extent_order) )
            return hypercall_create_continuation(__HYPERVISOR_memory_op,
                                                 op | (i << MEMOP_EXTENT_SHIFT),
                                                 arg, 0, 0);
        if ( physmap && copy_elem_from_guest(&gpfn, list, i, esize) )
            break;
        mfn = alloc_extent(r.extent_order, limit,
                           physmap ? &gpfn : NULL);
        if ( mfn == INVALID_PFN )
            break;
        if ( (physmap || list) && copy_elem_to_guest(list, i, mfn, esize) )
            break;
    }
    return i;
}

/*
 * XENMEM_exchange's steal, as Xen's steal_page() with MEMF_no_refcount:
 * a frame of the guest's that only its allocation references (nothing
 * maps it, no type, pin or grant mapping holds it; not shared_info, nor
 * a grant table frame) becomes no one's, still counted in tot_pages,
 * where the exchange's new frames take its place.  Its M2P entry stays
 * until the exchange can't fail.
 */
static bool exchange_steal(unsigned long mfn)
{
    struct page_info *pg = mfn_to_page(mfn);
    bool ok;

    if ( !pg || mfn == dom.shared_info_mfn )
        return false;
    gnttab_hold();
    ok = !gnttab_shares_frame(mfn);
    if ( ok )
    {
        spin_lock(&dom.page_alloc_lock);
        ok = page_release(pg, PGO_GUEST);
        spin_unlock(&dom.page_alloc_lock);
    }
    gnttab_unhold();
    /* Every type reference comes with a general one: none can be left. */
    ASSERT(!ok || !page_type_count(pg));
    return ok;
}

/*
 * A chunk's frames, the stolen and the new, to give back or keep: at most
 * 2^9 of each.  One chunk is in flight at a time, domain-wide
 * (exchange_lock): its new frames come from the allocator before the
 * stolen ones go back, uncounted (the stolen stay counted), so a guest
 * at its maximum reservation holds at most one chunk (2 MiB) of the
 * shim's reserve for a moment, not one a vCPU.
 */
static struct {
    unsigned long in[1UL << DOMU_MAX_ORDER];
    unsigned long out[1UL << DOMU_MAX_ORDER];
    unsigned int nr_in, nr_out;
} xc;
static DEFINE_SPINLOCK(exchange_lock, LOCK_RANK_EXCHANGE);

/* A chunk that failed: the stolen frames the guest's again, as they were. */
static void exchange_undo(unsigned int out_order)
{
    while ( xc.nr_in )
        pv_mm_give_frame(xc.in[--xc.nr_in]);
    while ( xc.nr_out )
        frames_free(xc.out[--xc.nr_out], 1UL << out_order);
}

static int exchange_write_done(unsigned long arg, unsigned long done,
                               bool compat)
{
    uint8_t c[COMPAT_MSIZE(xen_memory_exchange, nr_exchanged)];

    if ( !compat )
        return copy_to_guest(arg + offsetof(struct xen_memory_exchange,
                                            nr_exchanged), &done,
                             sizeof(xen_ulong_t));
    compat_store(c, sizeof(c), done);
    return copy_to_guest(arg + COMPAT_OFFSET(xen_memory_exchange,
                                             nr_exchanged), c, sizeof(c));
}

/*
 * One chunk, under exchange_lock: its in-extents' frames stolen, its new
 * ones taken, then (no failing after that) the stolen freed after a
 * flush and the new ones the guest's.  0, or the error that stops the
 * exchange: before the commit (nothing of the chunk done), or -EFAULT
 * after it, as Xen's: an out extent whose gpfn won't read is the guest's
 * with no M2P entry, one whose mfn won't write back has its entry.
 */
static always_inline long exchange_chunk(const struct xen_memory_exchange *x,
                                         unsigned long i, unsigned int in_co,
                                         unsigned int out_co,
                                         unsigned long limit, bool compat)
{
    const size_t esize = XEN_PFN_SIZE(compat);
    const unsigned long in_list = (unsigned long)x->in.extent_start.p;
    const unsigned long out_list = (unsigned long)x->out.extent_start.p;
    const unsigned long nr = 1UL << x->out.extent_order;
    unsigned long j, k, gmfn, gpfn, mfn;
    long rc = 0;

    xc.nr_in = xc.nr_out = 0;
    for ( j = 0; j < (1UL << in_co); j++ )
    {
        if ( copy_elem_from_guest(&gmfn, in_list, (i << in_co) + j, esize) )
        {
            exchange_undo(x->out.extent_order);
            return -XEN_EFAULT;
        }
        for ( k = 0; k < (1UL << x->in.extent_order); k++ )
        {
            if ( !exchange_steal(gmfn + k) )
            {
                printk(XENLOG_DEBUG "d1: exchange: mfn %#lx is not the "
                       "guest's alone\n", gmfn + k);
                exchange_undo(x->out.extent_order);
                return -XEN_EINVAL;
            }
            xc.in[xc.nr_in++] = gmfn + k;
        }
    }
    for ( j = 0; j < (1UL << out_co); j++ )
    {
        if ( (mfn = frames_alloc(nr, x->out.extent_order, limit)) ==
             INVALID_PFN )
        {
            exchange_undo(x->out.extent_order);
            return -XEN_ENOMEM;
        }
        xc.out[xc.nr_out++] = mfn;
    }

    for ( j = 0; j < xc.nr_in; j++ )
        pv_m2p_set(xc.in[j], ~0UL);
    pv_flush_domain(0, FLUSH_TLB_GLOBAL);
    for ( j = 0; j < xc.nr_in; j++ )
        frames_free(xc.in[j], 1);
    for ( j = 0; j < xc.nr_out; j++ )
    {
        bool gpfn_ok;

        mfn = xc.out[j];
        memset(__va(mfn << PAGE_SHIFT), 0, nr << PAGE_SHIFT);
        gpfn_ok = !copy_elem_from_guest(&gpfn, out_list, (i << out_co) + j,
                                        esize);
        if ( gpfn_ok )
            pv_m2p_set_run(mfn, gpfn, nr, 1);
        pv_mm_give_frames(mfn, nr);
        if ( !gpfn_ok ||
             copy_elem_to_guest(out_list, (i << out_co) + j, mfn, esize) )
            rc = -XEN_EFAULT;
    }
    xc.nr_in = xc.nr_out = 0;
    return rc;
}

/*
 * XENMEM_exchange, as Xen's memory_exchange() for a PV guest: the frames
 * in.extent_start names (mfns, extents of 2^in.extent_order) for as many
 * new ones, extents of 2^out.extent_order below out.mem_flags' address
 * bits, their M2P entries pointing at the gpfns out.extent_start names,
 * where their mfns go back.  Linux's xen_create_contiguous_region() (its
 * swiotlb-xen, iommu=soft) makes machine-contiguous buffers so.  A chunk
 * (the larger extent's size) at a time (exchange_chunk()): each frame
 * must be referenced by its allocation alone, or -EINVAL; no new frame
 * below the address bits is -ENOMEM; a failed chunk gives its stolen
 * frames back.  nr_exchanged (input extents done, the chunk that failed
 * not among them) goes back to the guest whatever happens, and
 * preempted, the call continues from it.  Orders past 9 or dom0 -EPERM;
 * lists whose sizes differ, domains that differ, nr_exchanged past the
 * list, a start extent or an exact machine node -EINVAL; a list out of
 * range -EFAULT; another domain -ESRCH.  The stolen frames stay counted
 * and the new ones aren't, so tot_pages never moves (Xen's
 * MEMF_no_refcount).
 */
static always_inline long memory_exchange(unsigned long start_extent,
                                          unsigned long arg, bool compat)
{
    const size_t esize = XEN_PFN_SIZE(compat);
    uint8_t cx[COMPAT_SIZEOF(xen_memory_exchange)];
    struct xen_memory_exchange x;
    unsigned long in_list, out_list, i, first, limit;
    unsigned int in_co, out_co;
    long rc = 0;
    int bits;

    if ( start_extent )
        return -XEN_EINVAL;
    if ( compat )
    {
        if ( copy_from_guest(cx, arg, sizeof(cx)) )
            return -XEN_EFAULT;
        xlat_memory_exchange_from_compat(&x, cx);
    }
    else if ( copy_from_guest(&x, arg, sizeof(x)) )
        return -XEN_EFAULT;

    if ( x.in.extent_order > DOMU_MAX_ORDER ||
         x.out.extent_order > DOMU_MAX_ORDER )
    {
        rc = -XEN_EPERM;
        goto out;
    }
    if ( x.nr_exchanged > x.in.nr_extents || x.in.domid != x.out.domid ||
         (~0UL >> x.in.extent_order) < x.in.nr_extents ||
         (~0UL >> x.out.extent_order) < x.out.nr_extents ||
         (x.in.nr_extents << x.in.extent_order) !=
         (x.out.nr_extents << x.out.extent_order) )
    {
        rc = -XEN_EINVAL;
        goto out;
    }
    if ( x.nr_exchanged == x.in.nr_extents )
        return 0;
    in_co = x.in.extent_order < x.out.extent_order
            ? x.out.extent_order - x.in.extent_order : 0;
    out_co = x.in.extent_order > x.out.extent_order
             ? x.in.extent_order - x.out.extent_order : 0;
    in_list = (unsigned long)x.in.extent_start.p;
    out_list = (unsigned long)x.out.extent_start.p;
    if ( compat ? !compat_handle_okay(in_list, x.in.nr_extents, esize) ||
                  !compat_handle_okay(out_list, x.out.nr_extents, esize)
                : x.in.nr_extents > ~0UL / esize ||
                  x.out.nr_extents > ~0UL / esize ||
                  !guest_range_ok(in_list, x.in.nr_extents * esize) ||
                  !guest_range_ok(out_list, x.out.nr_extents * esize) )
    {
        rc = -XEN_EFAULT;
        goto out;
    }
    /* Xen's propagate_node(): an exact machine node, not for a domU. */
    if ( XENMEMF_get_node(x.out.mem_flags) != MEMOP_NO_NODE &&
         (x.out.mem_flags & XENMEMF_exact_node_request) )
    {
        rc = -XEN_EINVAL;
        goto out;
    }
    if ( x.in.domid != DOMID_SELF && x.in.domid != PV_DOMID )
    {
        rc = x.in.domid == 0 ? -XEN_EPERM : -XEN_ESRCH;
        goto out;
    }
    /*
     * The address bits go to the allocator as they are (Xen's
     * domain_clamp_alloc_bitsize()): too few for any frame is -ENOMEM.
     */
    bits = XENMEMF_get_address_bits(x.out.mem_flags);
    if ( bits >= (int)(memop_order_from_pages(frames_max_pfn()) +
                       PAGE_SHIFT) )
        bits = 0;
    limit = memop_limit_pfn(bits, compat ? compat_alloc_bits() : 0);

    first = x.nr_exchanged >> in_co;
    for ( i = first; i < x.in.nr_extents >> in_co; i++ )
    {
        if ( i != first &&
             hypercall_preempt_check(((i - first) << in_co) <<
                                     x.in.extent_order) )
        {
            if ( exchange_write_done(arg, i << in_co, compat) )
                return -XEN_EFAULT;
            return hypercall_create_continuation(__HYPERVISOR_memory_op,
                                                 XENMEM_exchange, arg, 0, 0);
        }
        spin_lock_irq_on_wait(&exchange_lock);
        rc = exchange_chunk(&x, i, in_co, out_co, limit, compat);
        spin_unlock(&exchange_lock);
        if ( rc )
            break;
    }
    x.nr_exchanged = i << in_co;
 out:
    if ( exchange_write_done(arg, x.nr_exchanged, compat) )
        rc = -XEN_EFAULT;
    return rc;
}

/*
 * XENMEM_machphys_mapping for a 32-bit guest, as Xen's
 * compat_arch_memory_op(): where its M2P is (pv/mm/m2p.c), and the
 * highest mfn it has an entry for.
 */
static long compat_machphys_mapping(unsigned long arg)
{
    unsigned long entries = pv_m2p_compat_bytes() /
                            COMPAT_SIZEOF(xen_pfn_t);
    struct xen_machphys_mapping n = {
        .v_start = COMPAT_MACH2PHYS_VIRT_START,
        .v_end = COMPAT_MACH2PHYS_VIRT_START + pv_m2p_compat_bytes(),
        .max_mfn = entries - 1,
    };
    uint8_t c[COMPAT_SIZEOF(xen_machphys_mapping)];

    if ( xlat_machphys_mapping_to_compat(c, &n) )
        return -XEN_ERANGE;             /* can't be: m2p.c bounds it */
    return copy_to_guest(arg, c, sizeof(c)) ? -XEN_EFAULT : 0;
}

/*
 * XENMEM_machphys_mapping for a 64-bit guest, as Xen's subarch_memory_op()
 * answers a domU: the M2P's place in the ABI's reserved range, and as many
 * entries as the range holds (Xen names the RAM's end to dom0 alone).
 * Linux's xen_setup_machphys_mapping() bounds its M2P lookups by it.
 */
static long machphys_mapping(unsigned long arg)
{
    const struct xen_machphys_mapping m = {
        .v_start = MACH2PHYS_VIRT_START,
        .v_end = MACH2PHYS_VIRT_END,
        .max_mfn = MACH2PHYS_NR_ENTRIES - 1,
    };

    return copy_to_guest(arg, &m, sizeof(m)) ? -XEN_EFAULT : 0;
}

/* Xen's arch_memory_op() compares the whole cmd: no start extent here. */
static always_inline long arch_memory_op(unsigned long cmd,
                                         unsigned long arg, bool compat)
{
    switch ( cmd )
    {
    case XENMEM_memory_map:
        return memory_map(arg, compat);

    case XENMEM_machphys_mapping:
        return compat ? compat_machphys_mapping(arg) : machphys_mapping(arg);

    default:
        return -XEN_ENOSYS;
    }
}

/*
 * Did this CPU's last memory_op give frames back or take new ones?  For
 * mm-audit, which needs not stop every vCPU after a query
 * (pv/hypercall.c).
 */
static bool moved_frames[NR_CPUS];

bool pv_memory_op_changed_refs(void)
{
    return moved_frames[smp_processor_id()];
}

static always_inline long memory_op(unsigned long cmd, unsigned long arg,
                                    bool compat)
{
    unsigned long start_extent = cmd >> MEMOP_EXTENT_SHIFT;
    unsigned int op = cmd & MEMOP_CMD_MASK;

    moved_frames[smp_processor_id()] =
        op == XENMEM_decrease_reservation ||
        op == XENMEM_increase_reservation || op == XENMEM_populate_physmap ||
        op == XENMEM_exchange;
    switch ( op )
    {
    case XENMEM_maximum_ram_page:
        /* Xen's max_page: the highest RAM frame, plus one. */
        if ( start_extent )
            return -XEN_EINVAL;
        return frames_max_pfn();

    case XENMEM_current_reservation:
    case XENMEM_maximum_reservation:
    case XENMEM_maximum_gpfn:
        if ( start_extent )
            return -XEN_EINVAL;
        return domain_query(op, arg, compat);

    case XENMEM_add_to_physmap:
    case XENMEM_add_to_physmap_batch:
        return add_to_physmap(op, start_extent, arg, compat);

    case XENMEM_decrease_reservation:
        return decrease_reservation(start_extent, arg, compat);

    case XENMEM_increase_reservation:
    case XENMEM_populate_physmap:
        return populate(op, start_extent, arg, compat);

    case XENMEM_exchange:
        return memory_exchange(start_extent, arg, compat);

    default:
        return arch_memory_op(cmd, arg, compat);
    }
}

long do_memory_op(unsigned long cmd, unsigned long arg)
{
    return memory_op(cmd, arg, false);
}

/*
 * A 32-bit guest's: cmd is 32 bits wide (so is the start extent in it),
 * and the result an int, as Xen's compat_memory_op() clamps it (a
 * maximum_ram_page past INT_MAX reads as INT_MAX, not as a negative
 * error).
 */
long compat_memory_op(unsigned long cmd, unsigned long arg)
{
    long rc = memory_op((uint32_t)cmd, arg, true);

    return MAX(MIN(rc, (long)INT32_MAX), (long)INT32_MIN);
}
