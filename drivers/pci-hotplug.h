/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Between the hot-plug mechanisms: what a slot's changes do, whichever
 * way the host says it (pci-hotplug.c: ACPI on the pc machine's bus 0;
 * pcie-hotplug.c: PCIe ports' native hot-plug on q35).  A slot is a
 * device number on a bus: behind a PCIe port, device 0 of its secondary
 * bus.  All on CPU 0, in PCI_HOTPLUG_SOFTIRQ.
 */
#ifndef DRIVERS_PCI_HOTPLUG_H
#define DRIVERS_PCI_HOTPLUG_H

#include "shim/lib.h"

/* A device came into the slot: scanned and offered to the drivers. */
void pci_slot_add(unsigned int bus, unsigned int dev);
/* The host wants the slot's device back (once asked, later asks do not). */
void pci_slot_remove(unsigned int bus, unsigned int dev);

/* pcie-hotplug.c: every hot-plug port found set up; its events read. */
void pcie_hotplug_init(void);
void pcie_hotplug_events(void);
/* The slot behind the port whose secondary bus is @bus powered off. */
void pcie_slot_eject(unsigned int bus);

#endif /* DRIVERS_PCI_HOTPLUG_H */
