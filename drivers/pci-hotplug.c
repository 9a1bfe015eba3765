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
 * through the block and network interfaces' hooks.  A removal is not
 * done: the device stays (QEMU waits for an eject that never comes) and
 * the log says so.
 */
#include "arch/x86/acpi.h"
#include "arch/x86/io.h"
#include "drivers/drivers.h"
#include "drivers/pci.h"
#include "shim/console.h"
#include "shim/softirq.h"

#define PIIX4_HOST_BRIDGE   0x1237      /* 8086:1237, QEMU's i440FX */
#define PCIHP_GPE           1
#define PCIHP_BASE          0xae00
#define PCIHP_UP            0x00        /* 32 bits: a slot each */
#define PCIHP_DOWN          0x04
#define PCIHP_SEL           0x10        /* the bus looked at (BSEL) */

static void pci_hotplug_softirq(void)
{
    static uint32_t refused;            /* removals said no to, once each */
    uint32_t up, down, asked;
    unsigned int slot, n;

    outl(0, PCIHP_BASE + PCIHP_SEL);    /* bus 0 */
    up = inl(PCIHP_BASE + PCIHP_UP);
    down = inl(PCIHP_BASE + PCIHP_DOWN);
    if ( up == ~0u && down == ~0u )
        return;                         /* no registers there: not QEMU's */
    /* QEMU keeps a slot's down bit until it is ejected: one line each. */
    asked = down & ~refused;
    refused = down & ~up;
    for ( slot = 0; slot < 32; slot++ )
    {
        /* A slot known already, or empty again, adds nothing. */
        if ( (up & (1u << slot)) && (n = pci_scan_slot(slot)) )
            printk("PCI: 00:%02x: %u function%s added by the host\n", slot,
                   n, n == 1 ? "" : "s");
        if ( asked & (1u << slot) )
            printk(XENLOG_WARNING "PCI: 00:%02x: the host asks to remove "
                   "it: not done, the device stays\n", slot);
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
