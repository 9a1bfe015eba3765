/* SPDX-License-Identifier: GPL-2.0-only */
/* The boot CPU's memory types (MTRRs, PAT) copied onto the APs. */
#ifndef ARCH_X86_MTRR_H
#define ARCH_X86_MTRR_H

/* On the boot CPU, before the APs start: read its MTRRs and PAT. */
void mtrr_save_boot(void);
/* On an AP, interrupts off, CR4.PGE clear: load them. */
void mtrr_load(void);

#endif /* ARCH_X86_MTRR_H */
