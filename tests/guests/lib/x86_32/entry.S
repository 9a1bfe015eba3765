/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Exception entry and return for a 32-bit PAE PV guest kernel (ring 1).
 *
 * Xen bounces an exception to the handler in the trap table with this
 * frame on the guest kernel stack (x86_64/compat/entry.S
 * compat_create_bounce_frame): at the interrupted %esp if the exception
 * came from ring 1, at the stack_switch one if from ring 3, which then
 * also gets %esp and %ss:
 *
 *     | %ss                                      |  from ring 3 only
 *     | %esp                                     |  from ring 3 only
 *     | %eflags (IF = !saved upcall mask)        |
 *     | saved upcall mask (16-23) | %cs (0-15)   |
 *     | %eip                                     |
 *     | error code                               |  only for vectors with one
 *                                                   <- %esp at the stub
 *
 * Stubs make the error-code slot uniform (0 where the CPU pushes none)
 * and store the vector in its upper 16 bits, which with the saved
 * registers forms the public struct cpu_user_regs (xen-x86_32.h) up to
 * %ss:
 *
 *     | %ss .. %eip                              |  as above
 *     | entry_vector (high 16) | error_code (low)|
 *     | %eax %ebp %edi %esi %edx %ecx            |
 *     | %ebx                                     |  <- struct cpu_user_regs *
 *     | %ds                                      |
 *     | %es                                      |
 *
 * frame.c checks these offsets against the header at compile time.  %ds
 * and %es are saved below the structure and the kernel's flat data
 * selector loaded for C, whatever the interrupted code had in them.
 *
 * The return is HYPERVISOR_iret (compat_iret): with %esp at the %eip
 * slot, jump to the iret stub, which pushes %eax and makes the
 * hypercall; Xen restores %eax, %eip, %cs and %eflags from the stack and,
 * for a return to ring 3, %esp and %ss (for ring 1 it pops the four
 * words), and never returns to the stub.
 */
#include <xen/xen.h>

/* Vectors for which the CPU pushes an error code. */
#define EXC_HAVE_EC ((1 << 8) | (1 << 10) | (1 << 11) | (1 << 12) | \
                     (1 << 13) | (1 << 14) | (1 << 17) | (1 << 21) | \
                     (1 << 29) | (1 << 30))

        .text

/* Entry for vector \vec: %esp at Xen's bounce frame. */
.macro exception_entry vec
        .balign 16
entry_\vec:
        .if !((1 << \vec) & EXC_HAVE_EC)
        push    $0
        .endif
        movw    $\vec, 2(%esp)
        jmp     handle_exception
.endm

.irp vec, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
          16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        exception_entry \vec
.endr

/* %esp at the error-code slot of a uniform frame; see the table above. */
        .balign 16
        .type handle_exception, @function
handle_exception:
        push    %eax
        push    %ebp
        push    %edi
        push    %esi
        push    %edx
        push    %ecx
        push    %ebx
        mov     %esp, %ebx              /* struct cpu_user_regs *; kept */
        push    %ds
        push    %es
        mov     $FLAT_KERNEL_DS, %eax
        mov     %eax, %ds
        mov     %eax, %es

        and     $~15, %esp              /* the ABI's alignment for C */
        sub     $12, %esp
        push    %ebx
        call    do_exception
        lea     -8(%ebx), %esp

        pop     %es
        pop     %ds
        pop     %ebx
        pop     %ecx
        pop     %edx
        pop     %esi
        pop     %edi
        pop     %ebp
        pop     %eax
        add     $4, %esp                /* error code and vector */

        jmp     hypercall_page + __HYPERVISOR_iret * 32
        .size handle_exception, . - handle_exception

/* exception_entry[vec]: the address of vector vec's stub, for trap_init(). */
        .section .rodata
        .balign 4
        .globl exception_entry
        .type exception_entry, @object
exception_entry:
.irp vec, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
          16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        .long   entry_\vec
.endr
        .size exception_entry, . - exception_entry

        .section .note.GNU-stack, "", @progbits
