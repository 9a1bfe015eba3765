/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Xen's queued rwlocks (xen/common/rwlock.c, xen/include/xen/rwlock.h,
 * after Linux's qrwlock): the fast paths are one atomic on the count
 * word, the slow paths queue on the lock's ticket lock, so waiters are
 * served in order and a waiting writer holds new readers off.  With
 * Xen's lock profiling (shim/spinlock.c) and the debug build's order
 * check (shim/lock-order.c), in which a reader holds the lock as much
 * as a writer does.
 */
#include "shim/lock-impl.h"
#include "arch/x86/barrier.h"
#include "arch/x86/irq.h"
#include "arch/x86/layout.h"
#include "shim/timer.h"
#ifndef SHIM_HOST_TEST
#include "arch/x86/smp.h"
#endif

BUILD_BUG_ON(NR_CPUS > QW_CPUMASK);
BUILD_BUG_ON((uint64_t)NR_CPUS * QR_BIAS > UINT32_MAX);

static always_inline uint32_t cnts_read(const rwlock_t *lock)
{
    return __atomic_load_n(&lock->cnts, __ATOMIC_ACQUIRE);
}

static always_inline bool write_locked_by(uint32_t cnts, unsigned int cpu)
{
    return (cnts & QW_WMASK) == QW_LOCKED && (cnts & QW_CPUMASK) == cpu;
}

/* No writer, or this CPU is the writer (which may read it too). */
static always_inline bool can_read(uint32_t cnts)
{
    return !(cnts & QW_WMASK) || write_locked_by(cnts, spin_cpu());
}

static always_inline bool write_take(rwlock_t *lock, uint32_t old)
{
    return __atomic_compare_exchange_n(&lock->cnts, &old,
                                       QW_LOCKED | spin_cpu(), false,
                                       __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------ profiling */

/*
 * As a spinlock's (shim/spinlock.c), but readers hold it together: the
 * counts are atomic adds, and the time held runs from the first holder
 * in to the last one out (profile->holders counts them).
 */
static noinline void rw_profile_got_slow(struct lock_profile *p,
                                        int64_t block)
{
    int64_t now = NOW();

    if ( !__atomic_fetch_add(&p->holders, 1, __ATOMIC_ACQ_REL) )
        ACCESS_ONCE(p->time_locked) = now;
    if ( block )
    {
        __atomic_fetch_add(&p->time_block, now - block, __ATOMIC_RELAXED);
        __atomic_fetch_add(&p->block_cnt, 1, __ATOMIC_RELAXED);
    }
}

/* @since is read while still a holder: no one else restamps it then. */
static noinline void rw_profile_rel_slow(struct lock_profile *p)
{
    int64_t since = ACCESS_ONCE(p->time_locked);

    if ( !__atomic_sub_fetch(&p->holders, 1, __ATOMIC_ACQ_REL) )
        __atomic_fetch_add(&p->time_hold, NOW() - since, __ATOMIC_RELAXED);
    __atomic_fetch_add(&p->lock_cnt, 1, __ATOMIC_RELAXED);
}

/* Out of line, so that an unprofiled lock's paths save no registers. */
static always_inline void rw_profile_got(rwlock_t *lock, int64_t block)
{
    if ( unlikely(lock->profile) )
        rw_profile_got_slow(lock->profile, block);
}

static always_inline void rw_profile_rel(rwlock_t *lock)
{
    if ( unlikely(lock->profile) )
        rw_profile_rel_slow(lock->profile);
}

/* -------------------------------------------------------------- waiting */

/*
 * Wait until the count word's bits under @mask are @val (@eq) or aren't
 * (!@eq), as a ticket lock's waiter waits: with @irq_on, interrupts let
 * in between two looks; where an interrupt can end it, a halt after
 * spin-halt-us= ("Halting waits", arch/x86/smp.h), which every change a
 * waiter may be waiting for ends with rw_kick().
 */
static always_inline bool wants(uint32_t cnts, uint32_t mask, uint32_t val,
                                bool eq)
{
    return ((cnts & mask) == val) == eq;
}

#ifdef SHIM_HOST_TEST
static void rw_wait(rwlock_t *lock, bool irq_on, uint32_t mask,
                    uint32_t val, bool eq)
{
    while ( !wants(cnts_read(lock), mask, val, eq) )
        cpu_relax();
}
#define rw_kick(lock) ((void)(lock))
#else
static void rw_wait(rwlock_t *lock, bool irq_on, uint32_t mask,
                    uint32_t val, bool eq)
{
    bool may_halt = irq_on || irqs_enabled();
    uint64_t since = 0;

    while ( !wants(cnts_read(lock), mask, val, eq) )
    {
        if ( irq_on )
            local_irq_window();
        if ( may_halt && halt_wait_due(&since) )
            halt_wait_once(wants(cnts_read(lock), mask, val, eq),
                           &lock->cnts, HALT_ANY);
        else
            cpu_relax();
    }
}
/* After a locked change of the count (a full barrier). */
#define rw_kick(lock) halt_kick(&(lock)->cnts, HALT_ANY)
#endif

/*
 * Xen's queue_read_lock_slowpath(): a writer holds the lock or waits
 * for it.  Count out again, queue, and at the head of the queue wait
 * for the writers to go; then count in, and wait for a writer that
 * took the lock from its fast path meanwhile (none can once counted).
 * Returns when the wait began, for the profile.
 */
static noinline int64_t read_lock_slow(rwlock_t *lock, bool irq_on)
{
    int64_t block = profile_wait_start(lock->profile);
    uint32_t cnts;

    __atomic_sub_fetch(&lock->cnts, QR_BIAS, __ATOMIC_SEQ_CST);
    rw_kick(lock);                      /* a writer may wait for that */
    _spin_lock_raw(&lock->lock, irq_on);
    rw_wait(lock, irq_on, QW_WMASK, 0, true);
    cnts = __atomic_add_fetch(&lock->cnts, QR_BIAS, __ATOMIC_ACQUIRE);
    if ( (cnts & QW_WMASK) == QW_LOCKED )
        rw_wait(lock, irq_on, QW_WMASK, QW_LOCKED, false);
    _spin_unlock_raw(&lock->lock);
    return block;
}

/*
 * Xen's queue_write_lock_slowpath(): queue; at the head, take the lock
 * if it is free, else say a writer waits (once no other writer holds
 * it), which keeps new readers out, and take it when the last reader
 * has gone.
 */
static noinline int64_t write_lock_slow(rwlock_t *lock, bool irq_on)
{
    int64_t block = profile_wait_start(lock->profile);
    uint32_t cnts;

    _spin_lock_raw(&lock->lock, irq_on);
    if ( !cnts_read(lock) && write_take(lock, 0) )
        goto out;
    for ( ;; )
    {
        cnts = cnts_read(lock);
        if ( cnts & QW_WMASK )
            rw_wait(lock, irq_on, QW_WMASK, 0, true);
        else if ( __atomic_compare_exchange_n(&lock->cnts, &cnts,
                                              cnts | QW_WAITING, false,
                                              __ATOMIC_RELAXED,
                                              __ATOMIC_RELAXED) )
            break;
    }
    for ( ;; )
    {
        if ( cnts_read(lock) != QW_WAITING )
            rw_wait(lock, irq_on, ~0u, QW_WAITING, true);
        else if ( write_take(lock, QW_WAITING) )
            break;
    }
 out:
    _spin_unlock_raw(&lock->lock);
    return block;
}

/* ---------------------------------------------------------------- locks */

static always_inline void read_lock_common(rwlock_t *lock, bool irq_on)
{
    int64_t block = 0;
    uint32_t cnts;

    /* Its writer reading it takes nothing new. */
    if ( IS_ENABLED(CONFIG_DEBUG) &&
         !write_locked_by(cnts_read(lock), spin_cpu()) )
        lock_order_check(lock, lock->lock.rank);
    cnts = __atomic_add_fetch(&lock->cnts, QR_BIAS, __ATOMIC_ACQUIRE);
    if ( unlikely(!can_read(cnts)) )
        block = read_lock_slow(lock, irq_on);
    rw_profile_got(lock, block);
    lock_order_enter(lock, lock->lock.rank);
}

void _read_lock(rwlock_t *lock)
{
    read_lock_common(lock, false);
}

void _read_lock_irq_on_wait(rwlock_t *lock)
{
    read_lock_common(lock, true);
}

bool _read_trylock(rwlock_t *lock)
{
    uint32_t cnts = cnts_read(lock);

    if ( !can_read(cnts) )
        return false;
    cnts = __atomic_add_fetch(&lock->cnts, QR_BIAS, __ATOMIC_ACQUIRE);
    if ( unlikely(!can_read(cnts)) )
    {
        __atomic_sub_fetch(&lock->cnts, QR_BIAS, __ATOMIC_SEQ_CST);
        rw_kick(lock);
        return false;
    }
    rw_profile_got(lock, 0);
    lock_order_enter(lock, lock->lock.rank);
    return true;
}

void _read_unlock(rwlock_t *lock)
{
    lock_order_exit(lock, lock->lock.rank);
    rw_profile_rel(lock);
    __atomic_sub_fetch(&lock->cnts, QR_BIAS, __ATOMIC_SEQ_CST);
    rw_kick(lock);
}

static always_inline void write_lock_common(rwlock_t *lock, bool irq_on)
{
    int64_t block = 0;

    lock_order_check(lock, lock->lock.rank);
    if ( unlikely(!write_take(lock, 0)) )
        block = write_lock_slow(lock, irq_on);
    rw_profile_got(lock, block);
    lock_order_enter(lock, lock->lock.rank);
}

void _write_lock(rwlock_t *lock)
{
    write_lock_common(lock, false);
}

void _write_lock_irq_on_wait(rwlock_t *lock)
{
    write_lock_common(lock, true);
}

bool _write_trylock(rwlock_t *lock)
{
    if ( cnts_read(lock) || !write_take(lock, 0) )
        return false;
    rw_profile_got(lock, 0);
    lock_order_enter(lock, lock->lock.rank);
    return true;
}

/* The writer's bits go in one locked AND; a reading writer's count stays. */
void _write_unlock(rwlock_t *lock)
{
    ASSERT(write_locked_by(cnts_read(lock), spin_cpu()));
    lock_order_exit(lock, lock->lock.rank);
    rw_profile_rel(lock);
    __atomic_and_fetch(&lock->cnts, ~(QW_CPUMASK | QW_WMASK),
                       __ATOMIC_SEQ_CST);
    rw_kick(lock);
}

bool _rw_is_write_locked_by_me(const rwlock_t *lock)
{
    return write_locked_by(cnts_read(lock), spin_cpu());
}

bool _rw_is_locked_by_me(const rwlock_t *lock)
{
    if ( !IS_ENABLED(CONFIG_DEBUG) )
        return rw_is_locked(lock);
    return _rw_is_write_locked_by_me(lock) || _lock_order_holds(lock);
}

void _rwlock_init_prof(rwlock_t *lock, struct lock_profile_qhead *q,
                       const char *name, unsigned int rank)
{
    *lock = (rwlock_t)_RW_LOCK_UNLOCKED(rank);
    lock->profile = lock_profile_alloc(q, lock, true, name);
}
