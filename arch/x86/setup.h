/* SPDX-License-Identifier: GPL-2.0-only */
/* Bringing up the boot CPU. */
#ifndef ARCH_X86_SETUP_H
#define ARCH_X86_SETUP_H

/* Per-CPU data, descriptor tables and exception handling for CPU 0. */
void cpu_init_boot(void);

/*
 * Turn on the FPU and vector state for the guest to use: fpu_init() on
 * the boot CPU chooses XCR0, fpu_init_cpu() applies it on each CPU.
 */
void fpu_init(void);
void fpu_init_cpu(void);
/* The XCR0 fpu_init() enabled: what a guest may ask for (0: no XSAVE). */
extern uint64_t xfeature_mask;
/* The MXCSR bits FXRSTOR accepts (FXSAVE's MXCSR_MASK, or 0xffbf). */
extern uint32_t mxcsr_mask;

#endif /* ARCH_X86_SETUP_H */
