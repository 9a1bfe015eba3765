/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The I/O APICs (Intel 82093AA data sheet): found in the MADT, every pin
 * masked at boot, and ISA IRQs routed one by one to a vector on the boot
 * CPU.  The 8259s stay masked (arch/x86/setup.c).
 */
#ifndef ARCH_X86_IOAPIC_H
#define ARCH_X86_IOAPIC_H

#include "shim/lib.h"

/* Map every I/O APIC the MADT lists and mask all its pins; false if none. */
bool ioapic_init(void);

/*
 * Deliver ISA IRQ @isa_irq (through its interrupt source override, if
 * any) as @vector to this CPU, fixed, physical destination; the MADT's
 * polarity and trigger, else @default_inti (ACPI_INTI_* of acpi.h: ISA
 * devices are edge and active high, the SCI level and active low).
 * False if no I/O APIC has that GSI.
 */
bool ioapic_route_isa_irq(unsigned int isa_irq, uint8_t vector,
                          uint16_t default_inti);
/* Mask that pin again (a level-triggered source nobody can quiet). */
void ioapic_mask_isa_irq(unsigned int isa_irq);

#endif /* ARCH_X86_IOAPIC_H */
