/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The event callback of a 32-bit PAE guest: Xen's compat bounce frame
 * without an error code (%eip, %cs with the saved upcall mask in bits
 * 16-23, %eflags, and %esp, %ss when it interrupted ring 3; see
 * entry.S), events masked.  Save what C may clobber (and %ds, %es, which
 * get the kernel's flat selector), call do_event_upcall(), and return
 * with HYPERVISOR_iret, whose %eflags.IF restores the mask the frame
 * recorded.  The NMI callback gets the same frame and treatment
 * (do_guest_nmi()).
 */
#include <xen/xen.h>

/* \name: save, call \handler, restore, iret. */
.macro bounce_entry name, handler
        .balign 16
        .globl \name
        .type \name, @function
\name:
        push    %eax
        push    %ecx
        push    %edx
        push    %ebx
        push    %ds
        push    %es
        mov     $FLAT_KERNEL_DS, %eax
        mov     %eax, %ds
        mov     %eax, %es
        mov     %esp, %ebx
        and     $~15, %esp
        call    \handler
        mov     %ebx, %esp
        pop     %es
        pop     %ds
        pop     %ebx
        pop     %edx
        pop     %ecx
        pop     %eax
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

        .section .note.GNU-stack, "", @progbits
