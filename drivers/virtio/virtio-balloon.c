/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * virtio-balloon (virtio 1.2, 5.5) as the VM's memory balloon
 * (drivers/balloon.h): the host's num_pages, the inflate and deflate
 * queues with one batch of page numbers in flight, `actual` written back.
 * No statistics queue, free page hints or reporting: the host learns
 * what it has from `actual` alone.  Its interrupts (the configuration
 * change, each queue's) go to CPU 0 and only raise BALLOON_SOFTIRQ.
 */
#include "drivers/balloon.h"
#include "drivers/dma.h"
#include "drivers/drivers.h"
#include "drivers/virtio/virtio-pci.h"
#include "shim/console.h"
#include "shim/frame.h"
#include "shim/softirq.h"
#include "shim/timer.h"

#define VIRTIO_ID_BALLOON           5
#define VIRTIO_PCI_TRANS_BALLOON    0x1002

/* struct virtio_balloon_config (5.5.4). */
#define VBAL_CFG_NUM_PAGES          0
#define VBAL_CFG_ACTUAL             4

#define VBAL_INFLATE                0
#define VBAL_DEFLATE                1
#define VBAL_QUEUE_SIZE             8
#define VBAL_POLL_NS                10000000ULL     /* a batch: 10 ms */
#define VBAL_POLL_CONFIG_NS         1000000000ULL   /* the wish: 1 s */

static struct vballoon {
    struct virtio_dev vd;
    struct virtqueue vq[2];
    uint32_t *pfns;                 /* the batch the device reads */
    int busy;                       /* the queue of the batch in flight */
    /* Without MSI-X: a batch's queue, or the host's wish, looked at. */
    struct timer poll;
    bool config_polled;
    unsigned long batches[2], pages[2];
    unsigned long config_irqs;
} *vbal;

static void vbal_irq(void *data)
{
    raise_softirq(BALLOON_SOFTIRQ);
}

static void vbal_config_irq(void *data)
{
    struct vballoon *vb = data;

    vb->config_irqs++;
    raise_softirq(BALLOON_SOFTIRQ);
}

static void vbal_poll(void *data)
{
    struct vballoon *vb = data;

    raise_softirq(BALLOON_SOFTIRQ);
    if ( vb->config_polled )
        set_timer(&vb->poll, NOW() + VBAL_POLL_CONFIG_NS);
}

bool balloon_dev_present(void)
{
    return vbal;
}

unsigned long balloon_dev_wanted(void)
{
    return vbal ? virtio_cfg_read(&vbal->vd, VBAL_CFG_NUM_PAGES, 4) : 0;
}

void balloon_dev_set_actual(unsigned long pages)
{
    if ( vbal )
        virtio_cfg_write32(&vbal->vd, VBAL_CFG_ACTUAL, pages);
}

bool balloon_dev_idle(void)
{
    struct virtqueue *vq;
    uint32_t len;
    bool bad;

    if ( !vbal || vbal->busy < 0 )
        return true;
    vq = &vbal->vq[vbal->busy];
    if ( !vq_get_used(vq, &len, &bad) )
    {
        if ( bad )
            printk(XENLOG_WARNING "virtio-balloon: the device returned a "
                   "descriptor it was not given\n");
        return false;
    }
    vbal->busy = -1;
    if ( !vbal->config_polled )
        stop_timer(&vbal->poll);
    return true;
}

bool balloon_dev_post(bool give, const uint32_t *pfns, unsigned int n)
{
    unsigned int qi = give ? VBAL_INFLATE : VBAL_DEFLATE;
    struct virtqueue *vq;
    struct vq_buf buf;

    ASSERT(n && n <= BALLOON_BATCH);
    if ( !balloon_dev_idle() )
        return false;
    vq = &vbal->vq[qi];
    memcpy(vbal->pfns, pfns, n * sizeof(*pfns));
    buf = (struct vq_buf){ dma_addr(vbal->pfns), n * sizeof(*pfns), false };
    if ( vq_add(vq, &buf, 1, vbal) )
        return false;                   /* a broken queue: nothing goes */
    vbal->busy = qi;
    vbal->batches[qi]++;
    vbal->pages[qi] += n;
    if ( vq_kick_prepare(vq) )
        virtio_notify(&vbal->vd, vq);
    if ( vq->polled )
        set_timer(&vbal->poll, NOW() + VBAL_POLL_NS);
    return true;
}

void balloon_dev_dump(void)
{
    static const char *const name[2] = { "inflate", "deflate" };
    unsigned int i;

    if ( !vbal )
        return;
    for ( i = 0; i < 2; i++ )
    {
        vq_dump(&vbal->vq[i], "virtio-balloon");
        printk("virtio-balloon %s: %lu batches, %lu pages%s\n", name[i],
               vbal->batches[i], vbal->pages[i],
               vbal->busy == (int)i ? ", one in flight" : "");
    }
    printk("virtio-balloon: num_pages %lu, %lu configuration changes\n",
           balloon_dev_wanted(), vbal->config_irqs);
}

bool virtio_balloon_probe(struct pci_dev *d)
{
    struct vballoon *vb;
    unsigned int i;
    char name[8];

    if ( d->vendor != VIRTIO_PCI_VENDOR ||
         (d->device != VIRTIO_PCI_MODERN_BASE + VIRTIO_ID_BALLOON &&
          !(d->device == VIRTIO_PCI_TRANS_BALLOON &&
            d->subsys == VIRTIO_ID_BALLOON)) )
        return false;
    if ( vbal )
    {
        printk(XENLOG_WARNING "virtio-balloon: %s: a second balloon is not "
               "used\n", pci_name(d, name));
        return false;
    }
    /* Kept by a device that fails to start (a vector may point into it). */
    if ( !(vb = dma_alloc(sizeof(*vb))) || !(vb->pfns = dma_alloc(PAGE_SIZE)) )
        return false;
    if ( !virtio_pci_init(&vb->vd, d) || !virtio_negotiate(&vb->vd, 0) )
        return false;
    /* Entry 0: configuration changes; 1 and 2 the queues; all to CPU 0. */
    for ( i = 0; i < 2; i++ )
        if ( !virtio_queue_setup(&vb->vd, &vb->vq[i], i, VBAL_QUEUE_SIZE,
                                 i + 1, 0, vbal_irq, NULL) )
        {
            virtio_fail(&vb->vd);
            return false;
        }
    vb->busy = -1;
    init_timer(&vb->poll, vbal_poll, vb, 0);
    if ( !virtio_config_irq(&vb->vd, 0, 0, vbal_config_irq, vb) )
    {
        vb->config_polled = true;
        set_timer(&vb->poll, NOW() + VBAL_POLL_CONFIG_NS);
    }
    virtio_driver_ok(&vb->vd);
    /*
     * The VM has every page at boot (a reset VM's dropped pages read as
     * zeroes again), whatever the device kept from before the reset.
     */
    virtio_cfg_write32(&vb->vd, VBAL_CFG_ACTUAL, 0);
    vbal = vb;
    printk("PCI: %s %04x:%04x virtio-balloon, %s, the host wants %lu "
           "pages\n", pci_name(d, name), d->vendor, d->device,
           vb->config_polled ? "polled" : "MSI-X", balloon_dev_wanted());
    return true;
}
