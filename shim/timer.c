/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Software timers (shim/timer.h): a sorted singly linked list per CPU,
 * the local APIC timer armed for its head.  The lists are short (a few
 * timers per vCPU), so insertion is a walk.  Each list has its own lock,
 * as Xen's per-CPU timers.lock: any CPU may set or stop a timer of any
 * CPU, and a handler runs with it dropped, so it may set_timer() again
 * and take whatever locks it needs (the lock is a leaf: nothing else is
 * taken while it is held).
 */
#include "shim/timer.h"
#include "shim/softirq.h"
#include "shim/spinlock.h"
#include "arch/x86/apic.h"
#include "arch/x86/irq.h"
#include "arch/x86/percpu.h"
#include "arch/x86/smp.h"
#include "arch/x86/traps.h"
#include "shim/console.h"
#include "shim/perfc.h"

static struct timer *timer_list[NR_CPUS];
static spinlock_t timer_lock[NR_CPUS] = {
    [0 ... NR_CPUS - 1] = SPIN_LOCK_UNLOCKED(LOCK_RANK_TIMER),
};

static void reprogram(unsigned int cpu)
{
    struct timer *head = timer_list[cpu];

    perfc_incr(apic_timer_arms);
    lapic_timer_set(head ? head->expires : 0);
}

static void unlink_timer(struct timer *t)
{
    struct timer **pp;

    for ( pp = &timer_list[t->cpu]; *pp; pp = &(*pp)->next )
        if ( *pp == t )
        {
            *pp = t->next;
            break;
        }
    t->next = NULL;
    t->active = false;
}

void init_timer(struct timer *t, void (*function)(void *), void *data,
                unsigned int cpu)
{
    memset(t, 0, sizeof(*t));
    t->function = function;
    t->data = data;
    t->cpu = cpu;
}

/*
 * A timer of another CPU may be set or stopped too (a vCPU's, from
 * another vCPU), under that CPU's list lock; the owner is sent to its
 * TIMER_SOFTIRQ to arm its own APIC timer.  Only a timer's owner CPU
 * writes its APIC timer, under the lock, so the deadline it arms is the
 * head it saw.  A handler already taken off the list when stop_timer()
 * runs still runs (Xen's stop_timer() doesn't wait either).
 */
void __hot_text set_timer(struct timer *t, uint64_t expires)
{
    spinlock_t *lock = &timer_lock[t->cpu];
    struct timer **pp;

    spin_lock(lock);
    if ( t->active )
        unlink_timer(t);
    t->expires = expires;
    for ( pp = &timer_list[t->cpu]; *pp && (*pp)->expires <= expires;
          pp = &(*pp)->next )
        ;
    t->next = *pp;
    *pp = t;
    ACCESS_ONCE(t->active) = true;
    if ( t->cpu != smp_processor_id() )
    {
        spin_unlock(lock);
        cpu_raise_softirq(t->cpu, TIMER_SOFTIRQ);
        return;
    }
    if ( timer_list[t->cpu] == t )
    {
        if ( expires <= NOW() )
            raise_softirq(TIMER_SOFTIRQ);
        else
            reprogram(t->cpu);
    }
    spin_unlock(lock);
}

void stop_timer(struct timer *t)
{
    spinlock_t *lock = &timer_lock[t->cpu];
    bool was_head;

    spin_lock(lock);
    if ( t->active )
    {
        was_head = timer_list[t->cpu] == t;
        unlink_timer(t);
        /* Another CPU's APIC timer may fire for nothing: harmless. */
        if ( was_head && t->cpu == smp_processor_id() )
            reprogram(t->cpu);
    }
    spin_unlock(lock);
}

/*
 * TIMER_SOFTIRQ: run what has expired, each handler with the list's lock
 * dropped (as Xen's execute_timer()), then arm for what is left.
 */
static void __hot_text timer_softirq(void)
{
    unsigned int cpu = smp_processor_id();
    spinlock_t *lock = &timer_lock[cpu];
    struct timer *t;
    void (*fn)(void *);
    void *data;

    spin_lock(lock);
    while ( (t = timer_list[cpu]) && t->expires <= NOW() )
    {
        timer_list[cpu] = t->next;
        t->next = NULL;
        ACCESS_ONCE(t->active) = false;
        fn = t->function;
        data = t->data;
        spin_unlock(lock);
        fn(data);                       /* may set_timer() again */
        spin_lock(lock);
    }
    reprogram(cpu);
    spin_unlock(lock);
}

void timer_init(void)
{
    open_softirq(TIMER_SOFTIRQ, timer_softirq);
    lapic_init();
}

/*
 * A wake-up already due (the host stalled this CPU past it) is only a
 * softirq bit, no interrupt: no halt then, or nothing might end it.
 * Halting, not spinning with interrupts let in for an instruction
 * (local_irq_window()): under PVM (tests/boot/kvm-apic.sh) a self-IPI
 * pending through such windows went untaken for seconds.
 */
#define HALT_WAKE_NS        1000000ULL

static struct timer halt_wake[NR_CPUS];

static void halt_wake_fn(void *data)
{
}

void timer_halt(void)
{
    struct timer *t = &halt_wake[smp_processor_id()];

    if ( !t->function )
        init_timer(t, halt_wake_fn, NULL, smp_processor_id());
    set_timer(t, NOW() + HALT_WAKE_NS);
    if ( !softirq_pending() )
        cpu_wait_for_interrupt();
    do_softirq();
}

void timer_halt_end(void)
{
    stop_timer(&halt_wake[smp_processor_id()]);
}

/*
 * Boot, once the APs idle: a timer set 1 ms ahead for each online CPU,
 * which must run from that CPU's TIMER_SOFTIRQ after its APIC timer
 * fired, as a vCPU's timers will (the whole path: the list, the APIC in
 * the mode lapic_init() chose, the interrupt, the softirq).  A CPU whose
 * timer never fires would leave its vCPU asleep for good; it is named
 * here instead, as smp_boot_cpus() names a CPU that misses an IPI.  The
 * modes that only KVM's APIC offers here (x2APIC, TSC-deadline) are
 * checked so by tests/boot/kvm-apic.sh.
 */
#define CHECK_AHEAD_NS      1000000ULL
#define CHECK_TIMEOUT_NS    2000000000ULL

static struct timer check_timers[NR_CPUS];
static unsigned long check_fired;

static void check_timer_fn(void *data)
{
    __atomic_or_fetch(&check_fired, 1UL << (unsigned long)data,
                      __ATOMIC_SEQ_CST);
}

void timer_check_cpus(void)
{
    unsigned long online = cpu_online_map, fired;
    uint64_t end = NOW() + CHECK_TIMEOUT_NS;
    unsigned int cpu;

    for ( cpu = 0; cpu < NR_CPUS; cpu++ )
        if ( cpu_online(cpu) )
        {
            init_timer(&check_timers[cpu], check_timer_fn,
                       (void *)(unsigned long)cpu, cpu);
            set_timer(&check_timers[cpu], NOW() + CHECK_AHEAD_NS);
        }
    while ( (fired = ACCESS_ONCE(check_fired)) != online && NOW() < end )
        timer_halt();
    timer_halt_end();
    if ( fired == online )
        printk("Timers: the APIC timer fired on each of the %u CPU(s)\n",
               num_online_cpus());
    for ( cpu = 0; cpu < NR_CPUS; cpu++ )
        if ( ((online & ~fired) >> cpu) & 1 )
        {
            stop_timer(&check_timers[cpu]);
            printk(XENLOG_WARNING "Timers: CPU%u's APIC timer did not fire "
                   "within %llu ms\n", cpu, CHECK_TIMEOUT_NS / 1000000);
        }
}

/* The 'a' debug key: each CPU's timers, as Xen's dump_timerq(). */
void dump_timerq(unsigned char key)
{
    const struct timer *t;
    uint64_t now = NOW();
    unsigned long off, size;
    const char *fn;
    unsigned int cpu;

    printk("Dumping timer queues:\n");
    for ( cpu = 0; cpu < NR_CPUS; cpu++ )
    {
        if ( !ACCESS_ONCE(timer_list[cpu]) && cpu != smp_processor_id() )
            continue;
        printk("CPU%02u:\n", cpu);
        spin_lock(&timer_lock[cpu]);
        for ( t = timer_list[cpu]; t; t = t->next )
        {
            fn = symbol_lookup((unsigned long)t->function, &off, &size);
            printk("  ex=%12ldus timer=%016lx cb=%s(%016lx)\n",
                   (long)(t->expires - now) / 1000, (unsigned long)t,
                   fn ? fn : "?", (unsigned long)t->data);
        }
        spin_unlock(&timer_lock[cpu]);
    }
}
