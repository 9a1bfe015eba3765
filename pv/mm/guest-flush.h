/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest's TLB flushes, and those the MMU needs itself
 * (pv/mm/guest-flush.c): each full flush advances the flush clock page
 * types are stamped with (pv/mm/page-type.h).
 */
#ifndef PV_MM_GUEST_FLUSH_H
#define PV_MM_GUEST_FLUSH_H

#include "shim/lib.h"

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
/* A flush of @mask happened elsewhere (a CR3 switch): the clock's view. */
void pv_note_flush(unsigned long mask, unsigned int flags);
/* A CR3 write happened: it counts as a full flush only without PGE. */
void pv_note_cr3_reload(void);

#endif /* PV_MM_GUEST_FLUSH_H */
