/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of PCI configuration-space decoding (drivers/pci-cap.c):
 * the capability list walked over a 256-byte image (QEMU's virtio-blk
 * layout, the next one of a type, reserved low bits, pointers into the
 * header, loops walked by @from, no list at all), and BAR types and
 * sizes from their all-ones read-back (32- and 64-bit memory, above
 * 4 GiB, I/O, absent, address bits that don't run contiguously), and a
 * bridge's memory windows (open, closed as qboot leaves them, as reset,
 * 64-bit).
 */
#include "tests/unit/unit.h"
#include "../../drivers/pci-cap.c"

static uint8_t cfg[PCI_CFG_SIZE];

static void cap(unsigned int at, uint8_t id, uint8_t next)
{
    cfg[at] = id;
    cfg[at + 1] = next;
}

static void start(uint8_t first)
{
    memset(cfg, 0, sizeof(cfg));
    cfg[PCI_STATUS] = PCI_STATUS_CAP_LIST;
    cfg[PCI_CAP_PTR] = first;
}

/* As QEMU lays out a modern virtio-blk: MSI-X, then five vendor caps. */
static void test_virtio_layout(void)
{
    unsigned int at = 0, n = 0, seen[8];

    start(0x98);
    cap(0x98, PCI_CAP_ID_MSIX, 0x84);
    cap(0x84, PCI_CAP_ID_VNDR, 0x70);
    cap(0x70, PCI_CAP_ID_VNDR, 0x60);
    cap(0x60, PCI_CAP_ID_VNDR, 0x50);
    cap(0x50, PCI_CAP_ID_VNDR, 0x40);
    cap(0x40, PCI_CAP_ID_VNDR, 0x00);
    CHECK_EQ(pci_cap_find(cfg, 0, PCI_CAP_ID_MSIX), 0x98);
    while ( (at = pci_cap_find(cfg, at, PCI_CAP_ID_VNDR)) && n < 8 )
        seen[n++] = at;
    CHECK_EQ(n, 5);
    CHECK_EQ(seen[0], 0x84);
    CHECK_EQ(seen[4], 0x40);
    CHECK_EQ(pci_cap_find(cfg, 0, 0x05), 0);        /* no MSI */
}

static void test_no_list(void)
{
    start(0x40);
    cap(0x40, PCI_CAP_ID_MSIX, 0);
    cfg[PCI_STATUS] = 0;
    CHECK_EQ(pci_cap_find(cfg, 0, PCI_CAP_ID_MSIX), 0);
}

static void test_reserved_bits(void)
{
    start(0x43);                    /* low two bits are reserved */
    cap(0x40, PCI_CAP_ID_VNDR, 0x52);
    cap(0x50, PCI_CAP_ID_MSIX, 0);
    CHECK_EQ(pci_cap_find(cfg, 0, PCI_CAP_ID_MSIX), 0x50);
}

static void test_hostile(void)
{
    unsigned int at = 0, n = 0;

    /* A loop ends, never found. */
    start(0x40);
    cap(0x40, PCI_CAP_ID_VNDR, 0x50);
    cap(0x50, PCI_CAP_ID_VNDR, 0x40);
    CHECK_EQ(pci_cap_find(cfg, 0, PCI_CAP_ID_MSIX), 0);
    /* A walk by @from sees each once, then ends (it went round before). */
    while ( (at = pci_cap_find(cfg, at, PCI_CAP_ID_VNDR)) && n < 8 )
        n++;
    CHECK_EQ(n, 2);
    CHECK_EQ(pci_cap_find(cfg, 0x50, PCI_CAP_ID_VNDR), 0);
    /* One pointing at itself. */
    start(0x60);
    cap(0x60, PCI_CAP_ID_VNDR, 0x60);
    CHECK_EQ(pci_cap_find(cfg, 0, PCI_CAP_ID_VNDR), 0x60);
    CHECK_EQ(pci_cap_find(cfg, 0x60, PCI_CAP_ID_VNDR), 0);
    /* Into the header: the walk ends. */
    start(0x40);
    cap(0x40, PCI_CAP_ID_VNDR, 0x10);
    CHECK_EQ(pci_cap_find(cfg, 0x40, PCI_CAP_ID_VNDR), 0);
    /* The last byte: the next pointer would be past the image. */
    start(0xff);
    CHECK_EQ(pci_cap_find(cfg, 0, 0xff), 0);
    start(0xfc);
    cap(0xfc, PCI_CAP_ID_MSIX, 0xfc);
    CHECK_EQ(pci_cap_find(cfg, 0, PCI_CAP_ID_MSIX), 0xfc);
    CHECK_EQ(pci_cap_find(cfg, 0xfc, PCI_CAP_ID_VNDR), 0);
}

static void test_bars(void)
{
    struct pci_bar b;

    /* 32-bit memory, 4 KiB. */
    CHECK_EQ(pci_bar_decode(0xfebf1000, 0, 0xfffff000, 0, &b), 1);
    CHECK(!b.io && !b.is64 && !b.prefetch);
    CHECK_EQ(b.addr, 0xfebf1000);
    CHECK_EQ(b.size, 0x1000);

    /* 64-bit prefetchable, 16 KiB, placed above 4 GiB. */
    CHECK_EQ(pci_bar_decode(0x0000000c, 0x8, 0xffffc00c, 0xffffffff, &b), 2);
    CHECK(b.is64 && b.prefetch && !b.io);
    CHECK_EQ(b.addr, 0x800000000ULL);
    CHECK_EQ(b.size, 0x4000);

    /* 64-bit, 8 GiB: the size is in the upper half. */
    CHECK_EQ(pci_bar_decode(0x4, 0, 0x4, 0xfffffffe, &b), 2);
    CHECK_EQ(b.size, 0x200000000ULL);

    /* I/O, 32 ports. */
    CHECK_EQ(pci_bar_decode(0xc041, 0, 0xffffffe1, 0, &b), 1);
    CHECK(b.io);
    CHECK_EQ(b.addr, 0xc040);
    CHECK_EQ(b.size, 0x20);

    /*
     * Address bits that don't run up contiguously (a broken device): the
     * lowest one that stays set is the size, a power of two, as Linux's
     * pci_size() takes it; so is a 64-bit BAR whose upper half reads 0.
     */
    CHECK_EQ(pci_bar_decode(0, 0, 0xfff0f000, 0, &b), 1);
    CHECK_EQ(b.size, 0x1000);
    CHECK_EQ(pci_bar_decode(0x4, 0, 0xfffff004, 0, &b), 2);
    CHECK_EQ(b.size, 0x1000);
    CHECK_EQ(pci_bar_decode(0x1, 0, 0xf0f1, 0, &b), 1);
    CHECK_EQ(b.size, 0x10);

    /* Not implemented: reads back 0. */
    CHECK_EQ(pci_bar_decode(0, 0, 0, 0, &b), 1);
    CHECK_EQ(b.size, 0);
    CHECK_EQ(pci_bar_decode(0x4, 0, 0x4, 0, &b), 2);
    CHECK_EQ(b.size, 0);
}

static void put16(unsigned int reg, uint16_t v)
{
    memcpy(&cfg[reg], &v, 2);
}

static void put32(unsigned int reg, uint32_t v)
{
    memcpy(&cfg[reg], &v, 4);
}

static void test_windows(void)
{
    struct pci_window mem, pref;

    /* SeaBIOS on a root port: 2 MiB of each, the prefetchable 64-bit. */
    memset(cfg, 0, sizeof(cfg));
    put16(PCI_MEMORY_BASE, 0xfe80);
    put16(PCI_MEMORY_LIMIT, 0xfe90);
    put16(PCI_PREF_MEMORY_BASE, 0xfe01);
    put16(PCI_PREF_MEMORY_LIMIT, 0xfe11);
    put32(PCI_PREF_BASE_UPPER32, 0x8);
    put32(PCI_PREF_LIMIT_UPPER32, 0x8);
    pci_bridge_windows(cfg, &mem, &pref);
    CHECK(pci_window_open(&mem) && pci_window_open(&pref));
    CHECK_EQ(mem.base, 0xfe800000);
    CHECK_EQ(mem.limit, 0xfe9fffff);
    CHECK_EQ(pref.base, 0x8fe000000ULL);
    CHECK_EQ(pref.limit, 0x8fe1fffffULL);

    /* A 32-bit prefetchable window ignores the upper registers. */
    put16(PCI_PREF_MEMORY_BASE, 0xe000);
    put16(PCI_PREF_MEMORY_LIMIT, 0xe000);
    pci_bridge_windows(cfg, &mem, &pref);
    CHECK_EQ(pref.base, 0xe0000000);
    CHECK_EQ(pref.limit, 0xe00fffff);

    /* qboot leaves both closed: base 0xfff00000, limit 0xfffff. */
    put16(PCI_MEMORY_BASE, 0xfff0);
    put16(PCI_MEMORY_LIMIT, 0x0000);
    put16(PCI_PREF_MEMORY_BASE, 0xfff1);
    put16(PCI_PREF_MEMORY_LIMIT, 0x0001);
    put32(PCI_PREF_BASE_UPPER32, 0);
    put32(PCI_PREF_LIMIT_UPPER32, 0);
    pci_bridge_windows(cfg, &mem, &pref);
    CHECK(!pci_window_open(&mem) && !pci_window_open(&pref));

    /* As reset, untouched by qboot: all 0, which would be the first MiB. */
    memset(cfg, 0, sizeof(cfg));
    pci_bridge_windows(cfg, &mem, &pref);
    CHECK_EQ(mem.base, 0);
    CHECK_EQ(mem.limit, 0xfffff);
    CHECK(!pci_window_open(&mem) && !pci_window_open(&pref));
}

int main(void)
{
    RUN(test_virtio_layout);
    RUN(test_no_list);
    RUN(test_reserved_bits);
    RUN(test_hostile);
    RUN(test_bars);
    RUN(test_windows);
    UNIT_EXIT();
}
