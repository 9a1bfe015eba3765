/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The event callback: Xen's bounce frame without an error code (%rcx,
 * %r11, %rip, %cs, %rflags, %rsp, %ss), events masked.  Save what C may
 * clobber, call do_event_upcall(), and return with HYPERVISOR_iret, whose
 * %rflags.IF restores the mask the frame recorded.  The NMI callback
 * gets the same frame and treatment (do_guest_nmi()).
 */
#include <xen/xen.h>

/* \name: save, call \handler, restore, iret. */
.macro bounce_entry name, handler
        .balign 16
        .globl \name
        .type \name, @function
\name:
        pop     %rcx
        pop     %r11
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
        mov     %rsp, %rbx
        and     $~15, %rsp
        call    \handler
        mov     %rbx, %rsp
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
        push    $0                      /* iret_context.flags */
        jmp     hypercall_page + __HYPERVISOR_iret * 32
        .size \name, . - \name
.endm

        .text
        bounce_entry event_upcall_entry, do_event_upcall
        /* The NMI callback (VCPUOP_send_nmi): the same frame. */
        bounce_entry nmi_entry, do_guest_nmi
        /* lib/smp.c's, which any vCPU may take (smp_event_init()). */
        bounce_entry smp_upcall_entry, do_smp_upcall
        bounce_entry smp_nmi_entry, do_smp_nmi
