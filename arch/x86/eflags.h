/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The bits of RFLAGS (SDM vol. 1, 3.4.3), with Xen's names
 * (asm/x86-defns.h).  Plain numbers, so assembly includes this too.
 */
#ifndef ARCH_X86_EFLAGS_H
#define ARCH_X86_EFLAGS_H

#define X86_EFLAGS_CF       0x00000001  /* carry */
#define X86_EFLAGS_MBS      0x00000002  /* reserved, reads as one */
#define X86_EFLAGS_PF       0x00000004  /* parity */
#define X86_EFLAGS_AF       0x00000010  /* auxiliary carry */
#define X86_EFLAGS_ZF       0x00000040  /* zero */
#define X86_EFLAGS_SF       0x00000080  /* sign */
#define X86_EFLAGS_TF       0x00000100  /* trap (single step) */
#define X86_EFLAGS_IF       0x00000200  /* interrupts enabled */
#define X86_EFLAGS_DF       0x00000400  /* direction */
#define X86_EFLAGS_OF       0x00000800  /* overflow */
#define X86_EFLAGS_IOPL     0x00003000  /* I/O privilege level, two bits */
#define X86_EFLAGS_NT       0x00004000  /* nested task */
#define X86_EFLAGS_RF       0x00010000  /* resume */
#define X86_EFLAGS_VM       0x00020000  /* virtual-8086 mode */
#define X86_EFLAGS_AC       0x00040000  /* alignment check (SMAP: access) */
#define X86_EFLAGS_VIF      0x00080000  /* virtual interrupt */
#define X86_EFLAGS_VIP      0x00100000  /* virtual interrupt pending */
#define X86_EFLAGS_ID       0x00200000  /* CPUID available */

#define X86_EFLAGS_IOPL_SHIFT 12

/* What an arithmetic instruction sets. */
#define X86_EFLAGS_ARITH_MASK                           \
    (X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF |    \
     X86_EFLAGS_ZF | X86_EFLAGS_SF | X86_EFLAGS_OF)

#endif /* ARCH_X86_EFLAGS_H */
