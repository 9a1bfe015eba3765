/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Entry and exit speculation controls for the assembly: the shim's version
 * of Xen's spec_ctrl_asm.h, by name, so every entry and exit path (64-bit
 * syscall, sysenter, the IDT, and the compat int $0x82 to come) uses the
 * same blocks.
 *
 * The shim has no alternatives patching, so each action is guarded by one
 * bit of spec_ctrl_flags (spec-ctrl.h), written once at boot: a `testb`
 * of a constant byte and a branch that always goes the same way.  A
 * conditional branch can still be mispredicted, which Xen's patched-in
 * code avoids; so every entry that does any work ends in an lfence, and
 * the exit ends in iretq, which serialises.  spec-ctrl=no clears every
 * bit, leaving one test and branch per macro.
 */
#ifndef ARCH_X86_SPEC_CTRL_ASM_H
#define ARCH_X86_SPEC_CTRL_ASM_H

#ifdef __ASSEMBLER__
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
 * Entry from the guest (syscall, sysenter, int $0x82): IBPB, RSB, then
 * the shim's MSR_SPEC_CTRL, in Xen's order (SPEC_CTRL_ENTRY_FROM_PV), and
 * the lfence after them.  Entry work without IBPB or MSR_SPEC_CTRL is
 * the RSB overwrite alone (SCF_ENTRY_LFENCE means one of the three), the
 * common case: Xen's PV default where IBRS isn't used, and all that
 * TCG's CPUs get.  It has its own copy, one test shorter.
 * Before any ret or indirect branch.
 * Requires: %rsp on the shim's stack.  Clobbers %rax, %rcx, %rdx, flags.
 */
.macro SPEC_CTRL_ENTRY_FROM_PV
        testb   $SCF_ENTRY_LFENCE, spec_ctrl_flags(%rip)
        jz      .L\@_done
        testb   $(SCF_ENTRY_IBPB | SCF_MSR_SPEC_CTRL), spec_ctrl_flags(%rip)
        jz      .L\@_rsb
        DO_COND_IBPB
        DO_COND_OVERWRITE_RSB
        DO_COND_SPEC_CTRL spec_ctrl_shim_value
        jmp     .L\@_fence
.L\@_rsb:
        DO_OVERWRITE_RSB
.L\@_fence:
        lfence
.L\@_done:
.endm

/*
 * Entry through the IDT, from the guest or from the shim (Xen's
 * SPEC_CTRL_ENTRY_FROM_INTR and _INTR_IST in one).  IBPB and the RSB
 * overwrite are for frames from the guest, and for the IST vectors (#DB,
 * NMI, #DF, #MC), which may have hit the shim before an entry's own
 * flushes ran (a #DB from a sysenter with TF set does, every time).
 * MSR_SPEC_CTRL is the shim's in any case: an NMI may hit the exit path
 * after it loaded the guest's value.  The lfence closes the checks of
 * where the frame came from.
 * Requires: %rsp = the saved frame.  Clobbers %rax, %rcx, %rdx, flags.
 */
.macro SPEC_CTRL_ENTRY_FROM_INTR
        testb   $SCF_ENTRY_LFENCE, spec_ctrl_flags(%rip)
        jz      .L\@_done
        testb   $3, REGS_cs(%rsp)
        jnz     .L\@_flush
        mov     %esp, %eax
        and     $(STACK_SIZE - 1), %eax
        cmp     $(STACK_GUARD_PAGE * 4096), %eax
        jae     .L\@_msr                /* the shim, on its primary stack */
.L\@_flush:
        DO_COND_IBPB
        DO_COND_OVERWRITE_RSB
.L\@_msr:
        DO_COND_SPEC_CTRL spec_ctrl_shim_value
        lfence
.L\@_done:
.endm

/*
 * Exit to the guest, before its GPRs are restored (Xen's
 * SPEC_CTRL_EXIT_TO_PV): the guest's MSR_SPEC_CTRL, then Zen1's DIV
 * scrub.  No ret or indirect branch may follow before iretq: the shim's
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
