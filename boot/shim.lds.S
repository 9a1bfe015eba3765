/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Link the shim at SHIM_VIRT_START + SHIM_LOAD_PHYS, loaded at
 * SHIM_LOAD_PHYS.  Text, read-only data and writable data each start on a
 * page so paging can give them their own permissions (W^X, NX).
 */
#include "arch/x86/layout.h"

OUTPUT_FORMAT("elf64-x86-64")
OUTPUT_ARCH(i386:x86-64)
ENTRY(start_phys)

PHDRS
{
    text PT_LOAD FLAGS(5);
    rodata PT_LOAD FLAGS(4);
    data PT_LOAD FLAGS(6);
    note PT_NOTE FLAGS(4);
}

SECTIONS
{
    . = SHIM_VIRT_START + SHIM_LOAD_PHYS;
    __image_start = .;

    /* Zeroed in the PVH image, which QEMU must not take for multiboot. */
    .mb1 : AT(ADDR(.mb1) - SHIM_VIRT_START)
    {
        KEEP(*(.mb1))
    } :text

    .text : AT(ADDR(.text) - SHIM_VIRT_START)
    {
        __text_start = .;
        *(.text.head)
        *(.text.entry)
        *(.text.entry.syscall_stubs)    /* CPU 0's first: the same page */
        *(.text.entry.vector_stubs)
        *(.text.hot)
        *(.text .text.*)
        *(.altinstr_replacement)        /* copied from at boot only */
        . = ALIGN(4096);
        __text_end = .;
    } :text

    .rodata : AT(ADDR(.rodata) - SHIM_VIRT_START)
    {
        __rodata_start = .;
        *(.rodata .rodata.*)
        . = ALIGN(8);
        __start_shim_params = .;
        KEEP(*(shim_params))
        __stop_shim_params = .;
        . = ALIGN(8);
        __start_lock_profile = .;
        KEEP(*(lock_profile))
        __stop_lock_profile = .;
        . = ALIGN(8);
        __start_ex_table = .;
        KEEP(*(.ex_table))
        __stop_ex_table = .;
        . = ALIGN(4);
        __alt_start = .;                /* arch/x86/alternative.h */
        KEEP(*(.altinstructions))
        __alt_end = .;
    } :rodata

    .note : AT(ADDR(.note) - SHIM_VIRT_START)
    {
        KEEP(*(.note.shim))
        . = ALIGN(4);
        __note_gnu_build_id_start = .;
        KEEP(*(.note.gnu.build-id))
        __note_gnu_build_id_end = .;
    } :rodata :note

    /* Filled in by the second link (tools/gen-symbols.sh); last in rodata. */
    .symbols : AT(ADDR(.symbols) - SHIM_VIRT_START)
    {
        KEEP(*(.rodata.symbols))
        . = ALIGN(4096);
        __rodata_end = .;
    } :rodata

    .data : AT(ADDR(.data) - SHIM_VIRT_START)
    {
        __data_start = .;
        *(.data.page_aligned)
        /* What the entry paths read and write, together (shim/lib.h). */
        . = ALIGN(4096);
        *(.data.read_mostly)
        . = ALIGN(64);          /* no cache line shared with it */
        *(.data.hot)
        . = ALIGN(4096);
        *(.data .data.*)
    } :data

    .bss : AT(ADDR(.bss) - SHIM_VIRT_START)
    {
        . = ALIGN(8);
        __bss_start = .;
        *(.bss.page_aligned)
        *(.bss .bss.*)
        *(COMMON)
        . = ALIGN(4096);
        __bss_end = .;
    } :data

    __image_end = .;
    start_phys = start - SHIM_VIRT_START;

    /DISCARD/ :
    {
        *(.note.GNU-stack)
        *(.note.gnu.property)
        *(.comment)
        *(.eh_frame)
        *(.interp)
        *(.dynsym .dynstr .dynamic .hash .gnu.hash)
    }

    .debug_info 0 : { *(.debug_info) }
    .debug_abbrev 0 : { *(.debug_abbrev) }
    .debug_line 0 : { *(.debug_line) }
    .debug_str 0 : { *(.debug_str) }
    .debug_line_str 0 : { *(.debug_line_str) }
    .debug_aranges 0 : { *(.debug_aranges) }
    .debug_rnglists 0 : { *(.debug_rnglists) }
    .debug_loclists 0 : { *(.debug_loclists) }
    .debug_frame 0 : { *(.debug_frame) }
}

ASSERT(__image_end - SHIM_VIRT_START < SHIM_IMAGE_MAX, "shim image too big")
ASSERT(trampoline_end - trampoline_start <= 4096,
       "the AP trampoline must fit in a page")
