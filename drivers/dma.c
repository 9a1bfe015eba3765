/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dma_alloc(): device-reachable memory from the frame allocator (dma.h),
 * each piece noted under the owner its driver's probe runs for, so that
 * a function the host takes away gives its memory back (dma_free_owner()).
 */
#include "drivers/dma.h"
#include "shim/console.h"
#include "shim/frame.h"
#include "shim/spinlock.h"

/*
 * Pieces of an owner: room for twenty-six disks and eight NICs of eight
 * queue pairs many times over; a piece past it is only never given back.
 */
#define DMA_PIECES  2048

bool dma_mb_tcg;

static struct {
    unsigned long pfn, nr;
    unsigned int owner;                 /* 0: a free entry */
} pieces[DMA_PIECES];
static unsigned int cur_owner;

unsigned int dma_owner_set(unsigned int owner)
{
    unsigned int old = cur_owner;

    cur_owner = owner;
    return old;
}

/* A piece of @nr frames from @pfn: noted under the current owner. */
static void note(unsigned long pfn, unsigned long nr)
{
    static bool warned;
    unsigned int i;

    if ( !cur_owner || pfn == INVALID_PFN )
        return;
    for ( i = 0; i < DMA_PIECES && pieces[i].owner; i++ )
        continue;
    if ( i == DMA_PIECES )
    {
        if ( !warned )
            printk(XENLOG_WARNING "dma: more than %u pieces: later ones "
                   "are kept for good\n", DMA_PIECES);
        warned = true;
        return;
    }
    pieces[i].pfn = pfn;
    pieces[i].nr = nr;
    pieces[i].owner = cur_owner;
}

unsigned long dma_free_owner(unsigned int owner)
{
    unsigned long freed = 0;
    unsigned int i;

    for ( i = 0; owner && i < DMA_PIECES; i++ )
    {
        if ( pieces[i].owner != owner )
            continue;
        /*
         * The driver's locks in it leave the lock profile first.  Cleared:
         * a driver given up at boot frees it before the guest is built,
         * whose frames the builder doesn't zero (bootscrub off), and its
         * rings hold the shim's addresses.
         */
        lock_profile_forget(__va(pieces[i].pfn << PAGE_SHIFT),
                            pieces[i].nr << PAGE_SHIFT);
        memset(__va(pieces[i].pfn << PAGE_SHIFT), 0,
               pieces[i].nr << PAGE_SHIFT);
        if ( !frames_free(pieces[i].pfn, pieces[i].nr) )
            freed += pieces[i].nr;
        pieces[i].owner = 0;
    }
    return freed;
}

/* @nr frames from @pfn zeroed, by their direct-map address; NULL if none. */
static void *dma_zeroed(unsigned long pfn, unsigned long nr)
{
    void *p;

    if ( !nr || pfn == INVALID_PFN )
        return NULL;
    p = __va(pfn << PAGE_SHIFT);
    memset(p, 0, nr << PAGE_SHIFT);
    return p;
}

void *dma_alloc_top(unsigned long bytes)
{
    unsigned long nr = ROUNDUP(bytes, PAGE_SIZE) >> PAGE_SHIFT;
    unsigned long pfn = nr ? frames_alloc_top(nr) : INVALID_PFN;

    note(pfn, nr);
    return dma_zeroed(pfn, nr);
}

void *dma_alloc(unsigned long bytes)
{
    unsigned long nr = ROUNDUP(bytes, PAGE_SIZE) >> PAGE_SHIFT;
    unsigned long pfn = nr ? frames_alloc(nr, 0, 0) : INVALID_PFN;

    note(pfn, nr);
    return dma_zeroed(pfn, nr);
}
