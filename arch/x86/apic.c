/* SPDX-License-Identifier: GPL-2.0-only */
/* The local APIC: timer and interrupt acknowledgement (arch/x86/apic.h). */
#include "arch/x86/apic.h"
#include "shim/softirq.h"

void lapic_init(void)
{
}

void lapic_timer_set(uint64_t deadline_ns)
{
}

void lapic_eoi(void)
{
}

void do_IRQ(struct cpu_regs *regs)
{
    if ( regs->entry_vector == LOCAL_TIMER_VECTOR )
        raise_softirq(TIMER_SOFTIRQ);
    lapic_eoi();
}
