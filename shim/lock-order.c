/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The debug build's lock order check (shim/lock-rank.h): the locks each
 * CPU holds, and a panic that names both locks when one is taken out of
 * order.  Nothing of it is in other builds.
 */
#include "shim/lock-impl.h"
#include "arch/x86/irq.h"
#include "arch/x86/layout.h"
#include "shim/panic.h"

#ifdef CONFIG_DEBUG

struct locks_held {
    unsigned int nr;
    struct {
        const void *lock;
        unsigned int rank;
    } held[LOCKS_HELD_MAX];             /* in the order taken */
};

/*
 * A row per CPU, which only that CPU reads or writes.  Interrupt
 * handlers take no lock (docs/architecture.md, "Locks"); the updates
 * keep interrupts off all the same, so one that ever does finds the row
 * whole.
 */
static struct locks_held locks_held[NR_CPUS];

/* Xen's rule, strictly upwards; equal ranks only upwards in address. */
void _lock_order_check(const void *lock, unsigned int rank)
{
    const struct locks_held *me = &locks_held[spin_cpu()];
    const void *h;
    unsigned int i, r;

    if ( rank == LOCK_RANK_NONE || rank >= LOCK_RANK_NR )
        panic("lock order: taking the lock at %p, which has no class "
              "(rank %u): never set up?", lock, rank);
    for ( i = 0; i < me->nr; i++ )
    {
        h = me->held[i].lock;
        r = me->held[i].rank;
        if ( r < rank ||
             (r == rank && lock_rank_nests_by_address(rank) && h < lock) )
            continue;
        if ( r != rank )
            panic("lock order: taking %s (rank %u) while holding %s "
                  "(rank %u)", lock_rank_name(rank), rank,
                  lock_rank_name(r), r);
        if ( h == lock )
            panic("lock order: taking %s (rank %u) while holding %s "
                  "(rank %u): the same lock, at %p", lock_rank_name(rank),
                  rank, lock_rank_name(r), r, lock);
        if ( lock_rank_nests_by_address(rank) )
            panic("lock order: taking %s (rank %u) at %p while holding %s "
                  "(rank %u) at %p: lower address first",
                  lock_rank_name(rank), rank, lock, lock_rank_name(r), r, h);
        panic("lock order: taking %s (rank %u) while holding %s (rank %u): "
              "its class doesn't nest", lock_rank_name(rank), rank,
              lock_rank_name(r), r);
    }
}

void _lock_order_enter(const void *lock, unsigned int rank)
{
    struct locks_held *me = &locks_held[spin_cpu()];
    unsigned long flags;

    local_irq_save(flags);
    if ( me->nr == LOCKS_HELD_MAX )
        panic("lock order: CPU%u holds %u locks, taking %s (rank %u)",
              spin_cpu(), me->nr, lock_rank_name(rank), rank);
    me->held[me->nr].lock = lock;
    me->held[me->nr].rank = rank;
    me->nr++;
    local_irq_restore(flags);
}

/* The latest entry for @lock goes; those after it move down one. */
void _lock_order_exit(const void *lock, unsigned int rank)
{
    struct locks_held *me = &locks_held[spin_cpu()];
    unsigned long flags;
    unsigned int i;

    local_irq_save(flags);
    for ( i = me->nr; i && me->held[i - 1].lock != lock; i-- )
        continue;
    if ( !i )
        panic("lock order: releasing %s (rank %u) at %p, which CPU%u "
              "doesn't hold", lock_rank_name(rank), rank, lock, spin_cpu());
    me->nr--;
    for ( i--; i < me->nr; i++ )
        me->held[i] = me->held[i + 1];
    local_irq_restore(flags);
}

bool _lock_order_holds(const void *lock)
{
    const struct locks_held *me = &locks_held[spin_cpu()];
    unsigned int i;

    for ( i = 0; i < me->nr; i++ )
        if ( me->held[i].lock == lock )
            return true;
    return false;
}

void assert_no_locks_held(const char *file, unsigned int line)
{
    const struct locks_held *me = &locks_held[spin_cpu()];
    unsigned int r;

    if ( likely(!me->nr) )
        return;
    r = me->held[me->nr - 1].rank;
    panic("Assertion 'no locks held' failed at %s:%u: CPU%u holds %u, the "
          "last taken %s (rank %u)", file, line, spin_cpu(), me->nr,
          lock_rank_name(r), r);
}

#endif /* CONFIG_DEBUG */
