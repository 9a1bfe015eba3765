/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the lock implementations share (shim/spinlock.c, rwlock.c,
 * lock-order.c), for them alone: the asking CPU, the debug build's order
 * check, and profiles from the pool.
 */
#ifndef SHIM_LOCK_IMPL_H
#define SHIM_LOCK_IMPL_H

#include "shim/spinlock.h"
#include "shim/timer.h"                     /* NOW() */

#ifdef SHIM_HOST_TEST
extern __thread unsigned int spin_test_cpu;    /* the host tests' "CPU" */
#define spin_cpu()  spin_test_cpu
#else
#include "arch/x86/percpu.h"
#define spin_cpu()  smp_processor_id()
#endif

/*
 * shim/lock-order.c, in the debug build only (each call below compiles
 * to nothing elsewhere).  Before waiting for @lock of class @rank:
 * panic unless this CPU may take it now; once it holds it (a trylock
 * too): list it; as it lets go: take it off the list (one entry, for an
 * rwlock held twice), panicking if it isn't there.
 */
void _lock_order_check(const void *lock, unsigned int rank);
void _lock_order_enter(const void *lock, unsigned int rank);
void _lock_order_exit(const void *lock, unsigned int rank);
bool _lock_order_holds(const void *lock);

static always_inline void lock_order_check(const void *lock,
                                           unsigned int rank)
{
    if ( IS_ENABLED(CONFIG_DEBUG) )
        _lock_order_check(lock, rank);
}

static always_inline void lock_order_enter(const void *lock,
                                           unsigned int rank)
{
    if ( IS_ENABLED(CONFIG_DEBUG) )
        _lock_order_enter(lock, rank);
}

static always_inline void lock_order_exit(const void *lock,
                                          unsigned int rank)
{
    if ( IS_ENABLED(CONFIG_DEBUG) )
        _lock_order_exit(lock, rank);
}

/*
 * A profiled lock's wait begins (its first look failed): when, never 0;
 * 0 for a lock with no profile.
 */
static always_inline int64_t profile_wait_start(const struct lock_profile *p)
{
    return unlikely(p) ? (NOW() ? : 1) : 0;
}

/*
 * shim/spinlock.c: a ticket lock with no order check and no listing, an
 * rwlock's queue (the rwlock itself is checked and listed).
 */
void _spin_lock_raw(spinlock_t *lock, bool irq_on);
void _spin_unlock_raw(spinlock_t *lock);

/*
 * shim/spinlock.c: a profile for @lock (a spinlock_t, or an rwlock_t if
 * @is_rwlock) called @name in the structure whose profile list is @q, or
 * NULL (profiling off, or the pool empty, which it logs).
 */
struct lock_profile *lock_profile_alloc(struct lock_profile_qhead *q,
                                        void *lock, bool is_rwlock,
                                        const char *name);

#endif /* SHIM_LOCK_IMPL_H */
