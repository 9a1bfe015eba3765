/* SPDX-License-Identifier: GPL-2.0-only */
/* dma_alloc(): device-reachable memory from the frame allocator (dma.h). */
#include "drivers/dma.h"
#include "shim/frame.h"

bool dma_mb_tcg;

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

    return dma_zeroed(frames_alloc_top(nr), nr);
}

void *dma_alloc(unsigned long bytes)
{
    unsigned long nr = ROUNDUP(bytes, PAGE_SIZE) >> PAGE_SHIFT;

    return dma_zeroed(frames_alloc(nr, 0, 0), nr);
}
