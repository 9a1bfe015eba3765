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
 * States of one frame (all others are shim bugs), with tc its type count:
 *
 *   free of type   PGT_NONE, tc 0, no flags
 *   writable       PGT_WRITABLE, tc >= 1, no flags
 *   seg_desc       PGT_SEG_DESC, tc >= 1, no flags
 *   validating     PGT_Lx, tc 1, VALIDATING (+ PINNED if page_pin())
 *   validated      PGT_Lx, tc >= 1, VALIDATED (+ PINNED)
 *   devalidating   PGT_Lx, tc 1, no flags
 *
 * Unlike Xen, nothing here waits: a frame being validated or devalidated
 * refuses a new reference of its own type (Xen spins until the other CPU
 * is done; on one CPU that CPU is us, so it is a table that reaches
 * itself).  Validation is not partial or preemptible, and a page table
 * whose last type reference goes is devalidated at once: page_put_type()
 * leaves it "devalidating" with the last reference held by the caller's
 * devalidation, so nothing can type it meanwhile, as Xen keeps the count
 * at 1 through _put_final_page_type().  No state but struct page_info and
 * the flush clock: one lock around each call makes this SMP-safe.
 *
 * A seg_desc frame is not validated here: the caller checks its
 * descriptors after taking the type (and after any flush its stamp
 * asks for), never before, so they can't change behind the check.
 */

/*
 * Ceilings: a get at the ceiling is refused, so no count ever wraps.  A
 * type count overflow is -XEN_EINVAL, as Xen's _get_page_type() returns
 * ("Type count overflow"); a guest can't reach either with real memory.
 */
#define PAGE_COUNT_MAX      UINT32_MAX
#define PAGE_TYPE_COUNT_MAX UINT32_MAX

/* The type has ended (its count is 0): the frame is free of type. */
static void type_ended(struct page_info *pg)
{
    pg->type = PGT_NONE;
    pg->type_count = 0;
    pg->flags = 0;
    pg->flush_stamp = tlbflush_stamp();
}

/*
 * Xen's get_page(): no reference on a frame that isn't @owner's, that no
 * one owns, that was given back (PGO_DYING: stricter than Xen, which
 * still counts new ones on a frame that lost its allocation), or that has
 * none left (count 0: not allocated, or being freed; whoever assigns a
 * frame sets its owner and first reference).
 */
bool page_get(struct page_info *pg, enum page_owner owner)
{
    if ( owner == PGO_NONE || owner == PGO_DYING || pg->owner != owner )
        return false;
    if ( pg->count == 0 || pg->count == PAGE_COUNT_MAX )
        return false;
    pg->count++;
    return true;
}

int page_get_type(struct page_info *pg, enum page_type type)
{
    bool known = type > PGT_NONE && type < PGT_NR;

    ASSERT(known);
    if ( unlikely(!known) )
        return -XEN_EINVAL;

    if ( pg->type_count == 0 )
    {
        /*
         * A type change.  Any earlier type (writable included) has ended,
         * so no reference of it is left; its flush_stamp tells the
         * caller whether translations of it may remain.
         */
        pg->type = type;
        pg->type_count = 1;
        if ( !is_page_table_type(type) )
        {
            pg->flags = 0;
            return PGT_OK;
        }
        pg->flags = PGF_VALIDATING;
        return PGT_VALIDATE;
    }

    if ( pg->type != type || pg->type_count == PAGE_TYPE_COUNT_MAX )
        return -XEN_EINVAL;
    /* Being validated or devalidated: the caller is reaching itself. */
    if ( is_page_table_type(type) && !(pg->flags & PGF_VALIDATED) )
        return -XEN_EINVAL;

    pg->type_count++;
    return PGT_OK;
}

/* Only a frame page_get_type() left validating ends its validation. */
static bool is_validating(const struct page_info *pg)
{
    return (pg->flags & PGF_VALIDATING) && pg->type_count == 1;
}

void page_type_validated(struct page_info *pg)
{
    bool validating = is_validating(pg);

    ASSERT(validating);
    if ( unlikely(!validating) )
        return;
    pg->flags = (pg->flags & ~PGF_VALIDATING) | PGF_VALIDATED;
}

/*
 * The type was new (a frame validates only on a type change), so undoing
 * leaves no type; nothing used it yet, so there is nothing to stamp.  A
 * pin taken with it goes too.
 */
void page_type_invalid(struct page_info *pg)
{
    bool validating = is_validating(pg);

    ASSERT(validating);
    if ( unlikely(!validating) )
        return;
    pg->type = PGT_NONE;
    pg->type_count = 0;
    pg->flags = 0;
}

/*
 * May the caller drop a type reference?  It must hold one: not the one a
 * validation or devalidation holds, and not the last one of a pin
 * (page_unpin() drops that).
 */
static bool holds_type_ref(const struct page_info *pg)
{
    if ( pg->type_count == 0 || (pg->flags & PGF_VALIDATING) )
        return false;
    if ( is_page_table_type(pg->type) && !(pg->flags & PGF_VALIDATED) )
        return false;
    return !(pg->flags & PGF_PINNED) || pg->type_count > 1;
}

bool page_put_type(struct page_info *pg)
{
    bool held = holds_type_ref(pg);

    ASSERT(held);
    if ( unlikely(!held) )
        return false;

    if ( pg->type_count > 1 )
    {
        pg->type_count--;
        return false;
    }
    if ( is_page_table_type(pg->type) )
    {
        /* Devalidating: the count stays 1 until page_type_released(). */
        pg->flags &= ~PGF_VALIDATED;
        return true;
    }
    type_ended(pg);
    return false;
}

void page_type_released(struct page_info *pg)
{
    bool devalidating = is_page_table_type(pg->type) &&
                        pg->type_count == 1 && pg->flags == 0;

    ASSERT(devalidating);
    if ( unlikely(!devalidating) )
        return;
    type_ended(pg);
}

/*
 * Xen's MMUEXT_PIN_Lx_TABLE refuses a second pin with -EINVAL after
 * taking (and dropping) a type reference; refusing first leaves the same
 * state.
 */
int page_pin(struct page_info *pg, enum page_type type)
{
    bool table = is_page_table_type(type);
    int rc;

    ASSERT(table);
    if ( unlikely(!table) || (pg->flags & PGF_PINNED) )
        return -XEN_EINVAL;

    rc = page_get_type(pg, type);
    if ( rc >= 0 )
        pg->flags |= PGF_PINNED;
    return rc;
}

/* Before or after page_type_invalid(): only a failed pin has this to do. */
void page_pin_abort(struct page_info *pg)
{
    bool failed = pg->type_count == 0 || is_validating(pg);

    ASSERT(failed);
    if ( unlikely(!failed) )
        return;
    pg->flags &= ~PGF_PINNED;
}

/* Xen's MMUEXT_UNPIN_TABLE: -EINVAL for a frame not pinned. */
int page_unpin(struct page_info *pg)
{
    bool validated;

    if ( !(pg->flags & PGF_PINNED) )
        return -XEN_EINVAL;

    /* A pin outlives its validation only if that succeeded. */
    validated = (pg->flags & PGF_VALIDATED) && pg->type_count != 0 &&
                is_page_table_type(pg->type);
    ASSERT(validated);
    if ( unlikely(!validated) )
        return -XEN_EINVAL;

    pg->flags &= ~PGF_PINNED;
    return page_put_type(pg) ? 1 : 0;
}
