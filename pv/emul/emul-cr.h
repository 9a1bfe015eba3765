/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest's control registers and MSRs: what it reads (its view) and
 * what the CPU holds while it runs (pv/emul/emul-cr.c, pv/emul/emul-msr.c).
 */
#ifndef PV_EMUL_EMUL_CR_H
#define PV_EMUL_EMUL_CR_H

#include "shim/lib.h"

/*
 * The CR4 the CPU holds while the guest runs, as Xen's pv_make_cr4():
 * the shim's own, with PGE exactly when global-pages is on.
 */
unsigned long pv_make_cr4(void);

/* What `mov %cr0` / `mov %cr4` show the guest (Xen's read_cr()). */
unsigned long pv_guest_cr0(void);
unsigned long pv_guest_cr4(void);

/* `mov` to CR4 (never a fault) and `xsetbv` (false: #GP(0)), as Xen. */
void pv_write_cr4(unsigned long val);
/* The CR4 bits of @val a PV guest controls and its CPUID offers. */
unsigned long pv_fixup_guest_cr4(unsigned long val);
bool pv_xsetbv(uint32_t index, uint64_t val);

/* Guest-controlled CR4 bits clear and XCR0 as a new Xen vCPU's. */
struct vcpu;
void pv_cr_init(struct vcpu *v);

/*
 * rdmsr/wrmsr from the guest kernel, as Xen 4.17's read_msr()/write_msr()
 * and guest_{rd,wr}msr() for a PV domU: false means #GP(0).
 */
bool pv_read_msr(uint32_t msr, uint64_t *val);
bool pv_write_msr(uint32_t msr, uint64_t val);

#endif /* PV_EMUL_EMUL_CR_H */
