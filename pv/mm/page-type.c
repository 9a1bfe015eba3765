/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frame table's state machine (pv/mm/page-type.h): general and type
 * reference counts, validation, pinning and the TLB-flush stamp, after
 * Xen's get_page/put_page and _get_page_type/_put_page_type (x86 mm.c).
 */
#include "shim/lib.h"
#include <xen/errno.h>
#include "pv/mm/page-type.h"
#include "arch/x86/tlbflush.h"

/*
 * States of one frame's type (all others are shim bugs), with tc its
 * type count:
 *
 *   free of type   PGT_NONE, tc 0, no flags (STALE_TABLE possibly)
 *   writable       PGT_WRITABLE, tc >= 1, no flags
 *   seg_desc       PGT_SEG_DESC, tc >= 1, no flags
 *   validating     any type, tc 1, VALIDATING (+ PINNED if page_pin(),
 *                  + STALE_TABLE until the flush)
 *   validated      PGT_Lx, tc >= 1, VALIDATED (+ PINNED, + LOCKED:
 *                  page_lock()'s reference counted in tc)
 *   devalidating   PGT_Lx, tc 1, no flags
 *
 * As Xen's _get_page_type(), a frame being validated or devalidated
 * holds off a new reference of its type (PGT_BUSY: the caller waits for
 * the other CPU, or refuses if that is itself: a table that contains
 * itself), and the CPU that took a type is the only one to change the
 * frame until it is validated: so the flush and the checks happen with
 * no one else using the type.  Validation is not partial or preemptible,
 * and a page table whose last type reference goes is devalidated at
 * once: page_put_type() leaves it "devalidating" with the last reference
 * held by the caller's devalidation, so nothing can type it meanwhile, as
 * Xen keeps the count at 1 through _put_final_page_type().
 *
 * Every change is one cmpxchg of the word that holds it, so there is no
 * lock; the flush stamp is written by the CPU that ends a writable or
 * seg_desc type after the cmpxchg that makes its last reference ENDING
 * and before the store that ends it (a page table's by each CPU that
 * drops a reference a walk may follow, before the cmpxchg that drops it:
 * page_stamp_unlinked(), an atomic max), and read by the one that next
 * holds the frame VALIDATING (the cmpxchgs order them).
 *
 * A seg_desc frame is not validated here: the caller checks its
 * descriptors after taking the type (and after any flush its stamp
 * asks for), never before, so they can't change behind the check.
 */


/* *@x becomes @nx if it still is *@seen; else *@seen is what it is now. */
static bool cas(uint64_t *x, uint64_t *seen, uint64_t nx)
{
    return __atomic_compare_exchange_n(x, seen, nx, false, __ATOMIC_ACQ_REL,
                                       __ATOMIC_ACQUIRE);
}

bool page_change_owner(struct page_info *pg, enum page_owner from,
                       enum page_owner to)
{
    uint64_t x = page_cinfo(pg);

    do {
        if ( PAGE_OWNER(x) != from )
            return false;
    } while ( !cas(&pg->count_info, &x, PAGE_CINFO(to, PAGE_COUNT(x))) );
    return true;
}

bool page_release(struct page_info *pg, enum page_owner owner)
{
    uint64_t x = PAGE_CINFO(owner, 1);

    return cas(&pg->count_info, &x, PAGE_CINFO(PGO_NONE, 0));
}

/*
 * Does a type change to @type need the taker's attention first?  A page
 * table or descriptor frame is checked, after a flush of what may still
 * map it writable; any frame a page-table walk may still reach is
 * flushed before it is anything (writable above all).
 */
static bool needs_validating(enum page_type type, uint64_t x)
{
    return type != PGT_WRITABLE || (PAGE_FLAGS(x) & PGF_STALE_TABLE);
}

/* page_get_type(), and with @pin page_pin(): the flag in the same step. */
static int __hot_text get_type(struct page_info *pg, enum page_type type,
                               bool pin)
{
    uint64_t x = page_tinfo(pg), nx;
    unsigned int flags;
    int rc;

    do {
        flags = PAGE_FLAGS(x);
        if ( pin && (flags & PGF_PINNED) )
            return -XEN_EINVAL;
        if ( PAGE_TCOUNT(x) == 0 )
        {
            /*
             * A type change.  Any earlier type (writable included) has
             * ended, so no reference of it is left; its flush_stamp tells
             * the caller whether translations of it may remain.
             */
            if ( needs_validating(type, x) )
            {
                nx = PAGE_TINFO(type, 1, PGF_VALIDATING |
                                (flags & PGF_STALE_TABLE) |
                                (pin ? PGF_PINNED : 0));
                rc = PGT_VALIDATE;
            }
            else
            {
                nx = PAGE_TINFO(type, 1, 0);
                rc = PGT_OK;
            }
            continue;
        }
        /* Its last reference going (put_type()): wait, then take it. */
        if ( flags & PGF_ENDING )
            return PGT_BUSY;
        if ( PAGE_TYPE(x) != type || PAGE_TCOUNT(x) == PAGE_TYPE_COUNT_MAX )
            return -XEN_EINVAL;
        /* Being validated or devalidated: wait, or reaching itself. */
        if ( (flags & PGF_VALIDATING) ||
             (is_page_table_type(type) && !(flags & PGF_VALIDATED)) )
            return PGT_BUSY;
        nx = (x + 1) | (pin ? PAGE_TINFO(0, 0, PGF_PINNED) : 0);
        rc = PGT_OK;
    } while ( !cas(&pg->type_info, &x, nx) );
    return rc;
}

int __hot_text page_get_type(struct page_info *pg, enum page_type type)
{
    bool known = type > PGT_NONE && type < PGT_NR;

    ASSERT(known);
    if ( unlikely(!known) )
        return -XEN_EINVAL;
    return get_type(pg, type, false);
}

/*
 * Only the CPU that left a frame validating ends its validation, so
 * there is no one to race with: but a shim bug is caught, not believed.
 */
static bool is_validating(uint64_t x)
{
    return (PAGE_FLAGS(x) & PGF_VALIDATING) && PAGE_TCOUNT(x) == 1;
}

void page_dying_stamp(struct page_info *pg, uint64_t x)
{
    /* After every mapping of it went: each held a reference. */
    if ( PAGE_OWNER(x) == PGO_DYING )
        page_stamp_unlinked(pg, UNLINKED_NOW);
}

/* flush_stamp becomes @unlinked if that is later (an atomic max). */
void page_stamp_unlinked(struct page_info *pg, uint64_t unlinked)
{
    uint64_t seen;

    if ( !unlinked )
        return;
    if ( unlinked == UNLINKED_NOW )
        unlinked = tlbflush_stamp();    /* after the entry's removal */
    seen = __atomic_load_n(&pg->flush_stamp, __ATOMIC_RELAXED);
    while ( seen < unlinked &&
            !__atomic_compare_exchange_n(&pg->flush_stamp, &seen, unlinked,
                                         false, __ATOMIC_RELEASE,
                                         __ATOMIC_RELAXED) )
        ;
}

void __hot_text page_type_validated(struct page_info *pg)
{
    uint64_t x = page_tinfo(pg), nx;
    unsigned int flags;

    do {
        ASSERT(is_validating(x));
        if ( unlikely(!is_validating(x)) )
            return;
        flags = PAGE_FLAGS(x) & PGF_PINNED;
        if ( is_page_table_type(PAGE_TYPE(x)) )
            flags |= PGF_VALIDATED;
        nx = PAGE_TINFO(PAGE_TYPE(x), 1, flags);
    } while ( !cas(&pg->type_info, &x, nx) );
}

/*
 * The type was new (a frame validates only on a type change), so undoing
 * leaves no type; nothing used it yet, so there is nothing to stamp.  A
 * walk that could reach it still can as far as the next taker knows (the
 * caller may not have flushed: STALE_TABLE stays).  A pin taken with it
 * goes too.
 */
void page_type_invalid(struct page_info *pg)
{
    uint64_t x = page_tinfo(pg);

    do {
        ASSERT(is_validating(x));
        if ( unlikely(!is_validating(x)) )
            return;
    } while ( !cas(&pg->type_info, &x,
                   PAGE_TINFO(PGT_NONE, 0,
                              PAGE_FLAGS(x) & PGF_STALE_TABLE)) );
}

/*
 * May the caller drop a type reference?  It must hold one: not the one a
 * validation or devalidation holds, nor a pin's (page_unpin() drops
 * that) or a page lock's (page_unlock()).
 */
static bool holds_type_ref(uint64_t x)
{
    unsigned int flags = PAGE_FLAGS(x);

    if ( PAGE_TCOUNT(x) == 0 || (flags & PGF_VALIDATING) )
        return false;
    if ( is_page_table_type(PAGE_TYPE(x)) && !(flags & PGF_VALIDATED) )
        return false;
    return PAGE_TCOUNT(x) >
           (unsigned int)!!(flags & PGF_PINNED) + !!(flags & PGF_LOCKED);
}

/*
 * Is a pin there to drop?  Not while the pin's own validation runs: as
 * Xen, which sets the flag only once that is done, the guest's other
 * vCPUs see no pin until then.
 */
static bool holds_pin(uint64_t x)
{
    return (PAGE_FLAGS(x) & (PGF_PINNED | PGF_VALIDATING)) == PGF_PINNED;
}

/*
 * page_put_type(), and with @unpin page_unpin()'s: the flag with it.
 * 1: devalidate; 0: done; -1: no such reference; PUT_WAIT: only the page
 * lock's would be left (wait for the unlock, then ask again).
 */
#define PUT_WAIT    2

static int put_type(struct page_info *pg, bool unpin)
{
    uint64_t x = page_tinfo(pg), nx;
    bool ending;
    int rc;

    do {
        ending = false;
        if ( unpin ? !holds_pin(x) : !holds_type_ref(x) )
            return -1;
        nx = x & ~PAGE_TINFO(0, 0, unpin ? PGF_PINNED : 0);
        rc = 0;
        if ( PAGE_TCOUNT(x) == 2 && (PAGE_FLAGS(x) & PGF_LOCKED) )
            return PUT_WAIT;
        if ( PAGE_TCOUNT(x) > 1 )
            nx--;
        else if ( is_page_table_type(PAGE_TYPE(x)) )
        {
            /* Devalidating: the count stays 1 until page_type_released(). */
            nx = PAGE_TINFO(PAGE_TYPE(x), 1, 0);
            rc = 1;
        }
        else
        {
            /*
             * The type ends, stamped before anyone can take another, but
             * after the swap: a stamp taken before it could be older than
             * a mapping other CPUs made and dropped meanwhile, leaving the
             * word as it was (the swap would not see it), whose TLB entry
             * the next type's flush would then leave alone.  ENDING holds
             * off getters until the stamp is written.
             */
            nx = PAGE_TINFO(PAGE_TYPE(x), 1, PGF_ENDING);
            ending = true;
        }
    } while ( !cas(&pg->type_info, &x, nx) );
    if ( ending )
    {
        pg->flush_stamp = tlbflush_stamp();
        __atomic_store_n(&pg->type_info, PAGE_TINFO(PGT_NONE, 0, 0),
                         __ATOMIC_RELEASE);
    }
    return rc;
}

/* put_type(), waiting while only a page lock's reference would be left. */
static int put_type_wait(struct page_info *pg, bool unpin)
{
    int rc;

    while ( (rc = put_type(pg, unpin)) == PUT_WAIT )
        page_wait_relax();
    return rc;
}

bool __hot_text page_put_type(struct page_info *pg)
{
    int rc = put_type_wait(pg, false);

    ASSERT(rc >= 0);
    return rc > 0;
}

/*
 * The devalidation is over, the entries' references dropped: the type
 * ends, and a paging-structure cache that reached the frame before its
 * flush_stamp (page_stamp_unlinked()) may still walk through it until
 * its CPU's next full flush.  Only the devalidating CPU changes the frame.
 */
void page_type_released(struct page_info *pg)
{
    uint64_t x = page_tinfo(pg);
    bool devalidating;

    do {
        devalidating = is_page_table_type(PAGE_TYPE(x)) &&
                       PAGE_TCOUNT(x) == 1 && PAGE_FLAGS(x) == 0;
        ASSERT(devalidating);
        if ( unlikely(!devalidating) )
            return;
    } while ( !cas(&pg->type_info, &x,
                   PAGE_TINFO(PGT_NONE, 0, PGF_STALE_TABLE)) );
}

/*
 * Xen's MMUEXT_PIN_Lx_TABLE refuses a second pin with -EINVAL after
 * taking (and dropping) a type reference; refusing first leaves the same
 * state.
 */
int __hot_text page_pin(struct page_info *pg, enum page_type type)
{
    bool table = is_page_table_type(type);

    ASSERT(table);
    if ( unlikely(!table) )
        return -XEN_EINVAL;
    return get_type(pg, type, true);
}

/*
 * Xen's MMUEXT_UNPIN_TABLE: -EINVAL for a frame not pinned (or whose pin
 * is still being validated, by another vCPU).  A pin outlives its
 * validation only if that succeeded.
 */
int page_unpin(struct page_info *pg)
{
    uint64_t x = page_tinfo(pg);
    bool validated = !holds_pin(x) ||
                     ((PAGE_FLAGS(x) & PGF_VALIDATED) && PAGE_TCOUNT(x) &&
                      is_page_table_type(PAGE_TYPE(x)));
    int rc;

    ASSERT(validated);
    if ( unlikely(!validated) )
        return -XEN_EINVAL;
    rc = put_type_wait(pg, true);
    return rc < 0 ? -XEN_EINVAL : rc;
}
