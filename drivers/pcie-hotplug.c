/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Devices the host adds behind a PCIe root or downstream port (QEMU's q35
 * machine, where libvirt puts every device on a pcie-root-port of its
 * own), through the port's native hot-plug controller (PCIe 4.0 6.7,
 * 7.5.3.9-11), as Linux's pciehp drives it.  QEMU's device_add sets
 * Presence Detect State and signals Presence Detect Changed and Attention
 * Button Pressed together; device_del signals the button alone.  So: a
 * card present in a slot the shim knows nothing in is an add (the slot's
 * power turned on first, the button's press that came with it dropped);
 * the button pressed on a slot with a known device asks for it back.
 * The eject, once every disk and NIC on it is given back, is the slot's
 * power turned off with its indicator off, which is when QEMU takes the
 * device (pcie_cap_slot_write_config()).  The port interrupts through
 * MSI-X (pcie-root-port) or MSI (ioh3420, xio3130-downstream).
 */
#include "drivers/pci.h"
#include "drivers/pci-hotplug.h"
#include "shim/console.h"
#include "shim/softirq.h"

#define PCIE_MAX_SLOTS  32
/* Passes over one slot's status in one softirq: events keep coming. */
#define PCIE_EVENT_PASSES 8

struct pcie_slot {
    struct pci_dev *port;
    unsigned int bus;           /* the port's secondary bus */
};

static struct pcie_slot slots[PCIE_MAX_SLOTS];
static unsigned int nr_slots;

static uint16_t slot_read(const struct pcie_slot *s, unsigned int reg)
{
    return pci_conf_read16(s->port, s->port->exp_cap + reg);
}

static void slot_write(const struct pcie_slot *s, unsigned int reg,
                       uint16_t v)
{
    pci_conf_write16(s->port, s->port->exp_cap + reg, v);
}

/* The slot's power and power indicator on (a no-op where already on). */
static void slot_power_on(const struct pcie_slot *s)
{
    uint16_t ctl = slot_read(s, PCI_EXP_SLTCTL);
    uint16_t on = (ctl & ~(PCI_EXP_SLTCTL_PCC | PCI_EXP_SLTCTL_PIC)) |
                  PCI_EXP_SLTCTL_PIC_ON;

    if ( on != ctl )
        slot_write(s, PCI_EXP_SLTCTL, on);
}

void pcie_slot_eject(unsigned int bus)
{
    unsigned int i;
    uint16_t ctl;

    for ( i = 0; i < nr_slots; i++ )
    {
        if ( slots[i].bus != bus )
            continue;
        ctl = slot_read(&slots[i], PCI_EXP_SLTCTL);
        slot_write(&slots[i], PCI_EXP_SLTCTL,
                   (ctl & ~PCI_EXP_SLTCTL_PIC) | PCI_EXP_SLTCTL_PIC_OFF |
                   PCI_EXP_SLTCTL_PCC);
    }
}

/*
 * The slot's events, each acknowledged by writing back exactly the bits
 * read (QEMU undoes a write that clears an event it had not set), until
 * none is left: a port signals again only once its status was clear.
 */
static void slot_events(const struct pcie_slot *s)
{
    unsigned int pass;
    uint16_t sta, ev;
    bool added = false;

    for ( pass = 0; pass < PCIE_EVENT_PASSES; pass++ )
    {
        sta = slot_read(s, PCI_EXP_SLTSTA);
        if ( sta == 0xffff || !(ev = sta & PCI_EXP_SLTSTA_EVENTS) )
            return;                     /* the port gone, or all done */
        slot_write(s, PCI_EXP_SLTSTA, ev);
        if ( !(sta & PCI_EXP_SLTSTA_PDS) )
        {
            /* Empty: the eject's own change, or the card pulled out. */
            if ( pci_slot_known(s->bus, 0) )
                pci_slot_remove(s->bus, 0);
        }
        else if ( !pci_slot_known(s->bus, 0) )
        {
            slot_power_on(s);
            pci_slot_add(s->bus, 0);
            added = true;
        }
        else if ( (ev & PCI_EXP_SLTSTA_ABP) && !added )
            pci_slot_remove(s->bus, 0);
    }
    printk(XENLOG_WARNING "PCI: %02x:00: slot events keep coming; the rest "
           "at the next interrupt\n", s->bus);
}

void pcie_hotplug_events(void)
{
    unsigned int i;

    for ( i = 0; i < nr_slots; i++ )
        slot_events(&slots[i]);
}

static void pcie_hotplug_irq(void *data)
{
    (void)data;
    raise_softirq(PCI_HOTPLUG_SOFTIRQ);
}

/*
 * A hot-plug port: its BAR placed (the MSI-X table), decoding and bus
 * mastering on (it forwards its slot's BARs and DMA and sends its own
 * MSIs), its interrupt message bound on CPU 0, then presence, button and
 * hot-plug interrupts enabled; events from before the shim are read.
 */
static void slot_init(struct pci_dev *port)
{
    struct pcie_slot *s = &slots[nr_slots];
    unsigned int msg, psn;
    uint16_t flags, ctl;
    const char *how;
    char name[8];

    if ( nr_slots == PCIE_MAX_SLOTS )
    {
        printk(XENLOG_WARNING "PCI: %s: more than %u hot-plug ports; "
               "devices added behind it are not seen\n",
               pci_name(port, name), PCIE_MAX_SLOTS);
        return;
    }
    s->port = port;
    s->bus = port->cfg[PCI_SECONDARY_BUS];
    flags = pci_conf_read16(port, port->exp_cap + PCI_EXP_FLAGS);
    msg = (flags & PCI_EXP_FLAGS_IRQ) >> 9;
    psn = pci_conf_read32(port, port->exp_cap + PCI_EXP_SLTCAP) >>
          PCI_EXP_SLTCAP_PSN_SHIFT;
    if ( !pci_assign_bars(port) )
        return;
    pci_enable(port, false);
    if ( pci_msix_init(port) &&
         pci_msix_bind(port, msg, 0, pcie_hotplug_irq, s) )
        how = "MSI-X";
    else if ( pci_msi_bind(port, 0, pcie_hotplug_irq, s) )
        how = "MSI";
    else
    {
        printk(XENLOG_WARNING "PCI: %s: a hot-plug port without MSI-X or "
               "MSI: devices added behind it are not seen\n",
               pci_name(port, name));
        return;
    }
    pci_enable(port, true);             /* INTx off */
    nr_slots++;
    ctl = slot_read(s, PCI_EXP_SLTCTL);
    slot_write(s, PCI_EXP_SLTCTL, ctl | PCI_EXP_SLTCTL_ABPE |
                                  PCI_EXP_SLTCTL_PDCE | PCI_EXP_SLTCTL_HPIE);
    printk("PCI: %s: hot-plug bus %02x, slot %u, %s%s\n",
           pci_name(port, name), s->bus, psn, how,
           pci_window_open(&port->mem) ? "" : ", no memory window");
    slot_events(s);
}

void pcie_hotplug_init(void)
{
    unsigned int i, n = pci_nr_devs;

    for ( i = 0; i < n; i++ )
        if ( pci_devs[i].hotplug && !pci_devs[i].gone )
            slot_init(&pci_devs[i]);
    if ( nr_slots )
        printk("PCI: devices the host adds behind %u PCIe port%s are taken "
               "(native hot-plug)\n", nr_slots, nr_slots == 1 ? "" : "s");
}
