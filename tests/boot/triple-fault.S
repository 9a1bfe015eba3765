/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stands in for a shim that dies before it can report: a multiboot1
 * kernel that triple-faults at its first instructions.  With an empty IDT
 * the #UD can't be delivered, nor the #DF that follows, so the CPU
 * resets, and QEMU (under -no-reboot) exits 0.  tools/pvshim-run must
 * not take that for a clean poweroff.
 */
#define MB1_MAGIC       0x1badb002

        .section .text, "ax", @progbits
        .code32
        .balign 4
        .long   MB1_MAGIC
        .long   0                       /* flags: load the ELF as it is */
        .long   -MB1_MAGIC              /* checksum */

        .globl  _start
_start:
        cli
        lidt    idt_none
        ud2

idt_none:
        .word   0                       /* limit 0: no vector fits */
        .long   0
