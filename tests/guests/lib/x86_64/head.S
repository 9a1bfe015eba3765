/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The 64-bit test kernel's ELF notes (xen/elfnote.h), its hypercall page
 * and its entry point.
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
ELFNOTE(XEN_ELFNOTE_VIRT_BASE,      .quad 0)
ELFNOTE(XEN_ELFNOTE_PADDR_OFFSET,   .quad 0)
ELFNOTE(XEN_ELFNOTE_ENTRY,          .quad _start)
ELFNOTE(XEN_ELFNOTE_HYPERCALL_PAGE, .quad hypercall_page)

/*
 * The hypervisor writes 32-byte stubs here at build time.  Until then it
 * holds int3, so a hypervisor that never filled it shows up at the first
 * hypercall, with RIP inside this page.
 */
        .section .text.hypercall_page, "ax", @progbits
        .balign 4096
        .globl hypercall_page
        .type hypercall_page, @object
hypercall_page:
        .fill 4096, 1, 0xcc
        .size hypercall_page, . - hypercall_page

/*
 * _start: entered in 64-bit mode in the guest kernel's ring 3.
 *   %rsi  virtual address of start_info_t
 *   %rsp  a boot stack made by the domain builder
 *   events masked in vcpu_info[0]
 * Moves to the library's stack and calls start_guest(), which never returns.
 */
        .section .text.head, "ax", @progbits
        .globl _start
        .type _start, @function
_start:
        cld
        mov     %rsi, start_info(%rip)
        lea     boot_stack_top(%rip), %rsp
        call    start_guest
1:      jmp     1b
        .size _start, . - _start

        .section .bss.stack, "aw", @nobits
        .balign 4096
boot_stack:
        .skip   4 * 4096
boot_stack_top:

        .section .note.GNU-stack, "", @progbits
