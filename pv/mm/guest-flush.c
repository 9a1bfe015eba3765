/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest's TLB flushes and those the MMU needs itself, on this CPU or
 * on every CPU running the guest, and the flush clock they move: only a
 * flush that left no translation of the guest's anywhere advances
 * tlbflush_clock, the clock page types are stamped with when they end
 * (pv/mm/page-type.c).  The flushes themselves are arch/x86/flush.c's.
 */
#include "shim/lib.h"
#include "arch/x86/flush.h"
#include "arch/x86/irq.h"
#include "arch/x86/page.h"
#include "arch/x86/percpu.h"
#include "pv/domain.h"
#include "pv/mm/guest-flush.h"
#include "pv/mm/page-type.h"
#include "pv/vcpu/smp.h"

/*
 * Only a flush that leaves no translation at all advances the clock that
 * type stamps are compared to.  With global pages on, a CR3 reload keeps
 * the global entries (guest user mappings are global then), so it
 * doesn't count: a stale global writable entry would otherwise outlive
 * its frame becoming a page table.
 */
void pv_note_cr3_reload(void)
{
    if ( !opt_global_pages )
        tlbflush_clock++;
}

/*
 * A flush of the CPUs in @mask: this one at once, the others by IPI,
 * waited for with interrupts on (flush_area_mask()'s rule: every CPU
 * spinning for the domain lock or for flush_lock answers meanwhile).
 * Only a flush that reached every CPU holding the guest's translations
 * (pv_domain_cpumask()) moves the flush clock: a frame's type may then
 * change without another.
 */
void pv_flush_mask(unsigned long mask, unsigned long va, unsigned int flags)
{
    unsigned long self = 1UL << smp_processor_id();

    if ( mask & ~self )
    {
        local_irq_enable();
        flush_area_mask(mask, va, flags);
        local_irq_disable();
    }
    else if ( mask & self )
        flush_area_local(va, flags);
    pv_note_flush(mask, flags);
}

void pv_note_flush(unsigned long mask, unsigned int flags)
{
    if ( pv_domain_cpumask() & ~mask )
        return;
    if ( flags & FLUSH_TLB_GLOBAL )
        tlbflush_clock++;
    else if ( flags & FLUSH_TLB )
        pv_note_cr3_reload();
}

/*
 * The domain lock is dropped around the remote part only: the flush
 * clock and the stamps are read before, under it, and the clock moves
 * afterwards, under it again, only if tlbflush_may_advance() says no
 * frame's type ended meanwhile (page-type.c).
 */
void pv_flush_guest(unsigned long mask, unsigned long va, unsigned int flags)
{
    uint32_t clock = tlbflush_clock, stamps = tlbflush_stamps;

    ASSERT(spin_is_locked_by_me(&dom.domain_lock));
    if ( !(mask & ~(1UL << smp_processor_id())) )
    {
        pv_flush_mask(mask, va, flags);
        return;
    }
    pv_domain_unlock();
    local_irq_enable();
    flush_area_mask(mask, va, flags);
    pv_domain_lock();                   /* waits with interrupts on */
    local_irq_disable();
    if ( tlbflush_may_advance(clock, stamps) )
        pv_note_flush(mask, flags);
}

void pv_flush_local(unsigned long va, unsigned int flags)
{
    pv_flush_mask(1UL << smp_processor_id(), va, flags);
}

/* Every CPU that may hold a translation of the guest's (and this one). */
void pv_flush_domain(unsigned long va, unsigned int flags)
{
    pv_flush_mask(pv_domain_cpumask() | (1UL << smp_processor_id()), va,
                  flags);
}
