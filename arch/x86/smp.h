/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CPUs: which are online, their local APIC IDs, IPIs to sets of them
 * (arch/x86/smp.c), and bringing them up (arch/x86/smpboot.c).  CPU n is
 * bit n of a cpumask; NR_CPUS is 64, so a mask is one unsigned long.
 */
#ifndef ARCH_X86_SMP_H
#define ARCH_X86_SMP_H

#include "shim/lib.h"
#include "arch/x86/barrier.h"
#include "arch/x86/irq.h"
#include "arch/x86/layout.h"

BUILD_BUG_ON(NR_CPUS > 8 * sizeof(unsigned long));

/* Set by each CPU as its last step up; CPU 0 from the start. */
extern unsigned long cpu_online_map;
/* Each CPU's local APIC ID: where its IPIs go. */
extern uint32_t x86_cpu_to_apicid[NR_CPUS];

static inline bool cpu_online(unsigned int cpu)
{
    return cpu < NR_CPUS && (ACCESS_ONCE(cpu_online_map) >> cpu) & 1;
}

/* The CPUs in mask @m (no POPCNT: the shim is built for any x86-64). */
static inline unsigned int cpus_in(unsigned long m)
{
    unsigned int n;

    for ( n = 0; m; m &= m - 1 )
        n++;
    return n;
}

static inline unsigned int num_online_cpus(void)
{
    return cpus_in(ACCESS_ONCE(cpu_online_map));
}

/*
 * The CPU of queue number @q, for a device or a backend with a queue per
 * CPU: the (@q mod CPUs)th online CPU.  A device's queue @q has its
 * interrupt bound there (drivers/), and a backend's queue @q is served
 * there (backends/: blk-mq and netfront send on queue n from vCPU n).
 */
static inline unsigned int smp_queue_cpu(unsigned int q)
{
    unsigned long m = ACCESS_ONCE(cpu_online_map);
    unsigned int n = q % cpus_in(m);    /* of the same map */

    while ( n-- )
        m &= m - 1;
    return __builtin_ctzl(m);
}

/*
 * Halting waits, the paravirtual-spinlock idea (Linux's kvm_wait() and
 * kvm_kick_cpu(), its pv ticketlocks under Xen): a CPU that has spun
 * spin-halt-us= microseconds for another CPU's store stops spinning and
 * halts, giving its host CPU to whoever must make that store, for under
 * an overcommitted host (or QEMU TCG with more vCPUs than host cores)
 * spinning only delays it; the storer kicks it with an EVENT_CHECK IPI.
 *
 * halt_wait_until(cond, addr, tag) spins, then halts, until @cond holds;
 * interrupts must be allowed (they are let in while halted, restored
 * after).  Whoever makes @cond true stores, then does a full barrier (a
 * locked instruction), then calls halt_kick(@addr, @tag): either the
 * waiter's last look sees the store or the storer sees the waiter (each
 * stores, fences, then reads the other's store), and a kick that arrives
 * before the waiter's hlt is pending at it ("sti; hlt": hlt sits in
 * sti's shadow).  @tag tells apart waiters on one address (a ticket), or
 * HALT_ANY.
 */
#define HALT_ANY    (~0UL)
extern unsigned int halt_waiters;      /* CPUs between begin and end */
bool halt_wait_due(uint64_t *since);
void halt_wait_begin(const void *addr, unsigned long tag);
void halt_wait_end(void);
void halt_kick_waiters(const void *addr, unsigned long tag);

static inline void halt_kick(const void *addr, unsigned long tag)
{
    if ( unlikely(ACCESS_ONCE(halt_waiters)) )
        halt_kick_waiters(addr, tag);
}

/* One halt: announced, @cond looked at once more, ended by any interrupt. */
#define halt_wait_once(cond, addr, tag) do {                                \
    unsigned long flags_;                                                   \
                                                                            \
    local_irq_save(flags_);                                                 \
    halt_wait_begin(addr, tag);                                             \
    if ( !(cond) )                                                          \
        cpu_wait_for_interrupt();                                           \
    halt_wait_end();                                                        \
    local_irq_restore(flags_);                                              \
} while ( 0 )

#define halt_wait_until(cond, addr, tag) do {                               \
    uint64_t since_ = 0;                                                    \
                                                                            \
    while ( !(cond) )                                                       \
    {                                                                       \
        if ( halt_wait_due(&since_) )                                       \
            halt_wait_once(cond, addr, tag);                                \
        else                                                                \
            cpu_relax();                                                    \
    }                                                                       \
} while ( 0 )

/*
 * A fixed IPI of @vector to every online CPU in @mask (this one too, if
 * it is in @mask), to this CPU alone, or to every online CPU but this
 * one, interrupts on or off (each ICR write is whole).  Stores made
 * before the call are visible to the targets when the interrupt arrives.
 */
void send_IPI_mask(unsigned long mask, unsigned int vector);
void send_IPI_self(unsigned int vector);
void send_IPI_allbutself(unsigned int vector);

/*
 * Run @fn(regs, @data) on @cpu from an IPI, @regs being where that CPU
 * was interrupted, and return once it has run (Xen's
 * on_selected_cpus(..., wait=1) for one CPU); on this CPU, run it now
 * with @regs NULL.  False, with @fn never run, if @cpu is offline or
 * doesn't take the IPI within a second (interrupts off for good, or
 * hung): the request is withdrawn first, so @data may live on the
 * caller's stack.  One call at a time, system-wide.
 */
struct cpu_regs;
typedef void smp_call_fn_t(const struct cpu_regs *regs, void *data);
bool smp_call_function_single(unsigned int cpu, smp_call_fn_t *fn,
                              void *data);
/* CALL_FUNCTION_VECTOR's handler (do_IRQ()). */
void smp_call_function_interrupt(const struct cpu_regs *regs);

/*
 * Bring up the APs the MADT lists, up to maxcpus= (none with nosmp),
 * each into its idle loop; log "Brought up N CPUs".  After paging, the
 * frame allocator and the boot CPU's local APIC are up; @trampoline is a
 * free page below 1 MiB (0: none, so no APs).
 */
void smp_boot_cpus(uint64_t trampoline);

#endif /* ARCH_X86_SMP_H */
