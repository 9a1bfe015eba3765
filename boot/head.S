/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The shim's first instructions: multiboot1, multiboot2 and PVH headers,
 * the switch from 32-bit protected mode to long mode on static boot page
 * tables, and the jump to boot_c_entry() at the linked (high) address.
 */
#include <multiboot/multiboot.h>
#include <xen/elfnote.h>
#include "boot/multiboot2.h"
#include "arch/x86/layout.h"
#include "asm-offsets.h"

/* Physical address of a symbol while paging is off. */
#define sym_phys(s) ((s) - SHIM_VIRT_START)

#define PVH_MAGIC 0x336ec578            /* XEN_HVM_START_MAGIC_VALUE */
#define MB1_FLAGS (MULTIBOOT_PAGE_ALIGN | MULTIBOOT_MEMORY_INFO)

        /* Multiboot1: QEMU -kernel (the ELF32 image, tools/mkelf32). */
        .section .mb1, "a", @progbits
        .balign 4
multiboot1_header:
        .long MULTIBOOT_HEADER_MAGIC
        .long MB1_FLAGS
        .long -(MULTIBOOT_HEADER_MAGIC + MB1_FLAGS)

        .section .text.head, "ax", @progbits
        .code32

        /* Multiboot2: GRUB, with BIOS or UEFI firmware. */
        .balign 8
multiboot2_header:
        .long MB2_HEADER_MAGIC
        .long MB2_ARCH_I386
        .long multiboot2_header_end - multiboot2_header
        .long -(MB2_HEADER_MAGIC + MB2_ARCH_I386 + \
                (multiboot2_header_end - multiboot2_header))
        .balign 8
        .short MB2_HEADER_TAG_INFO_REQ, 0
        .long 8 + 4 * 3
        .long MB2_TAG_CMDLINE, MB2_TAG_MODULE, MB2_TAG_MMAP
        .balign 8
        .short MB2_HEADER_TAG_END, 0
        .long 8
multiboot2_header_end:

/*
 * PVH entry (XEN_ELFNOTE_PHYS32_ENTRY): 32-bit protected mode, paging off,
 * %ebx = physical address of struct hvm_start_info.
 */
start_pvh:
        mov     $PVH_MAGIC, %eax
        /* fall through */

/*
 * Multiboot entry.  Registers on entry:
 *   %eax  boot protocol magic (MULTIBOOT_BOOTLOADER_MAGIC,
 *         MB2_BOOTLOADER_MAGIC, or PVH_MAGIC from above)
 *   %ebx  physical address of the protocol's info structure
 *   32-bit flat protected mode, paging off, interrupts off.
 */
        .globl start
start:
        cld
        cli
        mov     %eax, %edi
        mov     %ebx, %esi

        /* Long mode and NX are needed; no long mode means we stop here. */
        mov     $0x80000000, %eax
        cpuid
        cmp     $0x80000001, %eax
        jb      no_long_mode
        mov     $0x80000001, %eax
        cpuid
        bt      $29, %edx
        jnc     no_long_mode
        mov     %edx, %ebp              /* bit 20: NX */

        lgdt    sym_phys(boot_gdtr)
        mov     $sym_phys(boot_l4), %eax
        mov     %eax, %cr3
        mov     %cr4, %eax
        or      $(1 << 5), %eax         /* PAE */
        mov     %eax, %cr4

        mov     $0xc0000080, %ecx       /* EFER */
        rdmsr
        or      $(1 << 8), %eax         /* LME */
        bt      $20, %ebp
        jnc     1f
        or      $(1 << 11), %eax        /* NXE */
1:      wrmsr

        /*
         * AM as Xen's CR0: a guest (all of it in ring 3) that sets
         * RFLAGS.AC gets #AC; the shim's own stac in ring 0 is unaffected.
         */
        mov     $0x80050001, %eax       /* PG | AM | WP | PE */
        mov     %eax, %cr0
        ljmp    $0x08, $sym_phys(start64)

no_long_mode:
        mov     $sym_phys(no_lm_msg), %ebx
        mov     $0x3f8, %dx
1:      movb    (%ebx), %al
        test    %al, %al
        jz      2f
        outb    %al, %dx
        inc     %ebx
        jmp     1b
2:      hlt
        jmp     2b

        .code64
start64:
        movabs  $high_start64, %rax
        jmp     *%rax

high_start64:
        mov     $0x10, %eax
        mov     %eax, %ds
        mov     %eax, %es
        mov     %eax, %ss
        xor     %eax, %eax
        mov     %eax, %fs
        mov     %eax, %gs
        lea     cpu0_stack + STACK_SIZE - CPU_INFO_sizeof(%rip), %rsp
        xor     %ebp, %ebp
        /* boot_c_entry(magic = %edi, info = %esi): does not return. */
        call    boot_c_entry
        ud2

        .section .rodata, "a", @progbits
no_lm_msg:
        .asciz  "pvshim: this CPU has no long mode; stopping.\r\n"

        .balign 8
boot_gdt:
        .quad   0
        .quad   0x00af9a000000ffff      /* 0x08: 64-bit code */
        .quad   0x00cf92000000ffff      /* 0x10: flat data */
boot_gdt_end:
boot_gdtr:
        .short  boot_gdt_end - boot_gdt - 1
        .long   sym_phys(boot_gdt)

/*
 * Boot page tables, static so the 32-bit code only loads CR3.  They map
 * the first 4 GiB three times: identity (for the switch), at the directmap
 * (so C can reach boot data with __va()), and the first 1 GiB at
 * SHIM_VIRT_START (the image).  paging_init() replaces them.
 */
        .section .data.page_aligned, "aw", @progbits
        .balign 4096
boot_l4:
        .quad   sym_phys(boot_l3_low) + 3
        .fill   L4_SLOT(SHIM_VIRT_START) - 1, 8, 0
        .quad   sym_phys(boot_l3_image) + 3
        .quad   sym_phys(boot_l3_low) + 3      /* DIRECTMAP_VIRT_START */
        .fill   511 - L4_SLOT(DIRECTMAP_VIRT_START), 8, 0
boot_l3_low:
        .quad   sym_phys(boot_l2_low) + 0x0000 + 3
        .quad   sym_phys(boot_l2_low) + 0x1000 + 3
        .quad   sym_phys(boot_l2_low) + 0x2000 + 3
        .quad   sym_phys(boot_l2_low) + 0x3000 + 3
        .fill   508, 8, 0
boot_l3_image:
        .fill   (SHIM_VIRT_START >> 30) & 511, 8, 0
        .quad   sym_phys(boot_l2_low) + 3
        .fill   511 - ((SHIM_VIRT_START >> 30) & 511), 8, 0
boot_l2_low:
        .set    i, 0
        .rept   2048
        .quad   (i << 21) + 0xe3        /* P RW A D PSE */
        .set    i, i + 1
        .endr

/* The PVH entry point, for QEMU -kernel and any PVH-capable host. */
        .section .note.shim, "a", @note
        .balign 4
        .long   4                       /* name size */
        .long   4                       /* desc size */
        .long   XEN_ELFNOTE_PHYS32_ENTRY
        .asciz  "Xen"
        .long   sym_phys(start_pvh)
