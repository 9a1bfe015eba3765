/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The virtio PCI transport, modern interface only (virtio 1.2, 4.1.4):
 * a legacy-only device (no capabilities, or no VERSION_1) is refused.
 */
#include "arch/x86/time.h"
#include "drivers/dma.h"
#include "drivers/ioremap.h"
#include "drivers/virtio/virtio-pci.h"
#include "shim/console.h"
#include "shim/perfc.h"
#include "shim/timer.h"

/* struct virtio_pci_cap (4.1.4). */
#define VIRTIO_CAP_CFG_TYPE     3
#define VIRTIO_CAP_BAR          4
#define VIRTIO_CAP_OFFSET       8
#define VIRTIO_CAP_LENGTH       12
#define VIRTIO_CAP_NOTIFY_MULT  16
#define VIRTIO_PCI_CAP_COMMON   1
#define VIRTIO_PCI_CAP_NOTIFY   2
#define VIRTIO_PCI_CAP_ISR      3
#define VIRTIO_PCI_CAP_DEVICE   4

/* struct virtio_pci_common_cfg (4.1.4.3). */
#define VC_DFSELECT             0x00
#define VC_DF                   0x04
#define VC_GFSELECT             0x08
#define VC_GF                   0x0c
#define VC_MSIX_CONFIG          0x10
#define VC_NUM_QUEUES           0x12
#define VC_STATUS               0x14
#define VC_CFG_GENERATION       0x15
#define VC_Q_SELECT             0x16
#define VC_Q_SIZE               0x18
#define VC_Q_MSIX_VECTOR        0x1a
#define VC_Q_ENABLE             0x1c
#define VC_Q_NOTIFY_OFF         0x1e
#define VC_Q_DESC               0x20
#define VC_Q_DRIVER             0x28
#define VC_Q_DEVICE             0x30
#define VC_SIZE                 0x38

#define RESET_TIMEOUT_NS        1000000000ULL   /* a dead device: 1 s */

static const char *name_of(const struct virtio_dev *vd, char *buf)
{
    return pci_name(vd->pci, buf);
}

/* The structure a capability names, mapped; NULL if it isn't usable. */
static volatile uint8_t *map_cap(struct virtio_dev *vd, unsigned int cap,
                                 uint32_t min_len, uint32_t *len)
{
    const uint8_t *c = &vd->pci->cfg[cap];
    const struct pci_bar *b;
    uint32_t off, l;

    memcpy(&off, c + VIRTIO_CAP_OFFSET, 4);
    memcpy(&l, c + VIRTIO_CAP_LENGTH, 4);
    if ( c[VIRTIO_CAP_BAR] >= PCI_NUM_BARS )
        return NULL;
    b = &vd->pci->bar[c[VIRTIO_CAP_BAR]];
    if ( b->io || !b->addr || l < min_len || off > b->size ||
         l > b->size - off )
        return NULL;
    if ( len )
        *len = l;
    return ioremap(b->addr + off, l);
}

static void set_status(struct virtio_dev *vd, uint8_t bits)
{
    mmio_write8(vd->common + VC_STATUS,
                mmio_read8(vd->common + VC_STATUS) | bits);
}

bool virtio_pci_init(struct virtio_dev *vd, struct pci_dev *d)
{
    unsigned int cap = 0, at[VIRTIO_PCI_CAP_DEVICE + 1] = { 0 };
    char name[8];

    memset(vd, 0, sizeof(*vd));
    vd->pci = d;
    /* The first capability of each type (4.1.4.1), from the snapshot. */
    while ( (cap = pci_cap_find(d->cfg, cap, PCI_CAP_ID_VNDR)) )
    {
        uint8_t type = d->cfg[cap + VIRTIO_CAP_CFG_TYPE];

        if ( cap + 16 > PCI_CFG_SIZE || d->cfg[cap + 2] < 16 ||
             type > VIRTIO_PCI_CAP_DEVICE || at[type] )
            continue;
        if ( type == VIRTIO_PCI_CAP_NOTIFY &&
             (cap + 20 > PCI_CFG_SIZE || d->cfg[cap + 2] < 20) )
            continue;
        at[type] = cap;
    }
    if ( !at[VIRTIO_PCI_CAP_COMMON] || !at[VIRTIO_PCI_CAP_NOTIFY] ||
         !at[VIRTIO_PCI_CAP_ISR] )
    {
        printk(XENLOG_WARNING "virtio: %s %04x:%04x has no virtio 1.x "
               "(modern) interface: legacy-only devices are not used\n",
               name_of(vd, name), d->vendor, d->device);
        return false;
    }

    if ( !pci_assign_bars(d) )
        return false;
    vd->common = map_cap(vd, at[VIRTIO_PCI_CAP_COMMON], VC_SIZE, NULL);
    memcpy(&vd->notify_mult,
           &d->cfg[at[VIRTIO_PCI_CAP_NOTIFY] + VIRTIO_CAP_NOTIFY_MULT], 4);
    vd->notify = map_cap(vd, at[VIRTIO_PCI_CAP_NOTIFY], 2, &vd->notify_len);
    vd->isr = map_cap(vd, at[VIRTIO_PCI_CAP_ISR], 1, NULL);
    if ( at[VIRTIO_PCI_CAP_DEVICE] )
        vd->device_cfg = map_cap(vd, at[VIRTIO_PCI_CAP_DEVICE], 1,
                                 &vd->device_cfg_len);
    if ( !vd->common || !vd->notify || !vd->isr )
    {
        printk(XENLOG_WARNING "virtio: %s: a virtio structure lies outside "
               "its BAR: not used\n", name_of(vd, name));
        return false;
    }

    pci_enable(d, false);
    if ( !virtio_reset(vd) )
    {
        printk(XENLOG_WARNING "virtio: %s does not reset: not used\n",
               name_of(vd, name));
        return false;
    }
    set_status(vd, VIRTIO_STATUS_ACKNOWLEDGE);
    set_status(vd, VIRTIO_STATUS_DRIVER);
    return true;
}

static uint64_t device_features(struct virtio_dev *vd)
{
    uint64_t f;

    mmio_write32(vd->common + VC_DFSELECT, 0);
    f = mmio_read32(vd->common + VC_DF);
    mmio_write32(vd->common + VC_DFSELECT, 1);
    return f | (uint64_t)mmio_read32(vd->common + VC_DF) << 32;
}

bool virtio_offers(struct virtio_dev *vd, unsigned int bit)
{
    return device_features(vd) & (1ULL << bit);
}

bool virtio_reset(struct virtio_dev *vd)
{
    uint64_t start;

    /* Reset, and wait for the device to say it is done (4.1.4.3.2). */
    mmio_write8(vd->common + VC_STATUS, 0);
    start = now_ns();
    while ( mmio_read8(vd->common + VC_STATUS) )
        if ( now_ns() - start > RESET_TIMEOUT_NS )
            return false;
    return true;
}

void virtio_stop(struct virtio_dev *vd, struct timer *poll, const char *name)
{
    if ( !virtio_reset(vd) )
        printk(XENLOG_WARNING "%s: does not reset\n", name);
    if ( timer_is_active(poll) )
        stop_timer(poll);
}

void virtio_fail(struct virtio_dev *vd)
{
    set_status(vd, VIRTIO_STATUS_FAILED);
}

bool virtio_negotiate(struct virtio_dev *vd, uint64_t wanted)
{
    uint64_t offered = device_features(vd);
    char name[8];

    if ( !(offered & (1ULL << VIRTIO_F_VERSION_1)) )
    {
        printk(XENLOG_WARNING "virtio: %s offers no VERSION_1 (features "
               "%#lx): legacy-only devices are not used\n",
               name_of(vd, name), (unsigned long)offered);
        virtio_fail(vd);
        return false;
    }
    wanted |= 1ULL << VIRTIO_F_VERSION_1 |
              1ULL << VIRTIO_F_RING_INDIRECT_DESC |
              1ULL << VIRTIO_F_RING_EVENT_IDX;
    vd->features = offered & wanted;
    mmio_write32(vd->common + VC_GFSELECT, 0);
    mmio_write32(vd->common + VC_GF, vd->features);
    mmio_write32(vd->common + VC_GFSELECT, 1);
    mmio_write32(vd->common + VC_GF, vd->features >> 32);
    set_status(vd, VIRTIO_STATUS_FEATURES_OK);
    if ( !(mmio_read8(vd->common + VC_STATUS) & VIRTIO_STATUS_FEATURES_OK) )
    {
        printk(XENLOG_WARNING "virtio: %s refuses features %#lx\n",
               name_of(vd, name), (unsigned long)vd->features);
        virtio_fail(vd);
        return false;
    }
    /* Queues' vectors only mean something once MSI-X is on (4.1.5.1.2). */
    vd->msix = pci_msix_init(vd->pci);
    pci_enable(vd->pci, vd->msix);
    mmio_write16(vd->common + VC_MSIX_CONFIG, VIRTIO_MSI_NO_VECTOR);
    return true;
}

unsigned int virtio_nr_queues(struct virtio_dev *vd)
{
    return mmio_read16(vd->common + VC_NUM_QUEUES);
}

bool virtio_config_irq(struct virtio_dev *vd, unsigned int entry,
                       unsigned int cpu, vector_handler_t *fn, void *data)
{
    if ( !vd->msix || !pci_msix_bind(vd->pci, entry, cpu, fn, data) )
        return false;
    mmio_write16(vd->common + VC_MSIX_CONFIG, entry);
    /* As a queue's vector: NO_VECTOR read back is a refusal (4.1.5.1.2). */
    return mmio_read16(vd->common + VC_MSIX_CONFIG) == entry;
}

bool virtio_queue_setup(struct virtio_dev *vd, struct virtqueue *vq,
                        uint16_t index, uint16_t max, unsigned int entry,
                        unsigned int cpu, vector_handler_t *fn, void *data)
{
    volatile uint8_t *c = vd->common;
    uint16_t size, vec = VIRTIO_MSI_NO_VECTOR;
    uint8_t *desc, *avail, *used, *ind = NULL;
    char name[8];

    mmio_write16(c + VC_Q_SELECT, index);
    size = mmio_read16(c + VC_Q_SIZE);
    if ( !size || mmio_read16(c + VC_Q_ENABLE) )
        return false;
    /* A power of two (2.7), no more than we asked. */
    while ( size & (size - 1) )
        size &= size - 1;
    size = MIN(size, MIN(max, VQ_SIZE_MAX));

    desc = dma_alloc(VQ_DESC_BYTES(size));
    avail = dma_alloc(VQ_AVAIL_BYTES(size) + 2);
    used = dma_alloc(VQ_USED_BYTES(size) + 2);
    if ( virtio_has(vd, VIRTIO_F_RING_INDIRECT_DESC) )
        ind = dma_alloc((unsigned long)size * VQ_INDIRECT_BYTES);
    if ( !desc || !avail || !used ||
         (virtio_has(vd, VIRTIO_F_RING_INDIRECT_DESC) && !ind) )
    {
        printk(XENLOG_WARNING "virtio: %s queue %u: out of memory\n",
               name_of(vd, name), index);
        return false;
    }
    vq_init(vq, index, size, desc, avail, used, ind, ind ? dma_addr(ind) : 0,
            virtio_has(vd, VIRTIO_F_RING_EVENT_IDX));

    mmio_write16(c + VC_Q_SIZE, size);
    mmio_write64_split(c + VC_Q_DESC, dma_addr(desc));
    mmio_write64_split(c + VC_Q_DRIVER, dma_addr(avail));
    mmio_write64_split(c + VC_Q_DEVICE, dma_addr(used));
    if ( vd->msix )
    {
        vec = entry;
        if ( !pci_msix_bind(vd->pci, entry, cpu, fn, data) )
            vec = VIRTIO_MSI_NO_VECTOR;
        mmio_write16(c + VC_Q_MSIX_VECTOR, vec);
        /* The device says no by reading back NO_VECTOR (4.1.5.1.2). */
        if ( mmio_read16(c + VC_Q_MSIX_VECTOR) != vec )
            vec = VIRTIO_MSI_NO_VECTOR;
    }
    /*
     * A queue with no vector (no MSI-X, or fewer table entries than
     * queues, or a device that refuses this one) sends no interrupt
     * (4.1.5.1.2): its driver polls it, as NVMe's queue pairs beyond the
     * vectors are.
     */
    vq->polled = vec == VIRTIO_MSI_NO_VECTOR;
    if ( vq->polled )
        printk(XENLOG_WARNING "virtio: %s queue %u: no MSI-X%s, completions "
               "polled\n", name_of(vd, name), index,
               vd->msix ? " vector" : "");
    vq->notify_off = mmio_read16(c + VC_Q_NOTIFY_OFF);
    if ( (uint64_t)vq->notify_off * vd->notify_mult + 2 > vd->notify_len )
    {
        printk(XENLOG_WARNING "virtio: %s queue %u: notify offset %u "
               "outside its structure\n", name_of(vd, name), index,
               vq->notify_off);
        return false;
    }
    mmio_write16(c + VC_Q_ENABLE, 1);
    return true;
}

void virtio_notify(struct virtio_dev *vd, struct virtqueue *vq)
{
    vq->kicks++;
    perfc_incr(device_notifications);
    mmio_write16(vd->notify + vq->notify_off * vd->notify_mult, vq->index);
}

void virtio_kick_batch(struct virtio_dev *vd, struct virtqueue *vq,
                       spinlock_t *lock)
{
    unsigned long flags;
    bool kick;

    spin_lock_irqsave(lock, flags);
    kick = vq_unpublished(vq) && vq_kick_prepare(vq);
    spin_unlock_irqrestore(lock, flags);
    if ( kick )
        virtio_notify(vd, vq);
}

void virtio_driver_ok(struct virtio_dev *vd)
{
    set_status(vd, VIRTIO_STATUS_DRIVER_OK);
}

/* One field, read at its natural width (4.1.3.1); 64 bits as two halves. */
static uint64_t cfg_field(volatile uint8_t *p, unsigned int len)
{
    switch ( len )
    {
    case 1: return mmio_read8(p);
    case 2: return mmio_read16(p);
    case 4: return mmio_read32(p);
    default:
        return mmio_read32(p) | (uint64_t)mmio_read32(p + 4) << 32;
    }
}

uint64_t virtio_cfg_read(struct virtio_dev *vd, unsigned int off,
                         unsigned int len)
{
    uint64_t v;
    uint8_t gen;

    ASSERT(len == 1 || len == 2 || len == 4 || len == 8);
    if ( !vd->device_cfg || off > vd->device_cfg_len ||
         len > vd->device_cfg_len - off )
        return 0;
    /* Again if the device changed it meanwhile (4.1.4.3.1). */
    do {
        gen = mmio_read8(vd->common + VC_CFG_GENERATION);
        v = cfg_field(vd->device_cfg + off, len);
    } while ( gen != mmio_read8(vd->common + VC_CFG_GENERATION) );
    return v;
}

void virtio_cfg_write32(struct virtio_dev *vd, unsigned int off, uint32_t v)
{
    if ( vd->device_cfg && off <= vd->device_cfg_len &&
         vd->device_cfg_len - off >= 4 )
        mmio_write32(vd->device_cfg + off, v);
}

void vq_dump(const struct virtqueue *vq, const char *name)
{
    /* Racy reads of the device's side: a picture, not a state. */
    printk("%s vq%u: avail %u (kicked at %u), used %u (taken to %u), "
           "%u/%u free, used_event %u, avail_event %u%s%s, %lu kicks\n",
           name, vq->index, vq->avail_idx, vq->kicked_idx,
           ACCESS_ONCE(vq->used->idx), vq->last_used, vq->num_free,
           vq->size, ACCESS_ONCE(vq->avail->ring[vq->size]),
           ACCESS_ONCE(*(uint16_t *)&vq->used->ring[vq->size]),
           vq->event_idx ? "" : " (no event index)",
           vq->broken ? ", BROKEN" : "", vq->kicks);
}
