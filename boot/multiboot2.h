/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Multiboot2 constants and the tags we read, from the Multiboot2
 * specification (version 2.0), sections 3.1 and 3.6.  Debian ships no
 * header for it (the `multiboot` package covers version 1 only).
 */
#ifndef BOOT_MULTIBOOT2_H
#define BOOT_MULTIBOOT2_H

#define MB2_HEADER_MAGIC        0xe85250d6
#define MB2_BOOTLOADER_MAGIC    0x36d76289
#define MB2_ARCH_I386           0
#define MB2_HEADER_TAG_END      0
#define MB2_HEADER_TAG_INFO_REQ 1

#define MB2_TAG_END             0
#define MB2_TAG_CMDLINE         1
#define MB2_TAG_LOADER_NAME     2
#define MB2_TAG_MODULE          3
#define MB2_TAG_MMAP            6
#define MB2_TAG_ACPI_OLD        14
#define MB2_TAG_ACPI_NEW        15

#ifndef __ASSEMBLER__
#include <stdint.h>

struct mb2_info {
    uint32_t total_size;
    uint32_t reserved;
};

struct mb2_tag {
    uint32_t type;
    uint32_t size;
};

struct mb2_tag_string {             /* CMDLINE, LOADER_NAME */
    uint32_t type, size;
    char string[];
};

struct mb2_tag_module {
    uint32_t type, size;
    uint32_t mod_start, mod_end;
    char cmdline[];
};

struct mb2_mmap_entry {
    uint64_t addr, len;
    uint32_t type, zero;
};

struct mb2_tag_mmap {
    uint32_t type, size;
    uint32_t entry_size, entry_version;
    /* struct mb2_mmap_entry entries[], entry_size apart */
};

struct mb2_tag_acpi {               /* ACPI_OLD, ACPI_NEW: a copy of RSDP */
    uint32_t type, size;
    uint8_t rsdp[];
};
#endif

#endif /* BOOT_MULTIBOOT2_H */
