/* SPDX-License-Identifier: GPL-2.0-only */
/* TLB and cache flushes (SDM vol. 3A, 4.10.4: invalidation of TLBs). */
#include "arch/x86/cr.h"
#include "arch/x86/flush.h"
#include "arch/x86/percpu.h"
#include "arch/x86/smp.h"
#include "arch/x86/apic.h"
#include "shim/param.h"
#include "shim/spinlock.h"
#include "shim/perfc.h"

struct flush_stats __hot_data flush_stats;

uint64_t __hot_data tlbflush_clock = 1;
uint64_t __hot_data tlbflush_time[NR_CPUS];

/* Xen's: one cross-CPU flush at a time (arch/x86/smp.c). */
DEFINE_SPINLOCK(flush_lock, LOCK_RANK_FLUSH);

/* The flush in flight, under flush_lock: its targets clear their bits. */
static unsigned long flush_cpumask;
static unsigned long flush_va;
static unsigned int flush_flags;
static unsigned long flush_ipis[NR_CPUS];

/*
 * flush-lock=<bool> (default on): Xen's design above, one cross-CPU flush
 * at a time system-wide.  no-flush-lock: the lock-free one below, where
 * every CPU may have a flush in flight at once.
 */
static bool opt_flush_lock = true;
boolean_param("flush-lock", opt_flush_lock);

/*
 * The lock-free design, as Linux's smp_call_function_many() batches its
 * requests: each initiating CPU owns one request slot (address, flags,
 * generation) and publishes it before setting its bit in each target's
 * pending mask; a target takes its whole pending mask with one exchange,
 * does one flush that covers every request in it, and acknowledges each
 * request's generation in its own row of done[][].  An initiator waits
 * for its generation from each target.  Nothing is shared between two
 * initiators, so they never wait for each other, only for their targets.
 */
static struct flush_req {
    unsigned long va;
    unsigned int flags;
    unsigned long gen;
} __aligned(64) flush_req[NR_CPUS];
static unsigned long flush_pending[NR_CPUS];
static unsigned long flush_done[NR_CPUS][NR_CPUS];  /* [target][initiator] */

/*
 * Flushes owed by halted CPUs, as Linux's KVM guests defer those of
 * preempted vCPUs (KVM_VCPU_FLUSH_TLB in the steal-time area): a CPU that
 * halts (its vCPU blocked, or the shim waiting for a lock or for a
 * flush's answers) marks itself TLB_IDLE just before, and whoever must
 * flush it then sets TLB_OWED instead of sending an IPI and waiting for
 * the halted CPU's host thread to wake; the CPU does one full flush as
 * it wakes (flush_idle_exit()), before it runs any of the guest's code or
 * touches any guest address.  Each side writes its word with a locked
 * instruction before it acts (Dekker): a flusher that finds the CPU awake
 * sends the IPI, and an owed flush is seen by the exchange at the wake.
 * Only interrupts run meanwhile, and each is awake while it runs
 * (flush_idle_irq_enter(), from do_IRQ()): an owed flush is done before
 * its handler, and flushers send it IPIs (answered once it halts again),
 * so no handler, a 'd' key's dump of the guest's stack or a speculative
 * walk, ever uses a translation or paging-structure cache entry of a
 * table freed meanwhile.  One that halts itself (a lock in a handler)
 * marks the CPU and leaves it awake, and the handler's end marks it
 * halted again.  Xen sends these IPIs (its scheduler
 * keeps descheduled vCPUs out of a domain's dirty mask); under TCG, or on
 * a host that descheduled the halted vCPU, each costs waking a host
 * thread.
 */
enum { TLB_RUNNING, TLB_IDLE, TLB_OWED };
static unsigned int tlb_idle[NR_CPUS];

void flush_idle_enter(void)
{
    __atomic_store_n(&tlb_idle[smp_processor_id()], TLB_IDLE,
                     __ATOMIC_SEQ_CST);
}

/*
 * An interrupt on a CPU halted (marked so): awake, its owed flush done,
 * until flush_idle_irq_exit(); true if it was halted.
 */
bool flush_idle_irq_enter(void)
{
    if ( __atomic_load_n(&tlb_idle[smp_processor_id()], __ATOMIC_RELAXED) ==
         TLB_RUNNING )
        return false;
    flush_idle_exit();                  /* awake, the owed flush done */
    return true;
}

/* The handler's end: halted again, flushes owed from here on. */
void flush_idle_irq_exit(bool was_idle)
{
    if ( was_idle )
        __atomic_store_n(&tlb_idle[smp_processor_id()], TLB_IDLE,
                         __ATOMIC_SEQ_CST);
}

void flush_idle_exit(void)
{
    if ( __atomic_exchange_n(&tlb_idle[smp_processor_id()], TLB_RUNNING,
                             __ATOMIC_SEQ_CST) == TLB_OWED )
    {
        perfc_incr(tlb_flush_owed_done);
        flush_area_local(0, FLUSH_TLB_GLOBAL);
    }
}

/*
 * A CPU that owes a full flush uses nothing it holds before that flush,
 * so for tlbflush_filter()'s purposes it has flushed.  A cache flush
 * can't wait for the wake.
 */
unsigned long __hot_text flush_owe_idle(unsigned long mask, unsigned int flags)
{
    unsigned long m;

    if ( flags & FLUSH_CACHE )
        return mask;
    for ( m = mask & ~(1UL << smp_processor_id()); m; m &= m - 1 )
    {
        unsigned int cpu = __builtin_ctzl(m), old = TLB_IDLE;

        if ( __atomic_compare_exchange_n(&tlb_idle[cpu], &old, TLB_OWED,
                                         false, __ATOMIC_SEQ_CST,
                                         __ATOMIC_SEQ_CST) ||
             old == TLB_OWED )
        {
            perfc_incr(tlb_flush_owed);
            mask &= ~(1UL << cpu);
        }
    }
    return mask;
}

/*
 * A flush of everything (global entries too, or a CR3 reload while there
 * are none) is noted for tlbflush_filter(), with the clock as it began.
 */
void __hot_text flush_area_local(unsigned long va, unsigned int flags)
{
    if ( flags & FLUSH_TLB_GLOBAL )
    {
        unsigned long cr4 = read_cr4();
        uint64_t t = tlbflush_begin();

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
        tlbflush_note(smp_processor_id(), t);
        perfc_incr(tlb_flush_local_global);
    }
    else if ( flags & FLUSH_TLB )
    {
        load_cr3(read_cr3());
        flush_stats.tlb++;
        perfc_incr(tlb_flush_local);
    }
    else if ( flags & FLUSH_VA )
    {
        asm volatile ( "invlpg (%0)" :: "r" (va) : "memory" );
        flush_stats.va++;
        perfc_incr(tlb_flush_local_va);
    }

    if ( flags & FLUSH_CACHE )
    {
        asm volatile ( "wbinvd" ::: "memory" );
        flush_stats.cache++;
    }
}

static void flush_mask_lockless(unsigned long mask, unsigned long va,
                                unsigned int flags);

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
    mask &= ~self & ACCESS_ONCE(cpu_online_map);
    if ( !mask )
        return;

    perfc_incr(tlb_flush_mask);
    ASSERT(irqs_enabled());
    if ( !opt_flush_lock )
    {
        flush_mask_lockless(mask, va, flags);
        return;
    }
    spin_lock(&flush_lock);
    flush_va = va;
    flush_flags = flags;
    __atomic_store_n(&flush_cpumask, mask, __ATOMIC_RELEASE);
    send_IPI_mask(mask, INVALIDATE_TLB_VECTOR);
    halt_wait_until(!__atomic_load_n(&flush_cpumask, __ATOMIC_ACQUIRE),
                    &flush_cpumask, HALT_ANY);
    spin_unlock(&flush_lock);
}

/*
 * Several requests at once: one flush as wide as the widest.  A CR3
 * reload (FLUSH_TLB) only where every request was one: an address's
 * invlpg drops its global entry too, which a CR3 reload keeps (and with
 * global pages on every guest user mapping is global).
 */
static unsigned int merge_flags(unsigned int a, unsigned int b)
{
    unsigned int tlb = (a | b) & (FLUSH_VA | FLUSH_TLB_GLOBAL)
                       ? FLUSH_TLB_GLOBAL : FLUSH_TLB;

    return tlb | ((a | b) & FLUSH_CACHE);
}

static void lockless_interrupt(unsigned int cpu)
{
    unsigned long pending = __atomic_exchange_n(&flush_pending[cpu], 0,
                                                __ATOMIC_ACQUIRE);
    unsigned long gen[NR_CPUS], va = 0, p;
    unsigned int i, flags = 0, n = 0;

    for ( p = pending; p; p &= p - 1 )
    {
        i = __builtin_ctzl(p);
        gen[i] = __atomic_load_n(&flush_req[i].gen, __ATOMIC_ACQUIRE);
        flags = n++ ? merge_flags(flags, flush_req[i].flags)
                    : flush_req[i].flags;
        va = flush_req[i].va;
    }
    if ( !n )
        return;
    flush_area_local(va, flags);
    flush_ipis[cpu]++;
    for ( p = pending; p; p &= p - 1 )
    {
        i = __builtin_ctzl(p);
        __atomic_store_n(&flush_done[cpu][i], gen[i], __ATOMIC_SEQ_CST);
        halt_kick(&flush_done[cpu][i], HALT_ANY);
    }
}

static void flush_mask_lockless(unsigned long mask, unsigned long va,
                                unsigned int flags)
{
    unsigned int me = smp_processor_id(), cpu;
    struct flush_req *r = &flush_req[me];
    unsigned long gen = r->gen + 1, m;

    r->va = va;
    r->flags = flags;
    __atomic_store_n(&r->gen, gen, __ATOMIC_RELEASE);
    for ( m = mask; m; m &= m - 1 )
        __atomic_or_fetch(&flush_pending[__builtin_ctzl(m)], 1UL << me,
                          __ATOMIC_RELEASE);
    send_IPI_mask(mask, INVALIDATE_TLB_VECTOR);
    for ( m = mask; m; m &= m - 1 )
    {
        cpu = __builtin_ctzl(m);
        halt_wait_until(__atomic_load_n(&flush_done[cpu][me],
                                        __ATOMIC_ACQUIRE) >= gen,
                        &flush_done[cpu][me], HALT_ANY);
    }
}

void invalidate_interrupt(void)
{
    unsigned int cpu = smp_processor_id();

    if ( !opt_flush_lock )
    {
        lockless_interrupt(cpu);
        return;
    }
    flush_area_local(flush_va, flush_flags);
    flush_ipis[cpu]++;
    if ( !__atomic_and_fetch(&flush_cpumask, ~(1UL << cpu),
                             __ATOMIC_SEQ_CST) )
        halt_kick(&flush_cpumask, HALT_ANY);
}

unsigned long flush_ipis_taken(unsigned int cpu)
{
    return cpu < NR_CPUS ? ACCESS_ONCE(flush_ipis[cpu]) : 0;
}

/*
 * Switch to the page tables at @cr3 and leave no old translation behind:
 * with CR4.PGE set, a CR3 write alone keeps the global entries, so PGE is
 * toggled around it (Xen's switch_cr3_cr4()); that is the per-switch cost
 * global-pages weighs.
 */
void __hot_text switch_cr3(unsigned long cr3)
{
    unsigned long cr4 = read_cr4();
    uint64_t t = tlbflush_begin();

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
    perfc_incr(cr3_loads);
    tlbflush_note(smp_processor_id(), t);
}
