/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Entry from and exit to the PV guest: the per-CPU `syscall` entries that
 * carry hypercalls, the continuation of guest exceptions from
 * arch/x86/entry.S, and the one return path every entry ends on.
 *
 * The guest frame is struct cpu_regs at the top of the CPU's stack
 * (struct cpu_info, arch/x86/percpu.h); a syscall entry builds it in the
 * shape the CPU pushes for an exception, so both share one exit:
 *
 *   ss rsp rflags cs rip     CPU (exception) / lstar stub + lstar_common
 *   error_code entry_vector  CPU or `push $0`; ENTRY_SYSCALL marks syscall
 *   rdi ... r15              SAVE_ALL
 */
#include <xen/xen.h>
#include "asm-offsets.h"
#include "arch/x86/asm-macros.h"
#include "arch/x86/layout.h"
#include "pv/entry.h"

        .section .text.entry, "ax", @progbits

/*
 * lstar_stubs: one 32-byte entry per CPU; that CPU's MSR_LSTAR points at
 * its own, so the stub finds the CPU's stack with no register and no %gs
 * (the guest owns %gs).  Registers on entry (SDM vol. 2B, SYSCALL):
 *   %rcx  guest %rip after the syscall     %r11  guest %rflags
 *   %rsp  guest stack                      IF, TF, DF, AC clear (SFMASK)
 *   %rax  hypercall number; %rdi %rsi %rdx %r10 %r8 %r9 arguments
 */
        .balign 32
        .globl  lstar_stubs
lstar_stubs:
        .set    cpu, 0
        .rept   NR_CPUS
        .balign 32
        movq    %rsp, lstar_saved_rsp + cpu * 8(%rip)
        movq    lstar_stack + cpu * 8(%rip), %rsp
        pushq   $FLAT_KERNEL_SS
        pushq   lstar_saved_rsp + cpu * 8(%rip)
        jmp     lstar_common
        .set    cpu, cpu + 1
        .endr

/* Registers on entry: as above, with ss and rsp already pushed. */
lstar_common:
        pushq   %r11                    /* rflags */
        pushq   $FLAT_KERNEL_CS64
        pushq   %rcx                    /* rip */
        pushq   $0
        movl    $ENTRY_SYSCALL, 4(%rsp)
        cld
        SAVE_ALL
        mov     %rsp, %rdi
        sub     $8, %rsp
        call    pv_syscall
        add     $8, %rsp
        jmp     pv_return_to_guest

/*
 * From arch/x86/entry.S: an exception taken in the guest.  Registers on
 * entry: %rsp = %rdi = the saved frame (the guest frame in cpu_info,
 * or an IST stack for NMI, #DF and #MC).
 */
        .globl  pv_exception_entry
pv_exception_entry:
        sub     $8, %rsp
        call    pv_exception
        add     $8, %rsp
        /* fall through */

/*
 * The one way back to the guest.  Registers on entry: %rsp = the guest
 * frame.  pv_exit_to_guest() sanitises the frame (and is where pending
 * work such as event delivery will go).
 */
        .globl  pv_return_to_guest
pv_return_to_guest:
        cli
        mov     %rsp, %rdi
        sub     $8, %rsp
        call    pv_exit_to_guest
        add     $8, %rsp
        RESTORE_ALL
        add     $8, %rsp                /* error_code, entry_vector */
iret_to_guest:
        iretq
        EXTABLE iret_to_guest, iret_fault

/*
 * iretq refused the frame (a selector the guest gave us is unusable).
 * The #GP frame was pushed over the saved GPRs; %rsp = &regs->rip.
 */
iret_fault:
        sub     $REGS_rip, %rsp
        mov     %rsp, %rdi
        sub     $8, %rsp
        call    pv_iret_fault           /* does not return */
        ud2

/* pv_enter_guest(): start the guest from the frame in cpu_info. */
        .globl  pv_enter_guest
pv_enter_guest:
        mov     %rsp, %rax
        or      $(STACK_SIZE - 1), %rax
        lea     1 - CPU_INFO_sizeof + CPU_INFO_guest_regs(%rax), %rsp
        jmp     pv_return_to_guest

        .section .data, "aw", @progbits
        .balign 8
        .globl  lstar_stack
lstar_saved_rsp:
        .fill   NR_CPUS, 8, 0
lstar_stack:                            /* each CPU's RSP0 */
        .fill   NR_CPUS, 8, 0
