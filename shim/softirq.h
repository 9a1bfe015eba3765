/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Softirqs: work an interrupt or a hypercall defers to the return path
 * (Xen's xen/common/softirq.c).  The shim runs with interrupts off, so a
 * pending bit is set in interrupt context or by the shim and consumed
 * only by do_softirq() on the way back to the guest or in the idle loop.
 */
#ifndef SHIM_SOFTIRQ_H
#define SHIM_SOFTIRQ_H

#include "shim/lib.h"
#include "arch/x86/percpu.h"

enum {
    TIMER_SOFTIRQ,          /* run expired timers (shim/timer.c) */
    CONSOLE_SOFTIRQ,        /* the guest notified the console backend */
    XENSTORE_SOFTIRQ,       /* the guest notified the xenstore backend */
    POWER_BUTTON_SOFTIRQ,   /* the VM's power button was pressed */
    KEYPRESS_SOFTIRQ,       /* debug keys typed (shim/keyhandler.c) */
    BLOCK_SOFTIRQ,          /* block queues completed I/O (drivers/) */
    NET_SOFTIRQ,            /* network queues sent or received (drivers/) */
    BLKBACK_SOFTIRQ,        /* a block backend's ring or handshake */
    NETBACK_SOFTIRQ,        /* a network backend's rings or handshake */
    BALLOON_SOFTIRQ,        /* the host's balloon: its wish, a batch done */
    PCI_HOTPLUG_SOFTIRQ,    /* the host added or removes a PCI device */
    NMI_SOFTIRQ,            /* an NMI came (arch/x86/traps.c) */
    NR_SOFTIRQS
};

/*
 * At boot: @handler runs for softirq @nr (an indirect call, off the hot
 * path).
 */
void open_softirq(unsigned int nr, void (*handler)(void));

void raise_softirq(unsigned int nr);    /* this CPU */
/* On @cpu, which an IPI (EVENT_CHECK_VECTOR) sends to look at it. */
void cpu_raise_softirq(unsigned int cpu, unsigned int nr);

/*
 * This CPU's pending bits, read inline on every return to the guest: in
 * its cpu_info, at a fixed place from %rsp, so the exit's look is one
 * compare with memory (Xen keeps them in irq_stat[], a load further).
 */
static inline unsigned long *this_cpu_softirqs(void)
{
    return &get_cpu_info()->softirq_bits;
}

static inline bool softirq_pending(void)
{
    return ACCESS_ONCE(*this_cpu_softirqs());
}

/* Run every pending softirq on this CPU until none is left. */
void do_softirq(void);
/* Only those of @mask (1 << nr each); the others stay pending. */
void do_softirq_mask(unsigned long mask);
/*
 * The same, one round: each of @mask's softirqs pending now runs once,
 * and one raised meanwhile (its handler's own, say: a backend with more
 * work than its budget) is left pending for the caller's next round.
 */
void do_softirq_once(unsigned long mask);

/* Are any of @mask pending on this CPU? */
static inline bool softirq_pending_mask(unsigned long mask)
{
    return ACCESS_ONCE(*this_cpu_softirqs()) & mask;
}

#endif /* SHIM_SOFTIRQ_H */
