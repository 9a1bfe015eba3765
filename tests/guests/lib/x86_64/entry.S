/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Exception entry and return for a 64-bit PV guest kernel.
 *
 * Xen bounces an exception to the handler in the trap table with this
 * frame on the guest kernel stack (x86_64/entry.S create_bounce_frame; the
 * frame starts at the interrupted %rsp rounded down to 16 bytes):
 *
 *     | %ss                                      |  highest address
 *     | %rsp                                     |
 *     | %rflags (IF = !saved upcall mask)        |
 *     | %cs, saved upcall mask in bits 32-39     |  RPL 0: came from kernel
 *     | %rip                                     |
 *     | error code                               |  only for vectors with one
 *     | %r11                                     |
 *     | %rcx                                     |  <- %rsp at the stub
 *
 * %rcx and %r11 are there because Xen may enter with `sysret`, which
 * clobbers both: each stub restores them first.  Stubs then make the
 * error-code slot uniform (0 where the CPU pushes none) and store the
 * vector in its upper 32 bits, which with the saved registers forms the
 * public struct cpu_user_regs (xen/arch-x86/xen-x86_64.h) up to %ss:
 *
 *     | %ss .. %rip                              |  as above
 *     | entry_vector (high 32) | error_code (low)|
 *     | %rdi %rsi %rdx %rcx %rax %r8 .. %r11     |
 *     | %rbx %rbp %r12 .. %r15                   |  <- struct cpu_user_regs *
 *
 * traps.c checks these offsets against the header at compile time.
 *
 * The return is HYPERVISOR_iret: with %rsp at the %rip slot, push the
 * iret_context flags word (0: not returning from a syscall, so Xen
 * restores %rcx and %r11) and jump to the iret stub, which pushes %rcx,
 * %r11 and %rax and makes the hypercall; Xen reads struct iret_context
 * from the stack and never returns to the stub.
 */
#include <xen/xen.h>

/* Vectors for which the CPU pushes an error code. */
#define EXC_HAVE_EC ((1 << 8) | (1 << 10) | (1 << 11) | (1 << 12) | \
                     (1 << 13) | (1 << 14) | (1 << 17) | (1 << 21) | \
                     (1 << 29) | (1 << 30))

        .text

/* Entry for vector \vec: %rsp at the saved %rcx of Xen's bounce frame. */
.macro exception_entry vec
        .balign 16
entry_\vec:
        pop     %rcx
        pop     %r11
        .if !((1 << \vec) & EXC_HAVE_EC)
        push    $0
        .endif
        movl    $\vec, 4(%rsp)
        jmp     handle_exception
.endm

.irp vec, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
          16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        exception_entry \vec
.endr

/* %rsp at the error-code slot of a uniform frame; see the table above. */
        .balign 16
        .type handle_exception, @function
handle_exception:
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

        mov     %rsp, %rdi              /* struct cpu_user_regs * */
        mov     %rsp, %rbx              /* saved above; callee-saved */
        and     $~15, %rsp              /* Xen's frame need not leave the */
        call    do_exception            /* ABI's alignment */
        mov     %rbx, %rsp

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
        add     $8, %rsp                /* error code and vector */

        push    $0                      /* iret_context.flags */
        jmp     hypercall_page + __HYPERVISOR_iret * 32
        .size handle_exception, . - handle_exception

/* exception_entry[vec]: the address of vector vec's stub, for trap_init(). */
        .section .rodata
        .balign 8
        .globl exception_entry
        .type exception_entry, @object
exception_entry:
.irp vec, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
          16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        .quad   entry_\vec
.endr
        .size exception_entry, . - exception_entry

        .section .note.GNU-stack, "", @progbits
