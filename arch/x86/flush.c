/* SPDX-License-Identifier: GPL-2.0-only */
/* TLB and cache flushes (SDM vol. 3A, 4.10.4: invalidation of TLBs). */
#include "arch/x86/cr.h"
#include "arch/x86/flush.h"
#include "arch/x86/percpu.h"
#include "shim/spinlock.h"

struct flush_stats flush_stats;

/* Xen's: one cross-CPU flush at a time (arch/x86/smp.c). */
DEFINE_SPINLOCK(flush_lock);

void flush_area_local(unsigned long va, unsigned int flags)
{
    if ( flags & FLUSH_TLB_GLOBAL )
    {
        unsigned long cr4 = read_cr4();

        if ( cr4 & X86_CR4_PGE )
        {
            /* Clearing PGE flushes everything, global entries included. */
            write_cr4(cr4 & ~X86_CR4_PGE);
            write_cr4(cr4);
            flush_stats.global_pge++;
        }
        else
        {
            write_cr3(read_cr3());
            flush_stats.global_cr3++;
        }
    }
    else if ( flags & FLUSH_TLB )
    {
        write_cr3(read_cr3());
        flush_stats.tlb++;
    }
    else if ( flags & FLUSH_VA )
    {
        asm volatile ( "invlpg (%0)" :: "r" (va) : "memory" );
        flush_stats.va++;
    }

    if ( flags & FLUSH_CACHE )
    {
        asm volatile ( "wbinvd" ::: "memory" );
        flush_stats.cache++;
    }
}

/*
 * As Xen's flush_area_mask(): this CPU flushes itself first, unlocked;
 * only a flush that reaches other CPUs takes flush_lock, and holds it
 * while their IPIs are sent and answered, so a flush on one CPU never
 * touches the lock.
 */
void flush_area_mask(unsigned long mask, unsigned long va,
                     unsigned int flags)
{
    unsigned long self = 1UL << smp_processor_id();

    if ( mask & self )
        flush_area_local(va, flags);
    if ( mask & ~self )
    {
        spin_lock(&flush_lock);
        /* The flush IPIs and the wait for them: SMP bring-up. */
        spin_unlock(&flush_lock);
    }
}

/*
 * Switch to the page tables at @cr3 and leave no old translation behind:
 * with CR4.PGE set, a CR3 write alone keeps the global entries, so PGE is
 * toggled around it (Xen's switch_cr3_cr4()); that is the per-switch cost
 * global-pages weighs.
 */
void switch_cr3(unsigned long cr3)
{
    unsigned long cr4 = read_cr4();

    if ( cr4 & X86_CR4_PGE )
    {
        write_cr4(cr4 & ~X86_CR4_PGE);
        write_cr3(cr3);
        write_cr4(cr4);
        flush_stats.global_pge++;
    }
    else
    {
        write_cr3(cr3);
        flush_stats.global_cr3++;
    }
}
