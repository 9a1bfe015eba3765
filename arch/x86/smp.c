/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * IPIs by CPU number (Xen's send_IPI_mask() family), on the local APIC's
 * interrupt command register: physical destination mode, one IPI per
 * target, so x2APIC IDs above 255 are reached as any other.
 */
#include "arch/x86/apic.h"
#include "arch/x86/percpu.h"
#include "arch/x86/smp.h"

unsigned long cpu_online_map = 1;
uint32_t x86_cpu_to_apicid[NR_CPUS];

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
