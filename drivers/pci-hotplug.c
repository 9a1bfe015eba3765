/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Devices the host adds to the running VM (QEMU's device_add, libvirt's
 * attach-disk and attach-interface), through the ACPI PCI hotplug
 * interface QEMU gives its pc (PIIX4) machine, which a guest OS otherwise
 * drives from the DSDT's AML (QEMU's ACPI PCI hotplug specification):
 * GPE 1 says a slot changed; with bus 0 selected (BSEL 0), the "up"
 * register has a bit for each slot a device came into, "down" for each
 * one the host wants to take away.  A new device is scanned and offered
 * to the drivers as at boot; what they register reaches the backends
 * through the block and network interfaces' hooks.  A device the host
 * wants back goes to the same users through the interfaces' remove
 * hooks: once each disk and NIC on it is given back (the guest's
 * frontend closed, nothing in flight, the device stopped), the slot's
 * bit in the eject register has QEMU take it (xl block-detach's and
 * network-detach's order; a disk's frontend that never closes loses it
 * after 10 s, backends/blk/).
 */
#include "arch/x86/acpi.h"
#include "arch/x86/io.h"
#include "drivers/block.h"
#include "drivers/drivers.h"
#include "drivers/net.h"
#include "drivers/pci.h"
#include "shim/console.h"
#include "shim/softirq.h"

#define PIIX4_HOST_BRIDGE   0x1237      /* 8086:1237, QEMU's i440FX */
#define PCIHP_GPE           1
#define PCIHP_BASE          0xae00
#define PCIHP_UP            0x00        /* 32 bits: a slot each */
#define PCIHP_DOWN          0x04
#define PCIHP_EJ            0x08        /* a slot's bit: take it away */
#define PCIHP_SEL           0x10        /* the bus looked at (BSEL) */

void pci_hold(struct pci_dev *d)
{
    d->holds++;
}

/*
 * Slot @slot's functions all asked for and given back: each one quiet
 * (MSI-X masked, no decoding or bus mastering), its entry free, then the
 * eject that has QEMU take the device away.
 */
static void slot_check(unsigned int slot)
{
    unsigned int i, cap;
    struct pci_dev *d;

    for ( i = 0; i < pci_nr_devs; i++ )
    {
        d = &pci_devs[i];
        if ( pci_in_slot(d, slot) && (!d->removing || d->holds) )
            return;
    }
    for ( i = 0; i < pci_nr_devs; i++ )
    {
        d = &pci_devs[i];
        if ( !pci_in_slot(d, slot) )
            continue;
        if ( (cap = d->msix_cap) )
            pci_conf_write16(d, cap + PCI_MSIX_FLAGS,
                             pci_conf_read16(d, cap + PCI_MSIX_FLAGS) |
                             PCI_MSIX_FLAGS_MASKALL);
        pci_conf_write16(d, PCI_COMMAND, 0);
        d->gone = true;
    }
    outl(1u << slot, PCIHP_BASE + PCIHP_EJ);
    printk("PCI: 00:%02x: given back to the host\n", slot);
}

void pci_unhold(struct pci_dev *d)
{
    ASSERT(d->holds);
    if ( !--d->holds && d->removing )
        slot_check(d->dev);
}

/*
 * The host asks for slot @slot: each function's disks and NICs to their
 * users, which give them back once the guest has let them go (an eject
 * follows the last); a function nothing was registered on goes at once.
 */
static void slot_remove(unsigned int slot)
{
    unsigned int i;
    struct pci_dev *d;
    bool asked = false;

    for ( i = 0; i < pci_nr_devs; i++ )
    {
        d = &pci_devs[i];
        if ( !pci_in_slot(d, slot) || d->removing )
            continue;
        d->removing = asked = true;
        blk_remove_pci(d);
        net_remove_pci(d);
    }
    if ( asked )
    {
        printk("PCI: 00:%02x: the host asks for it back\n", slot);
        slot_check(slot);
    }
}

static void pci_hotplug_softirq(void)
{
    uint32_t up, down;
    unsigned int slot, n;

    outl(0, PCIHP_BASE + PCIHP_SEL);    /* bus 0 */
    up = inl(PCIHP_BASE + PCIHP_UP);
    down = inl(PCIHP_BASE + PCIHP_DOWN);
    if ( up == ~0u && down == ~0u )
        return;                         /* no registers there: not QEMU's */
    for ( slot = 0; slot < 32; slot++ )
    {
        /* A slot known already, or empty again, adds nothing. */
        if ( (up & (1u << slot)) && (n = pci_scan_slot(slot)) )
            printk("PCI: 00:%02x: %u function%s added by the host\n", slot,
                   n, n == 1 ? "" : "s");
        /* QEMU keeps the bit until the eject: asked for once. */
        if ( down & (1u << slot) )
            slot_remove(slot);
    }
}

void pci_hotplug_init(void)
{
    struct pci_dev *d = pci_nr_devs ? &pci_devs[0] : NULL;

    /* QEMU's pc machine: the i440FX host bridge at 00:00.0. */
    if ( !d || d->bus || d->dev || d->vendor != 0x8086 ||
         d->device != PIIX4_HOST_BRIDGE )
        return;
    open_softirq(PCI_HOTPLUG_SOFTIRQ, pci_hotplug_softirq);
    if ( !acpi_sci_enable_gpe(PCIHP_GPE, PCI_HOTPLUG_SOFTIRQ) )
    {
        printk(XENLOG_WARNING "PCI: no SCI: devices the host adds are "
               "not seen\n");
        return;
    }
    printk("PCI: devices the host adds to bus 0 are taken (ACPI PCI "
           "hotplug, GPE %u)\n", PCIHP_GPE);
}
