/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pure decoding of PCI configuration space, shared with the host tests:
 * the capability list (PCI 3.0 6.7) walked over a snapshot, and a BAR's
 * type and size from what reads back after writing all ones (6.2.5.1):
 * the lowest address bit that stays set, as Linux's pci_size() takes
 * it, so that a device whose bits don't run contiguously up still gets
 * a power of two, never a size of its own invention.
 */
#include "drivers/pci.h"

#define PCI_CAP_FIRST       0x40    /* below is the header */

/*
 * From the list's head every time, each position visited once: a list
 * that loops back ends where it first repeats, so that a walk by @from
 * (virtio-pci's of its vendor capabilities) ends too, whatever the
 * device shows.
 */
unsigned int pci_cap_find(const uint8_t *cfg, unsigned int from, uint8_t id)
{
    uint64_t seen = 0;                  /* a bit a dword of the space */
    unsigned int pos;
    bool past = !from;

    if ( !(cfg[PCI_STATUS] & PCI_STATUS_CAP_LIST) )
        return 0;
    for ( pos = cfg[PCI_CAP_PTR]; ; pos = cfg[pos + 1] )
    {
        pos &= ~3u;                     /* the low bits are reserved */
        if ( pos < PCI_CAP_FIRST || (seen & (1ULL << (pos / 4))) )
            return 0;
        seen |= 1ULL << (pos / 4);
        if ( past && cfg[pos] == id )
            return pos;
        if ( pos == from )
            past = true;
    }
}

unsigned int pci_bar_decode(uint32_t lo, uint32_t hi, uint32_t lo_ones,
                            uint32_t hi_ones, struct pci_bar *bar)
{
    uint64_t mask;

    memset(bar, 0, sizeof(*bar));
    if ( lo & PCI_BAR_IO )
    {
        bar->io = true;
        mask = lo_ones & 0xfffcu;           /* 16-bit I/O space */
        if ( !mask )
            return 1;
        bar->size = mask & -mask;
        bar->addr = lo & 0xfffcu;
        return 1;
    }
    bar->prefetch = lo & PCI_BAR_PREFETCH;
    bar->is64 = (lo & PCI_BAR_MEM_TYPE_MASK) == PCI_BAR_MEM_64;
    if ( bar->is64 )
    {
        mask = ((uint64_t)hi_ones << 32) | (lo_ones & ~0xfu);
        bar->size = mask & -mask;
        bar->addr = ((uint64_t)hi << 32) | (lo & ~0xfu);
        return 2;
    }
    mask = lo_ones & ~0xfu;
    bar->size = mask & -mask;
    bar->addr = lo & ~0xfu;
    return 1;
}

static uint32_t cfg32(const uint8_t *cfg, unsigned int reg)
{
    uint32_t v;

    memcpy(&v, cfg + reg, 4);
    return v;
}

static uint16_t cfg16(const uint8_t *cfg, unsigned int reg)
{
    uint16_t v;

    memcpy(&v, cfg + reg, 2);
    return v;
}

/*
 * Bits 15:4 of base and limit are address bits 31:20; the limit's low 20
 * bits are all ones.  The prefetchable window's low nibble 1 says that
 * the upper halves (0x28, 0x2c) hold bits 63:32.
 */
void pci_bridge_windows(const uint8_t *cfg, struct pci_window *mem,
                        struct pci_window *pref)
{
    uint16_t pb = cfg16(cfg, PCI_PREF_MEMORY_BASE);
    uint16_t pl = cfg16(cfg, PCI_PREF_MEMORY_LIMIT);

    mem->base = (uint64_t)(cfg16(cfg, PCI_MEMORY_BASE) & 0xfff0u) << 16;
    mem->limit = ((uint64_t)(cfg16(cfg, PCI_MEMORY_LIMIT) & 0xfff0u) << 16) |
                 (PCI_WINDOW_ALIGN - 1);
    pref->base = (uint64_t)(pb & 0xfff0u) << 16;
    pref->limit = ((uint64_t)(pl & 0xfff0u) << 16) | (PCI_WINDOW_ALIGN - 1);
    if ( (pb & 0xf) == 1 )
    {
        pref->base |= (uint64_t)cfg32(cfg, PCI_PREF_BASE_UPPER32) << 32;
        pref->limit |= (uint64_t)cfg32(cfg, PCI_PREF_LIMIT_UPPER32) << 32;
    }
}
