/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frame table: one struct page_info per machine frame (its counts
 * and type are pv/mm/page-type.c's rules), who owns each frame, the
 * frames the guest is given and takes, and those it gave back, which
 * wait, dying, for a flush before they return to the allocator.
 */
#include "shim/lib.h"
#include "arch/x86/flush.h"
#include "arch/x86/page.h"
#include "arch/x86/tlbflush.h"
#include "pv/domain.h"
#include "pv/mm/frame-table.h"
#include "pv/mm/guest-flush.h"
#include "pv/mm/m2p.h"
#include "pv/mm/mm.h"
#include "pv/mm/private.h"
#include "pv/vcpu/smp.h"
#include "shim/console.h"
#include "shim/frame.h"
#include "shim/memmap.h"
#include "shim/panic.h"

struct page_info *__read_mostly frame_table;
unsigned long __read_mostly frame_table_nr;

static bool owned_type(uint32_t type)
{
    return type == MEMMAP_RAM || type == MEMMAP_SHIM ||
           type == MEMMAP_MODULE || type == MEMMAP_ALLOC;
}

static void mark_io_range(unsigned long mfn, unsigned long end)
{
    for ( end = MIN(end, frame_table_nr); mfn < end; mfn++ )
        page_set_cinfo(&frame_table[mfn], PGO_IO, 0);
}

/*
 * Frames the memory map doesn't call RAM are I/O space, as Xen's dom_io;
 * the table starts zeroed (PGO_NONE), so only the holes are written.  The
 * map is sorted and its ranges don't overlap (memmap_sanitise()).  A frame
 * a range starts inside is the range's, one it ends inside is not.
 */
static void mark_io(const struct memmap *m)
{
    unsigned long next = 0;             /* first frame not yet decided */
    unsigned int i;

    for ( i = 0; i < m->nr; i++ )
    {
        const struct memmap_entry *e = &m->map[i];
        unsigned long first = e->addr >> PAGE_SHIFT;
        unsigned long last = (e->addr + e->size) >> PAGE_SHIFT;

        if ( !owned_type(e->type) || last <= first )
            continue;
        mark_io_range(next, first);
        next = MAX(next, last);
    }
    mark_io_range(next, frame_table_nr);
}

void frame_table_init(const struct memmap *m)
{
    unsigned long bytes, pfn;

    frame_table_nr = frames_max_pfn();
    bytes = ROUNDUP(frame_table_nr * sizeof(*frame_table), PAGE_SIZE);
    pfn = frames_alloc(bytes >> PAGE_SHIFT, 0, 0);
    if ( pfn == INVALID_PFN )
        panic("no room for a %lu KiB frame table", bytes >> 10);
    frame_table = __va(pfn << PAGE_SHIFT);
    memset(frame_table, 0, bytes);
    mark_io(m);
    printk("Frame table: %lu frames, %lu KiB\n", frame_table_nr,
           bytes >> 10);
}

void pv_mm_give_frame(unsigned long mfn)
{
    pv_mm_give_frames(mfn, 1);
}

/* Frames no one owns become the guest's. */
static void give_locked(unsigned long mfn, unsigned long nr)
{
    struct page_info *pg = mfn_to_page(mfn), *end = pg + nr;

    ASSERT(spin_is_locked_by_me(&dom.page_alloc_lock));
    ASSERT(pg && nr <= frame_table_nr - mfn);
    for ( ; pg < end; pg++ )
    {
        ASSERT(page_cinfo(pg) == PAGE_CINFO(PGO_NONE, 0) &&
               !page_type_count(pg));
        page_set_cinfo(pg, PGO_GUEST, 1);   /* the allocation's reference */
    }
}

/* The guest's frames, uncounted (frame-table.h). */
void pv_mm_give_frames(unsigned long mfn, unsigned long nr)
{
    spin_lock(&dom.page_alloc_lock);
    give_locked(mfn, nr);
    spin_unlock(&dom.page_alloc_lock);
}

/*
 * Frames the guest asked for (increase_reservation, populate_physmap),
 * as Xen's assign_pages(): counted in tot_pages, which may not pass the
 * domain's maximum (max_pages: what it was built with, or less once the
 * host's balloon took some, backends/balloon.c).  That bounds what a
 * guest can take from the allocator to what it gave back, so the shim's
 * own reserve stays the shim's and the host's the host's.
 */
bool pv_mm_assign_frames_locked(unsigned long mfn, unsigned long nr)
{
    ASSERT(spin_is_locked_by_me(&dom.page_alloc_lock));
    if ( dom.tot_pages > dom.max_pages || nr > dom.max_pages - dom.tot_pages )
        return false;
    give_locked(mfn, nr);
    dom.tot_pages += nr;
    return true;
}

/*
 * @nr frames counted in tot_pages before they are taken from the
 * allocator (false: that would pass max_pages), so a guest at its
 * maximum takes nothing from the shim's reserve, not even for a moment
 * (each of its vCPUs could hold an order-9 extent so, all of them most
 * of the reserve, while the shim's own allocations fail); then given
 * with pv_mm_give_frames(), or the count taken back.
 */
bool pv_mm_reserve_frames(unsigned long nr)
{
    bool ok;

    spin_lock(&dom.page_alloc_lock);
    ok = dom.tot_pages <= dom.max_pages && nr <= dom.max_pages - dom.tot_pages;
    if ( ok )
        dom.tot_pages += nr;
    spin_unlock(&dom.page_alloc_lock);
    return ok;
}

void pv_mm_unreserve_frames(unsigned long nr)
{
    spin_lock(&dom.page_alloc_lock);
    dom.tot_pages -= nr;
    spin_unlock(&dom.page_alloc_lock);
}

/*
 * Frames the guest gave back whose last reference is gone (PGO_DYING,
 * count 0), waiting for pv_mm_free_dying(): a TLB may still translate to
 * one, so they return to the allocator only once every CPU that ran the
 * guest has flushed since the frame died (its flush_stamp, then).  Past
 * the queue's size, a scan of the frame table finds the rest.  The queue
 * is page_alloc_lock's: a frame dies wherever its last reference goes.
 */
#define NR_DYING    64
static unsigned long dying[NR_DYING];
static unsigned int nr_dying;
static bool dying_overflow;

static void queue_dying_locked(unsigned long mfn)
{
    ASSERT(spin_is_locked_by_me(&dom.page_alloc_lock));
    if ( nr_dying < NR_DYING )
        dying[nr_dying++] = mfn;
    else
        dying_overflow = true;
    __atomic_fetch_or(&pv_exit_all, EXIT_ALL_DYING, __ATOMIC_RELAXED);
}

static void queue_dying(unsigned long mfn)
{
    spin_lock(&dom.page_alloc_lock);
    queue_dying_locked(mfn);
    spin_unlock(&dom.page_alloc_lock);
}

/*
 * page_put()'s rare half: the state machine said the frame died.  Its
 * flush_stamp was written before (page_unref()'s page_dying_stamp()), so
 * an overflow scan that finds it dead first reads a stamp taken after
 * its last mapping went, never an older one of a read-only mapping's
 * time, which would let the frame go back while a CPU still has it in
 * its TLB.
 */
void page_died(struct page_info *pg)
{
    queue_dying(pg - frame_table);
}

/*
 * A dying frame every CPU that may have run the guest has flushed since
 * it died goes back to the allocator; one that died after the flush
 * began waits for the next (it goes back on the queue).  The look at its
 * stamp and the claim (dying -> no one's) are one step under
 * page_alloc_lock: a frame both queued and found by a scan, or queued
 * twice because it died again after it was freed and given out, is
 * freed once, and never on the stamp of a death before its last (the
 * lock keeps it from being freed, given out and dying again between the
 * look and the claim; its stamp is written before its count reaches 0).
 * Only a frame no one references goes: a type reference left over (a
 * shim bug) leaks the frame instead, and says so.
 */
static void free_if_flushed(unsigned long mfn)
{
    struct page_info *pg = &frame_table[mfn];
    unsigned int type_count = 0;

    spin_lock(&dom.page_alloc_lock);
    if ( page_cinfo(pg) != PAGE_CINFO(PGO_DYING, 0) )
        goto out;                       /* freed already */
    if ( pv_flush_filter(pv_guest_cpus(), pg->flush_stamp) )
    {
        queue_dying_locked(mfn);
        goto out;
    }
    type_count = page_type_count(pg);
    if ( unlikely(type_count) ||
         !page_change_owner(pg, PGO_DYING, PGO_NONE) )
        goto out;
    page_set_tinfo(pg, PGT_NONE, 0, 0);
    pg->flush_stamp = 0;
    pg->linear_pt_count = 0;
    dom.tot_pages--;
    spin_unlock(&dom.page_alloc_lock);
    /*
     * Its M2P entry went when it was given back; again, as an
     * MMU_MACHPHYS_UPDATE holding a reference then may have set it since.
     */
    pv_m2p_set(mfn, ~0UL);
    frames_free(mfn, 1);
    return;
 out:
    spin_unlock(&dom.page_alloc_lock);
    ASSERT(!type_count);
    if ( unlikely(type_count) )
        printk(XENLOG_ERR "d1: mfn %#lx given back still in use (owner %u "
               "count %u type %u/%u): not freed\n", mfn, page_owner(pg),
               page_count(pg), page_type(pg), type_count);
}

/*
 * One flush, then the frames that died before it are free.  Any CPU, with
 * no lock held but its own (the flush waits with interrupts on): the
 * queue is taken whole first, under page_alloc_lock, so two CPUs free
 * different batches, and frames dying meanwhile queue for the next
 * round; two overflow scans meeting one frame free it once
 * (free_if_flushed()'s claim), and one that re-queues a frame the other
 * freed leaves an entry the next round skips (free_if_flushed()).
 */
void pv_mm_free_dying(void)
{
    unsigned long mfn, batch[NR_DYING];
    unsigned int n, i;
    bool overflow;

    ASSERT(!pv_holds_table_lock());
    if ( !mm_dying_pending() )
        return;
    pv_flush_domain(0, FLUSH_TLB_GLOBAL);

    spin_lock(&dom.page_alloc_lock);
    n = nr_dying;
    memcpy(batch, dying, n * sizeof(*batch));
    nr_dying = 0;
    overflow = dying_overflow;
    dying_overflow = false;
    __atomic_fetch_and(&pv_exit_all, ~EXIT_ALL_DYING, __ATOMIC_RELAXED);
    spin_unlock(&dom.page_alloc_lock);

    for ( i = 0; i < n; i++ )
        free_if_flushed(batch[i]);
    if ( overflow )
        for ( mfn = 0; mfn < frame_table_nr; mfn++ )
            if ( page_cinfo(&frame_table[mfn]) == PAGE_CINFO(PGO_DYING, 0) )
                free_if_flushed(mfn);
}
