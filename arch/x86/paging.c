/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The shim's own page tables, built once at boot from the memory map and
 * then shared by every address space (their L4 slots are copied into each
 * guest L4 later).  Intermediate tables are never user-accessible.
 */
#include <xen/errno.h>
#include "arch/x86/cpu.h"
#include "arch/x86/cr.h"
#include "arch/x86/layout.h"
#include "arch/x86/page.h"
#include "arch/x86/percpu.h"
#include "arch/x86/uaccess.h"
#include "shim/console.h"
#include "shim/frame.h"
#include "shim/memmap.h"
#include "shim/panic.h"
#include "shim/param.h"

/* Page tables must be reachable through the boot directmap (< 4 GiB). */
#define BOOT_LIMIT_PFN ((4UL << 30) >> PAGE_SHIFT)

extern const char __text_start[], __text_end[], __rodata_end[];
extern const char __image_start[], __image_end[];

static uint64_t *idle_l4;
static unsigned long nx_bit, global_bit;
static unsigned long nr_tables, nr_4k, nr_2m;
static unsigned long paging_cr4;    /* PGE, SMEP, SMAP as chosen at boot */

/*
 * smep=<boolean> | hvm, smap=<boolean> | hvm, as Xen's: whether the shim
 * runs with CR4.SMEP / CR4.SMAP where the CPU has them (default yes).
 * "hvm" keeps them for HVM guests only, which a PV shim has none of: off.
 * XenServer runs its shims with both off on large AMD guests (fewer CR4
 * writes, no stac/clac around guest copies).
 */
static bool opt_smep = true, opt_smap = true;

static int parse_smx(const char *s, bool *opt)
{
    int b = *s ? parse_bool(s, NULL) : 1;

    if ( b < 0 && !strcmp(s, "hvm") )
        b = 0;
    if ( b < 0 )
        return -XEN_EINVAL;
    *opt = b;
    return 0;
}

static int parse_smep(const char *s)
{
    return parse_smx(s, &opt_smep);
}
custom_param("smep", parse_smep);

static int parse_smap(const char *s)
{
    return parse_smx(s, &opt_smap);
}
custom_param("smap", parse_smap);

bool paging_use_smep(void)
{
    return opt_smep && cpu_has(X86_FEATURE_SMEP);
}

static uint64_t *pt_alloc(void)
{
    unsigned long pfn = frames_alloc(1, 0, BOOT_LIMIT_PFN);
    uint64_t *t;

    if ( pfn == INVALID_PFN )
        panic("out of memory building the shim's page tables");
    t = __va(pfn << PAGE_SHIFT);
    memset(t, 0, PAGE_SIZE);
    nr_tables++;
    return t;
}

/*
 * The table that entry @idx of @t points to, allocated if absent.  @user
 * opens the path to ring 3 (only the read-only M2P asks for that).
 */
static always_inline uint64_t *pt_next(uint64_t *t, unsigned int idx,
                                       unsigned long user)
{
    if ( !(t[idx] & _PAGE_PRESENT) )
        t[idx] = __pa(pt_alloc()) | _PAGE_PRESENT | _PAGE_RW |
                 _PAGE_ACCESSED | _PAGE_DIRTY;
    t[idx] |= user;
    return __va(t[idx] & PADDR_MASK);
}

/* Map one 4 KiB page, or one 2 MiB page when @large. */
static void map_one(unsigned long va, uint64_t pa, unsigned long flags,
                    bool large)
{
    unsigned long user = flags & _PAGE_USER;
    uint64_t *l3 = pt_next(idle_l4, (va >> 39) & 511, user);
    uint64_t *l2 = pt_next(l3, (va >> 30) & 511, user);
    uint64_t *l1;

    ASSERT(!(pa & (large ? L2_SIZE - 1 : PAGE_SIZE - 1)));
    ASSERT(va >= SHIM_AREA_START && va < SHIM_AREA_END);
    flags |= _PAGE_PRESENT | _PAGE_ACCESSED | _PAGE_DIRTY |
             (flags & _PAGE_USER ? 0 : global_bit);
    if ( large )
    {
        l2[(va >> 21) & 511] = pa | flags | _PAGE_PSE;
        nr_2m++;
        return;
    }
    l1 = pt_next(l2, (va >> 21) & 511, user);
    l1[(va >> 12) & 511] = pa | flags;
    nr_4k++;
}

/* Map [pa, pa + size) at DIRECTMAP + pa: 2 MiB pages where they fit. */
static void map_direct_range(uint64_t pa, uint64_t size)
{
    uint64_t end = pa + size;

    while ( pa < end )
    {
        bool large = !(pa & (L2_SIZE - 1)) && end - pa >= L2_SIZE;

        map_one((unsigned long)__va(pa), pa, _PAGE_RW | nx_bit, large);
        pa += large ? L2_SIZE : PAGE_SIZE;
    }
}

static bool in_directmap(uint32_t type)
{
    switch ( type )
    {
    case MEMMAP_RAM: case MEMMAP_ACPI: case MEMMAP_NVS:
    case MEMMAP_SHIM: case MEMMAP_MODULE: case MEMMAP_BOOT:
    case MEMMAP_ALLOC:
        return true;
    }
    return false;
}

static void map_image(void)
{
    unsigned long va;
    unsigned long guard = (unsigned long)cpu0_stack +
                          STACK_GUARD_PAGE * PAGE_SIZE;

    for ( va = (unsigned long)__image_start;
          va < (unsigned long)__image_end; va += PAGE_SIZE )
    {
        unsigned long flags;

        if ( va == guard )
            continue;                   /* stack overflow -> #DF */
        if ( va < (unsigned long)__text_end )
            flags = 0;                  /* RX */
        else if ( va < (unsigned long)__rodata_end )
            flags = nx_bit;             /* R */
        else
            flags = _PAGE_RW | nx_bit;  /* RW */
        map_one(va, __pa_image(va), flags, false);
    }
}

void paging_init(const struct memmap *m)
{
    unsigned int i;

    nx_bit = cpu_has(X86_FEATURE_NX) ? _PAGE_NX : 0;
    global_bit = opt_global_pages ? _PAGE_GLOBAL : 0;
    idle_l4 = pt_alloc();

    map_image();
    for ( i = 0; i < m->nr; i++ )
        if ( in_directmap(m->map[i].type) )
            map_direct_range(m->map[i].addr, m->map[i].size);

    if ( opt_global_pages )
        paging_cr4 |= X86_CR4_PGE;
    if ( paging_use_smep() )
        paging_cr4 |= X86_CR4_SMEP;
    /* The guest-memory copies open the window (stac/clac) as they go. */
    if ( opt_smap && cpu_has(X86_FEATURE_SMAP) )
    {
        paging_cr4 |= X86_CR4_SMAP;
        smap_enabled = true;
    }
    paging_init_cpu();

    printk("Paging: %lu tables, %lu 4K and %lu 2M mappings; NX %s, "
           "text RX, rodata RO, stack guard page%s%s\n",
           nr_tables, nr_4k, nr_2m, nx_bit ? "on" : "unavailable",
           paging_cr4 & X86_CR4_SMEP ? ", SMEP on" : "",
           paging_cr4 & X86_CR4_SMAP ? ", SMAP on" : "");
}

void paging_init_cpu(void)
{
    write_cr3(__pa(idle_l4));
    write_cr4((read_cr4() & ~X86_CR4_PGE) | paging_cr4);
    write_cr0(read_cr0() | X86_CR0_WP);
}

void map_pages(unsigned long va, uint64_t pa, unsigned long size,
               unsigned long flags)
{
    unsigned long off;

    if ( !(flags & _PAGE_RW) || (flags & _PAGE_USER) )
        flags |= nx_bit;            /* data only, never guest-executable */
    for ( off = 0; off < size; off += PAGE_SIZE )
        map_one(va + off, pa + off, flags, false);
}

void map_pages_2m(unsigned long va, uint64_t pa, unsigned long size,
                  unsigned long flags)
{
    unsigned long off;

    ASSERT(!((va | pa | size) & (L2_SIZE - 1)));
    if ( !(flags & _PAGE_RW) || (flags & _PAGE_USER) )
        flags |= nx_bit;            /* data only, never guest-executable */
    for ( off = 0; off < size; off += L2_SIZE )
        map_one(va + off, pa + off, flags, true);
}

const uint64_t *__hot_text shim_l4(void)
{
    return idle_l4;
}

unsigned long page_nx_bit(void)
{
    return nx_bit;
}

/* The L1 slot for @va, allocating the tables above it. */
static uint64_t *l1_slot(unsigned long va)
{
    uint64_t *l3 = pt_next(idle_l4, (va >> 39) & 511, 0);
    uint64_t *l2 = pt_next(l3, (va >> 30) & 511, 0);
    uint64_t *l1 = pt_next(l2, (va >> 21) & 511, 0);

    return &l1[(va >> 12) & 511];
}

void paging_reserve(unsigned long va, unsigned long size)
{
    unsigned long off;

    for ( off = 0; off < size; off += PAGE_SIZE )
        (void)l1_slot(va + off);
}

void unmap_pages(unsigned long va, unsigned long size)
{
    unsigned long off;

    for ( off = 0; off < size; off += PAGE_SIZE )
    {
        *l1_slot(va + off) = 0;
        asm volatile ( "invlpg (%0)" :: "r" (va + off) : "memory" );
    }
}
