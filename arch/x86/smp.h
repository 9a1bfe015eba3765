/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CPUs: which are online, their local APIC IDs, IPIs to sets of them
 * (arch/x86/smp.c), and bringing them up (arch/x86/smpboot.c).  CPU n is
 * bit n of a cpumask; NR_CPUS is 64, so a mask is one unsigned long.
 */
#ifndef ARCH_X86_SMP_H
#define ARCH_X86_SMP_H

#include "shim/lib.h"
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

static inline unsigned int num_online_cpus(void)
{
    unsigned long m = ACCESS_ONCE(cpu_online_map);
    unsigned int n;

    for ( n = 0; m; m &= m - 1 )
        n++;
    return n;
}

/* In a spin-wait loop: let the sibling thread (or the host) run. */
static inline void cpu_relax(void)
{
    asm volatile ( "pause" ::: "memory" );
}

/*
 * A fixed IPI of @vector to every online CPU in @mask (this one too, if
 * it is in @mask), to this CPU alone, or to every online CPU but this
 * one.  Interrupts off.  Stores made before the call are visible to the
 * targets when the interrupt arrives.
 */
void send_IPI_mask(unsigned long mask, unsigned int vector);
void send_IPI_self(unsigned int vector);
void send_IPI_allbutself(unsigned int vector);

/*
 * Bring up the APs the MADT lists, up to maxcpus= (none with nosmp),
 * each into its idle loop; log "Brought up N CPUs".  After paging, the
 * frame allocator and the boot CPU's local APIC are up; @trampoline is a
 * free page below 1 MiB (0: none, so no APs).
 */
void smp_boot_cpus(uint64_t trampoline);

#endif /* ARCH_X86_SMP_H */
