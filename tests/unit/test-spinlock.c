/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of shim/spinlock.c and lock-order.c: the ticket arithmetic
 * (wrap-around, trylock, recursion), mutual exclusion between threads,
 * the holder check behind the debug build's held-lock assertions, the
 * debug build's lock order check (each panic caught in a child process,
 * its message checked), Xen's lock profile counters on a fake clock, and
 * the 'l'/'L' printout, character for character.  Built as the debug
 * build is, order check and all.
 */
#define CONFIG_DEBUG 1
#include "tests/unit/unit.h"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../../shim/spinlock.c"
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
    CHECK_EQ(held_nr(), 2);
    spin_unlock(&dom_l);
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
        spin_lock(&ports_l[i]);
}

static void halt_with_lock(void)
{
    spin_lock(&dom_l);
    spin_lock(&vif_l);
    ASSERT_NO_LOCKS_HELD();
}

/* The list's end, the no-lock assertion. */
static void order_list(void)
{
    char want[160];

    snprintf(want, sizeof(want), "lock order: CPU0 holds %u locks, taking "
             "evtchn (rank %u)", LOCKS_HELD_MAX, LOCK_RANK_EVTCHN);
    CHECK(dies_saying(too_many, want));
    ASSERT_NO_LOCKS_HELD();
    snprintf(want, sizeof(want), "Assertion 'no locks held' failed at %s:",
             __FILE__);
    CHECK(dies_saying(halt_with_lock, want));
    CHECK(dies_saying(halt_with_lock, "CPU0 holds 2, the last taken vif"));
}

/* A structure with profiled locks, as struct domain has. */
struct thing {
    spinlock_t a, b;
    struct lock_profile_qhead profile_head;
};
static struct thing glob, dom1;

static void profile_off(void)
{
    struct thing t = { 0 };

    opt_lock_profile = false;
    spin_lock_init_prof(&t, a, LOCK_RANK_EVENT);
    lock_profile_register_struct(LOCKPROF_TYPE_PERDOM, &t, 7);
    CHECK(!t.a.profile);
    CHECK_EQ(t.a.rank, LOCK_RANK_EVENT);
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
    lock_profile_register_struct(LOCKPROF_TYPE_PERDOM, &dom1, 1);
    p = dom1.a.profile;
    CHECK(p && !strcmp(p->name, "a") && p->lock == &dom1.a);
    CHECK_EQ(dom1.a.rank, LOCK_RANK_DOMAIN);
    CHECK(dom1.profile_head.elem_q == dom1.b.profile);

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

static void profile_print(void)
{
    char want[1024];
    int n;

    fake_now = 5000;                    /* lock_profile_start is 0 */
    spin_lock(&dom1.b);
    out_reset();
    spinlock_profile_printall('l');
    n = snprintf(want, sizeof(want),
        "Xen lock profile info SHOW  (now = 5000 total = 5000)\n"
        "Global lock a: addr=%016lx, lockval=00000000, not locked\n"
        "  lock:0(0), block:0(0)\n"
        "Domain 1 b: addr=%016lx, lockval=00010000, cpu=0\n"
        "  lock:0(0), block:0(0)\n"
        "Domain 1 a: addr=%016lx, lockval=00040004, not locked\n"
        "  lock:4(1310), block:1(1000)\n",
        (unsigned long)&glob.a, (unsigned long)&dom1.b,
        (unsigned long)&dom1.a);
    CHECK(n < (int)sizeof(want));
    CHECK_STR(out, want);
    spin_unlock(&dom1.b);

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

/* Profiles come from a fixed pool: the one after it is left unprofiled. */
static void profile_pool(void)
{
    static struct thing many[LOCK_PROFILE_POOL];
    unsigned int i, n = 0;

    for ( i = 0; lock_profile_pool_used < LOCK_PROFILE_POOL; i++ )
        spin_lock_init_prof(&many[i], a, LOCK_RANK_VBD);
    out_reset();
    spin_lock_init_prof(&many[i], b, LOCK_RANK_VIF);
    CHECK(!many[i].b.profile);
    CHECK(strstr(out, "lock profiling unavailable for ") &&
          strstr(out, "'s b\n"));
    spin_lock(&many[i].b);              /* still a lock */
    spin_unlock(&many[i].b);
    fake_now = 7000;
    CHECK_EQ(spinlock_profile_iterate(count_elem, &n), 1000);
    CHECK_EQ(n, 3);                     /* only registered structures */
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
    RUN(profile_off);
    RUN(profile_counts);
    RUN(profile_print);
    RUN(profile_pool);
    UNIT_EXIT();
}
