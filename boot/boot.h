/* SPDX-License-Identifier: GPL-2.0-only */
/* Boot-protocol parsers, each filling struct boot_info. */
#ifndef BOOT_BOOT_H
#define BOOT_BOOT_H

#include "shim/boot-info.h"

void multiboot1_parse(struct boot_info *bi, uint32_t info);
void multiboot2_parse(struct boot_info *bi, uint32_t info);
void pvh_parse(struct boot_info *bi, uint32_t info);

/*
 * Boot data is reached through the boot directmap, which covers the first
 * 4 GiB: NULL for anything outside it.
 */
const void *boot_ptr(uint64_t paddr, uint64_t len);

/*
 * Copy a boot string.  With @name, its first word (the image's file name,
 * which multiboot loaders other than GRUB 2 put first) goes there and the
 * rest to @dst.  *truncated (if given) says whether @dst was too small.
 */
void boot_copy_string(char *dst, size_t size, uint64_t paddr,
                      char *name, size_t name_size, bool *truncated);

/* Xen's rule: GRUB 2 leaves the image name out of the strings it passes. */
void boot_set_loader(struct boot_info *bi, uint64_t name_paddr);

void boot_add_module(struct boot_info *bi, uint64_t start, uint64_t end,
                     uint64_t cmdline_paddr);

/* Add a raw memory-map entry, counting those that don't fit. */
void boot_add_memory(struct boot_info *bi, uint64_t addr, uint64_t size,
                     uint32_t type);

/* Move what follows a " -- " on the shim's line to bi->guest_extra. */
void boot_split_guest_extra(struct boot_info *bi);

#endif /* BOOT_BOOT_H */
