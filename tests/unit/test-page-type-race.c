/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pv/mm/page-type.c under real concurrency: threads taking and dropping
 * general and type references, pinning and unpinning, on the same few
 * frames, each doing what validate.c does around the state machine (wait
 * while PGT_BUSY, finish a VALIDATING type, devalidate a table whose
 * last reference went).  Each thread counts the references it holds per
 * frame and type in a shared table (pins are counted apart: a pin is
 * anyone's to drop); the rule the frame table exists for
 * is checked from the outside every time a thread holds a type: no
 * other thread holds the frame with another type at that moment (a
 * frame mapped writable is never also a page table), and no one uses a
 * page-table type that is not validated; page locks are held by one
 * thread at a time on a table that stays validated meanwhile (pins and
 * puts going on around it); a new type's flush stamp is never older
 * than a translation of the type before.  At the end every frame is back
 * to one general reference and no type.  Without the cmpxchg loops (plain
 * read-modify-write, as when one domain lock serialised every caller)
 * the counts drift within the first few thousand operations.
 */
#include "tests/unit/unit.h"
#include <pthread.h>
#include <sched.h>
#include "../../pv/mm/page-type.c"

uint64_t tlbflush_clock = 1;
uint64_t tlbflush_time[NR_CPUS];

void page_wait_relax(void)
{
    sched_yield();
}

#define NR_THREADS  4
#define NR_FRAMES   3
#define OPS         1000000

static struct page_info frames[NR_FRAMES];
/*
 * Per frame, the latest clock at which a thread holding it writable or
 * seg_desc "loaded a translation" (as a CPU may while a mapping exists):
 * a new type's flush_stamp must be at least that, or a CPU that flushed
 * before that load and loaded then would keep its entry past the next
 * type's flush (tlbflush_filter() would leave it out).
 */
static uint64_t last_use[NR_FRAMES];
/* References held, by frame and type, across all threads. */
static int held[NR_FRAMES][PGT_NR];
static int pins[NR_FRAMES];
static int lockers[NR_FRAMES];          /* threads in a page lock */
static int violations;

static void violation(const char *what, unsigned int f, unsigned int t)
{
    if ( __atomic_fetch_add(&violations, 1, __ATOMIC_RELAXED) < 5 )
        printf("  frame %u type %u: %s (type_info %#llx)\n", f, t, what,
               (unsigned long long)page_tinfo(&frames[f]));
}

/* With @t held on frame @f, no other type may be. */
static void check_exclusive(unsigned int f, unsigned int t)
{
    unsigned int o;

    for ( o = PGT_WRITABLE; o < PGT_NR; o++ )
        if ( o != t && __atomic_load_n(&held[f][o], __ATOMIC_SEQ_CST) )
            violation("held with another type", f, o);
    if ( is_page_table_type(t) &&
         !(page_flags(&frames[f]) & PGF_VALIDATED) )
        violation("a page table used unvalidated", f, t);
}

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A frame's last general reference never goes here: none is dying. */
static void unref(unsigned int f)
{
    if ( page_unref(&frames[f]) )
        violation("died", f, 0);
}

/* validate.c's devalidation: the table's own references would go here. */
static void drop_type(unsigned int f)
{
    if ( page_put_type(&frames[f]) )
        page_type_released(&frames[f]);
}

/*
 * Take @t on frame @f as validate.c does: wait while another thread has
 * it VALIDATING, finish it if this one does (a validation fails now and
 * then).  @pin: page_pin().  True if the reference is held.
 */
static bool take_type(unsigned int f, unsigned int t, bool pin, uint64_t *s)
{
    struct page_info *pg = &frames[f];
    unsigned long waits = 0;
    int rc;

    while ( (rc = pin ? page_pin(pg, t) : page_get_type(pg, t)) == PGT_BUSY )
    {
        /* A frame left VALIDATING by a lost update: never done. */
        if ( ++waits == 10000000 )
        {
            violation("busy for ever", f, t);
            return false;
        }
        sched_yield();
    }
    if ( rc < 0 )
        return false;
    if ( rc == PGT_VALIDATE )
    {
        /* Nobody else may hold any type of it while it validates. */
        check_exclusive(f, PGT_NONE);
        if ( __atomic_load_n(&pg->flush_stamp, __ATOMIC_SEQ_CST) <
             __atomic_load_n(&last_use[f], __ATOMIC_SEQ_CST) )
            violation("stamped before a translation of its last type", f,
                      t);
        if ( is_page_table_type(t) && rnd(s) % 8 == 0 )
        {
            page_type_invalid(pg);
            return false;
        }
        page_type_validated(pg);
    }
    return true;
}

static void *worker(void *arg)
{
    uint64_t s = 0x9e3779b97f4a7c15ULL * ((uintptr_t)arg + 1);
    int mine[NR_FRAMES][PGT_NR] = { { 0 } };
    unsigned int i, f, t, t2;

    for ( i = 0; i < OPS; i++ )
    {
        uint64_t r = rnd(&s);

        f = r % NR_FRAMES;
        /* Mostly writable against L1, the fight fork() brings. */
        t = (r >> 8) % 8 < 6 ? PGT_WRITABLE + (r >> 11) % 2
                             : PGT_WRITABLE + (r >> 11) % (PGT_NR - 1);
        if ( (r >> 16) % 16 == 1 )
        {
            /* A page lock: alone in it, the table validated throughout. */
            if ( !page_lock(&frames[f]) )
                continue;
            if ( __atomic_fetch_add(&lockers[f], 1, __ATOMIC_SEQ_CST) )
                violation("two in a page lock", f, 0);
            t = page_type(&frames[f]);
            check_exclusive(f, t);
            sched_yield();
            if ( page_type(&frames[f]) != t )
                violation("type changed under a page lock", f, t);
            check_exclusive(f, t);
            __atomic_fetch_sub(&lockers[f], 1, __ATOMIC_SEQ_CST);
            page_unlock(&frames[f]);
            continue;
        }
        if ( (r >> 16) % 16 == 0 )
        {
            /* Pin or unpin a page table. */
            if ( !is_page_table_type(t) )
                continue;
            if ( (r >> 24) & 1 )
            {
                if ( !page_get(&frames[f], PGO_GUEST) )
                    violation("no general reference", f, t);
                else if ( take_type(f, t, true, &s) )
                    __atomic_fetch_add(&pins[f], 1, __ATOMIC_SEQ_CST);
                else
                    unref(f);
                continue;
            }
            switch ( page_unpin(&frames[f]) )
            {
            case 1:
                page_type_released(&frames[f]);
                /* fall through */
            case 0:
                __atomic_fetch_sub(&pins[f], 1, __ATOMIC_SEQ_CST);
                unref(f);
            }
            continue;
        }
        for ( t2 = PGT_WRITABLE; t2 < PGT_NR && !mine[f][t2]; t2++ )
            ;
        if ( t2 < PGT_NR && (r >> 20) % 4 )
        {
            t = t2;
            /* Drop one of this thread's references. */
            mine[f][t]--;
            __atomic_fetch_sub(&held[f][t], 1, __ATOMIC_SEQ_CST);
            drop_type(f);
            unref(f);
            continue;
        }
        if ( mine[f][t] >= 2 || !page_get(&frames[f], PGO_GUEST) )
            continue;
        if ( !take_type(f, t, false, &s) )
        {
            unref(f);
            continue;
        }
        __atomic_fetch_add(&held[f][t], 1, __ATOMIC_SEQ_CST);
        check_exclusive(f, t);
        mine[f][t]++;
        if ( t == PGT_WRITABLE || t == PGT_SEG_DESC )
        {
            uint64_t now = __atomic_load_n(&tlbflush_clock, __ATOMIC_SEQ_CST),
                     seen = __atomic_load_n(&last_use[f], __ATOMIC_SEQ_CST);

            while ( seen < now &&
                    !__atomic_compare_exchange_n(&last_use[f], &seen, now,
                                                 false, __ATOMIC_SEQ_CST,
                                                 __ATOMIC_SEQ_CST) )
                ;
        }
    }
    for ( f = 0; f < NR_FRAMES; f++ )
        for ( t = 0; t < PGT_NR; t++ )
            for ( ; mine[f][t]; mine[f][t]-- )
            {
                __atomic_fetch_sub(&held[f][t], 1, __ATOMIC_SEQ_CST);
                drop_type(f);
                unref(f);
            }
    return NULL;
}

static void concurrent_types(void)
{
    pthread_t th[NR_THREADS];
    unsigned int i, f;

    for ( f = 0; f < NR_FRAMES; f++ )
        page_set_cinfo(&frames[f], PGO_GUEST, 1);
    for ( i = 0; i < NR_THREADS; i++ )
        CHECK_EQ(pthread_create(&th[i], NULL, worker,
                                (void *)(uintptr_t)i), 0);
    for ( i = 0; i < NR_THREADS; i++ )
        pthread_join(th[i], NULL);

    /* The pins left are nobody's thread's: drop them as a guest would. */
    for ( f = 0; f < NR_FRAMES; f++ )
        for ( ; pins[f]; pins[f]-- )
        {
            int rc = page_unpin(&frames[f]);

            CHECK(rc >= 0);
            if ( rc == 1 )
                page_type_released(&frames[f]);
            unref(f);
        }
    CHECK_EQ(violations, 0);
    for ( f = 0; f < NR_FRAMES; f++ )
    {
        CHECK_EQ(page_cinfo(&frames[f]), PAGE_CINFO(PGO_GUEST, 1));
        CHECK_EQ(page_type_count(&frames[f]), 0);
        CHECK_EQ(page_type(&frames[f]), PGT_NONE);
    }
    printf("  %u threads x %u operations on %u frames, flush clock %llu\n",
           NR_THREADS, OPS, NR_FRAMES, (unsigned long long)tlbflush_clock);
}

int main(void)
{
    RUN(concurrent_types);
    UNIT_EXIT();
}
