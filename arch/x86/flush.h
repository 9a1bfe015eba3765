/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TLB flushes, with the distinctions Xen's flush_area_local() makes: one
 * address, the non-global entries, or everything including global ones.
 */
#ifndef ARCH_X86_FLUSH_H
#define ARCH_X86_FLUSH_H

#include "shim/lib.h"

#define FLUSH_VA            0x1     /* one address: invlpg */
#define FLUSH_TLB           0x2     /* all non-global entries: CR3 reload */
#define FLUSH_TLB_GLOBAL    0x4     /* everything: PGE toggle, or CR3 */
#define FLUSH_CACHE         0x8     /* write back and invalidate caches */

/*
 * Flush this CPU's TLB.  With CR4.PGE set, a global flush is a PGE toggle
 * (two CR4 writes, each a VM exit on AMD SVM); with PGE clear there are no
 * global entries and a CR3 reload does it: the cost global-pages trades.
 */
void flush_area_local(unsigned long va, unsigned int flags);

/* invlpg of @va alone, uncounted (drivers/dma.h's fence under TCG). */
static inline void invlpg_one(unsigned long va)
{
    asm volatile ( "invlpg (%0)" :: "r" (va) : "memory" );
}

/* Load @cr3, flushing everything, global entries included. */
void switch_cr3(unsigned long cr3);

/*
 * The same on every online CPU in @mask (a bitmap of CPU numbers), as
 * Xen's flush_area_mask(): this CPU at once, the others by an
 * INVALIDATE_TLB_VECTOR IPI under flush_lock, waiting until each has
 * flushed.  A caller reaching other CPUs must have interrupts on: a CPU
 * spinning for flush_lock with them off would never answer the holder.
 */
void flush_area_mask(unsigned long mask, unsigned long va,
                     unsigned int flags);
/* INVALIDATE_TLB_VECTOR's handler (do_IRQ()). */
void invalidate_interrupt(void);
/* Flushes this CPU did for others' flush_area_mask() (boot check). */
unsigned long flush_ipis_taken(unsigned int cpu);

/* Held across a flush that reaches other CPUs (shim/spinlock.h). */
struct spinlock;
extern struct spinlock flush_lock;

/* Counters, for benchmarks and debug keys. */
struct flush_stats {
    unsigned long va, tlb, global_pge, global_cr3, cache;
};
extern struct flush_stats flush_stats;

#endif /* ARCH_X86_FLUSH_H */
