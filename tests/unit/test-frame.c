/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of shim/frame.c, the bitmap frame allocator, over memory maps
 * built with shim/memmap.c.
 */
#include "tests/unit/unit.h"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "../../shim/spinlock.c"   /* heap_lock */
#include "tests/unit/log-capture.h"
#include "../../shim/memmap.c"
#include "../../shim/frame.c"

#define MB(x)       ((uint64_t)(x) << 20)
#define MAX_FRAMES  0x10000UL

/* heap_lock's profiling clock (profiling is never on here). */
uint64_t now_ns(void)
{
    return 0;
}

static unsigned long bitmap[MAX_FRAMES / 64];
static struct memmap m;
static bool seen[MAX_FRAMES];

/* Is all of frame @pfn RAM in the map? */
static bool ram_frame(unsigned long pfn)
{
    uint64_t a = (uint64_t)pfn << PAGE_SHIFT;
    unsigned int i;

    for ( i = 0; i < m.nr; i++ )
        if ( m.map[i].type == MEMMAP_RAM && a >= m.map[i].addr &&
             a + PAGE_SIZE <= m.map[i].addr + m.map[i].size )
            return true;
    return false;
}

static unsigned long count_ram(unsigned long max_pfn)
{
    unsigned long pfn, n = 0;

    for ( pfn = 1; pfn < max_pfn; pfn++ )
        n += ram_frame(pfn);
    return n;
}

/* A QEMU-like map of 128 MiB, with the shim and its bitmap carved out. */
static void init_qemu(unsigned long max_pfn)
{
    memset(&m, 0, sizeof(m));
    memmap_add(&m, 0, 0x9fc00, MEMMAP_RAM);
    memmap_add(&m, 0x9fc00, 0x400, MEMMAP_RESERVED);
    memmap_add(&m, 0xf0000, 0x10000, MEMMAP_RESERVED);
    memmap_add(&m, 0x100000, 0x7ee0000, MEMMAP_RAM);
    memmap_add(&m, 0x7fe0000, 0x20000, MEMMAP_RESERVED);
    memmap_add(&m, 0xfffc0000, 0x40000, MEMMAP_RESERVED);
    memmap_sanitise(&m);
    memmap_reserve(&m, MB(1), MB(2) + 0x123, MEMMAP_SHIM);
    memmap_reserve(&m, MB(16), frames_bitmap_bytes(max_pfn), MEMMAP_ALLOC);
    memset(bitmap, 0x5a, sizeof(bitmap));
    frames_init(bitmap, max_pfn, &m);
}

/* A single RAM range [1, nr) of frames, and frame 0. */
static void init_flat(unsigned long max_pfn)
{
    memset(&m, 0, sizeof(m));
    memmap_add(&m, 0, (uint64_t)max_pfn << PAGE_SHIFT, MEMMAP_RAM);
    memset(bitmap, 0, sizeof(bitmap));
    frames_init(bitmap, max_pfn, &m);
}

static void test_uninitialised(void)
{
    CHECK_EQ(frame_alloc(), INVALID_PFN);
    CHECK_EQ(frames_alloc(4, 2, 0), INVALID_PFN);
    CHECK_EQ(frames_free(1, 1), -1);
    CHECK(!frame_is_free(0));
    CHECK_EQ(frames_total(), 0);
    CHECK_EQ(frames_free_count(), 0);
    CHECK(frames_check());
}

static void test_bitmap_bytes(void)
{
    CHECK_EQ(frames_bitmap_bytes(0), 0);
    CHECK_EQ(frames_bitmap_bytes(1), 8);
    CHECK_EQ(frames_bitmap_bytes(64), 8);
    CHECK_EQ(frames_bitmap_bytes(65), 16);
    CHECK_EQ(frames_bitmap_bytes(1UL << 20), 1UL << 17);
}

/* Every RAM frame once, nothing else, then exhaustion. */
static void test_every_frame_once(void)
{
    unsigned long pfn, n = 0, prev = 0, max_pfn = 0x8000;

    init_qemu(max_pfn);
    CHECK(frames_check());
    CHECK_EQ(frames_max_pfn(), max_pfn);
    CHECK_EQ(frames_total(), count_ram(max_pfn));
    CHECK_EQ(frames_free_count(), frames_total());
    CHECK(!frame_is_free(0));
    CHECK(!frame_is_free(0x9f));                /* partial page */
    CHECK(!frame_is_free(0x100));               /* the shim */
    CHECK(!frame_is_free(0x1000));              /* the bitmap */
    CHECK(frame_is_free(0x1001));

    memset(seen, 0, sizeof(seen));
    while ( (pfn = frame_alloc()) != INVALID_PFN )
    {
        if ( pfn == 0 || pfn >= max_pfn || seen[pfn] || !ram_frame(pfn) ||
             pfn < prev )
        {
            CHECK(!"bad frame");
            printf("  pfn %#lx\n", pfn);
            break;
        }
        seen[pfn] = true;
        prev = pfn;
        n++;
        CHECK(!frame_is_free(pfn));
    }
    CHECK_EQ(n, frames_total());
    CHECK_EQ(frames_free_count(), 0);
    CHECK_EQ(frame_alloc(), INVALID_PFN);
    CHECK_EQ(frames_alloc(2, 0, 0), INVALID_PFN);
    CHECK(frames_check());
}

/*
 * frames_alloc_run(): runs in ascending order, each as long as the free
 * space (or max_nr) allows, together every free frame exactly once, the
 * same frames frame_alloc() would give; holes and frames freed in the
 * middle end a run; max_nr 0 gives nothing.
 */
static void test_alloc_run(void)
{
    unsigned long pfn, nr, n = 0, runs = 0, next = 0, max_pfn = 0x8000;
    unsigned long caps[] = { 1, 7, 64, 100, 1000, ~0UL }, i;

    for ( i = 0; i < ARRAY_SIZE(caps); i++ )
    {
        init_qemu(max_pfn);
        n = runs = next = 0;
        memset(seen, 0, sizeof(seen));
        CHECK_EQ(frames_alloc_run(0, &nr), INVALID_PFN);
        CHECK_EQ(nr, 0);
        while ( (pfn = frames_alloc_run(caps[i], &nr)) != INVALID_PFN )
        {
            unsigned long j;

            CHECK(nr >= 1 && nr <= caps[i]);
            CHECK(pfn >= next);
            for ( j = pfn; j < pfn + nr; j++ )
            {
                CHECK(ram_frame(j) && !seen[j] && !frame_is_free(j));
                seen[j] = true;
            }
            /* A run shorter than asked ends at a frame in use. */
            if ( nr < caps[i] && pfn + nr < max_pfn )
                CHECK(!ram_frame(pfn + nr) || seen[pfn + nr]);
            next = pfn + nr;
            n += nr;
            runs++;
        }
        CHECK_EQ(nr, 0);
        CHECK_EQ(n, frames_total());
        CHECK_EQ(frames_free_count(), 0);
        CHECK(frames_check());
    }
    /* Unlimited: one run per stretch of free RAM (around shim, bitmap). */
    CHECK_EQ(runs, 3);

    /* A frame freed in a run's way splits it. */
    init_flat(0x1000);
    CHECK_EQ(frame_alloc(), 1);
    CHECK_EQ(frames_alloc(1, 0, 0x101), 2);
    CHECK_EQ(frames_free(1, 1), 0);
    CHECK_EQ(frames_alloc_run(~0UL, &nr), 1);
    CHECK_EQ(nr, 1);
    CHECK_EQ(frames_alloc_run(~0UL, &nr), 3);
    CHECK_EQ(nr, 0x1000 - 3);
    CHECK(frames_check());
}

/* max_pfn below or above the end of RAM, and not a multiple of 64. */
static void test_max_pfn(void)
{
    unsigned long pfn, n = 0;

    init_qemu(0x1234);
    CHECK_EQ(frames_total(), count_ram(0x1234));
    while ( (pfn = frame_alloc()) != INVALID_PFN )
    {
        CHECK(pfn < 0x1234);
        n++;
    }
    CHECK_EQ(n, frames_total());
    CHECK(frames_check());

    init_qemu(MAX_FRAMES - 3);
    CHECK_EQ(frames_total(), count_ram(0x8000));
    CHECK_EQ(frames_alloc(1, 0, 0x7000), 0x1);
    CHECK(frames_check());

    init_qemu(0);
    CHECK_EQ(frames_total(), 0);
    CHECK_EQ(frame_alloc(), INVALID_PFN);
    CHECK(frames_check());
}

/* frames_init() copes with a map nobody sanitised: whole pages only. */
static void test_raw_map(void)
{
    unsigned long pfn;

    memset(&m, 0, sizeof(m));
    m.map[m.nr++] = (struct memmap_entry){ 0x1800, 0x4000, MEMMAP_RAM };
    m.map[m.nr++] = (struct memmap_entry){ 0x3000, 0x1000, MEMMAP_RAM };
    m.map[m.nr++] = (struct memmap_entry){ 0x7000, 0x1000, MEMMAP_NVS };
    m.map[m.nr++] = (struct memmap_entry){ 0x9000, 0x0fff, MEMMAP_RAM };
    m.map[m.nr++] = (struct memmap_entry){ 0x20000, ~0ULL, MEMMAP_RAM };
    m.map[m.nr++] = (struct memmap_entry){ ~0ULL - 5, 100, MEMMAP_RAM };
    frames_init(bitmap, 0x22, &m);
    CHECK_EQ(frames_total(), 3 + 2);
    for ( pfn = 0; pfn < 0x22; pfn++ )
        CHECK_EQ(frame_is_free(pfn),
                 (pfn >= 2 && pfn < 5) || pfn >= 0x20);
    CHECK(frames_check());
}

static void test_bad_alloc(void)
{
    init_flat(1024);
    CHECK_EQ(frames_total(), 1023);
    CHECK_EQ(frames_alloc(0, 0, 0), INVALID_PFN);
    CHECK_EQ(frames_alloc(1024, 0, 0), INVALID_PFN);
    CHECK_EQ(frames_alloc(~0UL, 0, 0), INVALID_PFN);
    CHECK_EQ(frames_alloc(1, 64, 0), INVALID_PFN);
    CHECK_EQ(frames_alloc(1, 10, 0), INVALID_PFN);  /* only 0 is aligned */
    CHECK_EQ(frames_alloc(1, 63, 0), INVALID_PFN);
    CHECK_EQ(frames_free_count(), 1023);
    CHECK_EQ(frames_alloc(1023, 0, 0), 1);
    CHECK_EQ(frames_free_count(), 0);
    CHECK(frames_check());
}

static void test_alignment(void)
{
    unsigned long pfn, i;
    unsigned int order;

    init_flat(MAX_FRAMES);
    CHECK_EQ(frame_alloc(), 1);
    CHECK_EQ(frames_alloc(16, 4, 0), 16);
    CHECK_EQ(frames_alloc(1, 9, 0), 512);
    CHECK_EQ(frames_alloc(3, 1, 0), 2);
    CHECK_EQ(frame_alloc(), 5);
    CHECK_EQ(frames_alloc(2, 1, 0), 6);
    CHECK_EQ(frames_alloc(8, 3, 0), 8);
    CHECK_EQ(frames_free_count(), MAX_FRAMES - 1 - 32);

    /* Larger runs land on their alignment and are marked in use. */
    for ( order = 0; order <= 12; order++ )
    {
        pfn = frames_alloc(1UL << order, order, 0);
        CHECK(pfn != INVALID_PFN);
        CHECK_EQ(pfn % (1UL << order), 0);
        for ( i = 0; i < (1UL << order); i++ )
            CHECK(!frame_is_free(pfn + i));
        CHECK(frames_check());
    }

    /* An unaligned length with a large alignment. */
    pfn = frames_alloc(5, 8, 0);
    CHECK_EQ(pfn % 256, 0);
    CHECK(frame_is_free(pfn + 5));
    CHECK(frames_check());
}

static void test_limit(void)
{
    unsigned long pfn, n = 0;

    init_flat(4096);
    while ( (pfn = frames_alloc(1, 0, 100)) != INVALID_PFN )
    {
        CHECK(pfn < 100);
        n++;
    }
    CHECK_EQ(n, 99);
    CHECK_EQ(frames_alloc(1, 0, 100), INVALID_PFN);
    CHECK_EQ(frames_alloc(3, 0, 102), INVALID_PFN);  /* 100, 101 only */
    CHECK_EQ(frames_alloc(2, 0, 103), 100);
    CHECK_EQ(frames_alloc(1, 0, 1), INVALID_PFN);
    CHECK_EQ(frames_alloc(64, 6, 192), 128);
    CHECK_EQ(frames_alloc(64, 6, 255), INVALID_PFN);
    CHECK_EQ(frames_alloc(1, 0, 1UL << 40), 102);    /* past max_pfn */
    CHECK_EQ(frame_alloc(), 103);
    CHECK_EQ(frames_free_count(), 4095 - 99 - 2 - 64 - 2);
    CHECK(frames_check());
}

/* Is frame @pfn free in the allocator's bitmap? */
static bool free_bit(unsigned long pfn)
{
    return !(fa.bitmap[WORD(pfn)] & (1UL << BIT(pfn)));
}

/* The highest free run of @nr frames, by brute force: the reference. */
static unsigned long top_ref(unsigned long nr)
{
    unsigned long pfn, i;

    for ( pfn = fa.max_pfn - nr; pfn >= 1 && pfn < fa.max_pfn; pfn-- )
    {
        for ( i = 0; i < nr && free_bit(pfn + i); i++ )
            ;
        if ( i == nr )
            return pfn;
    }
    return INVALID_PFN;
}

/*
 * frames_alloc_top(): the highest free run, holes and used frames
 * skipped, never frame 0; nothing left, nothing given.
 */
static void test_alloc_top(void)
{
    static const unsigned long sizes[] = { 1, 7, 64, 65, 300, 1, 4096 };
    unsigned long pfn, want, i, free;

    init_flat(4096);
    CHECK_EQ(frames_alloc_top(16), 4096 - 16);
    CHECK_EQ(frames_alloc_top(1), 4096 - 17);
    CHECK_EQ(frames_alloc_top(0), INVALID_PFN);
    CHECK_EQ(frames_alloc_top(4096), INVALID_PFN);    /* frame 0 never */
    CHECK_EQ(frames_alloc(1, 0, 0), 1);               /* the bottom's */
    CHECK(frames_check());

    init_qemu(MAX_FRAMES);
    for ( i = 0; i < 40; i++ )
    {
        unsigned long nr = sizes[i % ARRAY_SIZE(sizes)];

        if ( i % 3 == 0 )
            (void)frames_alloc(5, 0, 0);              /* gaps below */
        free = frames_free_count();
        want = top_ref(nr);
        pfn = frames_alloc_top(nr);
        CHECK_EQ(pfn, want);
        if ( pfn == INVALID_PFN )
            continue;
        CHECK(ram_frame(pfn) && ram_frame(pfn + nr - 1));
        CHECK_EQ(frames_free_count(), free - nr);
        if ( i % 4 == 1 )
            CHECK_EQ(frames_free(pfn + nr / 2, 1), 0); /* a hole above */
    }
    CHECK(frames_check());
    CHECK_EQ(frames_alloc_top(frames_free_count() + 1), INVALID_PFN);
}

static void test_free_realloc(void)
{
    unsigned long a, b, c;

    init_flat(1000);
    a = frame_alloc();
    b = frames_alloc(10, 0, 0);
    c = frame_alloc();
    CHECK_EQ(a, 1);
    CHECK_EQ(b, 2);
    CHECK_EQ(c, 12);
    CHECK_EQ(frames_free_count(), 999 - 12);

    CHECK_EQ(frames_free(b, 10), 0);
    CHECK_EQ(frames_free_count(), 999 - 2);
    CHECK(frame_is_free(b) && frame_is_free(b + 9));
    CHECK(frames_check());

    /* The lowest free frames come back first. */
    CHECK_EQ(frame_alloc(), b);
    CHECK_EQ(frames_alloc(9, 0, 0), b + 1);
    CHECK_EQ(frame_alloc(), 13);

    /* Freeing part of a run, and the frames below the hint. */
    CHECK_EQ(frames_free(b + 4, 2), 0);
    CHECK_EQ(frames_free(a, 1), 0);
    CHECK_EQ(frames_free_count(), 999 - 13 + 3);
    CHECK(frames_check());
    CHECK_EQ(frame_alloc(), a);
    CHECK_EQ(frames_alloc(2, 1, 0), b + 4);
    CHECK_EQ(frame_alloc(), 14);
    CHECK_EQ(frames_free_count(), 999 - 14);
    CHECK(frames_check());
}

static void test_double_free(void)
{
    unsigned long a;

    init_flat(1000);
    a = frames_alloc(8, 3, 0);
    CHECK_EQ(a, 8);
    CHECK_EQ(frames_free(a, 8), 0);
    CHECK_EQ(frames_free(a, 8), -1);
    CHECK_EQ(frames_free(a + 3, 1), -1);
    CHECK_EQ(frames_free_count(), 999);

    /* A range with one frame already free: nothing changes. */
    CHECK_EQ(frames_alloc(8, 3, 0), a);
    CHECK_EQ(frames_free(a + 7, 1), 0);
    CHECK_EQ(frames_free(a, 8), -1);
    CHECK(!frame_is_free(a) && !frame_is_free(a + 6));
    CHECK_EQ(frames_free_count(), 999 - 7);
    CHECK_EQ(frames_free(a + 6, 2), -1);
    CHECK(frames_check());
    CHECK_EQ(frames_free(a, 7), 0);
    CHECK_EQ(frames_free_count(), 999);
    CHECK(frames_check());
}

static void test_free_out_of_range(void)
{
    init_flat(1000);
    CHECK_EQ(frames_alloc(999, 0, 0), 1);
    CHECK_EQ(frames_free(0, 1), -1);            /* frame 0 */
    CHECK_EQ(frames_free(0, 2), -1);
    CHECK_EQ(frames_free(1000, 1), -1);
    CHECK_EQ(frames_free(999, 2), -1);
    CHECK_EQ(frames_free(5, ~0UL), -1);         /* wraps */
    CHECK_EQ(frames_free(~0UL, 2), -1);
    CHECK_EQ(frames_free(INVALID_PFN, 1), -1);
    CHECK_EQ(frames_free(5, 0), -1);
    CHECK_EQ(frames_free_count(), 0);
    CHECK(frames_check());
    CHECK_EQ(frames_free(999, 1), 0);
    CHECK(!frame_is_free(1000));
    CHECK(!frame_is_free(~0UL));
}

/* frames_check() notices the bitmap and the counters disagreeing. */
static void test_check(void)
{
    init_flat(1000);
    CHECK(frames_check());
    bitmap[2] ^= 1UL << 5;                      /* a stray allocation */
    CHECK(!frames_check());
    bitmap[2] ^= 1UL << 5;
    CHECK(frames_check());
    bitmap[0] &= ~1UL;                          /* frame 0 free */
    CHECK(!frames_check());
    bitmap[0] |= 1UL;
    bitmap[1000 / 64] &= ~(1UL << 63);          /* past max_pfn */
    CHECK(!frames_check());
    bitmap[1000 / 64] |= 1UL << 63;
    CHECK(frames_check());
}

static uint64_t rng_state = 0xf4a3e5eed0001ULL;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#define STRESS_FRAMES   4000UL
#define STRESS_LIVE     512

static bool ref_used[STRESS_FRAMES];
static struct {
    unsigned long pfn, nr;
} live[STRESS_LIVE];

/* Does the reference model have an aligned free run below @limit? */
static bool ref_fits(unsigned long nr, unsigned int order,
                     unsigned long limit)
{
    unsigned long pfn, i;

    for ( pfn = 0; pfn + nr <= limit; pfn += 1UL << order )
    {
        for ( i = 0; i < nr && !ref_used[pfn + i]; i++ )
            ;
        if ( i == nr )
            return true;
    }
    return false;
}

/*
 * Random allocations and frees against a reference model of which frames
 * are in use: every allocation must be valid, fail only when the model has
 * no room, and the bitmap must match the model throughout.
 */
static void test_stress(void)
{
    unsigned long pfn, i, nr, limit, n_live = 0, nr_free;
    unsigned int iter, order, r;

    memset(&m, 0, sizeof(m));
    memmap_add(&m, 0, 0x9f000, MEMMAP_RAM);
    memmap_add(&m, 0x100000, (STRESS_FRAMES << PAGE_SHIFT) - 0x200000,
               MEMMAP_RAM);
    memmap_add(&m, 0x800000, 0x10000, MEMMAP_RESERVED);
    memmap_sanitise(&m);
    memset(bitmap, 0, sizeof(bitmap));
    frames_init(bitmap, STRESS_FRAMES, &m);
    for ( pfn = 0; pfn < STRESS_FRAMES; pfn++ )
        ref_used[pfn] = pfn == 0 || !ram_frame(pfn);
    nr_free = count_ram(STRESS_FRAMES);
    CHECK_EQ(frames_total(), nr_free);

    for ( iter = 0; iter < 40000 && !unit_case_failed; iter++ )
    {
        r = rnd() % 100;
        if ( r < 60 && n_live < STRESS_LIVE )
        {
            bool single = r < 30;

            nr = single ? 1 : 1 + rnd() % (rnd() % 4 ? 8 : 300);
            order = single ? 0 : rnd() % 7;
            limit = rnd() % 3 ? 0 : rnd() % (STRESS_FRAMES + 100);
            pfn = frames_alloc(nr, order, limit);
            if ( !limit || limit > STRESS_FRAMES )
                limit = STRESS_FRAMES;

            if ( !ref_fits(nr, order, limit) )
                CHECK_EQ(pfn, INVALID_PFN);
            else if ( pfn == INVALID_PFN || pfn % (1UL << order) ||
                      pfn + nr > limit )
                CHECK(!"bad allocation");
            else
            {
                for ( i = 0; i < nr; i++ )
                {
                    CHECK(!ref_used[pfn + i]);
                    ref_used[pfn + i] = true;
                }
                live[n_live].pfn = pfn;
                live[n_live++].nr = nr;
                nr_free -= nr;
            }
        }
        else if ( r < 95 && n_live )
        {
            i = rnd() % n_live;
            CHECK_EQ(frames_free(live[i].pfn, live[i].nr), 0);
            for ( pfn = live[i].pfn; pfn < live[i].pfn + live[i].nr; pfn++ )
                ref_used[pfn] = false;
            nr_free += live[i].nr;
            live[i] = live[--n_live];
        }
        else
        {
            /*
             * A bad free, refused if it touches frame 0, a free frame or
             * one past the end.  (Frames in use that are not ours cannot
             * be told apart, so those are not tried.)
             */
            pfn = rnd() % (STRESS_FRAMES + 8);
            nr = 1 + rnd() % 4;
            for ( i = 0; pfn && i < nr && pfn + i < STRESS_FRAMES &&
                         ref_used[pfn + i]; i++ )
                ;
            if ( i < nr )
                CHECK_EQ(frames_free(pfn, nr), -1);
        }

        CHECK_EQ(frames_free_count(), nr_free);
        CHECK(frames_check());
        if ( iter % 64 == 0 )
            for ( pfn = 0; pfn < STRESS_FRAMES + 64; pfn++ )
                if ( frame_is_free(pfn) != (pfn < STRESS_FRAMES &&
                                            !ref_used[pfn]) )
                {
                    CHECK(!"bitmap differs from the model");
                    printf("  iteration %u pfn %#lx\n", iter, pfn);
                    break;
                }
    }
}

int main(void)
{
    RUN(test_uninitialised);
    RUN(test_bitmap_bytes);
    RUN(test_every_frame_once);
    RUN(test_alloc_run);
    RUN(test_max_pfn);
    RUN(test_raw_map);
    RUN(test_bad_alloc);
    RUN(test_alignment);
    RUN(test_limit);
    RUN(test_alloc_top);
    RUN(test_free_realloc);
    RUN(test_double_free);
    RUN(test_free_out_of_range);
    RUN(test_check);
    RUN(test_stress);
    UNIT_EXIT();
}
