/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Exceptions as the CPU raises them: the architectural vectors and the
 * bits of the error codes it pushes (SDM vol. 3A, 6.3.1, 6.13, 4.7),
 * with Xen's names (asm/x86-defns.h, asm/processor.h).
 */
#ifndef ARCH_X86_EXCEPTION_H
#define ARCH_X86_EXCEPTION_H

/* Architectural exception vectors (SDM vol. 3A, table 6-1). */
enum {
    X86_EXC_DE = 0, X86_EXC_DB = 1, X86_EXC_NMI = 2, X86_EXC_BP = 3,
    X86_EXC_OF = 4, X86_EXC_BR = 5, X86_EXC_UD = 6, X86_EXC_NM = 7,
    X86_EXC_DF = 8, X86_EXC_TS = 10, X86_EXC_NP = 11, X86_EXC_SS = 12,
    X86_EXC_GP = 13, X86_EXC_PF = 14, X86_EXC_MF = 16, X86_EXC_AC = 17,
    X86_EXC_MC = 18, X86_EXC_XM = 19, X86_EXC_VE = 20, X86_EXC_CP = 21,
};

/* A selector error code (#TS, #NP, #SS, #GP): what it names. */
#define X86_XEC_EXT         (1u << 0)   /* an external event */
#define X86_XEC_IDT         (1u << 1)   /* an IDT gate */
#define X86_XEC_TI          (1u << 2)   /* the LDT (else the GDT) */

/* #PF's error code. */
#define PFEC_page_present   (1u << 0)
#define PFEC_write_access   (1u << 1)
#define PFEC_user_mode      (1u << 2)
#define PFEC_reserved_bit   (1u << 3)
#define PFEC_insn_fetch     (1u << 4)

#endif /* ARCH_X86_EXCEPTION_H */
