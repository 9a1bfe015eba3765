/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Exception and interrupt entry for the shim itself: one 16-byte stub per
 * vector, one common path that saves a struct cpu_regs and calls
 * do_trap(regs).
 *
 * An exception from the guest (ring 3) arrives on the frame at the top of
 * the stack (struct cpu_info's guest_regs) and goes to pv/entry.S; one
 * from the shim itself goes to do_trap().
 *
 * Frame on the stack when do_trap() runs (struct cpu_regs, regs.h):
 *
 *   offset  field                      pushed by
 *   ------  -------------------------  --------------------------------
 *   +0x00   r15 r14 r13 r12 rbp rbx    exception_common
 *   +0x30   r11 r10 r9 r8              exception_common
 *   +0x50   rax rcx rdx rsi rdi        exception_common
 *   +0x78   error_code (u32)           CPU, or the stub's `push $0`
 *   +0x7c   entry_vector (u32)         the stub
 *   +0x80   rip cs rflags rsp ss       CPU
 *
 * The C code takes the offsets from asm-offsets.h; the table is the map.
 */
#include "asm-offsets.h"
#include "arch/x86/asm-macros.h"
#include "arch/x86/spec-ctrl-asm.h"

/* Vectors for which the CPU pushes an error code (SDM vol. 3A, 6.3). */
#define HAS_ERRCODE(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || \
                        (v) == 17 || (v) == 21 || (v) == 29 || (v) == 30)

        .section .text.entry, "ax", @progbits

/*
 * exception_stubs: 256 stubs, 16 bytes apart, stub N for vector N.
 * Registers on entry: the CPU's frame (and error code, if the vector has
 * one) on the stack; all GPRs still the interrupted context's.  After
 * the entry paths' common code, as the syscall stubs are: the few a
 * crossing uses then share its pages (boot/shim.lds.S, shim/lib.h).
 */
        .pushsection .text.entry.vector_stubs, "ax", @progbits
        .balign 16
        .globl  exception_stubs
exception_stubs:
        .set    vec, 0
        .rept   256
        .balign 16
        .if !HAS_ERRCODE(vec)
        push    $0
        .endif
        movl    $vec, 4(%rsp)
        jmp     exception_common
        .set    vec, vec + 1
        .endr
        .popsection

/*
 * Registers on entry: interrupted context; %rsp points at error_code.
 * The stack is 16-byte aligned minus 8 after the 15 pushes, so one more
 * slot keeps the ABI's alignment at the call.
 */
exception_common:
        cld
        /*
         * Delivery keeps RFLAGS.AC, which ring 3 sets at will: close the
         * SMAP window it would open (the frame keeps the guest's AC).
         */
        ALTERNATIVE "", "clac", ALT_IF(ALTF_SMAP)
        SAVE_ALL
        SPEC_CTRL_ENTRY_FROM_INTR       /* before any ret: spec-ctrl-asm.h */
        mov     %rsp, %rdi
        /* From the guest (RPL 3): the PV code decides, on the guest frame. */
        testb   $3, REGS_cs(%rsp)
        jnz     pv_exception_entry
        sub     $8, %rsp
        call    do_trap
        add     $8, %rsp
        RESTORE_ALL
        add     $8, %rsp                /* error_code, entry_vector */
        /*
         * Back to the shim from an IST stack (an NMI or #DB; #MC and #DF
         * never return): that may be the exit's tail, past its VERW with
         * the guest's registers in place, and the handler's values have
         * filled the buffers since: VERW again, as Xen's restore_all_xen
         * (XSA-452).  Only %rsp and flags are free: its offset in the
         * stack block is below the guard page (STACK_GUARD_PAGE * 4096,
         * a power of two, above every IST page) on an IST stack.
         */
        .if (STACK_GUARD_PAGE * 4096) & (STACK_GUARD_PAGE * 4096 - 1)
        .error "the IST stacks' end is not a power of two"
        .endif
        .irp    page, IST_MC_PAGE, IST_NMI_PAGE, IST_DF_PAGE, IST_DB_PAGE
        .if \page >= STACK_GUARD_PAGE
        .error "an IST stack above the guard page"
        .endif
        .endr
        testl   $((STACK_SIZE - 1) & ~(STACK_GUARD_PAGE * 4096 - 1)), %esp
        jnz     1f
        SPEC_CTRL_COND_VERW
1:      iretq
