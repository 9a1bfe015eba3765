/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One-shot software timers on system time (ns since boot, NOW()), as Xen's
 * xen/common/timer.c: each CPU keeps its timers ordered by deadline and
 * programs its local APIC timer for the first; the interrupt raises
 * TIMER_SOFTIRQ and expired timers run from do_softirq(), with interrupts
 * off, on the CPU they were set on.  A deadline in the past fires at the
 * next softirq run.
 */
#ifndef SHIM_TIMER_H
#define SHIM_TIMER_H

#include "shim/lib.h"
#include "arch/x86/time.h"

struct timer {
    uint64_t expires;               /* NOW() value it fires at */
    void (*function)(void *data);   /* called once per set_timer() */
    void *data;
    struct timer *next;             /* in its CPU's list, by expires */
    unsigned int cpu;
    bool active;
};

/* System time in ns since boot: the clock timers and guests run on. */
static inline uint64_t NOW(void)
{
    return now_ns();
}

void init_timer(struct timer *t, void (*function)(void *), void *data,
                unsigned int cpu);
/* (Re)arm @t to fire at @expires (NOW() units); a past time fires soon. */
void set_timer(struct timer *t, uint64_t expires);
void stop_timer(struct timer *t);
static inline bool timer_is_active(const struct timer *t)
{
    return t->active;
}

/* Boot: the local APIC timer and TIMER_SOFTIRQ on this CPU. */
void timer_init(void);
/*
 * Boot-time waits for an interrupt (an IPI's answer, a device's
 * completion): halt until one comes or a millisecond passes (a timer of
 * this CPU's the backstop), then run the softirqs; timer_halt_end()
 * stops that timer once the wait is over (left armed, it only fires for
 * nothing).
 */
void timer_halt(void);
void timer_halt_end(void);

/*
 * Boot, the APs up: a timer on each CPU must fire within two seconds;
 * "Timers: the APIC timer fired on each of the N CPU(s)", else a warning
 * naming each CPU whose did not.
 */
void timer_check_cpus(void);

/* The 'a' debug key: every CPU's pending timers. */
void dump_timerq(unsigned char key);

#endif /* SHIM_TIMER_H */
