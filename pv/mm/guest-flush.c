/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest's TLB flushes and those the MMU needs itself, on this CPU,
 * on every CPU running the guest, or on those that may still hold what a
 * frame's ended type left (tlbflush_filter()).  The flushes themselves,
 * and each CPU's note of its full ones, are arch/x86/flush.c's.
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
#include "shim/perfc.h"

unsigned long pv_guest_cpus(void)
{
    return pv_domain_cpumask() | (1UL << smp_processor_id());
}

unsigned long __hot_text pv_flush_filter(unsigned long mask, uint64_t stamp)
{
    tlbflush_filter(&mask, stamp);
    return flush_owe_idle(mask, FLUSH_TLB_GLOBAL);
}

/*
 * A flush of the CPUs in @mask: this one at once, the others by IPI,
 * waited for with interrupts on (flush_area_mask()'s rule: every CPU
 * spinning for the domain lock or for flush_lock answers meanwhile).
 * Each CPU notes its own full flush (arch/x86/tlbflush.h).
 */
void __hot_text pv_flush_mask(unsigned long mask, unsigned long va,
                              unsigned int flags)
{
    unsigned long self = 1UL << smp_processor_id();

    mask = flush_owe_idle(mask, flags);
    if ( mask & ~self )
    {
        local_irq_enable();
        flush_area_mask(mask, va, flags);
        local_irq_disable();
    }
    else if ( mask & self )
        flush_area_local(va, flags);
}

/*
 * Called with the domain lock (update_va_mapping, a multicall's op) or
 * without (mmuext_op's flushes); a held lock is dropped around the remote
 * part only.
 */
void pv_flush_guest(unsigned long mask, unsigned long va, unsigned int flags)
{
    bool locked = pv_domain_locked();

    mask = flush_owe_idle(mask, flags);
    if ( !(mask & ~(1UL << smp_processor_id())) )
    {
        pv_flush_mask(mask, va, flags);
        return;
    }
    if ( locked )
        pv_domain_unlock();
    local_irq_enable();
    flush_area_mask(mask, va, flags);
    if ( locked )
        pv_domain_lock();               /* waits with interrupts on */
    local_irq_disable();
}

/*
 * Xen's _get_page_type() flush on a type change: every CPU running a
 * vCPU (and this one) that hasn't flushed everything since @pg's last
 * type ended, as tlbflush_filter() finds them; none, most of the time
 * with global pages off, where each CR3 write is such a flush.
 */
void __hot_text pv_flush_stale(const struct page_info *pg)
{
    unsigned long mask = pv_flush_filter(pv_guest_cpus(), pg->flush_stamp);

    if ( mask )
    {
        perfc_incr(tlb_flush_type_change);
        pv_flush_mask(mask, 0, FLUSH_TLB_GLOBAL);
    }
    else
        perfc_incr(tlb_flush_type_change_filtered);
}

void __hot_text pv_flush_local(unsigned long va, unsigned int flags)
{
    pv_flush_mask(1UL << smp_processor_id(), va, flags);
}

/* Every CPU that may hold a translation of the guest's (and this one). */
void pv_flush_domain(unsigned long va, unsigned int flags)
{
    pv_flush_mask(pv_guest_cpus(), va, flags);
}
