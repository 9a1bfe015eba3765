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
#define CALL_FUNCTION_VECTOR 0xfb   /* IPI: run a function (smp.c) */
#define INVALIDATE_TLB_VECTOR 0xfd  /* IPI: flush_area_mask()'s targets */
#define EVENT_CHECK_VECTOR  0xfc    /* IPI: wake up, look at softirqs */
#define SPURIOUS_VECTOR     0xff

/* Interrupt command register (SDM vol. 3A, 10.6.1). */
#define APIC_DM_FIXED       (0u << 8)
#define APIC_DM_NMI         (4u << 8)
#define APIC_DM_INIT        (5u << 8)
#define APIC_DM_STARTUP     (6u << 8)
#define APIC_ICR_BUSY       (1u << 12)  /* delivery status, xAPIC only */
#define APIC_INT_ASSERT     (1u << 14)
#define APIC_INT_LEVELTRIG  (1u << 15)
#define APIC_DEST_SELF      (1u << 18)
#define APIC_DEST_ALLBUT    (3u << 18)
#define APIC_DEST_SHORTHAND_MASK (3u << 18)

/*
 * The boot CPU: choose x2APIC or xAPIC, enable its local APIC, calibrate
 * the timer and arm its interrupt.
 */
void lapic_init(void);
/* An AP: the same mode and timer set-up, the boot CPU's calibration. */
void lapic_init_secondary(void);
/* Fire LOCAL_TIMER_VECTOR at system time @deadline_ns; 0 stops it. */
void lapic_timer_set(uint64_t deadline_ns);
void lapic_eoi(void);
/* This CPU's local APIC ID (the physical destination of its interrupts). */
uint32_t lapic_id(void);
bool lapic_x2apic_mode(void);

/*
 * Send an IPI: @icr (vector, delivery mode, level, shorthand) to the local
 * APIC with ID @dest (physical destination).  In xAPIC mode an ID above
 * 255 can't be named (false), and the ICR is awaited idle before and after
 * (false if it stays busy).  Interrupts off.  arch/x86/smp.h has the
 * per-CPU forms (send_IPI_mask() and co).
 */
bool apic_icr_write(uint32_t icr, uint32_t dest);
/* A fixed IPI of @vector to this CPU. */
void apic_self_ipi(unsigned int vector);
/* Clear, then read the error status (the send and receive errors). */
uint32_t lapic_error_status(void);

/*
 * An interrupt (vector >= 32), from the shim or the guest: acknowledge it
 * and raise the softirq that does the work.
 */
void do_IRQ(struct cpu_regs *regs);

#endif /* ARCH_X86_APIC_H */
