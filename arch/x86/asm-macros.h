/* SPDX-License-Identifier: GPL-2.0-only */
/* Register save/restore for entry paths: the order of struct cpu_regs. */
#ifndef ARCH_X86_ASM_MACROS_H
#define ARCH_X86_ASM_MACROS_H

#ifdef __ASSEMBLER__
/* Push the GPRs below error_code/entry_vector, r15 ending lowest. */
.macro SAVE_ALL
        push    %rdi
        push    %rsi
        push    %rdx
        push    %rcx
        push    %rax
        push    %r8
        push    %r9
        push    %r10
        push    %r11
        push    %rbx
        push    %rbp
        push    %r12
        push    %r13
        push    %r14
        push    %r15
.endm

.macro RESTORE_ALL
        pop     %r15
        pop     %r14
        pop     %r13
        pop     %r12
        pop     %rbp
        pop     %rbx
        pop     %r11
        pop     %r10
        pop     %r9
        pop     %r8
        pop     %rax
        pop     %rcx
        pop     %rdx
        pop     %rsi
        pop     %rdi
.endm

/* Exception-table entry, for assembly. */
.macro EXTABLE from, to
        .pushsection .ex_table, "a"
        .balign 4
        .long   \from - .
        .long   \to - .
        .popsection
.endm
#endif

#endif /* ARCH_X86_ASM_MACROS_H */
