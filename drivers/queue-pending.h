/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A device's queues with completions waiting, one bitmap per CPU (the
 * `pending[NR_CPUS]` of drivers/block.h's and drivers/net.h's devices):
 * a queue's interrupt, or its poll, sets the queue's bit in the bitmap of
 * the CPU that took it; that CPU's softirq takes the bitmap whole and
 * runs each queue once.  The release and acquire pair the device's used
 * ring, read after the interrupt, with the softirq that drains it.
 */
#ifndef DRIVERS_QUEUE_PENDING_H
#define DRIVERS_QUEUE_PENDING_H

/* Queue @q of the device has work for this CPU (@mask: its bitmap). */
static inline void queue_pending_set(unsigned long *mask, unsigned int q)
{
    __atomic_or_fetch(mask, 1UL << q, __ATOMIC_RELEASE);
}

/* Every queue marked in @mask, which is left empty. */
static inline unsigned long queue_pending_take(unsigned long *mask)
{
    return __atomic_exchange_n(mask, 0, __ATOMIC_ACQ_REL);
}

#endif /* DRIVERS_QUEUE_PENDING_H */
