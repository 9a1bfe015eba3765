/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Ticket spinlocks and Xen's queued rwlocks with Xen's lock profiling
 * (xen/common/spinlock.c, rwlock.c, xen/include/xen/spinlock.h,
 * rwlock.h): each lock counts acquisitions and time held, waits and time
 * waited, printed in Xen's format by the 'l' debug key and read by
 * XEN_SYSCTL_lockprof_op.  Xen compiles profiling in or out
 * (CONFIG_DEBUG_LOCK_PROFILE); here `lock-profile` on the command line
 * turns it on in any build, and a lock without a profile pays one
 * predictable branch on lock and one on unlock.  Every lock has a class
 * (shim/lock-rank.h), named where it is set up; the debug build checks
 * that each CPU takes them in rank order.
 */
#ifndef SHIM_SPINLOCK_H
#define SHIM_SPINLOCK_H

#include "shim/lib.h"
#include "shim/lock-rank.h"
#include "arch/x86/irq.h"

/*
 * The tickets: head is the ticket being served, tail the next one handed
 * out.  Free when they are equal.  lockval in the profile printout is
 * head_tail (head in the low half, as Xen's).
 */
typedef union {
    uint32_t head_tail;
    struct {
        uint16_t head;
        uint16_t tail;
    };
} spinlock_tickets_t;

#define SPINLOCK_TICKET_INC     0x10000u    /* tail + 1 */
#define SPINLOCK_NO_CPU         0xffffu

/*
 * Xen's profiling data, one per profiled lock.  Global locks
 * (DEFINE_SPINLOCK, DEFINE_RWLOCK) carry one statically; locks in a
 * structure get one from spin_lock_init_prof() or rwlock_init_prof()
 * when profiling is on, and the structure is listed with
 * lock_profile_register_struct() (the domain, "Domain 1").  An rwlock's
 * lock_cnt counts readers and writers alike, and time_hold is the time
 * anyone held it (overlapping readers count once).
 */
struct spinlock;
struct rwlock;

struct lock_profile {
    struct lock_profile *next;          /* forward link */
    const char *name;                   /* lock name */
    union {
        struct spinlock *lock;          /* the lock itself */
        struct rwlock *rwlock;          /* is_rwlock: the rwlock */
    };
    bool is_rwlock;
    uint32_t holders;                   /* an rwlock's, for time_hold */
    uint64_t lock_cnt;                  /* # of complete locking ops */
    uint64_t block_cnt;                 /* # of complete waits for lock */
    int64_t time_hold;                  /* cumulated lock time (ns) */
    int64_t time_block;                 /* cumulated wait time (ns) */
    int64_t time_locked;                /* system time of last locking */
};

struct lock_profile_qhead {
    struct lock_profile_qhead *head_q;  /* next head of this type */
    struct lock_profile *elem_q;        /* first element in q */
    int32_t idx;                        /* index for printout */
};

typedef struct spinlock {
    spinlock_tickets_t tickets;
    uint16_t cpu;                       /* holder, or SPINLOCK_NO_CPU */
    uint16_t recurse_cpu;               /* rspin_*(): SPINLOCK_NO_CPU */
    uint8_t recurse_cnt;                /* rspin_*(): depth */
    uint8_t rank;                       /* its class (enum lock_rank) */
    struct lock_profile *profile;       /* NULL: not profiled (now) */
} spinlock_t;

/* A lock that its holder may take again (Xen's rspinlock_t). */
typedef spinlock_t rspinlock_t;
#define SPINLOCK_MAX_RECURSE    15

/*
 * Every lock is set up with its class @r, a LOCK_RANK_* constant of
 * shim/lock-rank.h (anything else fails to build):
 *
 *   static DEFINE_SPINLOCK(call_lock, LOCK_RANK_CALL);
 *   spinlock_t l = SPIN_LOCK_UNLOCKED(LOCK_RANK_PCI_CONF);
 *   spin_lock_init(&v->lock, LOCK_RANK_VBD);
 *   spin_lock_init_prof(d, event_lock, LOCK_RANK_EVENT);
 *
 * and the rwlocks likewise (DEFINE_RWLOCK(), RW_LOCK_UNLOCKED(),
 * rwlock_init(), rwlock_init_prof()).  A lock left zeroed has no class:
 * the debug build panics when it is taken.
 */
#define _SPIN_LOCK_UNLOCKED(r) \
    { .cpu = SPINLOCK_NO_CPU, .recurse_cpu = SPINLOCK_NO_CPU, .rank = (r) }
#define SPIN_LOCK_UNLOCKED(r)   _SPIN_LOCK_UNLOCKED(LOCK_RANK(r))
#define RSPIN_LOCK_UNLOCKED(r)  SPIN_LOCK_UNLOCKED(r)

/*
 * A global lock, profiled under its own name ("Global lock <name>"):
 * its profile's address sits in the lock_profile section, which
 * lock_profile_init() links up at boot when profiling is on.
 */
#define DEFINE_SPINLOCK(l, r)                                               \
    spinlock_t l = SPIN_LOCK_UNLOCKED(r);                                   \
    static struct lock_profile lock_profile_data__##l =                     \
        { .name = #l, .lock = &(l) };                                       \
    static struct lock_profile *const lock_profile__##l                     \
        __used __section("lock_profile") __aligned(sizeof(void *)) =        \
        &lock_profile_data__##l
#define DEFINE_RSPINLOCK(l, r) DEFINE_SPINLOCK(l, r)

#define spin_lock_init(l, r)    (*(l) = (spinlock_t)SPIN_LOCK_UNLOCKED(r))
#define rspin_lock_init(l, r)   spin_lock_init(l, r)

/*
 * The lock @l of the structure at @s, profiled under the name "l" as a
 * member of @s's profile_head (a struct lock_profile_qhead), as Xen's
 * spin_lock_init_prof().  Unprofiled when profiling is off.
 */
#define spin_lock_init_prof(s, l, r) \
    _spin_lock_init_prof(&(s)->l, &(s)->profile_head, #l, LOCK_RANK(r))
#define rspin_lock_init_prof spin_lock_init_prof
void _spin_lock_init_prof(spinlock_t *lock, struct lock_profile_qhead *q,
                          const char *name, unsigned int rank);

/*
 * A lock of something that comes at run time (a disk, a NIC, a device
 * queue), profiled as the name @fmt makes (at most LOCK_PROFILE_NAME - 1
 * characters, as XEN_SYSCTL_lockprof_op's) in the list @q (its domain's
 * profile_head, or lock_profile_global for the shim's own), or renamed if
 * it already is (a slot that another device reuses).  Call it before
 * anyone takes the lock, or while no one can; nothing without
 * lock-profile.
 */
#define LOCK_PROFILE_NAME   40
extern struct lock_profile_qhead lock_profile_global;
void lock_profile_name(spinlock_t *lock, struct lock_profile_qhead *q,
                       const char *fmt, ...) __printf(3, 4);

/*
 * Memory that goes back to the frame allocator (a removed device's
 * driver's): the locks in [@start, @start + @size) leave the profile,
 * their profiles back to the pool.
 */
void lock_profile_forget(const void *start, size_t size);

/* List @s's profiled locks under @type (LOCKPROF_TYPE_PERDOM), idx @idx. */
#define lock_profile_register_struct(type, s, idx) \
    _lock_profile_register_struct(type, &(s)->profile_head, idx)
void _lock_profile_register_struct(int32_t type,
                                   struct lock_profile_qhead *qhead,
                                   int32_t idx);

/* ---------------------------------------------------------------- locks */

void _spin_lock(spinlock_t *lock);
void _spin_unlock(spinlock_t *lock);
bool _spin_trylock(spinlock_t *lock);
bool _spin_is_locked(const spinlock_t *lock);

/*
 * For a caller with interrupts off that must answer IPIs while it waits
 * (the holder may be waiting for this CPU to flush its TLB): interrupts
 * are let in between two looks at the ticket, and are off once held.
 */
void _spin_lock_irq_on_wait(spinlock_t *lock);

#define spin_lock(l)            _spin_lock(l)
#define spin_lock_irq_on_wait(l) _spin_lock_irq_on_wait(l)
#define spin_unlock(l)          _spin_unlock(l)
#define spin_trylock(l)         _spin_trylock(l)
#define spin_is_locked(l)       _spin_is_locked(l)

/*
 * For ASSERT()s: does this CPU hold @l (taken with spin_lock(),
 * spin_trylock() or rspin_lock(), any depth)?  Exact for the asking CPU:
 * only a holder writes its own number into lock->cpu, and it clears it
 * before it lets the lock go.  The list of locks and who must hold
 * which: docs/architecture.md, "Locks".
 */
bool _spin_is_locked_by_me(const spinlock_t *lock);
#define spin_is_locked_by_me(l) _spin_is_locked_by_me(l)
#define rspin_is_locked_by_me(l) _spin_is_locked_by_me(l)

/* Interrupts: the shim runs with them off, but a lock must not care. */
#define spin_lock_irqsave(l, f) do {                                        \
    BUILD_BUG_ON(sizeof(f) != sizeof(unsigned long));                       \
    local_irq_save(f);                                                      \
    _spin_lock(l);                                                          \
} while ( 0 )
#define spin_unlock_irqrestore(l, f) do {                                   \
    _spin_unlock(l);                                                        \
    local_irq_restore(f);                                                   \
} while ( 0 )

/*
 * Recursive forms: the holding CPU may take the lock again, up to
 * SPINLOCK_MAX_RECURSE deep; it is free once every rspin_lock() has had
 * its rspin_unlock().
 */
void _rspin_lock(rspinlock_t *lock);
void _rspin_unlock(rspinlock_t *lock);
bool _rspin_trylock(rspinlock_t *lock);

#define rspin_lock(l)           _rspin_lock(l)
#define rspin_unlock(l)         _rspin_unlock(l)
#define rspin_trylock(l)        _rspin_trylock(l)

/* --------------------------------------------------------------- rwlocks */

/*
 * Xen's queued rwlock (xen/common/rwlock.c): one word counts the readers
 * and holds the writer's state and CPU; a CPU that can't take it at once
 * queues on the ticket lock inside, so waiters are served in order and a
 * waiting writer holds new readers off.  The CPU holding it for writing
 * may also take it for reading (Xen's too).  A reader's read_lock() of a
 * lock it already reads is a deadlock if a writer waits in between: the
 * debug build refuses it, as any second take of a class.
 */
typedef struct rwlock {
    uint32_t cnts;                      /* QR_BIAS * readers | QW_* */
    spinlock_t lock;                    /* the queue; .rank is the class */
    struct lock_profile *profile;       /* NULL: not profiled (now) */
} rwlock_t;

#define QW_CPUMASK  ((1u << 14) - 1)    /* the writer's CPU */
#define QW_WAITING  (1u << 14)          /* a writer waits */
#define QW_LOCKED   (3u << 14)          /* a writer holds it */
#define QW_WMASK    (3u << 14)
#define QR_SHIFT    16                  /* the readers from here */
#define QR_BIAS     (1u << QR_SHIFT)

#define _RW_LOCK_UNLOCKED(r)    { .lock = _SPIN_LOCK_UNLOCKED(r) }
#define RW_LOCK_UNLOCKED(r)     _RW_LOCK_UNLOCKED(LOCK_RANK(r))

/* A global rwlock, profiled as DEFINE_SPINLOCK()'s lock is. */
#define DEFINE_RWLOCK(l, r)                                                 \
    rwlock_t l = RW_LOCK_UNLOCKED(r);                                       \
    static struct lock_profile lock_profile_data__##l =                     \
        { .name = #l, .rwlock = &(l), .is_rwlock = true };                  \
    static struct lock_profile *const lock_profile__##l                     \
        __used __section("lock_profile") __aligned(sizeof(void *)) =        \
        &lock_profile_data__##l

#define rwlock_init(l, r)       (*(l) = (rwlock_t)RW_LOCK_UNLOCKED(r))
#define rwlock_init_prof(s, l, r) \
    _rwlock_init_prof(&(s)->l, &(s)->profile_head, #l, LOCK_RANK(r))
void _rwlock_init_prof(rwlock_t *lock, struct lock_profile_qhead *q,
                       const char *name, unsigned int rank);

void _read_lock(rwlock_t *lock);
void _read_lock_irq_on_wait(rwlock_t *lock);
bool _read_trylock(rwlock_t *lock);
void _read_unlock(rwlock_t *lock);
void _write_lock(rwlock_t *lock);
void _write_lock_irq_on_wait(rwlock_t *lock);
bool _write_trylock(rwlock_t *lock);
void _write_unlock(rwlock_t *lock);

/*
 * The _irq_on_wait() forms are spin_lock_irq_on_wait()'s: for a caller
 * with interrupts off whose lock's holders may flush TLBs, interrupts
 * let in while it waits.
 */
#define read_lock(l)            _read_lock(l)
#define read_lock_irq_on_wait(l) _read_lock_irq_on_wait(l)
#define read_trylock(l)         _read_trylock(l)
#define read_unlock(l)          _read_unlock(l)
#define write_lock(l)           _write_lock(l)
#define write_lock_irq_on_wait(l) _write_lock_irq_on_wait(l)
#define write_trylock(l)        _write_trylock(l)
#define write_unlock(l)         _write_unlock(l)

/* For ASSERT()s: held by anyone (a writer waiting counts); for writing. */
static inline bool rw_is_locked(const rwlock_t *l)
{
    return __atomic_load_n(&l->cnts, __ATOMIC_RELAXED);
}

static inline bool rw_is_write_locked(const rwlock_t *l)
{
    return (__atomic_load_n(&l->cnts, __ATOMIC_RELAXED) & QW_WMASK) ==
           QW_LOCKED;
}

/*
 * For ASSERT()s: does this CPU hold @l for writing (exact, as
 * spin_is_locked_by_me()); for reading or writing (exact in the debug
 * build, which lists what each CPU holds; elsewhere only "held")?
 */
bool _rw_is_write_locked_by_me(const rwlock_t *lock);
bool _rw_is_locked_by_me(const rwlock_t *lock);
#define rw_is_write_locked_by_me(l) _rw_is_write_locked_by_me(l)
#define rw_is_locked_by_me(l)   _rw_is_locked_by_me(l)

/* ------------------------------------------------------------ lock order */

/*
 * The debug build's order check keeps each CPU's held locks in a list of
 * LOCKS_HELD_MAX (more panics): a lock may be taken only if its rank is
 * above every held one's (or equal, in a class that nests by address, at
 * a higher address than each held lock of its class).  Otherwise it
 * panics: "lock order: taking event_lock (rank 4) while holding
 * flush_lock (rank 13)".  A trylock can't deadlock: it is not checked,
 * but listed once it succeeds; an rspin_lock() of a lock its CPU holds,
 * and a read_lock() of an rwlock its CPU holds for writing, are not
 * checked either.  Release builds have none of it.
 */
#define LOCKS_HELD_MAX  16

/* Panic (debug build) if this CPU holds any lock: before a halt, say. */
#define ASSERT_NO_LOCKS_HELD() do {                                         \
    if ( IS_ENABLED(CONFIG_DEBUG) )                                         \
        assert_no_locks_held(__FILE__, __LINE__);                           \
} while ( 0 )
void assert_no_locks_held(const char *file, unsigned int line);

/* ------------------------------------------------------------ profiling */

/* The lock-profile option: profiling counters on (docs/command-line.md). */
extern bool opt_lock_profile;

/* Boot, after the command line: link the global locks' profiles. */
void lock_profile_init(void);

/* The debug keys 'l' and 'L' (Xen's output; @key 0: reset silently). */
void spinlock_profile_printall(unsigned char key);
void spinlock_profile_reset(unsigned char key);

/*
 * Every profiled lock under lock_profile_lock, as Xen's
 * spinlock_profile_iterate(): @fn sees each with its type
 * (LOCKPROF_TYPE_*) and index.  Returns ns since the last reset.
 */
typedef void lock_profile_subfunc(struct lock_profile *data, int32_t type,
                                  int32_t idx, void *par);
int64_t spinlock_profile_iterate(lock_profile_subfunc *fn, void *par);

#endif /* SHIM_SPINLOCK_H */
