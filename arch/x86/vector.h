/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Interrupt vectors handed out at run time to device interrupts (MSI-X
 * entries, PCI INTx pins), and the MSI message that names one (SDM vol.
 * 3A, 10.11.1 and 10.11.2).  The fixed vectors are in apic.h.
 */
#ifndef ARCH_X86_VECTOR_H
#define ARCH_X86_VECTOR_H

#include "shim/lib.h"

/* Between the I/O APIC's ISA vectors and LOCAL_TIMER_VECTOR (apic.h). */
#define DEVICE_VECTOR_FIRST 0x40
#define DEVICE_VECTOR_LAST  0xdf

typedef void vector_handler_t(void *data);

/*
 * A free vector whose interrupts call @fn(@data) on whichever CPU takes
 * them, with interrupts off and before the EOI; 0 when none is left.
 * @fn should only note the work and raise a softirq.  On CPU 0.
 */
unsigned int vector_alloc(vector_handler_t *fn, void *data);
/*
 * @vector's handler gone: an interrupt on it is nobody's until it is
 * handed out again.  On CPU 0, once its device sends no more.
 */
void vector_free(unsigned int vector);

/* do_IRQ(): run @vector's handler; false if nobody owns it. */
bool vector_dispatch(unsigned int vector);

/*
 * The MSI address and data that deliver @vector to the local APIC
 * @apic_id, fixed, edge, physical destination (SDM 10.11.1, 10.11.2).
 */
#define MSI_ADDR_BASE       0xfee00000u
#define MSI_ADDR_DEST_SHIFT 12
static inline uint64_t msi_addr(uint32_t apic_id)
{
    return MSI_ADDR_BASE | ((apic_id & 0xff) << MSI_ADDR_DEST_SHIFT);
}
static inline uint32_t msi_data(unsigned int vector)
{
    return vector & 0xff;
}

#endif /* ARCH_X86_VECTOR_H */
