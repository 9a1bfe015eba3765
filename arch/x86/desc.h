/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Descriptor tables.  The GDT keeps Xen's reserved layout (entries from
 * selector 0xe000 up, xen/arch-x86/xen-x86_64.h), so the flat selectors a
 * PV guest expects exist from the start.
 */
#ifndef ARCH_X86_DESC_H
#define ARCH_X86_DESC_H

#define GDT_RESERVED_ENTRY 0x1c00  /* selector 0xe000, page 14 */
#define SHIM_CS         0xe008      /* ring 0, 64-bit: Xen's __HYPERVISOR_CS */
#define SHIM_DS         0xe010      /* ring 0 data */
#define SHIM_CS32       0xe038      /* ring 0, compatibility mode */
#define TSS_SEL         0xe040
#define LDT_SEL         0xe050
#define PER_CPU_SEL     0xe060      /* limit == cpu number, as in Xen */
#define GDT_LIMIT       0xefff      /* 15 pages: guest's 14 + reserved */
#define GDT_ENTRIES     ((GDT_LIMIT + 1) / 8)

/* Xen's compat hypercall gate, `int $0x82`. */
#define HYPERCALL_VECTOR 0x82

#define IST_NMI         1
#define IST_DF          2
#define IST_MC          3
#define IST_DB          4

#ifndef __ASSEMBLER__
#include "arch/x86/percpu.h"

/* Build and load this CPU's GDT, TSS and the (shared) IDT. */
void desc_init_cpu(struct percpu *pc);
/* A 32-bit PV guest: its flat ring 1 and ring 3 selectors in every GDT. */
void desc_use_compat_gdt(void);
#endif

#endif /* ARCH_X86_DESC_H */
