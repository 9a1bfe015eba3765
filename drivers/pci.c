/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PCI configuration space and enumeration: ECAM (PCIe 4.0 7.2.2) for the
 * buses the MCFG covers, else configuration mechanism #1 (PCI 3.0 3.2.2.3.2:
 * the address at 0xcf8, the data at 0xcfc); every bus reached from bus 0
 * through bridges, as firmware numbered them; BARs sized, never moved;
 * those firmware left unassigned (qboot assigns none) placed, behind a
 * bridge in its window, which the shim opens on a bus 0 bridge firmware
 * left closed.
 */
#include "arch/x86/acpi.h"
#include "arch/x86/io.h"
#include "drivers/dma.h"
#include "drivers/drivers.h"
#include "drivers/ioremap.h"
#include "drivers/pci.h"
#include "shim/console.h"
#include "shim/spinlock.h"

#define PCI_CONF_ADDR       0xcf8
#define PCI_CONF_DATA       0xcfc
#define  PCI_CONF_ENABLE    0x80000000u
#define PCI_MAX_DEVS        64
#define ECAM_BUS_SIZE       (1UL << 20)
#define ECAM_FN_SHIFT       12
/*
 * Where BARs that firmware left unassigned (qboot assigns none) go: above
 * any RAM QEMU puts below 4 GiB (pc at most 0xe0000000; q35 0xb0000000,
 * its ECAM next) and below the I/O APIC.
 */
#define PCI_MMIO_WINDOW_START 0xe0000000UL
#define PCI_MMIO_WINDOW_END   0xfec00000UL
/*
 * The memory window the shim opens on a bridge firmware left closed: at
 * least SeaBIOS's reserve for a hot-plug port (2 MiB), twice what the
 * devices behind it ask for.
 */
#define PCI_BRIDGE_WINDOW_MIN (2UL << 20)

struct pci_dev pci_devs[PCI_MAX_DEVS];
unsigned int pci_nr_devs;

/* Bus @n's ECAM, mapped as the scan reaches it (NULL: port I/O). */
static volatile uint8_t *ecam_bus[256];
static const struct acpi_ecam *ecam;    /* segment 0's MCFG entry */
/* The 0xcf8/0xcfc pair. */
static DEFINE_SPINLOCK(pci_conf_lock, LOCK_RANK_PCI_CONF);

static volatile uint8_t *ecam_addr(const struct pci_dev *d, unsigned int reg)
{
    volatile uint8_t *b = ecam_bus[d->bus];

    if ( !b )
        return NULL;
    return b + ((d->dev * 8u + d->fn) << ECAM_FN_SHIFT) + reg;
}

static void conf_select(const struct pci_dev *d, unsigned int reg)
{
    outl(PCI_CONF_ENABLE | d->bus << 16 | d->dev << 11 | d->fn << 8 |
         (reg & 0xfc), PCI_CONF_ADDR);
}

uint32_t pci_conf_read32(const struct pci_dev *d, unsigned int reg)
{
    volatile uint8_t *p = ecam_addr(d, reg);
    unsigned long flags;
    uint32_t v;

    if ( p )
        return mmio_read32(p);
    spin_lock_irqsave(&pci_conf_lock, flags);
    conf_select(d, reg);
    v = inl(PCI_CONF_DATA);
    spin_unlock_irqrestore(&pci_conf_lock, flags);
    return v;
}

uint16_t pci_conf_read16(const struct pci_dev *d, unsigned int reg)
{
    return pci_conf_read32(d, reg & ~3u) >> (8 * (reg & 2));
}

uint8_t pci_conf_read8(const struct pci_dev *d, unsigned int reg)
{
    return pci_conf_read32(d, reg & ~3u) >> (8 * (reg & 3));
}

void pci_conf_write32(const struct pci_dev *d, unsigned int reg, uint32_t v)
{
    volatile uint8_t *p = ecam_addr(d, reg);
    unsigned long flags;

    if ( p )
    {
        mmio_write32(p, v);
        return;
    }
    spin_lock_irqsave(&pci_conf_lock, flags);
    conf_select(d, reg);
    outl(v, PCI_CONF_DATA);
    spin_unlock_irqrestore(&pci_conf_lock, flags);
}

void pci_conf_write16(const struct pci_dev *d, unsigned int reg, uint16_t v)
{
    volatile uint8_t *p = ecam_addr(d, reg);
    unsigned long flags;

    if ( p )
    {
        mmio_write16(p, v);
        return;
    }
    spin_lock_irqsave(&pci_conf_lock, flags);
    conf_select(d, reg);
    outw(v, PCI_CONF_DATA + (reg & 2));
    spin_unlock_irqrestore(&pci_conf_lock, flags);
}

const char *pci_name(const struct pci_dev *d, char *buf)
{
    snprintf(buf, 8, "%02x:%02x.%u", d->bus, d->dev, d->fn);
    return buf;
}

/* Size every BAR of a function (@n of them), decoding off meanwhile. */
static void size_bars(struct pci_dev *d, unsigned int n)
{
    uint16_t cmd = pci_conf_read16(d, PCI_COMMAND);
    unsigned int i, reg;

    pci_conf_write16(d, PCI_COMMAND,
                     cmd & ~(PCI_COMMAND_IO | PCI_COMMAND_MEMORY));
    for ( i = 0; i < n; )
    {
        uint32_t lo, hi = 0, lo_ones, hi_ones = 0;
        bool is64;

        reg = PCI_BAR0 + 4 * i;
        lo = pci_conf_read32(d, reg);
        is64 = !(lo & PCI_BAR_IO) &&
               (lo & PCI_BAR_MEM_TYPE_MASK) == PCI_BAR_MEM_64 && i + 1 < n;
        pci_conf_write32(d, reg, ~0u);
        lo_ones = pci_conf_read32(d, reg);
        pci_conf_write32(d, reg, lo);
        if ( is64 )
        {
            hi = pci_conf_read32(d, reg + 4);
            pci_conf_write32(d, reg + 4, ~0u);
            hi_ones = pci_conf_read32(d, reg + 4);
            pci_conf_write32(d, reg + 4, hi);
        }
        i += pci_bar_decode(lo, hi, lo_ones, hi_ones, &d->bar[i]);
    }
    pci_conf_write16(d, PCI_COMMAND, cmd);
}

static void scan_bus(unsigned int bus);

/* Each function found, its driver's memory counted under a number. */
static unsigned int owners;

/* @d to the drivers, what they allocate for it counted as its. */
static void probe_function(struct pci_dev *d)
{
    unsigned int was = dma_owner_set(d->owner);

    d->fresh = false;
    drivers_probe(d);
    dma_owner_set(was);
}

/*
 * A bridge: its BARs (a PCIe port's MSI-X table), its windows, whether it
 * is a PCIe port whose slot takes hot-plug (PCIe 4.0 7.5.3.9), and the
 * bus behind it, scanned.
 */
static void add_bridge(struct pci_dev *d)
{
    unsigned int cap = pci_cap_find(d->cfg, 0, PCI_CAP_ID_EXP);
    uint16_t flags, type;
    uint32_t sltcap;

    size_bars(d, PCI_NUM_BARS_BRIDGE);
    pci_bridge_windows(d->cfg, &d->mem, &d->pref);
    if ( cap )
    {
        d->exp_cap = cap;
        memcpy(&flags, &d->cfg[cap + PCI_EXP_FLAGS], 2);
        memcpy(&sltcap, &d->cfg[cap + PCI_EXP_SLTCAP], 4);
        type = (flags & PCI_EXP_FLAGS_TYPE) >> 4;
        d->hotplug = (type == PCI_EXP_TYPE_ROOT_PORT ||
                      type == PCI_EXP_TYPE_DOWNSTREAM) &&
                     (flags & PCI_EXP_FLAGS_SLOT) &&
                     (sltcap & PCI_EXP_SLTCAP_HPC);
    }
    if ( d->cfg[PCI_SECONDARY_BUS] > d->bus )   /* numbers only grow */
        scan_bus(d->cfg[PCI_SECONDARY_BUS]);
}

struct pci_dev *pci_bridge_of(unsigned int bus)
{
    unsigned int i;

    for ( i = 0; bus && i < pci_nr_devs; i++ )
        if ( !pci_devs[i].gone &&
             pci_devs[i].header_type == PCI_HEADER_BRIDGE &&
             pci_devs[i].cfg[PCI_SECONDARY_BUS] == bus )
            return &pci_devs[i];
    return NULL;
}

static void add_function(unsigned int bus, unsigned int dev, unsigned int fn)
{
    struct pci_dev *d;
    unsigned int i;

    /* A function the host took away leaves its entry for the next. */
    for ( i = 0; i < pci_nr_devs && !pci_devs[i].gone; i++ )
        continue;
    if ( i == PCI_MAX_DEVS )
    {
        printk(XENLOG_WARNING "PCI: more than %u functions; %02x:%02x.%u "
               "and later ones ignored\n", PCI_MAX_DEVS, bus, dev, fn);
        return;
    }
    d = &pci_devs[i];
    memset(d, 0, sizeof(*d));
    if ( i == pci_nr_devs )
        pci_nr_devs++;
    d->fresh = true;
    d->owner = ++owners;                /* an entry used again: a new one */
    d->bus = bus;
    d->dev = dev;
    d->fn = fn;
    for ( i = 0; i < PCI_CFG_SIZE; i += 4 )
    {
        uint32_t v = pci_conf_read32(d, i);

        memcpy(&d->cfg[i], &v, 4);
    }
    memcpy(&d->vendor, &d->cfg[PCI_VENDOR_ID], 2);
    memcpy(&d->device, &d->cfg[PCI_DEVICE_ID], 2);
    memcpy(&d->subsys, &d->cfg[PCI_SUBSYS_ID], 2);
    d->revision = d->cfg[PCI_REVISION];
    d->class = d->cfg[PCI_CLASS_DEVICE + 1] << 16 |
               d->cfg[PCI_CLASS_DEVICE] << 8 | d->cfg[PCI_CLASS_PROG];
    d->header_type = d->cfg[PCI_HEADER_TYPE] & PCI_HEADER_TYPE_MASK;
    d->irq_line = d->cfg[PCI_INTERRUPT_LINE];
    d->irq_pin = d->cfg[PCI_INTERRUPT_PIN];
    if ( d->header_type == 0 )
        size_bars(d, PCI_NUM_BARS);
    else if ( d->header_type == PCI_HEADER_BRIDGE )
        add_bridge(d);
}

static void scan_bus(unsigned int bus)
{
    struct pci_dev probe = { .bus = bus };
    unsigned int dev, fn, nr_fn;

    if ( ecam && bus >= ecam->bus_start && bus <= ecam->bus_end &&
         !ecam_bus[bus] )
        ecam_bus[bus] = ioremap(ecam->base + bus * ECAM_BUS_SIZE,
                                ECAM_BUS_SIZE);
    for ( dev = 0; dev < 32; dev++ )
    {
        probe.dev = dev;
        probe.fn = 0;
        if ( pci_conf_read16(&probe, PCI_VENDOR_ID) == 0xffff )
            continue;
        nr_fn = pci_conf_read8(&probe, PCI_HEADER_TYPE) &
                PCI_HEADER_MULTI_FN ? 8 : 1;
        for ( fn = 0; fn < nr_fn; fn++ )
        {
            probe.fn = fn;
            if ( pci_conf_read16(&probe, PCI_VENDOR_ID) != 0xffff )
                add_function(bus, dev, fn);
        }
    }
}

bool pci_slot_known(unsigned int bus, unsigned int dev)
{
    unsigned int i;

    for ( i = 0; i < pci_nr_devs; i++ )
        if ( pci_in_slot(&pci_devs[i], bus, dev) )
            return true;
    return false;
}

unsigned int pci_scan_slot(unsigned int bus, unsigned int dev)
{
    struct pci_dev probe = { .bus = bus, .dev = dev };
    unsigned int fn, nr_fn, i, n;

    if ( pci_slot_known(bus, dev) || dev >= 32 ||
         pci_conf_read16(&probe, PCI_VENDOR_ID) == 0xffff )
        return 0;
    nr_fn = pci_conf_read8(&probe, PCI_HEADER_TYPE) & PCI_HEADER_MULTI_FN
            ? 8 : 1;
    for ( fn = 0; fn < nr_fn; fn++ )
    {
        probe.fn = fn;
        if ( pci_conf_read16(&probe, PCI_VENDOR_ID) != 0xffff )
            add_function(bus, dev, fn);
    }
    for ( i = 0, n = 0; i < pci_nr_devs; i++ )
        if ( pci_devs[i].fresh )
        {
            probe_function(&pci_devs[i]);
            n++;
        }
    return n;
}

/* Whether bus @bus is @b's secondary bus or one behind it. */
static bool behind(const struct pci_dev *b, unsigned int bus)
{
    return bus >= b->cfg[PCI_SECONDARY_BUS] &&
           bus <= b->cfg[PCI_SUBORDINATE_BUS];
}

static bool overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
    return a < b + blen && b < a + alen;
}

/*
 * Whether [addr, addr + size) is taken for something on bus @bus: a BAR
 * firmware or we assigned, a window of a bridge that does not lead to
 * @bus, the ECAM.  A function the host took away takes nothing.
 */
static bool range_busy(uint64_t addr, uint64_t size, unsigned int bus)
{
    unsigned int i, b;

    for ( i = 0; i < pci_nr_devs; i++ )
    {
        const struct pci_dev *d = &pci_devs[i];

        if ( d->gone )
            continue;
        for ( b = 0; b < PCI_NUM_BARS; b++ )
        {
            const struct pci_bar *bar = &d->bar[b];

            if ( !bar->io && bar->addr && bar->size &&
                 overlaps(addr, size, bar->addr, bar->size) )
                return true;
        }
        if ( d->header_type != PCI_HEADER_BRIDGE || behind(d, bus) )
            continue;
        if ( (pci_window_open(&d->mem) &&
              overlaps(addr, size, d->mem.base,
                       d->mem.limit - d->mem.base + 1)) ||
             (pci_window_open(&d->pref) &&
              overlaps(addr, size, d->pref.base,
                       d->pref.limit - d->pref.base + 1)) )
            return true;
    }
    return ecam && overlaps(addr, size, ecam->base,
                            (ecam->bus_end + 1UL) * ECAM_BUS_SIZE);
}

/*
 * A naturally aligned (@align) place for @size bytes on bus @bus within
 * [@lo, @hi], first fit from the bottom; 0 if none.
 */
static uint64_t place(uint64_t lo, uint64_t hi, uint64_t size,
                      uint64_t align, unsigned int bus)
{
    uint64_t addr;

    for ( addr = ROUNDUP(lo, align); addr >= lo && addr + size - 1 <= hi;
          addr += align )
        if ( !range_busy(addr, size, bus) )
            return addr;
    return 0;
}

/* Where a BAR @b of a function on bus @bus goes: 0 if nowhere. */
static uint64_t place_bar(const struct pci_bar *b, unsigned int bus)
{
    const struct pci_dev *br;
    uint64_t addr = 0;

    if ( !bus )
        return place(PCI_MMIO_WINDOW_START, PCI_MMIO_WINDOW_END - 1, b->size,
                     b->size, 0);
    if ( !(br = pci_bridge_of(bus)) )
        return 0;
    /* Prefetchable memory may sit in either window, the rest not. */
    if ( b->prefetch && pci_window_open(&br->pref) &&
         (b->is64 || br->pref.limit < (1ULL << 32)) )
        addr = place(br->pref.base, br->pref.limit, b->size, b->size, bus);
    if ( !addr && pci_window_open(&br->mem) )
        addr = place(br->mem.base, br->mem.limit, b->size, b->size, bus);
    return addr;
}

bool pci_assign_bars(struct pci_dev *d)
{
    unsigned int i;
    char name[8];

    for ( i = 0; i < PCI_NUM_BARS; i++ )
    {
        struct pci_bar *b = &d->bar[i];
        uint64_t addr;

        if ( b->io || b->addr || !b->size )
            continue;
        if ( !(addr = place_bar(b, d->bus)) )
        {
            printk(XENLOG_WARNING "PCI: %s BAR %u: no room for %#lx bytes%s\n",
                   pci_name(d, name), i, (unsigned long)b->size,
                   d->bus ? " in its bridge's window" : "");
            return false;
        }
        pci_conf_write32(d, PCI_BAR0 + 4 * i,
                         (uint32_t)addr |
                         (b->prefetch ? PCI_BAR_PREFETCH : 0) |
                         (b->is64 ? PCI_BAR_MEM_64 : 0));
        if ( b->is64 )
            pci_conf_write32(d, PCI_BAR0 + 4 * i + 4, addr >> 32);
        b->addr = addr;
        printk(XENLOG_DEBUG "PCI: %s BAR %u at %#lx, %#lx bytes\n",
               pci_name(d, name), i, (unsigned long)addr,
               (unsigned long)b->size);
    }
    return true;
}

/*
 * A bridge on bus 0 whose memory window firmware left closed (qboot
 * opens none) gets one from the hole: room for twice the BARs left
 * unassigned behind it, at least PCI_BRIDGE_WINDOW_MIN (what a hot-plug
 * port reserves under SeaBIOS), so that they, and a device the host adds
 * behind it later, can be placed.
 */
static void open_window(struct pci_dev *br)
{
    uint64_t need = 0, size = PCI_BRIDGE_WINDOW_MIN, addr;
    unsigned int i, b;
    char name[8];

    for ( i = 0; i < pci_nr_devs; i++ )
        for ( b = 0; pci_devs[i].header_type == 0 && b < PCI_NUM_BARS; b++ )
        {
            const struct pci_bar *bar = &pci_devs[i].bar[b];

            if ( behind(br, pci_devs[i].bus) && !bar->io && !bar->addr )
                need += bar->size;
        }
    while ( size < 2 * need && size < (PCI_MMIO_WINDOW_END -
                                       PCI_MMIO_WINDOW_START) / 2 )
        size *= 2;
    if ( !(addr = place(PCI_MMIO_WINDOW_START, PCI_MMIO_WINDOW_END - 1, size,
                        size, 0)) )
    {
        printk(XENLOG_WARNING "PCI: %s: no room for a %#lx-byte window\n",
               pci_name(br, name), (unsigned long)size);
        return;
    }
    pci_conf_write16(br, PCI_MEMORY_BASE, (addr >> 16) & 0xfff0u);
    pci_conf_write16(br, PCI_MEMORY_LIMIT, ((addr + size - 1) >> 16) & 0xfff0u);
    br->mem.base = addr;
    br->mem.limit = addr + size - 1;
    printk(XENLOG_DEBUG "PCI: %s: memory window %#lx-%#lx opened\n",
           pci_name(br, name), (unsigned long)addr,
           (unsigned long)br->mem.limit);
}

volatile void *pci_map_bar(struct pci_dev *d, unsigned int i)
{
    struct pci_bar *b = &d->bar[i];

    if ( i >= PCI_NUM_BARS || b->io || !b->addr || !b->size )
        return NULL;
    return ioremap(b->addr, b->size);
}

void pci_enable(struct pci_dev *d, bool msix)
{
    uint16_t cmd = pci_conf_read16(d, PCI_COMMAND);
    struct pci_dev *br;
    unsigned int depth;

    cmd |= PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER;
    if ( msix )
        cmd |= PCI_COMMAND_INTX_OFF;
    pci_conf_write16(d, PCI_COMMAND, cmd);
    /* Bus numbers grow away from bus 0: the walk up ends. */
    for ( br = pci_bridge_of(d->bus), depth = 0; br && depth < 256;
          br = pci_bridge_of(br->bus), depth++ )
    {
        cmd = pci_conf_read16(br, PCI_COMMAND);
        if ( (cmd & (PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER)) !=
             (PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER) )
            pci_conf_write16(br, PCI_COMMAND, cmd | PCI_COMMAND_MEMORY |
                                              PCI_COMMAND_MASTER);
    }
}

void pci_init(void)
{
    unsigned int i;
    char name[8];

    for ( i = 0; i < acpi_mcfg.nr; i++ )
        if ( !acpi_mcfg.ecam[i].segment && !acpi_mcfg.ecam[i].bus_start )
            ecam = &acpi_mcfg.ecam[i];
    scan_bus(0);
    printk("PCI: %u functions, configuration through %s\n", pci_nr_devs,
           ecam ? "ECAM (MCFG)" : "ports 0xcf8/0xcfc");
    if ( ecam )
        printk("PCI: ECAM at %#lx, buses %02x-%02x\n",
               (unsigned long)ecam->base, ecam->bus_start, ecam->bus_end);
    for ( i = 0; i < pci_nr_devs; i++ )
        if ( !pci_devs[i].bus &&
             pci_devs[i].header_type == PCI_HEADER_BRIDGE &&
             !pci_window_open(&pci_devs[i].mem) )
            open_window(&pci_devs[i]);
    for ( i = 0; i < pci_nr_devs; i++ )
    {
        struct pci_dev *d = &pci_devs[i];

        printk(XENLOG_DEBUG "PCI: %s %04x:%04x class %06x\n",
               pci_name(d, name), d->vendor, d->device, d->class);
        probe_function(d);
    }
}
