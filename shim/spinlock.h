/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Ticket spinlocks with Xen's lock profiling (xen/common/spinlock.c,
 * xen/include/xen/spinlock.h): each lock counts acquisitions and time
 * held, waits and time waited, printed in Xen's format by the 'l' debug
 * key and read by XEN_SYSCTL_lockprof_op.  Xen compiles profiling in or out
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
 * (DEFINE_SPINLOCK) carry one statically; locks in a structure get one
 * from spin_lock_init_prof() when profiling is on, and the structure is
 * listed with lock_profile_register_struct() (the domain, "Domain 1").
 */
struct spinlock;

struct lock_profile {
    struct lock_profile *next;          /* forward link */
    const char *name;                   /* lock name */
    struct spinlock *lock;              /* the lock itself */
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
 * A lock left zeroed has no class: the debug build panics when it is
 * taken.
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

/* ------------------------------------------------------------ lock order */

/*
 * The debug build's order check keeps each CPU's held locks in a list of
 * LOCKS_HELD_MAX (more panics): a lock may be taken only if its rank is
 * above every held one's (or equal, in a class that nests by address, at
 * a higher address than each held lock of its class).  Otherwise it
 * panics: "lock order: taking event_lock (rank 4) while holding
 * flush_lock (rank 13)".  A trylock can't deadlock: it is not checked,
 * but listed once it succeeds; an rspin_lock() of a lock its CPU holds
 * is not checked either.  Release builds have none of it.
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
