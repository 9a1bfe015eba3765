/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Segment descriptors a PV guest may put in its GDT: the bits Xen's
 * check_descriptor() looks at (SDM vol. 3A, 3.4.5 and table 3-2, with
 * Xen's names from its asm/desc.h) and the check itself.
 */
#ifndef PV_DESCRIPTOR_TABLES_H
#define PV_DESCRIPTOR_TABLES_H

#include "shim/lib.h"
#include "arch/x86/segment.h"   /* _SEGMENT_*, SYS_DESC_* */

/* A 64-bit PV guest's kernel runs in ring 3 (Xen's GUEST_KERNEL_RPL). */
#define GUEST_KERNEL_RPL    3

/*
 * pv/check-descriptor.c: may a 64-bit PV guest have descriptor @d in its
 * GDT?  True if so, with @d fixed up as Xen fixes it; false (and @d
 * unchanged) if it must be refused.  Pure: no state, no side effects.
 */
bool check_descriptor(uint64_t *d);
/* The same for a 32-bit PAE guest (kernel in ring 1). */
bool check_descriptor_compat(uint64_t *d);

/* pv/descriptor-tables.c: the rules of the guest's width. */
bool pv_check_descriptor(uint64_t *d);

#define LDT_ENTRIES_MAX     8192
#define LDT_FRAMES_MAX      (LDT_ENTRIES_MAX * 8 / 4096)

struct vcpu;
struct cpu_regs;
/* MMUEXT_SET_LDT, and mapping the LDT's pages as the CPU reads them. */
long pv_set_ldt(struct vcpu *v, unsigned long base, unsigned int ents);
bool pv_ldt_fault(struct cpu_regs *regs, unsigned long addr);
/*
 * The base of the segment selector @sel names for the current vCPU on
 * this CPU (its GDT, the guest's part copied in; or its LDT, a page
 * already mapped); false if its descriptor can't be read here.
 */
bool pv_seg_base(unsigned int sel, uint32_t *base);
/* @v's LDT pages unmapped (its base and size kept): its tables changed. */
void pv_ldt_unmap(struct vcpu *v);
/* May a #PF at @addr be one pv_ldt_fault() handles (a first look)? */
bool pv_in_ldt(const struct vcpu *v, unsigned long addr);
void pv_ldt_init(void);
void pv_load_ldt(struct vcpu *v);

/*
 * set_gdt's frames for @v (checked, typed seg_desc, the old ones let go;
 * loaded at once if @v runs here), loading them on @v's CPU, and letting
 * them go (VCPUOP_initialise failing).
 */
long pv_set_gdt(struct vcpu *v, const unsigned long *frames,
                unsigned int entries);
void pv_load_gdt(struct vcpu *v);
void pv_destroy_gdt(struct vcpu *v);

#endif /* PV_DESCRIPTOR_TABLES_H */
