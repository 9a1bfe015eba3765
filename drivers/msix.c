/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * MSI-X (PCI 3.0 6.8.2): the table mapped from its BAR, every entry masked
 * until bound to a device vector (arch/x86/vector.h) on one CPU.  MSI
 * (6.8.1), for functions that have only that (QEMU's ioh3420 and
 * xio3130 ports): one message, to one vector.
 */
#include "arch/x86/smp.h"
#include "drivers/ioremap.h"
#include "drivers/pci.h"
#include "shim/console.h"

/* @vector bound on @d: given back with the function (pci-hotplug.c). */
static void pci_own_vector(struct pci_dev *d, unsigned int vector)
{
    unsigned int i = vector - DEVICE_VECTOR_FIRST;

    d->vectors[i / 64] |= 1ULL << (i % 64);
}

static volatile uint8_t *msix_entry(struct pci_dev *d, unsigned int i)
{
    return d->msix_table + i * PCI_MSIX_ENTRY_SIZE;
}

bool pci_msix_init(struct pci_dev *d)
{
    unsigned int cap = pci_cap_find(d->cfg, 0, PCI_CAP_ID_MSIX);
    uint32_t table;
    uint16_t ctrl;
    unsigned int bir, i;
    const struct pci_bar *b;
    char name[8];

    if ( !cap )
        return false;
    ctrl = pci_conf_read16(d, cap + PCI_MSIX_FLAGS);
    table = pci_conf_read32(d, cap + PCI_MSIX_TABLE);
    bir = table & PCI_MSIX_BIR_MASK;
    d->msix_size = (ctrl & PCI_MSIX_FLAGS_QSIZE) + 1;
    b = bir < PCI_NUM_BARS ? &d->bar[bir] : NULL;
    if ( !b || b->io || !b->addr ||
         (table & ~PCI_MSIX_BIR_MASK) + d->msix_size * PCI_MSIX_ENTRY_SIZE >
         b->size )
    {
        printk(XENLOG_WARNING "PCI: %s MSI-X table outside BAR %u\n",
               pci_name(d, name), bir);
        return false;
    }
    d->msix_table = ioremap(b->addr + (table & ~PCI_MSIX_BIR_MASK),
                            d->msix_size * PCI_MSIX_ENTRY_SIZE);
    if ( !d->msix_table )
        return false;

    /* Enabled with the function masked, each entry masked, then live. */
    pci_conf_write16(d, cap + PCI_MSIX_FLAGS,
                     ctrl | PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL);
    for ( i = 0; i < d->msix_size; i++ )
        mmio_write32(msix_entry(d, i) + PCI_MSIX_ENTRY_CTRL,
                     PCI_MSIX_ENTRY_MASKED);
    pci_conf_write16(d, cap + PCI_MSIX_FLAGS,
                     (ctrl | PCI_MSIX_FLAGS_ENABLE) &
                     ~PCI_MSIX_FLAGS_MASKALL);
    d->msix_cap = cap;
    return true;
}

unsigned int pci_msix_bind(struct pci_dev *d, unsigned int entry,
                           unsigned int cpu, vector_handler_t *fn,
                           void *data)
{
    volatile uint8_t *e;
    unsigned int vector;
    uint64_t addr;

    if ( !d->msix_cap || entry >= d->msix_size || !cpu_online(cpu) ||
         !(vector = vector_alloc(fn, data)) )
        return 0;
    e = msix_entry(d, entry);
    addr = msi_addr(x86_cpu_to_apicid[cpu]);
    mmio_write32(e + PCI_MSIX_ENTRY_ADDR_LO, addr);
    mmio_write32(e + PCI_MSIX_ENTRY_ADDR_HI, addr >> 32);
    mmio_write32(e + PCI_MSIX_ENTRY_DATA, msi_data(vector));
    mmio_write32(e + PCI_MSIX_ENTRY_CTRL, 0);
    pci_own_vector(d, vector);
    return vector;
}

unsigned int pci_msi_bind(struct pci_dev *d, unsigned int cpu,
                          vector_handler_t *fn, void *data)
{
    unsigned int cap = pci_cap_find(d->cfg, 0, PCI_CAP_ID_MSI);
    unsigned int vector;
    uint16_t ctrl;
    uint64_t addr;

    if ( !cap || !cpu_online(cpu) || !(vector = vector_alloc(fn, data)) )
        return 0;
    ctrl = pci_conf_read16(d, cap + PCI_MSI_FLAGS);
    addr = msi_addr(x86_cpu_to_apicid[cpu]);
    pci_conf_write32(d, cap + PCI_MSI_ADDRESS_LO, addr);
    if ( ctrl & PCI_MSI_FLAGS_64BIT )
    {
        pci_conf_write32(d, cap + PCI_MSI_ADDRESS_HI, addr >> 32);
        pci_conf_write16(d, cap + PCI_MSI_DATA_64, msi_data(vector));
    }
    else
        pci_conf_write16(d, cap + PCI_MSI_DATA_32, msi_data(vector));
    pci_conf_write16(d, cap + PCI_MSI_FLAGS,
                     (ctrl & ~PCI_MSI_FLAGS_QSIZE) | PCI_MSI_FLAGS_ENABLE);
    pci_own_vector(d, vector);
    return vector;
}
