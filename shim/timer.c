/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Software timers (shim/timer.h): a sorted singly linked list per CPU,
 * the local APIC timer armed for its head.  The lists are short (a few
 * timers per vCPU), so insertion is a walk.
 */
#include "shim/timer.h"
#include "shim/softirq.h"
#include "arch/x86/apic.h"
#include "arch/x86/percpu.h"
#include "arch/x86/traps.h"
#include "shim/console.h"

static struct timer *timer_list[NR_CPUS];

static void reprogram(unsigned int cpu)
{
    struct timer *head = timer_list[cpu];

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
 * another vCPU): the callers serialise every use of the lists (the
 * domain lock, once the guest runs), and the owner is sent to its
 * TIMER_SOFTIRQ to arm its own APIC timer.
 */
void set_timer(struct timer *t, uint64_t expires)
{
    struct timer **pp;

    if ( t->active )
        unlink_timer(t);
    t->expires = expires;
    for ( pp = &timer_list[t->cpu]; *pp && (*pp)->expires <= expires;
          pp = &(*pp)->next )
        ;
    t->next = *pp;
    *pp = t;
    t->active = true;
    if ( t->cpu != smp_processor_id() )
        cpu_raise_softirq(t->cpu, TIMER_SOFTIRQ);
    else if ( timer_list[t->cpu] == t )
    {
        if ( expires <= NOW() )
            raise_softirq(TIMER_SOFTIRQ);
        else
            reprogram(t->cpu);
    }
}

void stop_timer(struct timer *t)
{
    bool was_head;

    if ( !t->active )
        return;
    was_head = timer_list[t->cpu] == t;
    unlink_timer(t);
    /* Another CPU's APIC timer may fire for nothing: harmless. */
    if ( was_head && t->cpu == smp_processor_id() )
        reprogram(t->cpu);
}

/* TIMER_SOFTIRQ: run what has expired, then arm for what is left. */
static void timer_softirq(void)
{
    unsigned int cpu = smp_processor_id();
    struct timer *t;

    while ( (t = timer_list[cpu]) && t->expires <= NOW() )
    {
        timer_list[cpu] = t->next;
        t->next = NULL;
        t->active = false;
        t->function(t->data);           /* may set_timer() again */
    }
    reprogram(cpu);
}

void timer_init(void)
{
    open_softirq(TIMER_SOFTIRQ, timer_softirq);
    lapic_init();
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
        if ( !timer_list[cpu] && cpu != smp_processor_id() )
            continue;
        printk("CPU%02u:\n", cpu);
        for ( t = timer_list[cpu]; t; t = t->next )
        {
            fn = symbol_lookup((unsigned long)t->function, &off, &size);
            printk("  ex=%12ldus timer=%016lx cb=%s(%016lx)\n",
                   (long)(t->expires - now) / 1000, (unsigned long)t,
                   fn ? fn : "?", (unsigned long)t->data);
        }
    }
}
