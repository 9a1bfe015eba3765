/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frame table (pv/mm/frame-table.c): each machine frame's page_info,
 * the frames the guest is given and takes, and the general reference
 * that frees a frame the guest gave back when it is the last one.
 */
#ifndef PV_MM_FRAME_TABLE_H
#define PV_MM_FRAME_TABLE_H

#include "shim/lib.h"
#include "pv/mm/page-type.h"
#include "pv/vcpu/smp.h"

extern struct page_info *frame_table;
extern unsigned long frame_table_nr;

/* The frame's page_info, or NULL if @mfn is beyond the table. */
static inline struct page_info *mfn_to_page(unsigned long mfn)
{
    return mfn < frame_table_nr ? &frame_table[mfn] : NULL;
}

/*
 * May a walk of the guest's tables read frame @mfn as a table?  A
 * validated entry names a guest frame; one read as another vCPU unhooked
 * its table and reused the frame may name anything: never a frame past
 * RAM's end, device space or the shim's own.  The guest's, or one it
 * gave back while still referenced.
 */
static inline bool guest_table_frame(unsigned long mfn)
{
    const struct page_info *pg = mfn_to_page(mfn);

    return pg && (page_owner(pg) == PGO_GUEST ||
                  page_owner(pg) == PGO_DYING);
}

/*
 * Frames the guest's, uncounted: the builder's (which counts them
 * itself), the grant table's shared ones (never counted), and those
 * counted first by pv_mm_reserve_frames().
 */
void pv_mm_give_frame(unsigned long mfn);
void pv_mm_give_frames(unsigned long mfn, unsigned long nr);
/*
 * Later, frames the guest asks for: counted first, false and nothing
 * done if they would take it past its maximum reservation (Xen's
 * assign_pages()); then taken from the allocator and given with
 * pv_mm_give_frames(), or, if the allocator has none, uncounted.
 */
bool pv_mm_reserve_frames(unsigned long nr);
void pv_mm_unreserve_frames(unsigned long nr);
/*
 * Frames the caller has (holding page_alloc_lock: GNTTABOP_transfer)
 * the guest's and counted, unless that would pass its maximum.
 */
bool pv_mm_assign_frames_locked(unsigned long mfn, unsigned long nr);

/*
 * Frames the guest gave back (decrease_reservation) that nothing holds
 * any more: free them, after one flush.  Domain lock held; the exit to
 * the guest calls it when mm_dying_pending() says there are some.
 */
static inline bool mm_dying_pending(void)
{
    return ACCESS_ONCE(pv_exit_all) & EXIT_ALL_DYING;
}
void pv_mm_free_dying(void);

/*
 * Drop a general reference (page_unref()); a frame the guest gave back
 * goes to pv_mm_free_dying() with its last one (page_died()).  Xen's
 * put_page(); inline, as devalidation drops one per entry.
 */
void page_died(struct page_info *pg);

static inline void page_put(struct page_info *pg)
{
    if ( unlikely(page_unref(pg)) )
        page_died(pg);
}

#endif /* PV_MM_FRAME_TABLE_H */
