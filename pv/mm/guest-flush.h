/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest's TLB flushes, and those the MMU needs itself
 * (pv/mm/guest-flush.c), and those a frame's new type needs.
 */
#ifndef PV_MM_GUEST_FLUSH_H
#define PV_MM_GUEST_FLUSH_H

#include "shim/lib.h"

/*
 * The CPUs that may hold a translation of the guest's: those running its
 * vCPUs, and this one (a bitmap of CPU numbers).
 */
unsigned long pv_guest_cpus(void);

void pv_flush_local(unsigned long va, unsigned int flags);
/* Every CPU running a vCPU of the domain (and this one): for the MMU's
 * own correctness, and the guest's _ALL flushes. */
void pv_flush_domain(unsigned long va, unsigned int flags);
/* The CPUs in @mask (a bitmap of CPU numbers); interrupts off, lock held. */
void pv_flush_mask(unsigned long mask, unsigned long va, unsigned int flags);
/*
 * A flush the guest asked for (MMUEXT_*_ALL/_MULTI, UVMF_ALL/_MULTI):
 * one that reaches other CPUs runs without the domain lock, so vCPUs
 * flushing at once meet at flush_lock (or not at all, no-flush-lock)
 * rather than at the domain lock.  Nothing the caller holds may depend
 * on the lock across the call.
 */
void pv_flush_guest(unsigned long mask, unsigned long va, unsigned int flags);
/*
 * Before @pg takes a new type: flush the CPUs that may still hold
 * translations from its last one (arch/x86/tlbflush.h).
 */
struct page_info;
void pv_flush_stale(const struct page_info *pg);
/*
 * @mask less the CPUs that need no flush for something whose role ended
 * at @stamp: those that flushed everything since (tlbflush_filter()), and
 * those halted that now owe a full flush at their wake.
 */
unsigned long pv_flush_filter(unsigned long mask, uint64_t stamp);

#endif /* PV_MM_GUEST_FLUSH_H */
