/* SPDX-License-Identifier: GPL-2.0-only */
/* Page-table entry bits (SDM vol. 3A, 4.5) and the shim's paging API. */
#ifndef ARCH_X86_PAGE_H
#define ARCH_X86_PAGE_H

#include "arch/x86/cpu.h"

#define _PAGE_PRESENT   (1UL << 0)
#define _PAGE_RW        (1UL << 1)
#define _PAGE_USER      (1UL << 2)
#define _PAGE_PWT       (1UL << 3)
#define _PAGE_PCD       (1UL << 4)
#define _PAGE_ACCESSED  (1UL << 5)
#define _PAGE_DIRTY     (1UL << 6)
#define _PAGE_PSE       (1UL << 7)
#define _PAGE_GLOBAL    (1UL << 8)
#define _PAGE_NX        (1UL << 63)
#define PADDR_MASK      0x000ffffffffff000UL

struct memmap;

/* Zero one 4 KiB page, 8 bytes at a time. */
static inline void clear_page(void *p)
{
    unsigned long n = 4096 / 8;

    asm volatile ( "rep stosq" : "+D" (p), "+c" (n) : "a" (0UL) : "memory" );
}

/*
 * Replace the boot page tables: the image with per-section permissions
 * (text RX, rodata R, data RW, all but text NX) and an unmapped guard page
 * under each stack, and a directmap of the RAM in @m.
 */
void paging_init(const struct memmap *m);
/* CR4.SMEP for the shim: the CPU has it and smep= allows it. */
bool paging_use_smep(void);
/* This CPU onto those tables, with the CR4 and CR0.WP paging_init() chose. */
void paging_init_cpu(void);

/*
 * Map [va, va + size) to [pa, ...) with 4 KiB pages in the shim's own
 * tables, whose L4 slots every guest L4 copies.  Frames for the tables come
 * from below 4 GiB.  _PAGE_USER makes the range visible to the guest.
 */
void map_pages(unsigned long va, uint64_t pa, unsigned long size,
               unsigned long flags);
/*
 * The same with 2 MiB pages: @va, @pa and @size 2 MiB aligned, and never
 * unmapped or remapped a page at a time (unmap_pages() walks to L1s).
 */
void map_pages_2m(unsigned long va, uint64_t pa, unsigned long size,
                  unsigned long flags);
/*
 * Tables for [va, va + size) made now, so every guest L4 (which copies the
 * shim's slots when validated) sees later mappings there; and unmapping.
 */
void paging_reserve(unsigned long va, unsigned long size);
void unmap_pages(unsigned long va, unsigned long size);

/* The shim's L4 table (its reserved slots are the ones guests copy). */
const uint64_t *shim_l4(void);
/* _PAGE_NX if the CPU has NX, else 0. */
unsigned long page_nx_bit(void);

/* global-pages (arch/x86/global-pages.c): decided once at boot. */
extern bool opt_global_pages;
void global_pages_init(void);
bool global_pages_decide(int8_t param, enum cpu_vendor vendor,
                         bool hypervisor, const char **why);

#endif /* ARCH_X86_PAGE_H */
