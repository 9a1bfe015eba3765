/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Entry and exit speculation controls for the assembly: the shim's version
 * of Xen's spec_ctrl_asm.h, by name, so every entry and exit path (64-bit
 * syscall, sysenter, int $0x82, the IDT) uses the same blocks.
 *
 * As in Xen, the choice made at boot is patched in (arch/x86/
 * alternative.h): on the paths every crossing takes, the actions chosen
 * run with no test before them and those not chosen cost at most one
 * instruction (a NOP or a jmp over them).  The rarer configurations
 * (IBPB on entry, MSR_SPEC_CTRL: where the CPU has them) take the
 * "tested" forms below, out of line: each action guarded by one bit of
 * spec_ctrl_flags (spec-ctrl.h), written once at boot.  A conditional
 * branch can still be mispredicted, so every entry that does any work
 * ends in an lfence, and the exit ends in iretq or sysretq.
 */
#ifndef ARCH_X86_SPEC_CTRL_ASM_H
#define ARCH_X86_SPEC_CTRL_ASM_H

/*
 * Entry work beyond the RSB overwrite: the tested forms; any exit work:
 * the exit's tested copy (pv/entry.S).  No spaces: they are arguments
 * of gas macros.
 */
#define SCF_ENTRY_TESTED        (SCF_ENTRY_IBPB|SCF_MSR_SPEC_CTRL)
#define SCF_EXIT_ANY            (SCF_MSR_SPEC_CTRL|SCF_EXIT_DIV|SCF_EXIT_VERW)

#ifdef __ASSEMBLER__
#include "arch/x86/alternative.h"
#include "arch/x86/layout.h"
#include "arch/x86/spec-ctrl.h"

/* Issue IBPB if SCF_ENTRY_IBPB.  Clobbers %rax, %rcx, %rdx. */
.macro DO_COND_IBPB
        testb   $SCF_ENTRY_IBPB, spec_ctrl_flags(%rip)
        jz      .L\@_skip
        mov     $MSR_PRED_CMD, %ecx
        mov     $PRED_CMD_IBPB, %eax
        xor     %edx, %edx
        wrmsr
.L\@_skip:
.endm

/*
 * Overwrite the RSB, as Xen's DO_OVERWRITE_RSB: 32 calls, each of whose
 * return addresses is an int3 that stops speculation, then %rsp back
 * where it was.  Xen loops 16 times over two calls; written out in full,
 * the same 32 RSB entries cost 33 instructions instead of 67, and no
 * loop branch is left to mispredict.  Needs 256 bytes of stack below
 * %rsp.  Clobbers flags.
 */
.macro DO_OVERWRITE_RSB
        .rept   32
        call    1f
        int3
1:
        .endr
        add     $32 * 8, %rsp
.endm

/* The same if SCF_ENTRY_RSB. */
.macro DO_COND_OVERWRITE_RSB
        testb   $SCF_ENTRY_RSB, spec_ctrl_flags(%rip)
        jz      .L\@_skip
        DO_OVERWRITE_RSB
.L\@_skip:
.endm

/*
 * Load MSR_SPEC_CTRL from the 32-bit variable @value (the shim's or the
 * guest's) if SCF_MSR_SPEC_CTRL.  Clobbers a, c, d.
 */
.macro DO_COND_SPEC_CTRL value
        testb   $SCF_MSR_SPEC_CTRL, spec_ctrl_flags(%rip)
        jz      .L\@_skip
        mov     $MSR_SPEC_CTRL, %ecx
        mov     \value(%rip), %eax
        xor     %edx, %edx
        wrmsr
.L\@_skip:
.endm

/*
 * Entry from the guest with IBPB or MSR_SPEC_CTRL, tested: IBPB, RSB,
 * then the shim's MSR_SPEC_CTRL, in Xen's order (SPEC_CTRL_ENTRY_FROM_PV),
 * and the lfence after them.  Out of line, for the CPUs that have them.
 * Requires: %rsp on the shim's stack.  Clobbers %rax, %rcx, %rdx, flags.
 */
.macro SPEC_CTRL_ENTRY_FROM_PV_TESTED
        DO_COND_IBPB
        DO_COND_OVERWRITE_RSB
        DO_COND_SPEC_CTRL spec_ctrl_shim_value
        lfence
.endm

/*
 * Entry from the guest (sysenter, int $0x82), patched: the RSB overwrite
 * and the lfence (Xen's PV default where IBRS isn't used, and all TCG's
 * CPUs get), nothing with spec-ctrl=no (a jmp over), or a jmp to the
 * tested form and back.  The syscall entries choose among the same three
 * at their stubs instead (pv/entry.S), which costs them nothing.
 * Before any ret or indirect branch.
 * Requires: %rsp on the shim's stack.  Clobbers %rax, %rcx, %rdx, flags.
 */
.macro SPEC_CTRL_ENTRY_FROM_PV
        ALTERNATIVE_2 "DO_OVERWRITE_RSB; lfence", \
                "", ALT_IFNOT(SCF_ENTRY_LFENCE), \
                "JMP32 .L\@_tested", ALT_IF(SCF_ENTRY_TESTED)
.L\@_done:
        .pushsection .text.entry_tested, "ax", @progbits
.L\@_tested:
        SPEC_CTRL_ENTRY_FROM_PV_TESTED
        JMP32   .L\@_done
        .popsection
.endm

/*
 * Entry through the IDT, from the guest or from the shim (Xen's
 * SPEC_CTRL_ENTRY_FROM_INTR and _INTR_IST in one).  IBPB and the RSB
 * overwrite are for frames from the guest, and for the IST vectors (#DB,
 * NMI, #DF, #MC), which may have hit the shim before an entry's own
 * flushes ran (a #DB from a sysenter with TF set does, every time).
 * MSR_SPEC_CTRL is the shim's in any case: an NMI may hit the exit path
 * after it loaded the guest's value.  The lfence closes the checks of
 * where the frame came from.  Patched as SPEC_CTRL_ENTRY_FROM_PV: the
 * RSB form inline, after a NOP; spec-ctrl=no jumps over it; IBPB or
 * MSR_SPEC_CTRL jump to the tested form.
 * Requires: %rsp = the saved frame.  Clobbers %rax, %rcx, %rdx, flags.
 */
/*
 * Where an IDT frame came from: to @flush if from the guest or on an IST
 * stack, else (the shim, on its primary stack) to @skip.  Clobbers %rax.
 */
.macro INTR_FLUSH_OR_SKIP flush, skip
        testb   $3, REGS_cs(%rsp)
        jnz     \flush
        mov     %esp, %eax
        and     $(STACK_SIZE - 1), %eax
        cmp     $(STACK_GUARD_PAGE * 4096), %eax
        jae     \skip
.endm

.macro SPEC_CTRL_ENTRY_FROM_INTR
        ALTERNATIVE_2 "", \
                "JMP32 .L\@_done", ALT_IFNOT(SCF_ENTRY_LFENCE), \
                "JMP32 .L\@_tested", ALT_IF(SCF_ENTRY_TESTED)
        INTR_FLUSH_OR_SKIP .L\@_flush, .L\@_fence
.L\@_flush:
        DO_OVERWRITE_RSB
.L\@_fence:
        lfence
.L\@_done:
        .pushsection .text.entry_tested, "ax", @progbits
.L\@_tested:
        INTR_FLUSH_OR_SKIP .L\@_tflush, .L\@_tmsr
.L\@_tflush:
        DO_COND_IBPB
        DO_COND_OVERWRITE_RSB
.L\@_tmsr:
        DO_COND_SPEC_CTRL spec_ctrl_shim_value
        lfence
        JMP32   .L\@_done
        .popsection
.endm

/*
 * Exit to the guest, before its GPRs are restored (Xen's
 * SPEC_CTRL_EXIT_TO_PV): the guest's MSR_SPEC_CTRL, then Zen1's DIV
 * scrub.  Tested: only the exit's copy for SCF_EXIT_ANY has it
 * (pv/entry.S), so the exit without any costs nothing.  No ret or
 * indirect branch may follow before iretq or sysretq: the shim's
 * protections are off from here.  An NMI in this window loads the shim's
 * value again and leaves it for the guest, which costs the guest speed
 * only (its value is always 0), so Xen's shadow value isn't needed.
 * Requires: nothing.  Clobbers %rax, %rcx, %rdx, flags.
 */
.macro SPEC_CTRL_EXIT_TO_PV
        testb   $(SCF_MSR_SPEC_CTRL | SCF_EXIT_DIV), spec_ctrl_flags(%rip)
        jz      .L\@_done              /* neither: one test */
        DO_COND_SPEC_CTRL spec_ctrl_guest_value
        testb   $SCF_EXIT_DIV, spec_ctrl_flags(%rip)
        jz      .L\@_done
        mov     $1, %eax                /* any non-faulting DIV will do */
        div     %al
.L\@_done:
.endm

/*
 * VERW for its buffer-flushing side effect (MD_CLEAR), after the guest's
 * GPRs are back, so none of the shim's values survive in the register
 * files (RFDS): only %rsp and flags are free, hence the selector in
 * memory.  Requires: nothing.  Clobbers flags.
 */
.macro SPEC_CTRL_COND_VERW
        testb   $SCF_EXIT_VERW, spec_ctrl_flags(%rip)
        jz      .L\@_skip
        verw    spec_ctrl_verw_sel(%rip)
.L\@_skip:
.endm
#endif /* __ASSEMBLER__ */

#endif /* ARCH_X86_SPEC_CTRL_ASM_H */
