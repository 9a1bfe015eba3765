/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * virtio 1.x devices over PCI ("modern", virtio 1.2 section 4.1): the
 * capabilities that locate the common, notification, ISR and device
 * configuration structures, the status handshake and feature negotiation
 * (3.1.1), and queues with an MSI-X vector each.
 */
#ifndef DRIVERS_VIRTIO_VIRTIO_PCI_H
#define DRIVERS_VIRTIO_VIRTIO_PCI_H

#include "drivers/pci.h"
#include "drivers/virtio/virtqueue.h"
#include "shim/spinlock.h"

struct timer;

#define VIRTIO_PCI_VENDOR       0x1af4
#define VIRTIO_PCI_MODERN_BASE  0x1040  /* + the virtio device id (4.1.2.1) */
/* Transitional (4.1.2.3): its subsystem id is the virtio device id. */
#define VIRTIO_PCI_TRANS_BLOCK  0x1001
#define VIRTIO_ID_BLOCK         2

/* Feature bits (6). */
#define VIRTIO_F_RING_INDIRECT_DESC 28
#define VIRTIO_F_RING_EVENT_IDX     29
#define VIRTIO_F_VERSION_1          32

/* Device status (2.1). */
#define VIRTIO_STATUS_ACKNOWLEDGE   1
#define VIRTIO_STATUS_DRIVER        2
#define VIRTIO_STATUS_DRIVER_OK     4
#define VIRTIO_STATUS_FEATURES_OK   8
#define VIRTIO_STATUS_NEEDS_RESET   64
#define VIRTIO_STATUS_FAILED        128

#define VIRTIO_MSI_NO_VECTOR        0xffff

struct virtio_dev {
    struct pci_dev *pci;
    volatile uint8_t *common;       /* struct virtio_pci_common_cfg */
    volatile uint8_t *notify;
    uint32_t notify_mult, notify_len;
    volatile uint8_t *isr;
    volatile uint8_t *device_cfg;
    uint32_t device_cfg_len;
    uint64_t features;              /* negotiated */
    bool msix;
};

/*
 * Map the device's structures and reset it, then ACKNOWLEDGE and DRIVER:
 * false (logged) if it has no modern interface or does not reset.
 */
bool virtio_pci_init(struct virtio_dev *vd, struct pci_dev *d);
/* Whether the device offers feature @bit. */
bool virtio_offers(struct virtio_dev *vd, unsigned int bit);
/*
 * Accept @wanted & offered, always with VERSION_1 and, if offered,
 * indirect descriptors and event index; FEATURES_OK.  False (logged,
 * device FAILED) if it offers no VERSION_1 or refuses the set.
 */
bool virtio_negotiate(struct virtio_dev *vd, uint64_t wanted);
static inline bool virtio_has(const struct virtio_dev *vd, unsigned int bit)
{
    return vd->features & (1ULL << bit);
}
/* The device's queue count. */
unsigned int virtio_nr_queues(struct virtio_dev *vd);

/*
 * Set up queue @index: its rings in fresh memory, at most @max entries,
 * its interrupt as MSI-X entry @entry to CPU @cpu calling @fn(@data) (no
 * MSI-X: no interrupt).  False (logged) on failure.
 */
bool virtio_queue_setup(struct virtio_dev *vd, struct virtqueue *vq,
                        uint16_t index, uint16_t max, unsigned int entry,
                        unsigned int cpu, vector_handler_t *fn, void *data);
/*
 * The device's configuration-change interrupt (4.1.4.3: a field such as
 * virtio-blk's capacity changed) as MSI-X entry @entry to CPU @cpu
 * calling @fn(@data); false where there is no MSI-X, or the device
 * refuses the vector (then no interrupt says so).
 */
bool virtio_config_irq(struct virtio_dev *vd, unsigned int entry,
                       unsigned int cpu, vector_handler_t *fn, void *data);
/* Tell the device about queue @vq's new entries. */
void virtio_notify(struct virtio_dev *vd, struct virtqueue *vq);
/*
 * The end of a batch queued without publishing: under @lock (the
 * queue's), publish what @vq has queued, if anything, then notify the
 * device if it asks; one fence and at most one notification for all of
 * it (each notification waits for QEMU's global lock, which its main
 * loop holds while it moves the device's data).
 */
void virtio_kick_batch(struct virtio_dev *vd, struct virtqueue *vq,
                       spinlock_t *lock);
/* DRIVER_OK: the device is live. */
void virtio_driver_ok(struct virtio_dev *vd);
/* Give up on the device: FAILED. */
void virtio_fail(struct virtio_dev *vd);
/*
 * Reset: the device forgets its queues and does no more DMA; false if
 * it does not say so within a second.
 */
bool virtio_reset(struct virtio_dev *vd);
/*
 * A device the host took back (its interface's stop op): reset (no more
 * DMA; a device that won't is logged as @name), and its @poll timer, if
 * armed, stopped.
 */
void virtio_stop(struct virtio_dev *vd, struct timer *poll, const char *name);

/*
 * A device configuration field of @len bytes (1, 2, 4 or 8) at @off,
 * consistent by its generation (4.1.4.3.1); 0 if outside the structure.
 */
uint64_t virtio_cfg_read(struct virtio_dev *vd, unsigned int off,
                         unsigned int len);
/* Write a 32-bit device configuration field (ignored outside it). */
void virtio_cfg_write32(struct virtio_dev *vd, unsigned int off, uint32_t v);

#endif /* DRIVERS_VIRTIO_VIRTIO_PCI_H */
