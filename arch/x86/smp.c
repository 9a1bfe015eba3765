/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * IPIs by CPU number (Xen's send_IPI_mask() family), on the local APIC's
 * interrupt command register: physical destination mode, one IPI per
 * target, so x2APIC IDs above 255 are reached as any other.
 */
#include "arch/x86/apic.h"
#include "arch/x86/percpu.h"
#include "arch/x86/smp.h"
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
static DEFINE_SPINLOCK(call_lock);

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
