/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Devices the host adds to the running VM (QEMU's device_add, libvirt's
 * attach-disk and attach-interface), through QEMU's ACPI PCI hotplug
 * interface, which a guest OS otherwise drives from the DSDT's AML (QEMU's
 * ACPI PCI hotplug specification): GPE 1 says a slot changed; with a
 * bus's selector (BSEL) written, the "up" register has a bit for each of
 * its slots a device came into, "down" for each one the host wants to
 * take away.  Which buses take it, and by which selector, the DSDT says
 * (arch/x86/acpi-pcihp.c): bus 0 on the pc machine; q35's PCIe root ports
 * from QEMU 6.1 on.  PCIe ports the DSDT does not name use their native
 * hot-plug (pcie-hotplug.c).  Either way a new device is scanned and
 * offered to the drivers as at boot; what they register reaches the
 * backends through the block and network interfaces' hooks.  A device
 * the host wants back goes to the same users through the interfaces'
 * remove hooks: once each disk and NIC on it is given back (the guest's
 * frontend closed, nothing in flight, the device stopped), the slot is
 * ejected (its bit in the eject register, or its port's power turned
 * off) and QEMU takes it (xl block-detach's and network-detach's order;
 * a disk's frontend that never closes loses it after 10 s,
 * backends/blk/).
 */
#include "arch/x86/acpi.h"
#include "arch/x86/io.h"
#include "drivers/block.h"
#include "drivers/dma.h"
#include "drivers/drivers.h"
#include "drivers/net.h"
#include "drivers/pci.h"
#include "drivers/pci-hotplug.h"
#include "shim/console.h"
#include "shim/frame.h"
#include "shim/softirq.h"
#include "shim/timer.h"

#define PCIHP_GPE           1
#define PCIHP_UP            0x00        /* 32 bits: a slot each */
#define PCIHP_DOWN          0x04
#define PCIHP_EJ            0x08        /* a slot's bit: take it away */
#define PCIHP_SEL           0x10        /* the bus looked at (BSEL) */

/* The buses ACPI hot-plugs, each with its selector: bus 0, the bridges'. */
static struct {
    unsigned int bsel, bus;
} acpi_buses[1 + ARRAY_SIZE(acpi_pcihp.bridge)];
static unsigned int nr_acpi_buses;
static uint16_t pcihp_base;

/*
 * What a removed function's driver took, given back a second after the
 * function was quieted: by then no interrupt it sent before is still on
 * its way to a handler, no softirq still runs on a pointer it read
 * before the device left its registry.
 */
#define GIVE_BACK_NS        1000000000ULL

static struct {
    unsigned int owner;                 /* 0: a free entry */
    uint64_t vectors[PCI_VECTOR_WORDS], at;
    char name[8];
} to_free[16];
static struct timer give_back_timer;

static void give_back(void *data)
{
    unsigned int i, v, n;
    unsigned long frames;
    uint64_t next = 0;

    (void)data;
    for ( i = 0; i < ARRAY_SIZE(to_free); i++ )
    {
        if ( !to_free[i].owner )
            continue;
        if ( to_free[i].at > NOW() )
        {
            next = next && next < to_free[i].at ? next : to_free[i].at;
            continue;
        }
        for ( v = 0, n = 0; v < 64 * PCI_VECTOR_WORDS; v++ )
            if ( to_free[i].vectors[v / 64] & (1ULL << (v % 64)) )
            {
                vector_free(DEVICE_VECTOR_FIRST + v);
                n++;
            }
        frames = dma_free_owner(to_free[i].owner);
        printk("PCI: %s: its driver's %lu KiB and %u vector%s freed\n",
               to_free[i].name, frames * (PAGE_SIZE / 1024), n,
               n == 1 ? "" : "s");
        to_free[i].owner = 0;
    }
    if ( next )
        set_timer(&give_back_timer, next);
}

/*
 * @d, taken away, gives back what its driver took once the driver let
 * it go (it stopped the device); one whose driver never held it (a
 * failed probe, a device no driver takes) keeps it: nothing says the
 * driver is done with it.
 */
static void give_back_later(const struct pci_dev *d)
{
    unsigned int i;

    if ( !d->given_back )
        return;
    for ( i = 0; i < ARRAY_SIZE(to_free) && to_free[i].owner; i++ )
        continue;
    if ( i == ARRAY_SIZE(to_free) )
        return;                         /* kept: sixteen already wait */
    to_free[i].owner = d->owner;
    memcpy(to_free[i].vectors, d->vectors, sizeof(d->vectors));
    to_free[i].at = NOW() + GIVE_BACK_NS;
    pci_name(d, to_free[i].name);
    if ( !timer_is_active(&give_back_timer) ||
         give_back_timer.expires > to_free[i].at )
        set_timer(&give_back_timer, to_free[i].at);
}

void pci_hold(struct pci_dev *d)
{
    d->holds++;
}

/* Slot @dev of a bus ACPI hot-plugs ejected; false if not such a bus. */
static bool acpi_eject(unsigned int bus, unsigned int dev)
{
    unsigned int i;

    for ( i = 0; i < nr_acpi_buses; i++ )
        if ( acpi_buses[i].bus == bus )
        {
            outl(acpi_buses[i].bsel, pcihp_base + PCIHP_SEL);
            outl(1u << dev, pcihp_base + PCIHP_EJ);
            return true;
        }
    return false;
}

/*
 * Slot @dev of bus @bus has its functions all asked for and given back:
 * each one quiet (MSI-X masked, no decoding or bus mastering), its entry
 * free, then the eject that has QEMU take the device away.
 */
static void slot_check(unsigned int bus, unsigned int dev)
{
    unsigned int i, cap;
    struct pci_dev *d;

    for ( i = 0; i < pci_nr_devs; i++ )
    {
        d = &pci_devs[i];
        if ( pci_in_slot(d, bus, dev) && (!d->removing || d->holds) )
            return;
    }
    for ( i = 0; i < pci_nr_devs; i++ )
    {
        d = &pci_devs[i];
        if ( !pci_in_slot(d, bus, dev) )
            continue;
        if ( (cap = d->msix_cap) )
            pci_conf_write16(d, cap + PCI_MSIX_FLAGS,
                             pci_conf_read16(d, cap + PCI_MSIX_FLAGS) |
                             PCI_MSIX_FLAGS_MASKALL);
        pci_conf_write16(d, PCI_COMMAND, 0);
        d->gone = true;
        give_back_later(d);
    }
    if ( !acpi_eject(bus, dev) )
        pcie_slot_eject(bus);
    printk("PCI: %02x:%02x: given back to the host\n", bus, dev);
}

void pci_unhold(struct pci_dev *d)
{
    ASSERT(d->holds);
    if ( --d->holds )
        return;
    d->given_back = true;
    if ( d->removing )
        slot_check(d->bus, d->dev);
}

void pci_slot_add(unsigned int bus, unsigned int dev)
{
    unsigned int n = pci_scan_slot(bus, dev);

    if ( n )
        printk("PCI: %02x:%02x: %u function%s added by the host\n", bus, dev,
               n, n == 1 ? "" : "s");
}

/*
 * The host asks for slot @dev of bus @bus: each function's disks and NICs
 * to their users, which give them back once the guest has let them go
 * (an eject follows the last); a function nothing was registered on goes
 * at once.
 */
void pci_slot_remove(unsigned int bus, unsigned int dev)
{
    unsigned int i;
    struct pci_dev *d;
    bool asked = false;

    for ( i = 0; i < pci_nr_devs; i++ )
    {
        d = &pci_devs[i];
        if ( !pci_in_slot(d, bus, dev) || d->removing )
            continue;
        d->removing = asked = true;
        blk_remove_pci(d);
        net_remove_pci(d);
    }
    if ( asked )
    {
        printk("PCI: %02x:%02x: the host asks for it back\n", bus, dev);
        slot_check(bus, dev);
    }
}

/*
 * Each bus's slots: "up" (which ICH9's interface clears as it is read,
 * PIIX4's keeps until the next event) and "down" (kept until the eject).
 */
static void acpi_hotplug_events(void)
{
    uint32_t up, down;
    unsigned int i, slot, bus;

    for ( i = 0; i < nr_acpi_buses; i++ )
    {
        bus = acpi_buses[i].bus;
        outl(acpi_buses[i].bsel, pcihp_base + PCIHP_SEL);
        up = inl(pcihp_base + PCIHP_UP);
        down = inl(pcihp_base + PCIHP_DOWN);
        if ( up == ~0u && down == ~0u )
            return;                     /* no registers there: not QEMU's */
        for ( slot = 0; slot < 32; slot++ )
        {
            /* A slot known already, or empty again, adds nothing. */
            if ( up & (1u << slot) )
                pci_slot_add(bus, slot);
            /* QEMU keeps the bit until the eject: asked for once. */
            if ( down & (1u << slot) )
                pci_slot_remove(bus, slot);
        }
    }
}

static void pci_hotplug_softirq(void)
{
    acpi_hotplug_events();
    pcie_hotplug_events();
}

static void acpi_bus(unsigned int bsel, unsigned int bus)
{
    if ( nr_acpi_buses == ARRAY_SIZE(acpi_buses) )
        return;
    acpi_buses[nr_acpi_buses].bsel = bsel;
    acpi_buses[nr_acpi_buses].bus = bus;
    nr_acpi_buses++;
}

/*
 * The buses the DSDT gives a selector: bus 0's, and each bridge's (found
 * on bus 0 by its _ADR) secondary bus, which native hot-plug then leaves
 * alone; then GPE 1 on.
 */
static void acpi_hotplug_init(void)
{
    unsigned int i, j, dev, fn;
    struct pci_dev *d;
    char name[8];

    if ( !(pcihp_base = acpi_pcihp.base) )
        return;
    if ( acpi_pcihp.root_bsel >= 0 )
        acpi_bus(acpi_pcihp.root_bsel, 0);
    for ( i = 0; i < acpi_pcihp.nr; i++ )
    {
        dev = acpi_pcihp.bridge[i].adr >> 16;
        fn = acpi_pcihp.bridge[i].adr & 0xffff;
        for ( j = 0; j < pci_nr_devs; j++ )
        {
            d = &pci_devs[j];
            if ( !pci_in_slot(d, 0, dev) || d->fn != fn ||
                 d->header_type != PCI_HEADER_BRIDGE )
                continue;
            d->hotplug = false;         /* ACPI's, not the port's own */
            acpi_bus(acpi_pcihp.bridge[i].bsel, d->cfg[PCI_SECONDARY_BUS]);
            printk("PCI: %s: hot-plug bus %02x through ACPI (BSEL %u)\n",
                   pci_name(d, name), d->cfg[PCI_SECONDARY_BUS],
                   acpi_pcihp.bridge[i].bsel);
        }
    }
    if ( !nr_acpi_buses )
        return;
    if ( !acpi_sci_enable_gpe(PCIHP_GPE, PCI_HOTPLUG_SOFTIRQ) )
    {
        nr_acpi_buses = 0;
        printk(XENLOG_WARNING "PCI: no SCI: devices the host adds are "
               "not seen\n");
        return;
    }
    printk("PCI: devices the host adds are taken on %u bus%s (ACPI PCI "
           "hotplug at %#x, GPE %u)\n", nr_acpi_buses,
           nr_acpi_buses == 1 ? "" : "es", pcihp_base, PCIHP_GPE);
}

void pci_hotplug_init(void)
{
    init_timer(&give_back_timer, give_back, NULL, 0);
    open_softirq(PCI_HOTPLUG_SOFTIRQ, pci_hotplug_softirq);
    acpi_hotplug_init();
    pcie_hotplug_init();
}
