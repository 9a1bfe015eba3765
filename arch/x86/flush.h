/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TLB flushes, with the distinctions Xen's flush_area_local() makes: one
 * address, the non-global entries, or everything including global ones.
 */
#ifndef ARCH_X86_FLUSH_H
#define ARCH_X86_FLUSH_H

#include "shim/lib.h"
#include "arch/x86/cr.h"
#include "arch/x86/page.h"
#include "arch/x86/percpu.h"
#include "arch/x86/tlbflush.h"
#include "shim/perfc.h"

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
 * Load @cr3 and keep the global entries: with global pages off there are
 * none (CR4.PGE clear), so the write flushes everything and is noted as
 * a full flush (arch/x86/tlbflush.h).  Xen's toggle between a 64-bit
 * guest's kernel and user tables doesn't tick its clock, as user
 * mappings may be global there; here they are only with global pages on.
 */
static inline void load_cr3(unsigned long cr3)
{
    uint64_t t = tlbflush_begin();

    write_cr3(cr3);
    perfc_incr(cr3_loads);
    if ( !opt_global_pages )
        tlbflush_note(smp_processor_id(), t);
}

/*
 * The same on every online CPU in @mask (a bitmap of CPU numbers), as
 * Xen's flush_area_mask(): this CPU at once, the others by an
 * INVALIDATE_TLB_VECTOR IPI under flush_lock, waiting until each has
 * flushed.  A caller reaching other CPUs must have interrupts on: a CPU
 * spinning for flush_lock with them off would never answer the holder.
 */
void flush_area_mask(unsigned long mask, unsigned long va,
                     unsigned int flags);
/*
 * Around a halt (and nothing else: interrupts only, no guest address, may
 * run between them): a blocked vCPU's, and every halting wait of the
 * shim's (halt_wait_begin()/_end()).  Others' flushes of this CPU are
 * owed meanwhile instead of sent, and done by the exit.
 */
void flush_idle_enter(void);
void flush_idle_exit(void);
/*
 * Around an interrupt's handler (do_IRQ()): a halted CPU is awake while
 * it runs, its owed flush done first.
 */
bool flush_idle_irq_enter(void);
void flush_idle_irq_exit(bool was_idle);
/* @mask without the halted CPUs that now owe it (not @flags' cache flush). */
unsigned long flush_owe_idle(unsigned long mask, unsigned int flags);

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
