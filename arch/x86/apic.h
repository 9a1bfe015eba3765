/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The local APIC (SDM vol. 3A, ch. 10), xAPIC or x2APIC: this CPU's timer
 * (TSC-deadline mode where the CPU has it, else one-shot), EOI, and the
 * interrupt vectors the shim uses.
 */
#ifndef ARCH_X86_APIC_H
#define ARCH_X86_APIC_H

#include "shim/lib.h"
#include "arch/x86/regs.h"

/* Device interrupts through the I/O APIC (arch/x86/ioapic.c), low class. */
#define SERIAL_VECTOR       0x30    /* COM1/COM2 received data */
#define ACPI_SCI_VECTOR     0x38    /* ACPI SCI: the power button */
#define LOCAL_TIMER_VECTOR  0xf0
#define SPURIOUS_VECTOR     0xff

/* Enable this CPU's local APIC and its timer interrupt. */
void lapic_init(void);
/* Fire LOCAL_TIMER_VECTOR at system time @deadline_ns; 0 stops it. */
void lapic_timer_set(uint64_t deadline_ns);
void lapic_eoi(void);
/* This CPU's local APIC ID (the physical destination of its interrupts). */
uint32_t lapic_id(void);

/*
 * An interrupt (vector >= 32), from the shim or the guest: acknowledge it
 * and raise the softirq that does the work.
 */
void do_IRQ(struct cpu_regs *regs);

/* Let interrupts in while this CPU waits for one ("sti; hlt"), then cli. */
static inline void cpu_wait_for_interrupt(void)
{
    asm volatile ( "sti; hlt; cli" ::: "memory" );
}

#endif /* ARCH_X86_APIC_H */
