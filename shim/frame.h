/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frame allocator: hands out 4 KiB machine frames, singly or as
 * contiguous aligned ranges, from the RAM the memory map leaves free.
 */
#ifndef SHIM_FRAME_H
#define SHIM_FRAME_H

#include "shim/lib.h"

#define PAGE_SHIFT 12
#define PAGE_SIZE  (1UL << PAGE_SHIFT)
#define L2_SHIFT   21                   /* a 2 MiB page (an L2 entry's) */
#define L2_SIZE    (1UL << L2_SHIFT)
#define INVALID_PFN (~0UL)

struct memmap;

/*
 * Bytes of bitmap needed to track frames [0, max_pfn); the caller finds
 * and reserves that much memory, then calls frames_init() with it.
 */
size_t frames_bitmap_bytes(unsigned long max_pfn);

/* Start with every frame in use, then free the RAM ranges of @m. */
void frames_init(unsigned long *bitmap, unsigned long max_pfn,
                 const struct memmap *m);

/*
 * Free frames [pfn, pfn + nr), which must all be in use.  -1, changing
 * nothing, if the range is empty, touches frame 0, runs past max_pfn or
 * holds a frame that is already free (a double free).  The bitmap cannot
 * tell an allocated frame from one that was never RAM: free only what
 * frames_alloc() handed out.
 */
int frames_free(unsigned long pfn, unsigned long nr);

/*
 * Allocate nr contiguous frames whose first pfn is a multiple of
 * 1 << align_order, below limit_pfn (0: no limit).  INVALID_PFN if none.
 */
unsigned long frames_alloc(unsigned long nr, unsigned int align_order,
                           unsigned long limit_pfn);
/* The same from the top of memory down, unaligned: INVALID_PFN if none. */
unsigned long frames_alloc_top(unsigned long nr);
/*
 * The lowest free frames as one run, up to @max_nr of them: the first
 * pfn, and in *@nr how many (0 and INVALID_PFN when nothing is free).
 * For handing out memory by the GiB: a word of the bitmap at a time.
 */
unsigned long frames_alloc_run(unsigned long max_nr, unsigned long *nr);

static inline unsigned long frame_alloc(void)
{
    return frames_alloc(1, 0, 0);
}

/* Accounting. */
unsigned long frames_total(void);   /* frames that were ever free */
unsigned long frames_free_count(void);
unsigned long frames_max_pfn(void);
bool frame_is_free(unsigned long pfn);

/*
 * Consistency check (tests, debug keys): recount the free bits and compare
 * with the counters; check frame 0, the bits past max_pfn and the search
 * hint.  True if all is well.
 */
bool frames_check(void);

#endif /* SHIM_FRAME_H */
