/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The physical memory map: what the boot protocol reported, made sane
 * (sorted, no overlaps, RAM page-aligned) and with the shim's own
 * reservations carved out.
 */
#ifndef SHIM_MEMMAP_H
#define SHIM_MEMMAP_H

#include "shim/lib.h"

/* E820 / hvm_memmap_table_entry types (XEN_HVM_MEMMAP_TYPE_*). */
enum memmap_type {
    MEMMAP_RAM      = 1,
    MEMMAP_RESERVED = 2,
    MEMMAP_ACPI     = 3,
    MEMMAP_NVS      = 4,
    MEMMAP_UNUSABLE = 5,
    MEMMAP_DISABLED = 6,
    MEMMAP_PMEM     = 7,
    /* Our own kinds, carved out of RAM by memmap_reserve(). */
    MEMMAP_SHIM     = 0x100,    /* the shim image */
    MEMMAP_MODULE   = 0x101,    /* a boot module */
    MEMMAP_BOOT     = 0x102,    /* firmware/boot-loader data, low 1 MiB */
    MEMMAP_ALLOC    = 0x103,    /* frame allocator's own bitmap */
};

struct memmap_entry {
    uint64_t addr;
    uint64_t size;
    uint32_t type;
};

#define MEMMAP_MAX 256

struct memmap {
    unsigned int nr;
    struct memmap_entry map[MEMMAP_MAX];
};

/* Append a raw entry (zero-size entries are dropped). -1 if full. */
int memmap_add(struct memmap *m, uint64_t addr, uint64_t size, uint32_t type);

/*
 * Make the map sane: sort by address, resolve overlaps (where ranges
 * overlap, the more restrictive type wins: anything beats RAM, and a
 * higher type number beats a lower one), clamp ranges that wrap past
 * 2^64, shrink RAM ranges inwards to 4 KiB boundaries (dropping ones that
 * vanish), and merge neighbours of the same type.  Returns the number of
 * problems fixed (for the boot log).
 */
unsigned int memmap_sanitise(struct memmap *m);

/*
 * Mark [addr, addr + size) as @type where it is currently RAM (page-
 * rounded outwards), keeping the map sorted and sane.  -1 if the map
 * would overflow.
 */
int memmap_reserve(struct memmap *m, uint64_t addr, uint64_t size,
                   uint32_t type);

/* Total bytes of a type; highest end address of any RAM entry. */
uint64_t memmap_total(const struct memmap *m, uint32_t type);
uint64_t memmap_ram_end(const struct memmap *m);

/*
 * The highest whole 4 KiB page of RAM below @limit, never page 0; 0 if
 * there is none (for the APs' real-mode trampoline, below 1 MiB).
 */
uint64_t memmap_low_page(const struct memmap *m, uint64_t limit);

/* Human-readable name of a type ("RAM", "reserved", "ACPI data", ...). */
const char *memmap_type_name(uint32_t type);

#endif /* SHIM_MEMMAP_H */
