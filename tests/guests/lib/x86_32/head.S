/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The 32-bit PAE test kernel's ELF notes (xen/elfnote.h), its hypercall
 * page and its entry point.  Numeric notes are 32-bit, as an ELF32
 * kernel's are (Linux's i386 xen-head.S uses _ASM_PTR).
 */
#include <xen/elfnote.h>

/* One note named "Xen" (ELF gABI note layout, 4-byte aligned). */
#define ELFNOTE(type, desc...)                                              \
        .pushsection .note.Xen, "a", @note;                                 \
        .balign 4;                                                          \
        .long 2f - 1f;                  /* namesz */                        \
        .long 4f - 3f;                  /* descsz */                        \
        .long type;                                                         \
1:      .asciz "Xen";                                                       \
2:      .balign 4;                                                          \
3:      desc;                                                               \
4:      .balign 4;                                                          \
        .popsection

ELFNOTE(XEN_ELFNOTE_GUEST_OS,       .asciz "pvshim-tests")
ELFNOTE(XEN_ELFNOTE_XEN_VERSION,    .asciz "xen-3.0")
ELFNOTE(XEN_ELFNOTE_LOADER,         .asciz "generic")
/*
 * "yes": a PAE kernel that takes an extended cr3 (xen_pfn_to_cr3()), so
 * its L3 may be above 4 GiB; a 64-bit hypervisor runs no other 32-bit
 * kind ("xen-3.0-x86_32p").
 */
ELFNOTE(XEN_ELFNOTE_PAE_MODE,       .asciz "yes")
ELFNOTE(XEN_ELFNOTE_VIRT_BASE,      .long 0)
ELFNOTE(XEN_ELFNOTE_PADDR_OFFSET,   .long 0)
ELFNOTE(XEN_ELFNOTE_ENTRY,          .long _start)
ELFNOTE(XEN_ELFNOTE_HYPERCALL_PAGE, .long hypercall_page)

/*
 * The hypervisor writes 32-byte stubs here at build time (`mov $nr,
 * %eax; int $0x82; ret`, and for iret one that pushes %eax first and
 * never returns).  Until then it holds int3, so a hypervisor that never
 * filled it shows up at the first hypercall, with EIP inside this page.
 */
        .section .text.hypercall_page, "ax", @progbits
        .balign 4096
        .globl hypercall_page
        .type hypercall_page, @object
hypercall_page:
        .fill 4096, 1, 0xcc
        .size hypercall_page, . - hypercall_page

/*
 * _start: entered in 32-bit protected mode in the guest kernel's ring 1,
 * %cs = FLAT_KERNEL_CS, %ds = %es = %fs = %gs = %ss = FLAT_KERNEL_DS
 * (flat 4 GiB, xen-x86_32.h), events masked in vcpu_info[0]:
 *   %esi  virtual address of start_info_t
 *   %esp  a boot stack made by the domain builder
 * Moves to the library's stack and calls start_guest(), which never
 * returns.
 */
        .section .text.head, "ax", @progbits
        .globl _start
        .type _start, @function
_start:
        cld
        mov     %esi, start_info
        mov     $boot_stack_top, %esp
        call    start_guest
1:      jmp     1b
        .size _start, . - _start

        .section .bss.stack, "aw", @nobits
        .balign 4096
boot_stack:
        .skip   4 * 4096
boot_stack_top:

        .section .note.GNU-stack, "", @progbits
