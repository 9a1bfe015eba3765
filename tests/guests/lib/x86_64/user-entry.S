/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Guest user mode for test kernels (user.h): the way into user mode
 * (HYPERVISOR_iret to an RPL 3 frame), the way back (a DPL-3 trap-table
 * vector), syscall and sysenter callbacks, and exception stubs that
 * record Xen's bounce frame before the library's handlers see it.
 */
#include <xen/xen.h>

#define USER_RET_VECTOR 0x21
#define USER_STACK_SIZE 8192

        .text

/*
 * unsigned long exec_user_flags(fn %rdi, arg %rsi, rflags %rdx)
 * struct iret_context from its flags word up (the iret stub pushes
 * %rcx, %r11 and %rax below it): the call survives in %rdi and %rsi.
 */
        .globl  exec_user_flags
        .type   exec_user_flags, @function
exec_user_flags:
        push    %rbp
        push    %rbx
        push    %r12
        push    %r13
        push    %r14
        push    %r15
        mov     %rsp, user_saved_rsp(%rip)
        pushq   $FLAT_USER_SS
        lea     user_stack + USER_STACK_SIZE(%rip), %rax
        push    %rax
        push    %rdx
        pushq   $FLAT_USER_CS
        lea     user_stub(%rip), %rax
        push    %rax
        pushq   $0                      /* iret_context.flags */
        jmp     hypercall_page + __HYPERVISOR_iret * 32
        .size   exec_user_flags, . - exec_user_flags

/*
 * unsigned long exec_user_raw(rip %rdi, rsp %rsi, rflags %rdx): enter
 * user mode at @rip on @rsp; it comes back as exec_user_flags() does.
 */
        .globl  exec_user_raw
        .type   exec_user_raw, @function
exec_user_raw:
        push    %rbp
        push    %rbx
        push    %r12
        push    %r13
        push    %r14
        push    %r15
        mov     %rsp, user_saved_rsp(%rip)
        pushq   $FLAT_USER_SS
        push    %rsi
        push    %rdx
        pushq   $FLAT_USER_CS
        push    %rdi
        pushq   $0                      /* iret_context.flags */
        jmp     hypercall_page + __HYPERVISOR_iret * 32
        .size   exec_user_raw, . - exec_user_raw

/* In user mode: fn(arg), then back to the kernel with its result. */
user_stub:
        xchg    %rdi, %rsi
        call    *%rsi
        int     $USER_RET_VECTOR
        ud2

/* USER_RET_VECTOR's handler: exec_user_flags() returns %rax. */
        .globl  user_ret_entry
user_ret_entry:
        mov     user_saved_rsp(%rip), %rsp
        pop     %r15
        pop     %r14
        pop     %r13
        pop     %r12
        pop     %rbx
        pop     %rbp
        ret

/* Copy the 9 words above %rsp + 8 into user_frame; clobbers %rax. */
.macro record_frame vector
        .irp w, 0, 1, 2, 3, 4, 5, 6, 7, 8
        mov     8 + \w * 8(%rsp), %rax
        mov     %rax, user_frame + \w * 8(%rip)
        .endr
        movl    $\vector, user_frame_vector(%rip)
.endm

/*
 * A trap-table handler that ends the user-mode run at once, recording
 * its frame (vector 0xff): for faults user code can't resume from.
 */
        .globl  user_fault_ret_entry
user_fault_ret_entry:
        push    %rax
        record_frame 0xff
        pop     %rax
        jmp     user_ret_entry

/* user_trap_record()'s stubs: record, then the library's stub. */
.macro record_entry vec
        .balign 16
record_\vec:
        push    %rax
        record_frame \vec
        pop     %rax
        jmp     *exception_entry + \vec * 8(%rip)
.endm

.irp vec, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
          16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        record_entry \vec
.endr

/*
 * The syscall (and syscall32) callback: record the frame (vector 0x100),
 * count, and go back with VGCF_in_syscall and %rax = user_syscall_result.
 */
/* Note %rax and the event mask (if user_mask_ptr says where it is). */
.macro note_rax_mask
        mov     %rax, user_syscall_rax(%rip)
        mov     user_mask_ptr(%rip), %rax
        test    %rax, %rax
        jz      1f
        movzbl  (%rax), %eax
        mov     %eax, user_syscall_mask(%rip)
1:
.endm

        .globl  user_syscall_entry
user_syscall_entry:
        push    %rax
        record_frame 0x100
        pop     %rax
        note_rax_mask
        incl    user_syscall_count(%rip)
        pop     %rcx
        pop     %r11
        mov     user_syscall_result(%rip), %rax
        pushq   $VGCF_in_syscall
        jmp     hypercall_page + __HYPERVISOR_iret * 32

/*
 * The sysenter callback: Xen's frame has no return address, so (as
 * Linux's convention) the user passed it in %rdx and its stack in %rcx.
 */
        .globl  user_sysenter_entry
user_sysenter_entry:
        push    %rax
        record_frame 0x101
        pop     %rax
        note_rax_mask
        incl    user_syscall_count(%rip)
        pop     %rcx
        pop     %r11
        mov     %rdx, 0(%rsp)
        movq    $FLAT_USER_CS, 8(%rsp)
        andq    $~0x100, 16(%rsp)       /* no single-stepping back */
        mov     %rcx, 24(%rsp)
        movq    $FLAT_USER_SS, 32(%rsp)
        mov     user_syscall_result(%rip), %rax
        pushq   $0
        jmp     hypercall_page + __HYPERVISOR_iret * 32

        .section .rodata
        .balign 8
        .globl  user_record_entry
user_record_entry:
.irp vec, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
          16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        .quad   record_\vec
.endr

        .bss
        .balign 4096
user_stack:
        .skip   USER_STACK_SIZE
        .balign 8
user_saved_rsp:
        .skip   8

        .section .note.GNU-stack, "", @progbits
