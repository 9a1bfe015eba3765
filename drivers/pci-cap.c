/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pure decoding of PCI configuration space, shared with the host tests:
 * the capability list (PCI 3.0 6.7) walked over a snapshot, and a BAR's
 * type and size from what reads back after writing all ones (6.2.5.1).
 */
#include "drivers/pci.h"

#define PCI_CAP_FIRST       0x40    /* below is the header */
#define PCI_CAP_MAX         48      /* (256 - 64) / 4: no longer list */

unsigned int pci_cap_find(const uint8_t *cfg, unsigned int from, uint8_t id)
{
    unsigned int pos, n;

    if ( !(cfg[PCI_STATUS] & PCI_STATUS_CAP_LIST) )
        return 0;
    pos = from ? cfg[from + 1] : cfg[PCI_CAP_PTR];
    for ( n = 0; n < PCI_CAP_MAX; n++ )
    {
        pos &= ~3u;                 /* the low bits are reserved */
        if ( pos < PCI_CAP_FIRST || pos > PCI_CFG_SIZE - 2 )
            return 0;
        if ( cfg[pos] == id )
            return pos;
        pos = cfg[pos + 1];
    }
    return 0;                       /* a loop */
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
        bar->size = (~mask + 1) & 0xffffu;
        bar->addr = lo & 0xfffcu;
        return 1;
    }
    bar->prefetch = lo & PCI_BAR_PREFETCH;
    bar->is64 = (lo & PCI_BAR_MEM_TYPE_MASK) == PCI_BAR_MEM_64;
    if ( bar->is64 )
    {
        mask = ((uint64_t)hi_ones << 32) | (lo_ones & ~0xfu);
        if ( mask )
            bar->size = ~mask + 1;
        bar->addr = ((uint64_t)hi << 32) | (lo & ~0xfu);
        return 2;
    }
    mask = lo_ones & ~0xfu;
    if ( mask )
        bar->size = (uint32_t)(~mask + 1);
    bar->addr = lo & ~0xfu;
    return 1;
}
