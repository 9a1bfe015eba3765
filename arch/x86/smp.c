/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * IPIs by CPU number (Xen's send_IPI_mask() family), on the local APIC's
 * interrupt command register: physical destination mode, one IPI per
 * target, so x2APIC IDs above 255 are reached as any other.
 */
#include "arch/x86/apic.h"
#include "arch/x86/flush.h"
#include "arch/x86/irq.h"
#include "arch/x86/percpu.h"
#include "arch/x86/smp.h"
#include "shim/param.h"
#include "shim/spinlock.h"
#include "shim/timer.h"

unsigned long cpu_online_map = 1;
uint32_t x86_cpu_to_apicid[NR_CPUS];

/*
 * smp_call_function_single()'s requests, one slot per target CPU.  The
 * caller publishes data then fn; the target takes fn with an exchange, so
 * a caller that gives up can withdraw a request not yet taken, and one
 * that was taken is always waited for.
 */
static struct {
    smp_call_fn_t *fn;
    void *data;
    bool done;
} call_req[NR_CPUS];
static DEFINE_SPINLOCK(call_lock, LOCK_RANK_CALL);

#define CALL_TIMEOUT_NS     1000000000ULL

void smp_call_function_interrupt(const struct cpu_regs *regs)
{
    unsigned int cpu = smp_processor_id();
    smp_call_fn_t *fn = __atomic_exchange_n(&call_req[cpu].fn, NULL,
                                            __ATOMIC_ACQUIRE);

    if ( !fn )
        return;
    fn(regs, call_req[cpu].data);
    __atomic_store_n(&call_req[cpu].done, true, __ATOMIC_RELEASE);
}

bool smp_call_function_single(unsigned int cpu, smp_call_fn_t *fn,
                              void *data)
{
    uint64_t deadline;
    bool done;

    if ( cpu == smp_processor_id() )
    {
        fn(NULL, data);
        return true;
    }
    if ( !cpu_online(cpu) )
        return false;

    spin_lock(&call_lock);
    call_req[cpu].data = data;
    call_req[cpu].done = false;
    __atomic_store_n(&call_req[cpu].fn, fn, __ATOMIC_RELEASE);
    send_IPI_mask(1UL << cpu, CALL_FUNCTION_VECTOR);

    deadline = NOW() + CALL_TIMEOUT_NS;
    while ( !(done = __atomic_load_n(&call_req[cpu].done, __ATOMIC_ACQUIRE)) &&
            NOW() < deadline )
        cpu_relax();
    /* Withdrawn if not taken; if taken, it is running: wait for it. */
    if ( !done && __atomic_exchange_n(&call_req[cpu].fn, NULL,
                                      __ATOMIC_ACQUIRE) != fn )
        while ( !(done = __atomic_load_n(&call_req[cpu].done,
                                         __ATOMIC_ACQUIRE)) )
            cpu_relax();
    spin_unlock(&call_lock);
    return done;
}

/*
 * Halting waits (smp.h).  spin-halt-us=<integer>: how long a waiter
 * spins before it halts (default 20 us: longer than a flush or a short
 * critical section takes on a host CPU of its own, so there nothing
 * halts); 0 halts at once, and a huge value never halts (pure spinning,
 * Xen's behaviour).
 */
static unsigned int opt_spin_halt_us = 20;
integer_param("spin-halt-us", opt_spin_halt_us);

static struct {
    const void *addr;
    unsigned long tag;
} halt_on[NR_CPUS];
unsigned int __hot_data halt_waiters;

/* The first call starts the clock in *@since; true once it has run out. */
bool halt_wait_due(uint64_t *since)
{
    uint64_t now = NOW();

    if ( !*since )
        *since = now;
    return now - *since >= opt_spin_halt_us * 1000ULL;
}

/* Interrupts off: announce the wait; the caller looks once more, halts. */
void halt_wait_begin(const void *addr, unsigned long tag)
{
    unsigned int cpu = smp_processor_id();

    halt_on[cpu].tag = tag;
    __atomic_fetch_add(&halt_waiters, 1, __ATOMIC_SEQ_CST);
    __atomic_store_n(&halt_on[cpu].addr, addr, __ATOMIC_SEQ_CST);
    flush_idle_enter();
}

void halt_wait_end(void)
{
    flush_idle_exit();
    __atomic_store_n(&halt_on[smp_processor_id()].addr, NULL,
                     __ATOMIC_RELAXED);
    __atomic_fetch_sub(&halt_waiters, 1, __ATOMIC_RELEASE);
}

/* Some CPU halts: kick those waiting on @addr (for @tag). */
void halt_kick_waiters(const void *addr, unsigned long tag)
{
    unsigned long flags, mask = 0;
    unsigned int cpu;

    for ( cpu = 0; cpu < NR_CPUS; cpu++ )
        if ( __atomic_load_n(&halt_on[cpu].addr, __ATOMIC_ACQUIRE) == addr &&
             (tag == HALT_ANY || ACCESS_ONCE(halt_on[cpu].tag) == tag) )
            mask |= 1UL << cpu;
    if ( !mask )
        return;
    local_irq_save(flags);
    send_IPI_mask(mask, EVENT_CHECK_VECTOR);
    local_irq_restore(flags);
}

void send_IPI_mask(unsigned long mask, unsigned int vector)
{
    unsigned int cpu;

    for ( mask &= ACCESS_ONCE(cpu_online_map); mask; mask &= mask - 1 )
    {
        cpu = __builtin_ctzl(mask);
        if ( cpu == smp_processor_id() )
            send_IPI_self(vector);
        else
            apic_icr_write(APIC_DM_FIXED | vector, x86_cpu_to_apicid[cpu]);
    }
}

void send_IPI_self(unsigned int vector)
{
    apic_self_ipi(vector);
}

void send_IPI_allbutself(unsigned int vector)
{
    send_IPI_mask(~(1UL << smp_processor_id()), vector);
}
