/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Ticket spinlocks and Xen's lock profiling (xen/common/spinlock.c): the
 * counters, the lists of profiled locks (spinlocks and rwlocks), and the
 * 'l'/'L' printouts.
 */
#define __XEN_TOOLS__ 1                 /* sysctl.h: LOCKPROF_TYPE_* */
#undef __XEN_INTERFACE_VERSION__
#include "shim/lock-impl.h"
#include <xen/xen.h>
#include <xen/sysctl.h>
#include "arch/x86/barrier.h"
#include "arch/x86/irq.h"
#include "shim/console.h"
#include "shim/param.h"
#include "shim/timer.h"

#ifdef SHIM_HOST_TEST
__thread unsigned int spin_test_cpu;
#else
#include "arch/x86/smp.h"
#endif

/* lock-profile: count every profiled lock's use (off by default). */
bool opt_lock_profile;
boolean_param("lock-profile", opt_lock_profile);

/*
 * Xen's LOCK_PROFILE_* steps, each behind the one test of lock->profile
 * (NULL unless profiling is on): time taken at acquisition, held time
 * and count at release, and a wait counted only if the first ticket
 * check failed (the time from that check to acquisition).
 */
static noinline void profile_got_slow(struct lock_profile *p, int64_t block)
{
    p->time_locked = NOW();
    if ( block )
    {
        p->time_block += p->time_locked - block;
        p->block_cnt++;
    }
}

static noinline void profile_rel_slow(struct lock_profile *p)
{
    p->time_hold += NOW() - p->time_locked;
    p->lock_cnt++;
}

/* Out of line, so that an unprofiled lock's paths save no registers. */
static always_inline void profile_got(spinlock_t *lock, int64_t block)
{
    if ( unlikely(lock->profile) )
        profile_got_slow(lock->profile, block);
}

static always_inline void profile_rel(spinlock_t *lock)
{
    if ( unlikely(lock->profile) )
        profile_rel_slow(lock->profile);
}

static always_inline uint16_t observe_head(const spinlock_tickets_t *t)
{
    return __atomic_load_n(&t->head, __ATOMIC_ACQUIRE);
}

/*
 * Wait until head reaches @ticket, out of line: the uncontended lock
 * (nearly every one) then needs no registers saved and no look at the
 * interrupt flag.  Returns when the profile's wait began (0: no profile).
 */
static noinline int64_t spin_lock_wait(spinlock_t *lock, uint16_t ticket,
                                       bool irq_on)
{
    /* The first look (the caller's) failed: the profile's wait begins. */
    int64_t block = profile_wait_start(lock->profile);
#ifndef SHIM_HOST_TEST
    uint64_t since = 0;
    bool may_halt = irq_on || irqs_enabled();   /* a kick can wake it */
#endif

    while ( ticket != observe_head(&lock->tickets) )
    {
#ifndef SHIM_HOST_TEST
        /* Interrupts in for a moment: "sti; nop", see irq.h. */
        if ( irq_on )
            local_irq_window();
        /*
         * A long wait, where an interrupt can end a halt: halt until the
         * unlock that makes this ticket the head kicks this CPU.
         */
        if ( may_halt && halt_wait_due(&since) )
        {
            halt_wait_once(ticket == observe_head(&lock->tickets), lock,
                           ticket);
            continue;
        }
#endif
        cpu_relax();
    }
    return block;
}

/*
 * Take a ticket (an atomic add to the tail), then wait until head
 * reaches it: FIFO among waiters, as Xen's spin_lock_common().  The
 * acquire ordering keeps the critical section after the lock.  No order
 * check: the callers do it (an rwlock's queue needs none of its own).
 */
static always_inline void spin_lock_common(spinlock_t *lock, bool irq_on)
{
    spinlock_tickets_t tickets;
    int64_t block = 0;

    tickets.head_tail = __atomic_fetch_add(&lock->tickets.head_tail,
                                           SPINLOCK_TICKET_INC,
                                           __ATOMIC_ACQUIRE);
    if ( unlikely(tickets.tail != observe_head(&lock->tickets)) )
        block = spin_lock_wait(lock, tickets.tail, irq_on);
    lock->cpu = spin_cpu();
    profile_got(lock, block);
}

void __hot_text _spin_lock(spinlock_t *lock)
{
    lock_order_check(lock, lock->rank);
    spin_lock_common(lock, false);
    lock_order_enter(lock, lock->rank);
}

void _spin_lock_irq_on_wait(spinlock_t *lock)
{
    lock_order_check(lock, lock->rank);
    spin_lock_common(lock, true);
    lock_order_enter(lock, lock->rank);
}

void _spin_lock_raw(spinlock_t *lock, bool irq_on)
{
    spin_lock_common(lock, irq_on);
}

/*
 * Only the holder moves head, so a plain release store of head + 1 is
 * the unlock (Xen's add_sized()); the holder's writes are visible first.
 */
void _spin_unlock_raw(spinlock_t *lock)
{
    ASSERT(lock->cpu == spin_cpu());
    profile_rel(lock);
    lock->cpu = SPINLOCK_NO_CPU;
#ifdef SHIM_HOST_TEST
    __atomic_store_n(&lock->tickets.head, lock->tickets.head + 1,
                     __ATOMIC_RELEASE);
#else
    /* A locked add: the full barrier halt_kick() needs after the store. */
    halt_kick(lock, __atomic_add_fetch(&lock->tickets.head, 1,
                                       __ATOMIC_SEQ_CST));
#endif
}

void __hot_text _spin_unlock(spinlock_t *lock)
{
    lock_order_exit(lock, lock->rank);
    _spin_unlock_raw(lock);
}

/* Take the lock only if it is free now: one compare-and-exchange. */
bool _spin_trylock(spinlock_t *lock)
{
    spinlock_tickets_t old, new;

    old.head_tail = __atomic_load_n(&lock->tickets.head_tail,
                                    __ATOMIC_RELAXED);
    if ( old.head != old.tail )
        return false;
    new = old;
    new.tail++;
    if ( !__atomic_compare_exchange_n(&lock->tickets.head_tail,
                                      &old.head_tail, new.head_tail, false,
                                      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED) )
        return false;
    lock->cpu = spin_cpu();
    profile_got(lock, 0);
    lock_order_enter(lock, lock->rank);
    return true;
}

/* For ASSERT()s: it says nothing about who holds the lock. */
bool _spin_is_locked(const spinlock_t *lock)
{
    spinlock_tickets_t t;

    t.head_tail = __atomic_load_n(&lock->tickets.head_tail,
                                  __ATOMIC_RELAXED);
    return t.head != t.tail;
}

bool _spin_is_locked_by_me(const spinlock_t *lock)
{
    return ACCESS_ONCE(lock->cpu) == spin_cpu();
}

void _rspin_lock(rspinlock_t *lock)
{
    unsigned int cpu = spin_cpu();

    if ( likely(ACCESS_ONCE(lock->recurse_cpu) != cpu) )
    {
        _spin_lock(lock);
        lock->recurse_cpu = cpu;
    }
    ASSERT(lock->recurse_cnt < SPINLOCK_MAX_RECURSE);
    lock->recurse_cnt++;
}

bool _rspin_trylock(rspinlock_t *lock)
{
    unsigned int cpu = spin_cpu();

    if ( likely(ACCESS_ONCE(lock->recurse_cpu) != cpu) )
    {
        if ( !_spin_trylock(lock) )
            return false;
        lock->recurse_cpu = cpu;
    }
    ASSERT(lock->recurse_cnt < SPINLOCK_MAX_RECURSE);
    lock->recurse_cnt++;
    return true;
}

void _rspin_unlock(rspinlock_t *lock)
{
    ASSERT(lock->recurse_cpu == spin_cpu() && lock->recurse_cnt);
    if ( likely(--lock->recurse_cnt == 0) )
    {
        lock->recurse_cpu = SPINLOCK_NO_CPU;
        _spin_unlock(lock);
    }
}

/* ------------------------------------------------------------ profiling */

struct lock_profile_anc {
    struct lock_profile_qhead *head_q;  /* first head of this type */
    const char *name;                   /* descriptive string for print */
};

static int64_t lock_profile_start;
static struct lock_profile_anc lock_profile_ancs[LOCKPROF_TYPE_N] = {
    [LOCKPROF_TYPE_GLOBAL] = { .name = "Global lock" },
    [LOCKPROF_TYPE_PERDOM] = { .name = "Domain" },
};
static spinlock_t lock_profile_lock =
    SPIN_LOCK_UNLOCKED(LOCK_RANK_LOCK_PROFILE);

/*
 * Xen allocates a structure's profiles (xzalloc); the shim has no heap,
 * so they come from this pool: the domain's dozen locks, and the devices'
 * (each disk's and NIC's lock and one a queue, each device queue's of the
 * drivers), named by lock_profile_name() in a buffer of their own.
 */
#define LOCK_PROFILE_POOL   256
static struct lock_profile_pooled {
    struct lock_profile p;
    char name[LOCK_PROFILE_NAME];
} lock_profile_pool[LOCK_PROFILE_POOL];
static unsigned int lock_profile_pool_used;
static struct lock_profile *lock_profile_free_list;  /* forgotten ones */

/* The shim's own locks that come with devices ("Global lock <name>"). */
struct lock_profile_qhead lock_profile_global;

int64_t spinlock_profile_iterate(lock_profile_subfunc *fn, void *par)
{
    struct lock_profile_qhead *hq;
    struct lock_profile *eq;
    int64_t since;
    int32_t i;

    spin_lock(&lock_profile_lock);
    for ( i = 0; i < LOCKPROF_TYPE_N; i++ )
        for ( hq = lock_profile_ancs[i].head_q; hq; hq = hq->head_q )
            for ( eq = hq->elem_q; eq; eq = eq->next )
                fn(eq, i, hq->idx, par);
    since = NOW() - lock_profile_start;
    spin_unlock(&lock_profile_lock);
    return since;
}

/*
 * Who holds a profiled lock: its word (the tickets, an rwlock's count)
 * into *@val, and "not locked", "cpu=N" (the holder, an rwlock's
 * writer) or, for an rwlock, "readers=N" into @held.
 */
static const void *lock_state(const struct lock_profile *data,
                              uint32_t *val, char *held, size_t size)
{
    const spinlock_t *lock = data->lock;
    uint32_t cnts;

    if ( data->is_rwlock )
    {
        *val = cnts = __atomic_load_n(&data->rwlock->cnts, __ATOMIC_RELAXED);
        if ( (cnts & QW_WMASK) == QW_LOCKED )
            snprintf(held, size, "cpu=%u", cnts & QW_CPUMASK);
        else if ( cnts >> QR_SHIFT )
            snprintf(held, size, "readers=%u", cnts >> QR_SHIFT);
        else
            snprintf(held, size, "not locked");
        return data->rwlock;
    }
    *val = ACCESS_ONCE(lock->tickets.head_tail);
    if ( ACCESS_ONCE(lock->cpu) == SPINLOCK_NO_CPU )
        snprintf(held, size, "not locked");
    else
        snprintf(held, size, "cpu=%d", ACCESS_ONCE(lock->cpu));
    return lock;
}

/*
 * Xen 4.17's format, one whole line at a time:
 *   Global lock flush_lock: addr=ffff82d0..., lockval=00000000, not locked
 *     lock:0(0), block:0(0)
 */
static void spinlock_profile_print_elem(struct lock_profile *data,
                                        int32_t type, int32_t idx, void *par)
{
    const void *lock;
    char who[32], held[24];
    uint32_t val;

    if ( type != LOCKPROF_TYPE_GLOBAL )
        snprintf(who, sizeof(who), "%s %d", lock_profile_ancs[type].name,
                 idx);
    else
        snprintf(who, sizeof(who), "%s", lock_profile_ancs[type].name);
    lock = lock_state(data, &val, held, sizeof(held));
    printk("%s %s: addr=%016lx, lockval=%08x, %s\n", who, data->name,
           (unsigned long)lock, val, held);
    printk("  lock:%ld(%ld), block:%ld(%ld)\n", (long)data->lock_cnt,
           (long)data->time_hold, (long)data->block_cnt,
           (long)data->time_block);
}

void spinlock_profile_printall(unsigned char key)
{
    int64_t now = NOW();

    printk("Xen lock profile info SHOW  (now = %ld total = %ld)\n",
           (long)now, (long)(now - lock_profile_start));
    spinlock_profile_iterate(spinlock_profile_print_elem, NULL);
}

static void spinlock_profile_reset_elem(struct lock_profile *data,
                                        int32_t type, int32_t idx, void *par)
{
    data->lock_cnt = 0;
    data->block_cnt = 0;
    data->time_hold = 0;
    data->time_block = 0;
}

void spinlock_profile_reset(unsigned char key)
{
    int64_t now = NOW();

    if ( key != '\0' )
        printk("Xen lock profile info RESET (now = %ld)\n", (long)now);
    lock_profile_start = now;
    spinlock_profile_iterate(spinlock_profile_reset_elem, NULL);
}

/*
 * A profile from the pool for @lock (an rwlock_t if @is_rwlock), listed
 * in @q once its lock is set, so that the printouts never see it half
 * made.
 */
static struct lock_profile_pooled *pool_take(struct lock_profile_qhead *q,
                                             void *lock, bool is_rwlock,
                                             const char *name)
{
    struct lock_profile_pooled *e;

    if ( lock_profile_free_list )
    {
        e = container_of(lock_profile_free_list, struct lock_profile_pooled,
                         p);
        lock_profile_free_list = e->p.next;
        memset(e, 0, sizeof(*e));
    }
    else if ( lock_profile_pool_used < LOCK_PROFILE_POOL )
        e = &lock_profile_pool[lock_profile_pool_used++];
    else
    {
        printk(XENLOG_WARNING "lock profiling unavailable for %016lx(%d)'s "
               "%s\n", (unsigned long)q, q->idx, name);
        return NULL;
    }
    e->p.name = name;
    e->p.is_rwlock = is_rwlock;
    if ( is_rwlock )
        e->p.rwlock = lock;
    else
        e->p.lock = lock;
    e->p.next = q->elem_q;
    smp_wmb();
    q->elem_q = &e->p;
    return e;
}

struct lock_profile *lock_profile_alloc(struct lock_profile_qhead *q,
                                        void *lock, bool is_rwlock,
                                        const char *name)
{
    struct lock_profile_pooled *e;

    if ( !opt_lock_profile )
        return NULL;
    spin_lock(&lock_profile_lock);
    e = pool_take(q, lock, is_rwlock, name);
    spin_unlock(&lock_profile_lock);
    return e ? &e->p : NULL;
}

void _spin_lock_init_prof(spinlock_t *lock, struct lock_profile_qhead *q,
                          const char *name, unsigned int rank)
{
    *lock = (spinlock_t)_SPIN_LOCK_UNLOCKED(rank);
    lock->profile = lock_profile_alloc(q, lock, false, name);
}

void lock_profile_name(spinlock_t *lock, struct lock_profile_qhead *q,
                       const char *fmt, ...)
{
    struct lock_profile_pooled *e = NULL;
    struct lock_profile *p;
    char name[LOCK_PROFILE_NAME];
    va_list ap;

    if ( !opt_lock_profile )
        return;
    va_start(ap, fmt);
    vsnprintf(name, sizeof(name), fmt, ap);
    va_end(ap);
    spin_lock(&lock_profile_lock);
    /* Initialised again (a device reset): the profile it had. */
    for ( p = q->elem_q; p && !lock->profile; p = p->next )
        if ( !p->is_rwlock && p->lock == lock )
            lock->profile = p;
    if ( lock->profile )
    {
        e = container_of(lock->profile, struct lock_profile_pooled, p);
        ASSERT(e >= lock_profile_pool &&
               e < lock_profile_pool + LOCK_PROFILE_POOL &&
               e->p.name == e->name);
    }
    else if ( (e = pool_take(q, lock, false, name)) )
    {
        e->p.name = e->name;
        lock->profile = &e->p;
    }
    if ( e )
        memcpy(e->name, name, sizeof(name));
    spin_unlock(&lock_profile_lock);
}

void lock_profile_forget(const void *start, size_t size)
{
    struct lock_profile_qhead *hq;
    struct lock_profile **pp, *p;
    unsigned long addr;
    int32_t i;

    if ( !opt_lock_profile )
        return;
    spin_lock(&lock_profile_lock);
    for ( i = 0; i < LOCKPROF_TYPE_N; i++ )
        for ( hq = lock_profile_ancs[i].head_q; hq; hq = hq->head_q )
            for ( pp = &hq->elem_q; (p = *pp); )
            {
                addr = p->is_rwlock ? (unsigned long)p->rwlock
                                    : (unsigned long)p->lock;
                if ( addr - (unsigned long)start >= size )
                {
                    pp = &p->next;
                    continue;
                }
                *pp = p->next;
                ASSERT((void *)p >= (void *)lock_profile_pool &&
                       (void *)p <
                       (void *)&lock_profile_pool[LOCK_PROFILE_POOL]);
                p->next = lock_profile_free_list;
                lock_profile_free_list = p;
            }
    spin_unlock(&lock_profile_lock);
}

void _lock_profile_register_struct(int32_t type,
                                   struct lock_profile_qhead *qhead,
                                   int32_t idx)
{
    if ( !opt_lock_profile || type < 0 || type >= LOCKPROF_TYPE_N )
        return;
    qhead->idx = idx;
    spin_lock(&lock_profile_lock);
    qhead->head_q = lock_profile_ancs[type].head_q;
    lock_profile_ancs[type].head_q = qhead;
    spin_unlock(&lock_profile_lock);
}

#ifndef SHIM_HOST_TEST
extern struct lock_profile *const __start_lock_profile[];
extern struct lock_profile *const __stop_lock_profile[];

void lock_profile_init(void)
{
    struct lock_profile_qhead *glb = &lock_profile_global;
    struct lock_profile *const *q;

    if ( !opt_lock_profile )
        return;
    for ( q = __start_lock_profile; q < __stop_lock_profile; q++ )
    {
        (*q)->next = glb->elem_q;
        glb->elem_q = *q;
        if ( (*q)->is_rwlock )
            (*q)->rwlock->profile = *q;
        else
            (*q)->lock->profile = *q;
    }
    _lock_profile_register_struct(LOCKPROF_TYPE_GLOBAL, glb, 0);
    lock_profile_start = NOW();
    printk("Lock profiling on: %ld global lock(s)\n",
           (long)(__stop_lock_profile - __start_lock_profile));
}
#endif
