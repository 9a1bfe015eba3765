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

/* Copy a boot string; with skip_image_name, drop its first word. */
void boot_copy_string(char *dst, size_t size, uint64_t paddr,
                      bool skip_image_name, bool *truncated);

void boot_add_module(struct boot_info *bi, uint64_t start, uint64_t end,
                     uint64_t cmdline_paddr);

#endif /* BOOT_BOOT_H */
