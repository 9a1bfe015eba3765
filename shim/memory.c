/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * From the boot memory map to a working frame allocator: sanitise the
 * map, carve out what is in use (low 1 MiB, the image, the modules, the
 * allocator's bitmap), print it, and hand the rest to shim/frame.c.
 */
#include "arch/x86/layout.h"
#include "shim/boot-info.h"
#include "shim/console.h"
#include "shim/frame.h"
#include "shim/memory.h"
#include "shim/panic.h"

extern const char __image_start[], __image_end[];

uint64_t trampoline_page;

static void reserve(struct memmap *m, uint64_t addr, uint64_t size,
                    uint32_t type)
{
    if ( memmap_reserve(m, addr, size, type) )
        panic("memory map full while reserving %#lx+%#lx",
              (unsigned long)addr, (unsigned long)size);
}

/* The bitmap goes in the first RAM range below 4 GiB (boot-mapped) that
 * holds it. */
static uint64_t place_bitmap(const struct memmap *m, size_t bytes)
{
    unsigned int i;

    for ( i = 0; i < m->nr; i++ )
    {
        const struct memmap_entry *e = &m->map[i];

        if ( e->type == MEMMAP_RAM && e->size >= bytes &&
             e->addr + bytes <= (4ULL << 30) )
            return e->addr;
    }
    panic("no room below 4 GiB for the frame allocator's %zu-byte bitmap",
          bytes);
}

void memmap_print(const char *title, const struct memmap *m)
{
    unsigned int i;

    printk("%s:\n", title);
    for ( i = 0; i < m->nr; i++ )
        printk(" [%016lx, %016lx] (%s)\n", (unsigned long)m->map[i].addr,
               (unsigned long)(m->map[i].addr + m->map[i].size - 1),
               memmap_type_name(m->map[i].type));
}

void memory_init(struct boot_info *bi, struct memmap *m)
{
    unsigned long max_pfn;
    unsigned int i, fixed;
    size_t bytes;
    uint64_t bitmap, ram;

    *m = bi->memmap;
    if ( !m->nr )
        panic("the boot loader gave no memory map");
    if ( bi->memmap_dropped )
        printk(XENLOG_WARNING "Memory map: %u entries beyond the first %u "
               "ignored\n", bi->memmap_dropped, MEMMAP_MAX);
    fixed = memmap_sanitise(m);
    if ( fixed )
        printk("Memory map: %u fix-up(s) for overlapping, unaligned or "
               "empty ranges\n", fixed);
    ram = memmap_total(m, MEMMAP_RAM);

    /* Kept from the allocator with the rest of the low 1 MiB. */
    trampoline_page = memmap_low_page(m, 1 << 20);
    reserve(m, 0, 1 << 20, MEMMAP_BOOT);
    reserve(m, __pa_image(__image_start),
            __image_end - __image_start, MEMMAP_SHIM);
    for ( i = 0; i < bi->nr_modules; i++ )
        reserve(m, bi->mods[i].start, bi->mods[i].size, MEMMAP_MODULE);

    max_pfn = memmap_ram_end(m) >> PAGE_SHIFT;
    bytes = frames_bitmap_bytes(max_pfn);
    bitmap = place_bitmap(m, bytes);
    reserve(m, bitmap, bytes, MEMMAP_ALLOC);

    memmap_print("Physical memory map", m);
    frames_init(__va(bitmap), max_pfn, m);
    printk("Frames: %lu free of %lu (%lu MiB of RAM), max pfn %#lx, "
           "shim image %lu KiB\n",
           frames_free_count(), frames_total(),
           (unsigned long)(ram >> 20),
           max_pfn, (unsigned long)(__image_end - __image_start) >> 10);
}
