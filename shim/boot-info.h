/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the boot protocol told us, in one neutral form.  boot/ fills it from
 * multiboot1, multiboot2 or PVH; nothing after that looks at a protocol.
 * Every string is copied into the shim, so boot memory can be reused.
 */
#ifndef SHIM_BOOT_INFO_H
#define SHIM_BOOT_INFO_H

#include "shim/lib.h"
#include "shim/memmap.h"

#define BOOT_MODULES_MAX   8
#define BOOT_STRING_MAX    4096

struct boot_module {
    uint64_t start;                 /* physical address */
    uint64_t size;
    char name[256];                 /* file name, if the loader gave one */
    char cmdline[BOOT_STRING_MAX];  /* the arguments after it */
};

struct boot_info {
    const char *protocol;           /* "multiboot1", "multiboot2", "pvh" */
    char loader[64];                /* boot loader name, if it gave one */
    char image[256];                /* our own file name, if given */
    char cmdline[BOOT_STRING_MAX];  /* the shim's own command line */
    char guest_extra[BOOT_STRING_MAX]; /* after " -- ": for the guest */
    bool cmdline_truncated;
    bool image_names;               /* strings start with a file name */
    unsigned int nr_modules;
    unsigned int modules_dropped;   /* beyond BOOT_MODULES_MAX */
    struct boot_module mods[BOOT_MODULES_MAX];
    struct memmap memmap;           /* raw, as reported */
    unsigned int memmap_dropped;    /* entries beyond MEMMAP_MAX */
    uint64_t rsdp;                  /* physical address, 0 if not given */
};

extern struct boot_info boot_info;

/* shim/main.c: the whole boot-to-guest flow. */
noreturn void start_shim(struct boot_info *bi);

#endif /* SHIM_BOOT_INFO_H */
