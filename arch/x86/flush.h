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

/* Load @cr3, flushing everything, global entries included. */
void switch_cr3(unsigned long cr3);

/* The same on every CPU in @mask (a bitmap of CPU numbers). */
void flush_area_mask(unsigned long mask, unsigned long va,
                     unsigned int flags);

/* Held across a flush that reaches other CPUs (shim/spinlock.h). */
struct spinlock;
extern struct spinlock flush_lock;

/* Counters, for benchmarks and debug keys. */
struct flush_stats {
    unsigned long va, tlb, global_pge, global_cr3, cache;
};
extern struct flush_stats flush_stats;

#endif /* ARCH_X86_FLUSH_H */
