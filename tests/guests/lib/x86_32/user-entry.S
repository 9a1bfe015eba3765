/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Guest user mode for 32-bit PAE test kernels (user.h): the way into
 * ring 3 (HYPERVISOR_iret to an RPL 3 frame), the way back (a DPL-3
 * trap-table vector), syscall and sysenter callbacks, and exception stubs
 * that record Xen's bounce frame before the library's handlers see it.
 *
 * Data segments: an iret to ring 3 nulls %ds and %es if they hold the
 * ring-1 selector (DPL 1 < CPL 3), so exec_user_*() give user mode
 * FLAT_USER_DS (DPL 3, usable from ring 1 too, as the library's handlers
 * are) where they hold FLAT_KERNEL_DS, and leave any other selector a
 * test loaded; user_ret_entry puts the kernel's back.
 */
#include <xen/xen.h>

#define USER_RET_VECTOR 0x21
#define USER_STACK_SIZE 8192

        .text

/*
 * Save what the C caller expects kept, and the kernel's %ds and %es, on
 * the kernel stack, and remember it: user_ret_entry unwinds from there.
 */
.macro save_kernel_state
        push    %ebp
        push    %ebx
        push    %esi
        push    %edi
        push    %ds
        push    %es
        mov     %esp, user_saved_esp
        mov     $FLAT_USER_DS, %ebx
        mov     %ds, %si
        cmp     $FLAT_KERNEL_DS, %si
        jne     1f
        mov     %ebx, %ds
1:      mov     %es, %si
        cmp     $FLAT_KERNEL_DS, %si
        jne     2f
        mov     %ebx, %es
2:
.endm

/*
 * unsigned long exec_user_flags(fn, arg, eflags)
 * The user stack gets fn and arg, for user_stub; the iret frame (ring 3,
 * so with %esp and %ss) goes on the kernel stack.
 */
        .globl  exec_user_flags
        .type   exec_user_flags, @function
exec_user_flags:
        mov     4(%esp), %ecx           /* fn */
        mov     8(%esp), %edx           /* arg */
        mov     12(%esp), %eax          /* eflags */
        mov     %edx, user_stack + USER_STACK_SIZE - 4
        mov     %ecx, user_stack + USER_STACK_SIZE - 8
        save_kernel_state
        pushl   $FLAT_USER_SS
        pushl   $user_stack + USER_STACK_SIZE - 8
        push    %eax
        pushl   $FLAT_USER_CS
        pushl   $user_stub
        jmp     hypercall_page + __HYPERVISOR_iret * 32
        .size   exec_user_flags, . - exec_user_flags

/*
 * unsigned long exec_user_raw(eip, esp, eflags): enter user mode at @eip
 * on @esp; it comes back as exec_user_flags() does.
 */
        .globl  exec_user_raw
        .type   exec_user_raw, @function
exec_user_raw:
        mov     4(%esp), %ecx           /* eip */
        mov     8(%esp), %edx           /* esp */
        mov     12(%esp), %eax          /* eflags */
        save_kernel_state
        pushl   $FLAT_USER_SS
        push    %edx
        push    %eax
        pushl   $FLAT_USER_CS
        push    %ecx
        jmp     hypercall_page + __HYPERVISOR_iret * 32
        .size   exec_user_raw, . - exec_user_raw

/*
 * unsigned long exec_user_sel(fn, arg, cs, ss): exec_user() with the
 * selectors given (a ring-2 code and stack segment of the test's own
 * GDT, say), IF set.
 */
        .globl  exec_user_sel
        .type   exec_user_sel, @function
exec_user_sel:
        mov     4(%esp), %ecx           /* fn */
        mov     8(%esp), %edx           /* arg */
        mov     %edx, user_stack + USER_STACK_SIZE - 4
        mov     %ecx, user_stack + USER_STACK_SIZE - 8
        mov     12(%esp), %ecx          /* cs */
        mov     16(%esp), %edx          /* ss */
        save_kernel_state
        push    %edx
        pushl   $user_stack + USER_STACK_SIZE - 8
        pushl   $0x202
        push    %ecx
        pushl   $user_stub
        jmp     hypercall_page + __HYPERVISOR_iret * 32
        .size   exec_user_sel, . - exec_user_sel

/* In user mode, %esp at fn with arg above it: fn(arg), then back. */
user_stub:
        pop     %eax
        call    *%eax
        int     $USER_RET_VECTOR
        ud2

/* USER_RET_VECTOR's handler: exec_user_flags() returns %eax. */
        .globl  user_ret_entry
user_ret_entry:
        mov     user_saved_esp, %esp
        pop     %es
        pop     %ds
        pop     %edi
        pop     %esi
        pop     %ebx
        pop     %ebp
        ret

/*
 * Copy the frame above %esp + 4 (error code or %eip first; Xen's frame
 * from ring 3 is at most 6 words) into user_frame from its third word,
 * user.c's layout, which keeps the first two for the 64-bit %rcx and
 * %r11; clobbers %eax.
 */
.macro record_frame vector
        movl    $0, user_frame
        movl    $0, user_frame + 4
        .irp w, 0, 1, 2, 3, 4, 5, 6
        mov     4 + \w * 4(%esp), %eax
        mov     %eax, user_frame + 8 + \w * 4
        .endr
        movl    $\vector, user_frame_vector
.endm

/*
 * A trap-table handler that ends the user-mode run at once, recording
 * its frame (vector 0xff): for faults user code can't resume from.
 */
        .globl  user_fault_ret_entry
user_fault_ret_entry:
        push    %eax
        record_frame 0xff
        pop     %eax
        jmp     user_ret_entry

/* user_trap_record()'s stubs: record, then the library's stub. */
.macro record_entry vec
        .balign 16
record_\vec:
        push    %eax
        record_frame \vec
        pop     %eax
        jmp     *exception_entry + \vec * 4
.endm

.irp vec, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
          16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        record_entry \vec
.endr

/* Note %eax and the event mask (if user_mask_ptr says where it is). */
.macro note_eax_mask
        mov     %eax, user_syscall_rax
        mov     user_mask_ptr, %eax
        test    %eax, %eax
        jz      1f
        movzbl  (%eax), %eax
        mov     %eax, user_syscall_mask
1:
.endm

/*
 * The syscall32 callback (a compat guest's `syscall`): Xen's frame is an
 * exception's from ring 3 (%eip, %cs, %eflags, %esp, %ss), so record it
 * (vector 0x100), count, and go back to the instruction after the
 * `syscall` with HYPERVISOR_iret and %eax = user_syscall_result.
 */
        .globl  user_syscall_entry
user_syscall_entry:
        push    %eax
        record_frame 0x100
        pop     %eax
        note_eax_mask
        incl    user_syscall_count
        mov     user_syscall_result, %eax
        jmp     hypercall_page + __HYPERVISOR_iret * 32

/*
 * The sysenter callback: Xen's frame has no return address or stack (it
 * gives 0 for both), so (as Linux's convention) the user passed them in
 * %edx and %ecx.
 */
        .globl  user_sysenter_entry
user_sysenter_entry:
        push    %eax
        record_frame 0x101
        pop     %eax
        note_eax_mask
        incl    user_syscall_count
        mov     %edx, 0(%esp)
        movl    $FLAT_USER_CS, 4(%esp)
        andl    $~0x100, 8(%esp)        /* no single-stepping back */
        mov     %ecx, 12(%esp)
        movl    $FLAT_USER_SS, 16(%esp)
        mov     user_syscall_result, %eax
        jmp     hypercall_page + __HYPERVISOR_iret * 32

        .section .rodata
        .balign 4
        .globl  user_record_entry
user_record_entry:
.irp vec, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \
          16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        .long   record_\vec
.endr

        .bss
        .balign 4096
user_stack:
        .skip   USER_STACK_SIZE
        .balign 4
user_saved_esp:
        .skip   4

        .section .note.GNU-stack, "", @progbits
