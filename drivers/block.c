/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The block devices (block.h): the registry, the checks every request
 * passes against its device's limits, the queue a CPU submits on, and
 * the softirq that runs completions where the queues' interrupts arrive.
 */
#include "arch/x86/percpu.h"
#include "drivers/block.h"
#include "drivers/pci.h"
#include "drivers/queue-pending.h"
#include "drivers/registry.h"
#include "shim/console.h"
#include "shim/softirq.h"

static struct blk_dev *blk_devs[BLK_MAX_DEVS];
static unsigned int nr_blk_devs;
static void (*resize_hook)(struct blk_dev *dev);
static void (*add_hook)(struct blk_dev *dev);
static void (*remove_hook)(struct blk_dev *dev);

static void block_softirq(void)
{
    unsigned int cpu = smp_processor_id(), i, q;

    for ( i = 0; i < ACCESS_ONCE(nr_blk_devs); i++ )
    {
        struct blk_dev *dev = blk_devs[i];
        unsigned long pend = queue_pending_take(&dev->pending[cpu]);

        for ( q = 0; pend; q++, pend >>= 1 )
            if ( pend & 1 )
                dev->ops->complete(dev, q);
    }
}

bool blk_register(struct blk_dev *dev)
{
    if ( nr_blk_devs == ARRAY_SIZE(blk_devs) )
    {
        printk(XENLOG_WARNING "%s: more than %u disks: not used\n",
               dev->name, BLK_MAX_DEVS);
        return false;
    }
    if ( !dev->phys_sector_size )
        dev->phys_sector_size = dev->sector_size;
    if ( !nr_blk_devs )
        open_softirq(BLOCK_SOFTIRQ, block_softirq);
    if ( !dev->pending )
        dev->pending = dev->own_pending;
    if ( dev->pci )
        pci_hold(dev->pci);
    blk_devs[nr_blk_devs] = dev;
    __atomic_store_n(&nr_blk_devs, nr_blk_devs + 1, __ATOMIC_RELEASE);
    REGISTRY_ADDED(add_hook, dev);
    return true;
}

void blk_set_remove_hook(void (*fn)(struct blk_dev *dev))
{
    remove_hook = fn;
}

void blk_remove_pci(struct pci_dev *d)
{
    REGISTRY_REMOVE_PCI(blk_devs, nr_blk_devs, d, remove_hook, blk_release);
}

void blk_release(struct blk_dev *dev)
{
    REGISTRY_RELEASE(blk_devs, nr_blk_devs, dev, BLOCK_SOFTIRQ);
}

void blk_set_add_hook(void (*fn)(struct blk_dev *dev))
{
    add_hook = fn;
}

unsigned int blk_count(void)
{
    return nr_blk_devs;
}

struct blk_dev *blk_get(unsigned int index)
{
    return index < nr_blk_devs ? blk_devs[index] : NULL;
}

void blk_queue_interrupt(struct blk_dev *dev, unsigned int q)
{
    queue_pending_set(&dev->pending[smp_processor_id()], q);
    raise_softirq(BLOCK_SOFTIRQ);
}

void blk_set_resize_hook(void (*fn)(struct blk_dev *dev))
{
    __atomic_store_n(&resize_hook, fn, __ATOMIC_RELEASE);
}

void blk_resized(struct blk_dev *dev, uint64_t nr_sectors)
{
    void (*fn)(struct blk_dev *dev);

    __atomic_store_n(&dev->nr_sectors, nr_sectors, __ATOMIC_RELEASE);
    if ( (fn = __atomic_load_n(&resize_hook, __ATOMIC_ACQUIRE)) )
        fn(dev);
}

/*
 * Whether [sector, sector + nr) lies on the disk, in whole blocks: the
 * size read once, as a resize may change it meanwhile.
 */
static bool range_ok(const struct blk_dev *dev, uint64_t sector, uint64_t nr)
{
    uint64_t per_block = dev->sector_size >> BLK_SECTOR_SHIFT;
    uint64_t size = __atomic_load_n(&dev->nr_sectors, __ATOMIC_ACQUIRE);

    return nr && sector < size && nr <= size - sector &&
           !(sector % per_block) && !(nr % per_block);
}

/* Segment @i's address against the device's alignment and boundary. */
static bool seg_placed(const struct blk_dev *dev,
                       const struct blk_request *req, unsigned int i)
{
    const struct blk_seg *s = &req->seg[i];
    uint64_t b = dev->seg_boundary;

    if ( dev->dma_align && (s->addr & (dev->dma_align - 1)) )
        return false;
    if ( !b )
        return true;
    return (!i || !(s->addr & (b - 1))) &&
           (i + 1 == req->nr_segs || !((s->addr + s->len) & (b - 1)));
}

enum blk_status blk_check(const struct blk_dev *dev,
                          const struct blk_request *req)
{
    uint64_t bytes = 0;
    unsigned int i;

    switch ( req->op )
    {
    case BLK_OP_READ:
    case BLK_OP_WRITE:
        if ( req->op == BLK_OP_WRITE && (dev->features & BLK_F_RO) )
            return BLK_EROFS;
        if ( !req->nr_segs || req->nr_segs > dev->max_segs )
            return BLK_EINVAL;
        for ( i = 0; i < req->nr_segs; i++ )
        {
            if ( !req->seg[i].len || req->seg[i].len % BLK_SECTOR_SIZE ||
                 req->seg[i].len > dev->max_seg_size ||
                 !seg_placed(dev, req, i) )
                return BLK_EINVAL;
            bytes += req->seg[i].len;
        }
        if ( dev->max_sectors &&
             bytes > (uint64_t)dev->max_sectors << BLK_SECTOR_SHIFT )
            return BLK_EINVAL;
        return range_ok(dev, req->sector, bytes >> BLK_SECTOR_SHIFT)
               ? BLK_OK : BLK_EINVAL;
    case BLK_OP_FLUSH:
        return dev->features & BLK_F_FLUSH ? BLK_OK : BLK_EUNSUPP;
    case BLK_OP_DISCARD:
        if ( !(dev->features & BLK_F_DISCARD) )
            return BLK_EUNSUPP;
        if ( dev->features & BLK_F_RO )
            return BLK_EROFS;
        return range_ok(dev, req->sector, req->nr_sectors) &&
               req->nr_sectors <= dev->max_discard_sectors
               ? BLK_OK : BLK_EINVAL;
    case BLK_OP_WRITE_ZEROES:
        if ( !(dev->features & BLK_F_WRITE_ZEROES) )
            return BLK_EUNSUPP;
        if ( dev->features & BLK_F_RO )
            return BLK_EROFS;
        return range_ok(dev, req->sector, req->nr_sectors) &&
               req->nr_sectors <= dev->max_write_zeroes_sectors
               ? BLK_OK : BLK_EINVAL;
    }
    return BLK_EINVAL;
}

enum blk_status blk_submit_on(struct blk_dev *dev, unsigned int q,
                              struct blk_request *req)
{
    enum blk_status s = blk_check(dev, req);

    if ( s != BLK_OK )
        return s;
    return dev->ops->submit(dev, q % dev->nr_queues, req);
}

void blk_kick_on(struct blk_dev *dev, unsigned int q)
{
    dev->ops->kick(dev, q % dev->nr_queues);
}

enum blk_status blk_submit(struct blk_dev *dev, struct blk_request *req)
{
    return blk_submit_on(dev, smp_processor_id(), req);
}

unsigned int blk_fit(const struct blk_dev *dev, const struct blk_seg *seg,
                     unsigned int nr)
{
    uint64_t bytes = 0, b = dev->seg_boundary;
    unsigned int i;

    for ( i = 0; i < nr && i < dev->max_segs; i++ )
    {
        const struct blk_seg *s = &seg[i];

        if ( !s->len || s->len % BLK_SECTOR_SIZE ||
             s->len > dev->max_seg_size ||
             (dev->dma_align && (s->addr & (dev->dma_align - 1))) )
            break;
        /* Joined to the one before: it ends, and this starts, on b. */
        if ( i && b && (((seg[i - 1].addr + seg[i - 1].len) | s->addr) &
                        (b - 1)) )
            break;
        if ( dev->max_sectors &&
             bytes + s->len > (uint64_t)dev->max_sectors << BLK_SECTOR_SHIFT )
            break;
        bytes += s->len;
    }
    return i;
}

void blk_poll(struct blk_dev *dev)
{
    unsigned int q;

    for ( q = 0; q < dev->nr_queues; q++ )
        dev->ops->complete(dev, q);
}

const char *blk_status_name(enum blk_status s)
{
    switch ( s )
    {
    case BLK_OK:        return "ok";
    case BLK_EIO:       return "I/O error";
    case BLK_EUNSUPP:   return "unsupported";
    case BLK_EINVAL:    return "invalid request";
    case BLK_EBUSY:     return "queue full";
    case BLK_EROFS:     return "read-only device";
    }
    return "?";
}
