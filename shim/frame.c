/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frame allocator: one bit per 4 KiB frame below max_pfn, 1 = in use.
 * Frame 0 and everything the memory map does not call RAM stay in use.
 * Any CPU allocates and frees under heap_lock (Xen's), a leaf.
 */
#include "shim/frame.h"
#include "shim/memmap.h"
#include "shim/spinlock.h"

#define BITS_PER_WORD   (sizeof(unsigned long) * 8)
#define WORD(pfn)       ((pfn) / BITS_PER_WORD)
#define BIT(pfn)        ((pfn) % BITS_PER_WORD)

static struct {
    unsigned long *bitmap;
    unsigned long max_pfn;
    unsigned long nr_words;
    unsigned long total;        /* frames freed by frames_init() */
    unsigned long free;         /* frames free now */
    unsigned long hint;         /* every word below this one is full */
} fa;

/* The bitmap, the counters and the hint (Xen's heap_lock). */
static DEFINE_SPINLOCK(heap_lock, LOCK_RANK_HEAP);

/* The bits [lo, hi) of a word, 0 <= lo < hi <= BITS_PER_WORD. */
static unsigned long word_mask(unsigned int lo, unsigned int hi)
{
    unsigned long mask = ~0UL << lo;

    if ( hi < BITS_PER_WORD )
        mask &= ~(~0UL << hi);
    return mask;
}

/* The first pfn in [from, to) that is in use (@used) or free, else @to. */
static unsigned long find_next(unsigned long from, unsigned long to,
                               bool used)
{
    while ( from < to )
    {
        unsigned long w = fa.bitmap[WORD(from)];

        w = (used ? w : ~w) & (~0UL << BIT(from));
        if ( w )
            return MIN(ROUNDDOWN(from, BITS_PER_WORD) + __builtin_ctzl(w),
                       to);
        from = ROUNDDOWN(from, BITS_PER_WORD) + BITS_PER_WORD;
    }

    return to;
}

/* Mark frames [pfn, end) in use or free, a word at a time. */
static void set_range(unsigned long pfn, unsigned long end, bool used)
{
    while ( pfn < end )
    {
        unsigned long base = ROUNDDOWN(pfn, BITS_PER_WORD);
        unsigned int hi = MIN(end - base, BITS_PER_WORD);
        unsigned long mask = word_mask(BIT(pfn), hi);

        if ( used )
            fa.bitmap[WORD(pfn)] |= mask;
        else
            fa.bitmap[WORD(pfn)] &= ~mask;
        pfn = base + hi;
    }
}

/* Open-coded: __builtin_popcountl() wants libgcc without -mpopcnt. */
static unsigned int popcount(unsigned long w)
{
    w = w - ((w >> 1) & 0x5555555555555555UL);
    w = (w & 0x3333333333333333UL) + ((w >> 2) & 0x3333333333333333UL);
    w = (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0fUL;
    return (w * 0x0101010101010101UL) >> 56;
}

static unsigned long count_free(void)
{
    unsigned long i, n = 0;

    for ( i = 0; i < fa.nr_words; i++ )
        n += popcount(~fa.bitmap[i]);

    return n;
}

size_t frames_bitmap_bytes(unsigned long max_pfn)
{
    return ROUNDUP(max_pfn, BITS_PER_WORD) / 8;
}

void frames_init(unsigned long *bitmap, unsigned long max_pfn,
                 const struct memmap *m)
{
    unsigned long i;

    fa.bitmap = bitmap;
    fa.max_pfn = max_pfn;
    fa.nr_words = ROUNDUP(max_pfn, BITS_PER_WORD) / BITS_PER_WORD;
    fa.hint = 0;

    /* Everything in use, including the padding bits past max_pfn. */
    for ( i = 0; i < fa.nr_words; i++ )
        bitmap[i] = ~0UL;

    for ( i = 0; i < m->nr; i++ )
    {
        const struct memmap_entry *e = &m->map[i];
        uint64_t end = e->size > ~0ULL - e->addr ? ~0ULL : e->addr + e->size;
        unsigned long first, last;

        if ( e->type != MEMMAP_RAM || e->addr > ~0ULL - (PAGE_SIZE - 1) )
            continue;

        /* Whole pages only; never frame 0. */
        first = MAX(ROUNDUP(e->addr, PAGE_SIZE) >> PAGE_SHIFT, 1UL);
        last = MIN(end >> PAGE_SHIFT, max_pfn);
        set_range(first, last, false);
    }

    fa.total = fa.free = count_free();
}

static unsigned long align_up(unsigned long pfn, unsigned int order)
{
    unsigned long aligned = ROUNDUP(pfn, 1UL << order);

    return aligned < pfn ? INVALID_PFN : aligned;
}

/* The lowest free range of @nr frames, aligned, below @limit. */
static unsigned long find_range(unsigned long nr, unsigned int order,
                                unsigned long limit)
{
    unsigned long pfn = fa.hint * BITS_PER_WORD, used;

    for ( ;; )
    {
        pfn = align_up(find_next(pfn, limit, false), order);
        if ( pfn >= limit || nr > limit - pfn )
            return INVALID_PFN;

        used = find_next(pfn, pfn + nr, true);
        if ( used == pfn + nr )
            return pfn;
        pfn = used + 1;
    }
}

/* Frames [pfn, end) handed out: in use, and no longer counted free. */
static void take_range(unsigned long pfn, unsigned long end)
{
    set_range(pfn, end, true);
    fa.free -= end - pfn;
}

static unsigned long alloc_locked(unsigned long nr, unsigned int align_order,
                                  unsigned long limit_pfn)
{
    unsigned long limit = fa.max_pfn, pfn;

    if ( limit_pfn && limit_pfn < limit )
        limit = limit_pfn;
    if ( nr == 0 || align_order >= BITS_PER_WORD )
        return INVALID_PFN;

    if ( nr == 1 && align_order == 0 )
    {
        /* The fast path: the first free bit at or after the hint. */
        pfn = find_next(fa.hint * BITS_PER_WORD, limit, false);
        if ( pfn >= limit )
            return INVALID_PFN;
        fa.hint = WORD(pfn);
    }
    else
    {
        pfn = find_range(nr, align_order, limit);
        if ( pfn == INVALID_PFN )
            return INVALID_PFN;
    }

    take_range(pfn, pfn + nr);
    return pfn;
}

/* The highest free range of @nr frames. */
static unsigned long find_range_top(unsigned long nr)
{
    unsigned long end = fa.max_pfn, used;

    while ( end >= nr + 1 )
    {
        used = find_next(end - nr, end, true);
        if ( used == end )
            return end - nr;
        end = used;                     /* the range must end below it */
    }
    return INVALID_PFN;
}

unsigned long frames_alloc_top(unsigned long nr)
{
    unsigned long flags, pfn;

    spin_lock_irqsave(&heap_lock, flags);
    pfn = nr ? find_range_top(nr) : INVALID_PFN;
    if ( pfn != INVALID_PFN )
        take_range(pfn, pfn + nr);
    spin_unlock_irqrestore(&heap_lock, flags);
    return pfn;
}

unsigned long frames_alloc(unsigned long nr, unsigned int align_order,
                           unsigned long limit_pfn)
{
    unsigned long flags, pfn;

    spin_lock_irqsave(&heap_lock, flags);
    pfn = alloc_locked(nr, align_order, limit_pfn);
    spin_unlock_irqrestore(&heap_lock, flags);
    return pfn;
}

static unsigned long alloc_run_locked(unsigned long max_nr, unsigned long *nr)
{
    unsigned long pfn, end;

    *nr = 0;
    if ( max_nr == 0 )
        return INVALID_PFN;
    pfn = find_next(fa.hint * BITS_PER_WORD, fa.max_pfn, false);
    if ( pfn >= fa.max_pfn )
        return INVALID_PFN;
    fa.hint = WORD(pfn);
    end = find_next(pfn, pfn + MIN(max_nr, fa.max_pfn - pfn), true);

    take_range(pfn, end);
    *nr = end - pfn;
    return pfn;
}

unsigned long frames_alloc_run(unsigned long max_nr, unsigned long *nr)
{
    unsigned long flags, pfn;

    spin_lock_irqsave(&heap_lock, flags);
    pfn = alloc_run_locked(max_nr, nr);
    spin_unlock_irqrestore(&heap_lock, flags);
    return pfn;
}

static int free_locked(unsigned long pfn, unsigned long nr)
{
    if ( nr == 0 || pfn == 0 || pfn >= fa.max_pfn || nr > fa.max_pfn - pfn )
        return -1;
    if ( find_next(pfn, pfn + nr, false) != pfn + nr )
        return -1;                  /* double free */

    set_range(pfn, pfn + nr, false);
    fa.free += nr;
    fa.hint = MIN(fa.hint, WORD(pfn));
    return 0;
}

int frames_free(unsigned long pfn, unsigned long nr)
{
    unsigned long flags;
    int rc;

    spin_lock_irqsave(&heap_lock, flags);
    rc = free_locked(pfn, nr);
    spin_unlock_irqrestore(&heap_lock, flags);
    return rc;
}

unsigned long frames_total(void)
{
    return fa.total;
}

unsigned long frames_free_count(void)
{
    return fa.free;
}

unsigned long frames_max_pfn(void)
{
    return fa.max_pfn;
}

bool frame_is_free(unsigned long pfn)
{
    return pfn < fa.max_pfn && !(fa.bitmap[WORD(pfn)] & (1UL << BIT(pfn)));
}

bool frames_check(void)
{
    unsigned long i;

    if ( fa.max_pfn == 0 )
        return fa.free == 0 && fa.total == 0;

    if ( !(fa.bitmap[0] & 1) )
        return false;               /* frame 0 handed out */
    if ( BIT(fa.max_pfn) &&
         ~fa.bitmap[fa.nr_words - 1] & word_mask(BIT(fa.max_pfn),
                                                 BITS_PER_WORD) )
        return false;               /* a frame past max_pfn is free */
    for ( i = 0; i < fa.hint && i < fa.nr_words; i++ )
        if ( ~fa.bitmap[i] )
            return false;           /* a free frame below the hint */

    return fa.hint <= fa.nr_words && fa.free <= fa.total &&
           count_free() == fa.free;
}
