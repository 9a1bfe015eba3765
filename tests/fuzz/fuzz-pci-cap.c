/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer harness for PCI configuration-space decoding
 * (drivers/pci-cap.c) over what a broken device may show: the input's
 * first 256 bytes are the configuration space (allocated to its exact
 * size: ASan sees a read past it), the rest BAR values and what they
 * read back after all ones.  A walk of every capability type by
 * pci_cap_find()'s @from, as virtio-pci walks its vendor ones, ends,
 * each position a capability of that type inside the list's range; a
 * BAR decodes to one or two registers and a size that is 0 or a power
 * of two within its space, as Linux's pci_size() makes it.
 */
#include "tests/fuzz/fuzz.h"
#include "drivers/pci-cap.c"

/* Capability positions: 0x40 up, dword aligned: at most this many. */
#define CAP_SLOTS   ((PCI_CFG_SIZE - 0x40) / 4)

static void walk(const uint8_t *cfg, uint8_t id)
{
    unsigned int cap = 0, n = 0;

    while ( (cap = pci_cap_find(cfg, cap, id)) )
    {
        FUZZ_ASSERT(cap >= 0x40 && cap <= PCI_CFG_SIZE - 2 && !(cap & 3));
        FUZZ_ASSERT(cfg[cap] == id);
        FUZZ_ASSERT(++n <= CAP_SLOTS);
    }
}

static void bar(struct fuzz_in *in)
{
    uint32_t lo = fuzz_u32(in), hi = fuzz_u32(in);
    uint32_t lo_ones = fuzz_u32(in), hi_ones = fuzz_u32(in);
    struct pci_bar b;
    unsigned int n = pci_bar_decode(lo, hi, lo_ones, hi_ones, &b);

    FUZZ_ASSERT(n == 1 || n == 2);
    FUZZ_ASSERT((n == 2) == (!b.io && b.is64));
    FUZZ_ASSERT(!(b.size & (b.size - 1)));
    if ( b.io )
        FUZZ_ASSERT(b.size <= 0x10000 && b.addr <= 0xffff);
    else if ( !b.is64 )
        FUZZ_ASSERT(b.size <= (1ULL << 32) && b.addr <= 0xffffffffULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n = size < PCI_CFG_SIZE ? size : PCI_CFG_SIZE;
    uint8_t *cfg = calloc(1, PCI_CFG_SIZE);
    struct fuzz_in in = { data + n, size - n };
    unsigned int id;

    memcpy(cfg, data, n);
    for ( id = 0; id < 256; id++ )
        walk(cfg, id);
    while ( in.left )
        bar(&in);
    free(cfg);
    return 0;
}
