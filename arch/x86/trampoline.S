/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The APs' way in (SDM vol. 3A, 8.4.4.1 and 9.9).  A STARTUP IPI starts
 * an AP in real mode at CS:IP = (page >> 4):0, in the copy of
 * trampoline_start..trampoline_end that smpboot.c put in a page below
 * 1 MiB.  It finds its own address from CS, goes to protected mode, then
 * to long mode on the page tables at tramp_cr3 (the shim's, plus the low
 * 2 MiB identity-mapped), and jumps to ap_start64 in the image.
 *
 * Registers through the trampoline:
 *   %ebx  the copy's physical base (CS << 4)
 * Filled in by smpboot.c before each STARTUP: tramp_cr3, tramp_efer.
 * Filled in by the code itself (the same values every time): the GDT
 * base in tramp_gdtr and the far pointers tramp_jmp32, tramp_jmp64.
 */
#include "arch/x86/layout.h"

#define OFF(sym)        ((sym) - trampoline_start)

#define TRAMP_CS32      0x08
#define TRAMP_DS        0x10
#define TRAMP_CS64      0x18

        /* Copied, never run where it is linked: read-only data. */
        .section .rodata.trampoline, "a", @progbits
        .code16
        .balign 16
        .globl trampoline_start
trampoline_start:
        cli
        cld
        mov     %cs, %ax
        mov     %ax, %ds
        movzwl  %ax, %ebx
        shl     $4, %ebx
        lea     OFF(tramp_gdt)(%ebx), %eax
        mov     %eax, OFF(tramp_gdtr) + 2
        lea     OFF(tramp32)(%ebx), %eax
        mov     %eax, OFF(tramp_jmp32)
        lea     OFF(tramp64)(%ebx), %eax
        mov     %eax, OFF(tramp_jmp64)
        lgdtl   OFF(tramp_gdtr)
        mov     %cr0, %eax
        or      $1, %eax                /* PE */
        mov     %eax, %cr0
        ljmpl   *OFF(tramp_jmp32)

        .code32
tramp32:
        mov     $TRAMP_DS, %eax
        mov     %eax, %ds
        mov     %eax, %es
        mov     %eax, %ss
        mov     %cr4, %eax
        or      $(1 << 5), %eax         /* PAE */
        mov     %eax, %cr4
        mov     OFF(tramp_cr3)(%ebx), %eax
        mov     %eax, %cr3
        mov     $0xc0000080, %ecx       /* EFER: LME, and NXE if the BSP */
        mov     OFF(tramp_efer)(%ebx), %eax
        xor     %edx, %edx
        wrmsr
        mov     $0x80050001, %eax       /* PG | AM | WP | PE, as head.S */
        mov     %eax, %cr0
        ljmp    *OFF(tramp_jmp64)(%ebx)

        .code64
tramp64:
        movabs  $ap_start64, %rax
        jmp     *%rax

        .balign 8
tramp_gdt:
        .quad   0
        .quad   0x00cf9a000000ffff      /* TRAMP_CS32: 32-bit code */
        .quad   0x00cf92000000ffff      /* TRAMP_DS: flat data */
        .quad   0x00af9a000000ffff      /* TRAMP_CS64: 64-bit code */
tramp_gdt_end:
tramp_gdtr:
        .short  tramp_gdt_end - tramp_gdt - 1
        .long   0
        .balign 4
tramp_jmp32:
        .long   0
        .short  TRAMP_CS32
        .balign 4
tramp_jmp64:
        .long   0
        .short  TRAMP_CS64
        .balign 4
        .globl tramp_cr3, tramp_efer
tramp_cr3:
        .long   0
tramp_efer:
        .long   0
        .globl trampoline_end
trampoline_end:

        .text
/*
 * From the trampoline: 64-bit mode on its page tables, the trampoline's
 * GDT, interrupts off.  Take the stack smpboot.c left in ap_boot_stack,
 * zeroing it so the boot CPU knows it was taken (a late AP that finds
 * none was given up on, and halts), then start_secondary(), which does
 * not return.
 */
ap_start64:
        mov     $TRAMP_DS, %eax
        mov     %eax, %ds
        mov     %eax, %es
        mov     %eax, %ss
        xor     %eax, %eax
        mov     %eax, %fs
        mov     %eax, %gs
        xor     %esp, %esp
        xchg    %rsp, ap_boot_stack(%rip)
        test    %rsp, %rsp
        jz      1f
        xor     %ebp, %ebp
        call    start_secondary
1:      cli
        hlt
        jmp     1b
