/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * VCPUOP_initialise's struct vcpu_guest_context: the checks that need no
 * guest memory, kept apart so host tests can drive them
 * (pv/vcpu/vcpu-context-check.c), and the operation itself
 * (pv/vcpu/vcpu-context.c).
 */
#ifndef PV_VCPU_CONTEXT_H
#define PV_VCPU_CONTEXT_H

#include "shim/lib.h"
#include <xen/xen.h>

/*
 * Check and normalise @c as Xen's arch_set_info_guest() does a 64-bit PV
 * vCPU's context before it touches the domain: every address it will
 * load or jump to canonical, selectors' RPL raised to the guest kernel's
 * (3), an LDT page-aligned, outside the shim's range and at most 8192
 * entries, user page tables when the vCPU is to start in user mode, the
 * IOPL taken out of the flags into *@iopl (virtualised) and IF forced on,
 * CR0 cut to its TS bit.  0, or -XEN_EINVAL with @c unchanged in any way
 * that matters.  The GDT frames, the L4s and the debug registers are
 * checked where they are applied, against the domain's pages.
 */
int pv_vcpu_context_check(struct vcpu_guest_context *c, unsigned int *iopl);

/*
 * The same for a 32-bit guest's context, translated from its layout
 * (xlat_vcpu_guest_context_from_compat()): Xen's compat rules, which
 * check only the LDT's alignment and size and raise each selector's RPL
 * from 0 to 1 (Xen's fixup_guest_{stack,code}_selector() for a ring-1
 * kernel; pv_compat_selector() does it, for the callbacks' selectors
 * that the 64-bit context has no field for); no user page table.
 */
int pv_compat_vcpu_context_check(struct vcpu_guest_context *c,
                                 unsigned int *iopl);
uint16_t pv_compat_selector(uint16_t sel);

/*
 * May the shim load selector @sel, whose GDT descriptor is @desc (as the
 * CPU's GDT will hold it: after check_descriptor()), into a data segment
 * register from ring 0 without a fault?  A 32-bit vCPU starts with the
 * data selectors of its VCPUOP_initialise context loaded (Xen's
 * load_segments()).  Null selectors always; LDT ones never.
 */
bool pv_data_selector_loadable(uint16_t sel, uint64_t desc);

/* Its part for the FPU image (c->fpu_ctxt becomes the one to load). */
void pv_vcpu_context_fpu(struct vcpu_guest_context *c);
/* The MXCSR bits FXRSTOR accepts (arch/x86/setup.c). */
extern uint32_t mxcsr_mask;

/*
 * pv/vcpu/vcpu-context.c: VCPUOP_initialise of @v from the context at
 * guest address @arg (a 32-bit guest's layout if @compat), as Xen's
 * default_initialise_vcpu(): 0, with @v initialised (and up if the
 * context says VGCF_online: the caller lets its CPU know), or an error
 * with @v as it was.
 */
struct vcpu;
long pv_vcpu_initialise(struct vcpu *v, unsigned long arg, bool compat);

#endif /* PV_VCPU_CONTEXT_H */
