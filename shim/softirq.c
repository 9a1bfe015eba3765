/* SPDX-License-Identifier: GPL-2.0-only */
/* Softirqs: per-CPU pending bits and their handlers (shim/softirq.h). */
#include "shim/softirq.h"
#include "arch/x86/apic.h"
#include "arch/x86/percpu.h"
#include "arch/x86/smp.h"
#include "shim/perfc.h"

static void (*__read_mostly softirq_handlers[NR_SOFTIRQS])(void);

void open_softirq(unsigned int nr, void (*handler)(void))
{
    ASSERT(nr < NR_SOFTIRQS);
    softirq_handlers[nr] = handler;
}

void __hot_text raise_softirq(unsigned int nr)
{
    __atomic_or_fetch(this_cpu_softirqs(), 1UL << nr, __ATOMIC_SEQ_CST);
}

/*
 * The IPI only if the bit was clear: one already set has had its IPI,
 * and the CPU looks at its bits before it takes them (a guest's VCPUOP
 * on another vCPU's timers in a loop would otherwise send one a call).
 */
void cpu_raise_softirq(unsigned int cpu, unsigned int nr)
{
    unsigned long was;

    ASSERT(cpu < NR_CPUS && percpu_area[cpu]);
    was = __atomic_fetch_or(&cpu_info_of(cpu)->softirq_bits, 1UL << nr,
                            __ATOMIC_SEQ_CST);
    if ( cpu != smp_processor_id() && !(was & (1UL << nr)) )
        send_IPI_mask(1UL << cpu, EVENT_CHECK_VECTOR);
}

/* What is pending of @mask now, taken; each handler run once. */
static bool __hot_text softirq_round(unsigned long mask)
{
    unsigned long pending = __atomic_fetch_and(this_cpu_softirqs(), ~mask,
                                               __ATOMIC_SEQ_CST) & mask;
    unsigned int nr;

    for ( nr = 0; nr < NR_SOFTIRQS; nr++ )
        if ( (pending & (1UL << nr)) && softirq_handlers[nr] )
        {
            perfc_incra(softirqs, nr);
            softirq_handlers[nr]();
        }
    return pending;
}

void __hot_text do_softirq_mask(unsigned long mask)
{
    while ( softirq_round(mask) )
        continue;
}

void __hot_text do_softirq_once(unsigned long mask)
{
    softirq_round(mask);
}

void do_softirq(void)
{
    do_softirq_mask(~0UL);
}
