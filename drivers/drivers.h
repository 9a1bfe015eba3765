/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The container's devices (drivers/): found and started at boot, before
 * the guest exists; what they offer is registered with the block and
 * network interfaces (drivers/block.h, drivers/net.h) for the backends.
 */
#ifndef DRIVERS_DRIVERS_H
#define DRIVERS_DRIVERS_H

#include "shim/lib.h"

struct pci_dev;

/* Enumerate PCI (unless pci-probe=0) and start a driver on each device. */
void drivers_init(void);
/* Offer one PCI function to each driver in turn (from pci_init()). */
void drivers_probe(struct pci_dev *d);
/*
 * pci-hotplug.c: take the devices the host adds while the VM runs (QEMU's
 * pc machine), each offered to the drivers as at boot.
 */
void pci_hotplug_init(void);

/* The drivers' probes: true if the function is theirs and now running. */
bool virtio_blk_probe(struct pci_dev *d);
bool virtio_net_probe(struct pci_dev *d);
bool nvme_probe(struct pci_dev *d);
bool virtio_balloon_probe(struct pci_dev *d);

/* blk-selftest: I/O on every block device at boot, logged (a test aid). */
void blk_selftest(void);
/* net-selftest: ARP and ping the user network's gateway (a test aid). */
void net_selftest(void);

#endif /* DRIVERS_DRIVERS_H */
