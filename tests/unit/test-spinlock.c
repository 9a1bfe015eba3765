/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of shim/spinlock.c, rwlock.c and lock-order.c: the ticket
 * arithmetic (wrap-around, trylock, recursion), mutual exclusion between
 * threads, the holder check behind the debug build's held-lock
 * assertions, the debug build's lock order check (each panic caught in a
 * child process, its message checked), the rwlock's sharing and
 * exclusion, Xen's lock profile counters on a fake clock, and the
 * 'l'/'L' printout, character for character.  Built as the debug build
 * is, order check and all.
 */
#define CONFIG_DEBUG 1
#include "tests/unit/unit.h"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../../shim/spinlock.c"
#include "../../shim/rwlock.c"
#include "../../shim/lock-order.c"

/* NOW(): a clock the test sets. */
static volatile uint64_t fake_now;
uint64_t now_ns(void)
{
    return __atomic_load_n(&fake_now, __ATOMIC_SEQ_CST);
}

/* printk(): into one buffer, reset by each case. */
static char out[8192];
static size_t out_len;
void printk(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    out_len += vsnprintf(out + out_len, sizeof(out) - out_len, fmt, ap);
    va_end(ap);
}

static void out_reset(void)
{
    out[0] = '\0';
    out_len = 0;
}

/* panic(): its message on stderr, then abort(), as an ASSERT() would. */
void panic(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

/* How many locks this "CPU" holds, by the order check's list. */
static unsigned int held_nr(void)
{
    return locks_held[spin_test_cpu].nr;
}

/*
 * @fn run in a child process as CPU 0: did it panic, saying @want?
 * What it said is printed if not, and a child that hangs (what the
 * check is there to prevent) is stopped.
 */
static bool dies_saying(void (*fn)(void), const char *want)
{
    char said[1024];
    size_t len = 0;
    ssize_t n;
    int fds[2], status;
    pid_t pid;

    fflush(stdout);
    if ( pipe(fds) )
        return false;
    pid = fork();
    if ( pid == 0 )
    {
        close(fds[0]);
        if ( dup2(fds[1], STDERR_FILENO) < 0 )
            _exit(1);
        alarm(10);                      /* a deadlock, unchecked */
        spin_test_cpu = 0;
        fn();
        _exit(0);
    }
    close(fds[1]);
    while ( len < sizeof(said) - 1 &&
            (n = read(fds[0], said + len, sizeof(said) - 1 - len)) > 0 )
        len += n;
    said[len] = '\0';
    close(fds[0]);
    if ( pid < 0 || waitpid(pid, &status, 0) != pid )
        return false;
    if ( WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT &&
         strstr(said, want) )
        return true;
    printf("  wanted a panic saying \"%s\"; it %s: \"%s\"\n", want,
           WIFSIGNALED(status) ? "died" : "lived", said);
    return false;
}

static void tickets(void)
{
    spinlock_t l = SPIN_LOCK_UNLOCKED(LOCK_RANK_DOMAIN);

    CHECK(!spin_is_locked(&l));
    spin_lock(&l);
    CHECK(spin_is_locked(&l));
    CHECK_EQ(l.tickets.head, 0);
    CHECK_EQ(l.tickets.tail, 1);
    CHECK_EQ(l.cpu, 0);
    CHECK(!spin_trylock(&l));           /* held: no ticket taken */
    CHECK_EQ(l.tickets.tail, 1);
    spin_unlock(&l);
    CHECK(!spin_is_locked(&l));
    CHECK_EQ(l.tickets.head_tail, 0x00010001);
    CHECK_EQ(l.cpu, SPINLOCK_NO_CPU);
    CHECK(spin_trylock(&l));
    CHECK_EQ(l.tickets.head_tail, 0x00020001);
    spin_unlock(&l);
    CHECK(!l.profile);                  /* nothing counted when off */
    CHECK_EQ(l.rank, LOCK_RANK_DOMAIN);
    CHECK_EQ(held_nr(), 0);
}

/* 16-bit tickets wrap; the tail's carry must not reach head. */
static void tickets_wrap(void)
{
    spinlock_t l = SPIN_LOCK_UNLOCKED(LOCK_RANK_DOMAIN);
    unsigned int i;

    l.tickets.head = l.tickets.tail = 0xfffe;
    for ( i = 0; i < 4; i++ )
    {
        spin_lock(&l);
        CHECK_EQ((uint16_t)(l.tickets.tail - l.tickets.head), 1);
        spin_unlock(&l);
        CHECK_EQ(l.tickets.head, l.tickets.tail);
    }
    CHECK_EQ(l.tickets.head_tail, 0x00020002);
    l.tickets.head = l.tickets.tail = 0xffff;
    CHECK(spin_trylock(&l));
    CHECK_EQ(l.tickets.head_tail, 0x0000ffff);
    spin_unlock(&l);
    CHECK_EQ(l.tickets.head_tail, 0);
}

static void recursive(void)
{
    rspinlock_t l = RSPIN_LOCK_UNLOCKED(LOCK_RANK_DOMAIN);

    rspin_lock(&l);
    rspin_lock(&l);
    CHECK(rspin_trylock(&l));
    CHECK_EQ(l.recurse_cnt, 3);
    CHECK_EQ(l.tickets.tail, 1);        /* one ticket for all three */
    rspin_unlock(&l);
    rspin_unlock(&l);
    CHECK(spin_is_locked(&l));
    rspin_unlock(&l);
    CHECK(!spin_is_locked(&l));
    CHECK_EQ(l.recurse_cpu, SPINLOCK_NO_CPU);
}

/* A function that relies on @l, as the shim's say so. */
static void needs_lock(const spinlock_t *l)
{
    ASSERT(spin_is_locked_by_me(l));
}

/*
 * needs_lock() on CPU @cpu while CPU @holder (SPINLOCK_NO_CPU: none)
 * holds the lock, in a child: did its assertion stop it?
 */
static bool needs_lock_dies(unsigned int holder, unsigned int cpu)
{
    spinlock_t l = SPIN_LOCK_UNLOCKED(LOCK_RANK_DOMAIN);
    pid_t pid = fork();
    int status;

    if ( pid == 0 )
    {
        if ( !freopen("/dev/null", "w", stderr) )   /* its message */
            _exit(1);
        if ( holder != SPINLOCK_NO_CPU )
        {
            spin_test_cpu = holder;
            spin_lock(&l);
        }
        spin_test_cpu = cpu;
        needs_lock(&l);
        _exit(0);
    }
    if ( pid < 0 || waitpid(pid, &status, 0) != pid )
        return false;
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

/* Only the CPU that holds a lock, at any depth, is its holder. */
static void held_by_me(void)
{
    spinlock_t l = SPIN_LOCK_UNLOCKED(LOCK_RANK_DOMAIN);
    rspinlock_t r = RSPIN_LOCK_UNLOCKED(LOCK_RANK_EVENT);

    CHECK(!spin_is_locked_by_me(&l));
    spin_lock(&l);
    CHECK(spin_is_locked_by_me(&l));
    spin_test_cpu = 1;                  /* another CPU asks */
    CHECK(!spin_is_locked_by_me(&l));
    CHECK(spin_is_locked(&l));
    spin_test_cpu = 0;
    spin_unlock(&l);
    CHECK(!spin_is_locked_by_me(&l));
    CHECK(spin_trylock(&l));
    CHECK(spin_is_locked_by_me(&l));
    spin_unlock(&l);

    rspin_lock(&r);
    rspin_lock(&r);
    CHECK(rspin_is_locked_by_me(&r));
    rspin_unlock(&r);
    CHECK(rspin_is_locked_by_me(&r));   /* still one deep */
    spin_test_cpu = 1;
    CHECK(!rspin_is_locked_by_me(&r));
    spin_test_cpu = 0;
    rspin_unlock(&r);
    CHECK(!rspin_is_locked_by_me(&r));

    CHECK(!needs_lock_dies(0, 0));
    CHECK(needs_lock_dies(SPINLOCK_NO_CPU, 0));
    CHECK(needs_lock_dies(1, 0));       /* held, but not by this CPU */
}

/* Threads as CPUs: a counter bumped non-atomically under the lock. */
#define THREADS     4
#define ROUNDS      20000
static spinlock_t shared_lock = SPIN_LOCK_UNLOCKED(LOCK_RANK_VBD);
static unsigned long shared_counter;

static void *hammer(void *arg)
{
    unsigned int i;

    spin_test_cpu = (uintptr_t)arg;
    for ( i = 0; i < ROUNDS; i++ )
    {
        if ( i & 1 )
            spin_lock(&shared_lock);
        else
            while ( !spin_trylock(&shared_lock) )
                cpu_relax();
        CHECK_EQ(shared_lock.cpu, spin_test_cpu);
        ACCESS_ONCE(shared_counter) = ACCESS_ONCE(shared_counter) + 1;
        spin_unlock(&shared_lock);
    }
    return NULL;
}

static void exclusion(void)
{
    pthread_t t[THREADS];
    uintptr_t i;

    for ( i = 0; i < THREADS; i++ )
        CHECK(!pthread_create(&t[i], NULL, hammer, (void *)(i + 1)));
    for ( i = 0; i < THREADS; i++ )
        pthread_join(t[i], NULL);
    CHECK_EQ(shared_counter, THREADS * ROUNDS);
    CHECK_EQ(shared_lock.tickets.head, (uint16_t)(THREADS * ROUNDS));
    CHECK_EQ(shared_lock.tickets.tail, shared_lock.tickets.head);
}

/* ----------------------------------------------------------- lock order */

static spinlock_t dom_l = SPIN_LOCK_UNLOCKED(LOCK_RANK_DOMAIN);
static spinlock_t vif_l = SPIN_LOCK_UNLOCKED(LOCK_RANK_VIF);
static spinlock_t event_l = SPIN_LOCK_UNLOCKED(LOCK_RANK_EVENT);
static spinlock_t flush_l = SPIN_LOCK_UNLOCKED(LOCK_RANK_FLUSH);
static spinlock_t timer_l = SPIN_LOCK_UNLOCKED(LOCK_RANK_TIMER);
static spinlock_t vbds_l[2] = { SPIN_LOCK_UNLOCKED(LOCK_RANK_VBD),
                                SPIN_LOCK_UNLOCKED(LOCK_RANK_VBD) };
static spinlock_t ports_l[LOCKS_HELD_MAX + 1];
static rwlock_t grant_rw = RW_LOCK_UNLOCKED(LOCK_RANK_GRANT_TABLE);
static rspinlock_t dom_r = RSPIN_LOCK_UNLOCKED(LOCK_RANK_DOMAIN);

/* "lock order: taking A (rank a) while holding B (rank b)" */
static const char *taking(unsigned int a, unsigned int b)
{
    static char msg[128];

    snprintf(msg, sizeof(msg), "lock order: taking %s (rank %u) while "
             "holding %s (rank %u)", lock_rank_name(a), a,
             lock_rank_name(b), b);
    return msg;
}

/* Every class has a name of its own, as its messages say. */
static void rank_names(void)
{
    unsigned int r, q;

    for ( r = LOCK_RANK_NONE + 1; r < LOCK_RANK_NR; r++ )
    {
        CHECK(strcmp(lock_rank_name(r), "(bad rank)"));
        for ( q = LOCK_RANK_NONE; q < r; q++ )
            CHECK(strcmp(lock_rank_name(r), lock_rank_name(q)));
    }
    CHECK_STR(lock_rank_name(LOCK_RANK_NR), "(bad rank)");
    CHECK(lock_rank_nests_by_address(LOCK_RANK_EVTCHN));
    CHECK(!lock_rank_nests_by_address(LOCK_RANK_VBD));
}

/* In rank order, and let go in any order. */
static void order_nested(void)
{
    spin_lock(&dom_l);
    spin_lock(&vif_l);
    spin_lock(&event_l);
    spin_lock_irq_on_wait(&flush_l);
    spin_lock(&timer_l);
    CHECK_EQ(held_nr(), 5);
    spin_unlock(&vif_l);                /* from the middle */
    CHECK_EQ(held_nr(), 4);
    CHECK(locks_held[0].held[1].lock == &event_l);
    CHECK(locks_held[0].held[3].lock == &timer_l);
    spin_unlock(&dom_l);
    spin_unlock(&timer_l);
    spin_lock(&timer_l);                /* still above what is held */
    spin_unlock(&event_l);
    spin_unlock(&timer_l);
    spin_unlock(&flush_l);
    CHECK_EQ(held_nr(), 0);

    /* Each CPU has its own list: CPU 1 holds nothing of CPU 0's. */
    spin_lock(&flush_l);
    spin_test_cpu = 1;
    spin_lock(&event_l);
    CHECK_EQ(held_nr(), 1);
    spin_unlock(&event_l);
    spin_test_cpu = 0;
    spin_unlock(&flush_l);
    CHECK_EQ(held_nr(), 0);
}

static void event_then_vif(void)
{
    spin_lock(&event_l);
    spin_lock(&vif_l);
}

static void flush_then_event_irq_on(void)
{
    spin_lock(&flush_l);
    spin_lock_irq_on_wait(&event_l);
}

static void dom_twice(void)
{
    spin_lock(&dom_l);
    spin_lock(&dom_l);
}

static void two_vbds(void)
{
    spin_lock(&vbds_l[0]);
    spin_lock(&vbds_l[1]);
}

static void no_rank(void)
{
    static spinlock_t zeroed;

    spin_lock(&zeroed);
}

/* Out of order: a panic that names both. */
static void order_violations(void)
{
    char want[160];

    CHECK(dies_saying(event_then_vif,
                      taking(LOCK_RANK_VIF, LOCK_RANK_EVENT)));
    CHECK(dies_saying(flush_then_event_irq_on,
                      taking(LOCK_RANK_EVENT, LOCK_RANK_FLUSH)));
    snprintf(want, sizeof(want), "%s: the same lock, at %p",
             taking(LOCK_RANK_DOMAIN, LOCK_RANK_DOMAIN), (void *)&dom_l);
    CHECK(dies_saying(dom_twice, want));
    snprintf(want, sizeof(want), "%s: its class doesn't nest",
             taking(LOCK_RANK_VBD, LOCK_RANK_VBD));
    CHECK(dies_saying(two_vbds, want));
    CHECK(dies_saying(no_rank, "which has no class (rank 0)"));
}

static void ports_down(void)
{
    spin_lock(&ports_l[1]);
    spin_lock(&ports_l[0]);
}

/* A class that nests by address: upwards only (double_evtchn_lock()). */
static void order_by_address(void)
{
    char want[160];
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(ports_l); i++ )
        spin_lock_init(&ports_l[i], LOCK_RANK_EVTCHN);
    spin_lock(&event_l);
    spin_lock(&ports_l[0]);
    spin_lock(&ports_l[1]);
    spin_lock(&ports_l[2]);
    spin_unlock(&ports_l[1]);
    spin_unlock(&ports_l[2]);
    spin_unlock(&ports_l[0]);
    spin_unlock(&event_l);
    CHECK_EQ(held_nr(), 0);
    snprintf(want, sizeof(want), "lock order: taking evtchn (rank %u) at "
             "%p while holding evtchn (rank %u) at %p: lower address first",
             LOCK_RANK_EVTCHN, (void *)&ports_l[0], LOCK_RANK_EVTCHN,
             (void *)&ports_l[1]);
    CHECK(dies_saying(ports_down, want));
}

static void trylocked_flush_then_event(void)
{
    CHECK(spin_trylock(&flush_l));
    spin_lock(&event_l);
}

/* A trylock never waits: out of order is fine, and it counts as held. */
static void order_trylock(void)
{
    spin_lock(&event_l);
    CHECK(spin_trylock(&dom_l));
    CHECK(read_trylock(&grant_rw));
    CHECK_EQ(held_nr(), 3);
    read_unlock(&grant_rw);
    CHECK(write_trylock(&grant_rw));
    spin_unlock(&dom_l);
    write_unlock(&grant_rw);
    CHECK(!spin_trylock(&event_l));     /* failed: not listed */
    CHECK_EQ(held_nr(), 1);
    spin_unlock(&event_l);
    CHECK_EQ(held_nr(), 0);
    CHECK(dies_saying(trylocked_flush_then_event,
                      taking(LOCK_RANK_EVENT, LOCK_RANK_FLUSH)));
}

/* Taking a held recursive lock again is no new nesting. */
static void order_recursive(void)
{
    rspin_lock(&dom_r);
    spin_lock(&event_l);
    rspin_lock(&dom_r);
    CHECK(rspin_trylock(&dom_r));
    CHECK_EQ(held_nr(), 2);             /* one entry, any depth */
    rspin_unlock(&dom_r);
    rspin_unlock(&dom_r);
    spin_unlock(&event_l);
    CHECK_EQ(held_nr(), 1);
    rspin_unlock(&dom_r);
    CHECK_EQ(held_nr(), 0);
    CHECK(!spin_is_locked(&dom_r));
}

static void too_many(void)
{
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(ports_l); i++ )
        spin_lock_init(&ports_l[i], LOCK_RANK_EVTCHN);
    for ( i = 0; i < ARRAY_SIZE(ports_l); i++ )
        spin_lock(&ports_l[i]);
}

static void release_unheld(void)
{
    read_unlock(&grant_rw);
}

static void halt_with_lock(void)
{
    spin_lock(&dom_l);
    spin_lock(&vif_l);
    ASSERT_NO_LOCKS_HELD();
}

/* The list's end, a release of what isn't held, the no-lock assertion. */
static void order_list(void)
{
    char want[160];

    snprintf(want, sizeof(want), "lock order: CPU0 holds %u locks, taking "
             "evtchn (rank %u)", LOCKS_HELD_MAX, LOCK_RANK_EVTCHN);
    CHECK(dies_saying(too_many, want));
    snprintf(want, sizeof(want), "lock order: releasing grant_table (rank "
             "%u) at %p, which CPU0 doesn't hold", LOCK_RANK_GRANT_TABLE,
             (void *)&grant_rw);
    CHECK(dies_saying(release_unheld, want));
    ASSERT_NO_LOCKS_HELD();
    snprintf(want, sizeof(want), "Assertion 'no locks held' failed at %s:",
             __FILE__);
    CHECK(dies_saying(halt_with_lock, want));
    CHECK(dies_saying(halt_with_lock, "CPU0 holds 2, the last taken vif"));
}

/* ---------------------------------------------------------------- rwlocks */

/* A global rwlock: its class, and its profile for the boot to link. */
static DEFINE_RWLOCK(global_rw, LOCK_RANK_GRANT_TABLE);

static void rw_define(void)
{
    CHECK_EQ(global_rw.lock.rank, LOCK_RANK_GRANT_TABLE);
    CHECK_EQ(global_rw.cnts, 0);
    CHECK(!global_rw.profile);          /* until lock_profile_init() */
    CHECK(lock_profile__global_rw == &lock_profile_data__global_rw);
    CHECK(lock_profile_data__global_rw.is_rwlock);
    CHECK(lock_profile_data__global_rw.rwlock == &global_rw);
    CHECK_STR(lock_profile_data__global_rw.name, "global_rw");
    write_lock(&global_rw);
    write_unlock(&global_rw);
}

/* Readers share; a writer excludes readers and writers; who holds it. */
static void rw_basics(void)
{
    rwlock_t l = RW_LOCK_UNLOCKED(LOCK_RANK_GRANT_TABLE);

    CHECK(!rw_is_locked(&l));
    read_lock(&l);
    spin_test_cpu = 1;
    read_lock(&l);
    CHECK(read_trylock(&l));            /* CPU 1 again: a second reader */
    spin_test_cpu = 2;
    CHECK(!write_trylock(&l));
    CHECK_EQ(l.cnts, 3 * QR_BIAS);
    CHECK(rw_is_locked(&l) && !rw_is_write_locked(&l));
    CHECK(!rw_is_locked_by_me(&l));
    spin_test_cpu = 0;
    CHECK(rw_is_locked_by_me(&l) && !rw_is_write_locked_by_me(&l));
    read_unlock(&l);
    CHECK(!rw_is_locked_by_me(&l));
    spin_test_cpu = 1;
    read_unlock(&l);
    read_unlock(&l);
    spin_test_cpu = 0;
    CHECK_EQ(l.cnts, 0);

    write_lock(&l);
    CHECK_EQ(l.cnts, QW_LOCKED | 0);
    CHECK(rw_is_write_locked(&l) && rw_is_write_locked_by_me(&l));
    CHECK(rw_is_locked_by_me(&l));
    spin_test_cpu = 1;
    CHECK(!rw_is_write_locked_by_me(&l) && !rw_is_locked_by_me(&l));
    CHECK(!read_trylock(&l));
    CHECK(!write_trylock(&l));
    CHECK_EQ(l.cnts, QW_LOCKED | 0);    /* the failed reader counted out */
    spin_test_cpu = 0;

    /* Its writer may read it too (Xen's), no new nesting. */
    read_lock(&l);
    CHECK(read_trylock(&l));
    CHECK_EQ(held_nr(), 3);
    read_unlock(&l);
    read_unlock(&l);
    write_unlock(&l);
    CHECK_EQ(l.cnts, 0);
    CHECK_EQ(held_nr(), 0);
    CHECK(write_trylock(&l));
    write_unlock(&l);
    CHECK_EQ(l.cnts, 0);
}

/* A writer that has to wait (CPU 1), and a reader after it (CPU 2). */
static rwlock_t queue_rw = RW_LOCK_UNLOCKED(LOCK_RANK_GRANT_TABLE);
static int wrote, read_after;

static void *waiting_writer(void *arg)
{
    spin_test_cpu = 1;
    write_lock(&queue_rw);
    ACCESS_ONCE(wrote) = 1;
    usleep(20000);
    CHECK(!ACCESS_ONCE(read_after));    /* the reader still waits */
    write_unlock(&queue_rw);
    return NULL;
}

static void *late_reader(void *arg)
{
    spin_test_cpu = 2;
    read_lock(&queue_rw);
    CHECK(ACCESS_ONCE(wrote));          /* after the writer */
    ACCESS_ONCE(read_after) = 1;
    read_unlock(&queue_rw);
    return NULL;
}

/*
 * A waiting writer holds new readers off, and gets the lock once the
 * readers it waited for are gone (Xen's fairness).
 */
static void rw_writer_waits(void)
{
    pthread_t w, r;
    bool got;

    read_lock(&queue_rw);
    CHECK(!pthread_create(&w, NULL, waiting_writer, NULL));
    while ( !(ACCESS_ONCE(queue_rw.cnts) & QW_WAITING) )
        cpu_relax();
    spin_test_cpu = 3;
    got = read_trylock(&queue_rw);
    CHECK(!got);                        /* a writer waits */
    if ( got )
        read_unlock(&queue_rw);
    spin_test_cpu = 0;
    CHECK(!pthread_create(&r, NULL, late_reader, NULL));
    usleep(20000);
    CHECK(!ACCESS_ONCE(wrote) && !ACCESS_ONCE(read_after));
    read_unlock(&queue_rw);
    pthread_join(w, NULL);
    pthread_join(r, NULL);
    CHECK(ACCESS_ONCE(read_after));
    CHECK_EQ(queue_rw.cnts, 0);
    CHECK_EQ(held_nr(), 0);
}

static void read_then_domain(void)
{
    read_lock(&grant_rw);
    spin_lock(&dom_l);
}

static void write_then_domain(void)
{
    write_lock_irq_on_wait(&grant_rw);
    spin_lock(&dom_l);
}

static void read_twice(void)
{
    read_lock(&grant_rw);
    read_lock_irq_on_wait(&grant_rw);
}

static void flush_then_read(void)
{
    spin_lock(&flush_l);
    read_lock(&grant_rw);
}

/* A reader holds it as a writer does, in the order check. */
static void rw_order(void)
{
    char want[160];

    spin_lock(&dom_l);
    read_lock(&grant_rw);
    spin_lock(&flush_l);
    spin_unlock(&flush_l);
    read_unlock(&grant_rw);
    write_lock(&grant_rw);
    spin_lock(&timer_l);
    spin_unlock(&timer_l);
    write_unlock(&grant_rw);
    spin_unlock(&dom_l);
    CHECK_EQ(held_nr(), 0);
    CHECK(dies_saying(read_then_domain,
                      taking(LOCK_RANK_DOMAIN, LOCK_RANK_GRANT_TABLE)));
    CHECK(dies_saying(write_then_domain,
                      taking(LOCK_RANK_DOMAIN, LOCK_RANK_GRANT_TABLE)));
    CHECK(dies_saying(flush_then_read,
                      taking(LOCK_RANK_GRANT_TABLE, LOCK_RANK_FLUSH)));
    snprintf(want, sizeof(want), "%s: the same lock",
             taking(LOCK_RANK_GRANT_TABLE, LOCK_RANK_GRANT_TABLE));
    CHECK(dies_saying(read_twice, want));
}

/*
 * Threads as CPUs on one rwlock: writers make a counter odd, then even
 * again, with nobody else inside; readers never see it odd or a writer
 * inside.
 */
#define RW_ROUNDS   20000
static rwlock_t stress_rw = RW_LOCK_UNLOCKED(LOCK_RANK_GRANT_TABLE);
static unsigned long stress_counter, stress_writes;
static unsigned int readers_in, writers_in, bad_reads, bad_writes;

static void *rw_hammer(void *arg)
{
    unsigned int i, writes = 0;

    spin_test_cpu = (uintptr_t)arg;
    for ( i = 0; i < RW_ROUNDS; i++ )
    {
        if ( (i + spin_test_cpu) % 4 == 0 )
        {
            if ( i & 8 )
                write_lock(&stress_rw);
            else
                while ( !write_trylock(&stress_rw) )
                    cpu_relax();
            if ( __atomic_fetch_add(&writers_in, 1, __ATOMIC_SEQ_CST) ||
                 ACCESS_ONCE(readers_in) )
                __atomic_fetch_add(&bad_writes, 1, __ATOMIC_SEQ_CST);
            ACCESS_ONCE(stress_counter) = ACCESS_ONCE(stress_counter) + 1;
            cpu_relax();
            ACCESS_ONCE(stress_counter) = ACCESS_ONCE(stress_counter) + 1;
            __atomic_fetch_sub(&writers_in, 1, __ATOMIC_SEQ_CST);
            write_unlock(&stress_rw);
            writes++;
            continue;
        }
        if ( i & 16 )
            read_lock(&stress_rw);
        else
            while ( !read_trylock(&stress_rw) )
                cpu_relax();
        __atomic_fetch_add(&readers_in, 1, __ATOMIC_SEQ_CST);
        if ( ACCESS_ONCE(writers_in) || (ACCESS_ONCE(stress_counter) & 1) )
            __atomic_fetch_add(&bad_reads, 1, __ATOMIC_SEQ_CST);
        __atomic_fetch_sub(&readers_in, 1, __ATOMIC_SEQ_CST);
        read_unlock(&stress_rw);
    }
    __atomic_fetch_add(&stress_writes, writes, __ATOMIC_SEQ_CST);
    CHECK_EQ(held_nr(), 0);
    return NULL;
}

static void rw_stress(void)
{
    pthread_t t[THREADS];
    uintptr_t i;

    for ( i = 0; i < THREADS; i++ )
        CHECK(!pthread_create(&t[i], NULL, rw_hammer, (void *)(i + 1)));
    for ( i = 0; i < THREADS; i++ )
        pthread_join(t[i], NULL);
    CHECK_EQ(bad_writes, 0);
    CHECK_EQ(bad_reads, 0);
    CHECK_EQ(stress_writes, THREADS * RW_ROUNDS / 4);
    CHECK_EQ(stress_counter, 2 * stress_writes);
    CHECK_EQ(stress_rw.cnts, 0);
    CHECK_EQ(stress_rw.lock.tickets.head, stress_rw.lock.tickets.tail);
}

/* A structure with profiled locks, as struct domain has. */
struct thing {
    spinlock_t a, b;
    rwlock_t rw;
    struct lock_profile_qhead profile_head;
};
static struct thing glob, dom1;

static void profile_off(void)
{
    struct thing t = { 0 };

    opt_lock_profile = false;
    spin_lock_init_prof(&t, a, LOCK_RANK_EVENT);
    rwlock_init_prof(&t, rw, LOCK_RANK_GRANT_TABLE);
    lock_profile_register_struct(LOCKPROF_TYPE_PERDOM, &t, 7);
    CHECK(!t.a.profile);
    CHECK(!t.rw.profile);
    CHECK_EQ(t.a.rank, LOCK_RANK_EVENT);
    CHECK_EQ(t.rw.lock.rank, LOCK_RANK_GRANT_TABLE);
    CHECK(!t.profile_head.elem_q);
    CHECK_EQ(t.a.cpu, SPINLOCK_NO_CPU);
    out_reset();
    spinlock_profile_printall('l');
    CHECK_STR(out, "Xen lock profile info SHOW  (now = 0 total = 0)\n");
}

static void *blocker(void *arg)
{
    spin_test_cpu = 2;
    spin_lock(&dom1.a);
    fake_now += 50;                     /* held for 50 ns */
    spin_unlock(&dom1.a);
    return NULL;
}

static void profile_counts(void)
{
    pthread_t t;
    struct lock_profile *p;

    opt_lock_profile = true;
    fake_now = 1000;
    spin_lock_init_prof(&glob, a, LOCK_RANK_FLUSH);
    lock_profile_register_struct(LOCKPROF_TYPE_GLOBAL, &glob, 0);
    spin_lock_init_prof(&dom1, a, LOCK_RANK_DOMAIN);
    spin_lock_init_prof(&dom1, b, LOCK_RANK_EVENT);
    rwlock_init_prof(&dom1, rw, LOCK_RANK_GRANT_TABLE);
    lock_profile_register_struct(LOCKPROF_TYPE_PERDOM, &dom1, 1);
    p = dom1.a.profile;
    CHECK(p && !strcmp(p->name, "a") && p->lock == &dom1.a);
    CHECK(!p->is_rwlock);
    CHECK_EQ(dom1.a.rank, LOCK_RANK_DOMAIN);
    CHECK(dom1.profile_head.elem_q == dom1.rw.profile);
    CHECK(dom1.rw.profile->next == dom1.b.profile);
    CHECK(dom1.rw.profile->is_rwlock && dom1.rw.profile->rwlock == &dom1.rw);

    /* Uncontended: held 250 ns, no wait. */
    spin_lock(&dom1.a);
    fake_now += 250;
    spin_unlock(&dom1.a);
    CHECK_EQ(p->lock_cnt, 1);
    CHECK_EQ(p->time_hold, 250);
    CHECK_EQ(p->block_cnt, 0);

    /* A trylock counts as a lock, never as a wait. */
    CHECK(spin_trylock(&dom1.a));
    fake_now += 10;
    spin_unlock(&dom1.a);
    CHECK_EQ(p->lock_cnt, 2);
    CHECK_EQ(p->time_hold, 260);

    /* Contended: the other "CPU" waits 1000 ns, then holds it 50. */
    spin_lock(&dom1.a);
    CHECK(!pthread_create(&t, NULL, blocker, NULL));
    while ( (uint16_t)(ACCESS_ONCE(dom1.a.tickets.tail) -
                       ACCESS_ONCE(dom1.a.tickets.head)) != 2 )
        cpu_relax();
    usleep(100000);                     /* it has seen the lock held */
    fake_now += 1000;
    spin_unlock(&dom1.a);
    pthread_join(t, NULL);
    CHECK_EQ(p->lock_cnt, 4);
    CHECK_EQ(p->block_cnt, 1);
    CHECK_EQ(p->time_block, 1000);
    CHECK_EQ(p->time_hold, 260 + 1000 + 50);
    CHECK_EQ(dom1.b.profile->lock_cnt, 0);
}

/* A reader that waits for the writer, then holds it 30 ns: CPU 3. */
static void *rw_blocked_reader(void *arg)
{
    spin_test_cpu = 3;
    read_lock(&dom1.rw);
    fake_now += 30;
    read_unlock(&dom1.rw);
    return NULL;
}

/*
 * An rwlock's counts: every reader and writer is one lock, a reader's
 * wait for a writer one block, and the time held runs from the first
 * holder in to the last one out.
 */
static void rw_profile_counts(void)
{
    struct lock_profile *p = dom1.rw.profile;
    pthread_t t;

    fake_now = 10000;
    read_lock(&dom1.rw);                /* CPU 0 at 10000 */
    fake_now += 100;
    spin_test_cpu = 1;
    read_lock(&dom1.rw);                /* CPU 1 at 10100 */
    spin_test_cpu = 0;
    fake_now += 100;
    read_unlock(&dom1.rw);              /* CPU 0 at 10200 */
    fake_now += 300;
    spin_test_cpu = 1;
    read_unlock(&dom1.rw);              /* CPU 1 at 10500 */
    spin_test_cpu = 0;
    CHECK_EQ(p->lock_cnt, 2);
    CHECK_EQ(p->time_hold, 500);
    CHECK_EQ(p->block_cnt, 0);

    write_lock(&dom1.rw);
    fake_now += 40;
    write_unlock(&dom1.rw);
    CHECK(write_trylock(&dom1.rw));
    fake_now += 10;
    write_unlock(&dom1.rw);
    CHECK(read_trylock(&dom1.rw));
    fake_now += 10;
    read_unlock(&dom1.rw);
    CHECK_EQ(p->lock_cnt, 5);
    CHECK_EQ(p->time_hold, 560);
    CHECK_EQ(p->block_cnt, 0);

    /* The reader queues (its wait's start taken first), waits 1000. */
    write_lock(&dom1.rw);
    CHECK(!pthread_create(&t, NULL, rw_blocked_reader, NULL));
    while ( ACCESS_ONCE(dom1.rw.lock.tickets.tail) ==
            ACCESS_ONCE(dom1.rw.lock.tickets.head) )
        cpu_relax();
    fake_now += 1000;
    write_unlock(&dom1.rw);
    pthread_join(t, NULL);
    CHECK_EQ(p->lock_cnt, 7);
    CHECK_EQ(p->block_cnt, 1);
    CHECK_EQ(p->time_block, 1000);
    CHECK_EQ(p->time_hold, 560 + 1000 + 30);
    CHECK_EQ(p->holders, 0);
    CHECK_EQ(dom1.rw.cnts, 0);
    CHECK_EQ(held_nr(), 0);
}

static void profile_print(void)
{
    char want[1024], held[24];
    uint32_t val;
    int n;

    fake_now = 5000;                    /* lock_profile_start is 0 */
    spin_lock(&dom1.b);
    read_lock(&dom1.rw);
    out_reset();
    spinlock_profile_printall('l');
    n = snprintf(want, sizeof(want),
        "Xen lock profile info SHOW  (now = 5000 total = 5000)\n"
        "Global lock a: addr=%016lx, lockval=00000000, not locked\n"
        "  lock:0(0), block:0(0)\n"
        "Domain 1 rw: addr=%016lx, lockval=00010000, readers=1\n"
        "  lock:7(1590), block:1(1000)\n"
        "Domain 1 b: addr=%016lx, lockval=00010000, cpu=0\n"
        "  lock:0(0), block:0(0)\n"
        "Domain 1 a: addr=%016lx, lockval=00040004, not locked\n"
        "  lock:4(1310), block:1(1000)\n",
        (unsigned long)&glob.a, (unsigned long)&dom1.rw,
        (unsigned long)&dom1.b, (unsigned long)&dom1.a);
    CHECK(n < (int)sizeof(want));
    CHECK_STR(out, want);
    read_unlock(&dom1.rw);
    spin_unlock(&dom1.b);

    /* A writer shows as a spinlock's holder does, on CPU 2 here. */
    spin_test_cpu = 2;
    write_lock(&dom1.rw);
    CHECK(lock_state(dom1.rw.profile, &val, held, sizeof(held)) == &dom1.rw);
    CHECK_EQ(val, QW_LOCKED | 2);
    CHECK_STR(held, "cpu=2");
    write_unlock(&dom1.rw);
    lock_state(dom1.rw.profile, &val, held, sizeof(held));
    CHECK_STR(held, "not locked");
    spin_test_cpu = 0;

    /* 'L': zeroes, and the total restarts. */
    fake_now = 6000;
    out_reset();
    spinlock_profile_reset('L');
    CHECK_STR(out, "Xen lock profile info RESET (now = 6000)\n");
    CHECK_EQ(dom1.a.profile->lock_cnt, 0);
    CHECK_EQ(dom1.a.profile->time_hold, 0);
    CHECK_EQ(dom1.a.profile->block_cnt, 0);
    CHECK_EQ(dom1.a.profile->time_block, 0);
    CHECK_EQ(dom1.b.profile->lock_cnt, 0);
    CHECK_EQ(dom1.rw.profile->lock_cnt, 0);
    CHECK_EQ(dom1.rw.profile->time_hold, 0);
    out_reset();
    spinlock_profile_reset('\0');       /* the sysctl's: silent */
    CHECK_STR(out, "");
    fake_now = 6500;
    out_reset();
    spinlock_profile_printall('l');
    CHECK(!strncmp(out, "Xen lock profile info SHOW  (now = 6500 total = "
                   "500)\n", 48));
}

static void count_elem(struct lock_profile *data, int32_t type, int32_t idx,
                       void *par)
{
    unsigned int *n = par;

    CHECK(type == LOCKPROF_TYPE_GLOBAL ? idx == 0 : idx == 1);
    (*n)++;
}

/*
 * A device's lock, profiled under a name made at run time: counted from
 * then on, renamed in place when its slot takes another device, listed
 * in the global list or its domain's.
 */
static void profile_name(void)
{
    static spinlock_t dev, ring;
    struct lock_profile *p;
    char longname[64];

    opt_lock_profile = true;
    spin_lock_init(&dev, LOCK_RANK_VBD);
    spin_lock_init(&ring, LOCK_RANK_VBD_RING);
    lock_profile_name(&dev, &dom1.profile_head, "xvd%c->lock", 'a');
    lock_profile_name(&ring, &lock_profile_global, "virtio-blk%u->q[%u]",
                      0, 1);
    _lock_profile_register_struct(LOCKPROF_TYPE_GLOBAL, &lock_profile_global,
                                  0);
    p = dev.profile;
    CHECK(p && p->lock == &dev && !p->is_rwlock);
    CHECK_STR(p->name, "xvda->lock");
    CHECK(dom1.profile_head.elem_q == p);
    CHECK(lock_profile_global.elem_q == ring.profile);
    CHECK_STR(ring.profile->name, "virtio-blk0->q[1]");
    CHECK_EQ(dev.rank, LOCK_RANK_VBD);

    spin_lock(&dev);
    fake_now += 30;
    spin_unlock(&dev);
    CHECK_EQ(p->lock_cnt, 1);
    CHECK_EQ(p->time_hold, 30);

    /* Another disk in the slot: the same profile, its counts kept. */
    lock_profile_name(&dev, &dom1.profile_head, "xvd%c->lock", 'c');
    CHECK(dev.profile == p && dom1.profile_head.elem_q == p);
    CHECK_STR(p->name, "xvdc->lock");
    CHECK_EQ(p->lock_cnt, 1);

    /* Initialised again (a device reset): its profile found again. */
    spin_lock_init(&dev, LOCK_RANK_VBD);
    lock_profile_name(&dev, &dom1.profile_head, "xvd%c->lock", 'c');
    CHECK(dev.profile == p && dom1.profile_head.elem_q == p);
    CHECK_EQ(p->lock_cnt, 1);

    /* A name past the sysctl's 40 bytes is cut, terminated. */
    memset(longname, 'x', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    lock_profile_name(&dev, &dom1.profile_head, "%s", longname);
    CHECK_EQ(strlen(p->name), LOCK_PROFILE_NAME - 1);

    out_reset();
    spinlock_profile_printall('l');
    CHECK(strstr(out, "Global lock virtio-blk0->q[1]: addr="));
    CHECK(strstr(out, "Domain 1 xxxxxxxx"));
}

/* Whether @q lists a profile of the lock at @lock. */
static bool listed(const struct lock_profile_qhead *q, const void *lock)
{
    const struct lock_profile *p;

    for ( p = q->elem_q; p; p = p->next )
        if ( (p->is_rwlock ? (const void *)p->rwlock
                           : (const void *)p->lock) == lock )
            return true;
    return false;
}

/*
 * A removed device's memory goes back: its locks leave the profile, and
 * their profiles serve the next device's locks.
 */
static void profile_forget(void)
{
    static struct { spinlock_t l[3]; rwlock_t rw; } dev;
    static spinlock_t other;
    struct lock_profile *p1 = NULL, *p2;

    opt_lock_profile = true;
    for ( unsigned int i = 0; i < 3; i++ )
    {
        spin_lock_init(&dev.l[i], LOCK_RANK_NET_RX);
        lock_profile_name(&dev.l[i], &lock_profile_global, "dev->l[%u]", i);
    }
    _rwlock_init_prof(&dev.rw, &lock_profile_global, "dev->rw",
                      LOCK_RANK(LOCK_RANK_GRANT_TABLE));
    CHECK(dev.rw.profile && dev.l[2].profile);
    p1 = dev.l[2].profile;
    /* The last lock and the rwlock after it: the range is what counts. */
    lock_profile_forget(&dev.l[2], (char *)(&dev + 1) - (char *)&dev.l[2]);
    CHECK(!listed(&lock_profile_global, &dev.l[2]));
    CHECK(!listed(&lock_profile_global, &dev.rw));
    CHECK(listed(&lock_profile_global, &dev.l[0]));
    CHECK(listed(&lock_profile_global, &dev.l[1]));
    CHECK(listed(&dom1.profile_head, &dom1.a));
    /* The next lock named takes a forgotten profile, cleared. */
    spin_lock_init(&other, LOCK_RANK_NET_TX);
    lock_profile_name(&other, &lock_profile_global, "other");
    p2 = other.profile;
    CHECK(p2 == dev.rw.profile || p2 == p1);
    CHECK_STR(p2->name, "other");
    CHECK(p2->lock == &other && !p2->is_rwlock && !p2->lock_cnt);
    CHECK(listed(&lock_profile_global, &other));
}

/* Profiles come from a fixed pool: the one after it is left unprofiled. */
static void profile_pool(void)
{
    static struct thing many[LOCK_PROFILE_POOL];
    unsigned int i, n = 0;

    for ( i = 0; lock_profile_pool_used < LOCK_PROFILE_POOL ||
                 lock_profile_free_list; i++ )
        spin_lock_init_prof(&many[i], a, LOCK_RANK_VBD);
    out_reset();
    spin_lock_init_prof(&many[i], b, LOCK_RANK_VIF);
    CHECK(!many[i].b.profile);
    CHECK(strstr(out, "lock profiling unavailable for ") &&
          strstr(out, "'s b\n"));
    spin_lock_init(&many[i].a, LOCK_RANK_VBD);
    out_reset();
    lock_profile_name(&many[i].a, &many[i].profile_head, "dev%u", 7);
    CHECK(!many[i].a.profile);
    CHECK(strstr(out, "'s dev7\n"));
    spin_lock(&many[i].b);              /* still a lock */
    spin_unlock(&many[i].b);
    rwlock_init_prof(&many[i], rw, LOCK_RANK_GRANT_TABLE);
    CHECK(!many[i].rw.profile);
    write_lock(&many[i].rw);
    write_unlock(&many[i].rw);
    fake_now = 7000;
    CHECK_EQ(spinlock_profile_iterate(count_elem, &n), 1000);
    CHECK_EQ(n, 9);                     /* only registered structures */
}

int main(void)
{
    RUN(tickets);
    RUN(tickets_wrap);
    RUN(recursive);
    RUN(held_by_me);
    RUN(exclusion);
    RUN(rank_names);
    RUN(order_nested);
    RUN(order_violations);
    RUN(order_by_address);
    RUN(order_trylock);
    RUN(order_recursive);
    RUN(order_list);
    RUN(rw_define);
    RUN(rw_basics);
    RUN(rw_writer_waits);
    RUN(rw_order);
    RUN(rw_stress);
    RUN(profile_off);
    RUN(profile_counts);
    RUN(rw_profile_counts);
    RUN(profile_print);
    RUN(profile_name);
    RUN(profile_forget);
    RUN(profile_pool);
    UNIT_EXIT();
}
