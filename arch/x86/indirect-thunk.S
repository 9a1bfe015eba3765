/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Retpoline thunks for CONFIG_INDIRECT_THUNK builds: gcc's
 * -mindirect-branch=thunk-extern turns `call *%reg` into a call here.  The
 * speculative path is trapped in a pause/lfence loop; the architectural
 * path replaces the return address with the target and returns to it.
 */
        .section .text.entry, "ax", @progbits

.macro THUNK reg
        .balign 16
        .globl  __x86_indirect_thunk_\reg
__x86_indirect_thunk_\reg:
        call    2f
1:      pause
        lfence
        jmp     1b
2:      mov     %\reg, (%rsp)
        ret
.endm

        .irp reg, rax, rbx, rcx, rdx, rsi, rdi, rbp
        THUNK \reg
        .endr
        .irp reg, r8, r9, r10, r11, r12, r13, r14, r15
        THUNK \reg
        .endr
