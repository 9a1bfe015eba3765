/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * virtio-blk (virtio 1.2, 5.2) as a block device (drivers/block.h): read,
 * write, flush, discard and write-zeroes where offered, the device's
 * segment limits, a queue per CPU where it has several (VIRTIO_BLK_F_MQ),
 * each queue's interrupt on the CPU that submits on it.
 */
#include "arch/x86/percpu.h"
#include "arch/x86/smp.h"
#include "drivers/block.h"
#include "drivers/dma.h"
#include "drivers/drivers.h"
#include "drivers/virtio/virtio-pci.h"
#include "shim/console.h"
#include "shim/spinlock.h"
#include "shim/timer.h"

/* Feature bits (5.2.3). */
#define VIRTIO_BLK_F_SIZE_MAX       1
#define VIRTIO_BLK_F_SEG_MAX        2
#define VIRTIO_BLK_F_RO             5
#define VIRTIO_BLK_F_BLK_SIZE       6
#define VIRTIO_BLK_F_FLUSH          9
#define VIRTIO_BLK_F_TOPOLOGY       10
#define VIRTIO_BLK_F_MQ             12
#define VIRTIO_BLK_F_DISCARD        13
#define VIRTIO_BLK_F_WRITE_ZEROES   14

/* struct virtio_blk_config (5.2.4). */
#define VBLK_CFG_CAPACITY           0
#define VBLK_CFG_SIZE_MAX           8
#define VBLK_CFG_SEG_MAX            12
#define VBLK_CFG_BLK_SIZE           20
#define VBLK_CFG_PHYS_BLOCK_EXP     24
#define VBLK_CFG_NUM_QUEUES         34
#define VBLK_CFG_MAX_DISCARD_SECT   36
#define VBLK_CFG_DISCARD_ALIGN      44
#define VBLK_CFG_MAX_WZ_SECT        48

/* Requests (5.2.6). */
#define VIRTIO_BLK_T_IN             0
#define VIRTIO_BLK_T_OUT            1
#define VIRTIO_BLK_T_FLUSH          4
#define VIRTIO_BLK_T_DISCARD        11
#define VIRTIO_BLK_T_WRITE_ZEROES   13
#define VIRTIO_BLK_S_OK             0
#define VIRTIO_BLK_S_UNSUPP         2

#define VBLK_QUEUE_SIZE             128     /* at most, per queue */
#define VBLK_POLL_NS                1000000ULL  /* no interrupt: 1 ms */

/* What the driver owns of one request: what the device reads and writes. */
struct vblk_slot {
    struct {
        uint32_t type;
        uint32_t ioprio;
        uint64_t sector;
    } hdr;
    struct {                        /* discard and write-zeroes */
        uint64_t sector;
        uint32_t num_sectors;
        uint32_t flags;
    } range;
    uint8_t status;
    uint16_t next_free;
    struct blk_request *req;
};

struct vblk_queue {
    spinlock_t lock;                /* the ring, the slots */
    struct virtqueue vq;
    struct vblk_slot *slots;        /* one per ring entry */
    uint16_t free_slot;             /* a list through next_free */
    struct vq_buf bufs[VQ_INDIRECT_MAX];
    struct vblk *vb;
    unsigned long irqs;             /* interrupts taken */
};

struct vblk {
    struct blk_dev blk;
    struct virtio_dev vd;
    struct vblk_queue q[BLK_MAX_QUEUES];
    struct timer poll;              /* without interrupts */
    unsigned long config_irqs;      /* configuration changes heard of */
};

static unsigned int nr_vblks;

static void vblk_irq(void *data)
{
    struct vblk_queue *q = data;

    q->irqs++;
    blk_queue_interrupt(&q->vb->blk, q->vq.index);
}

/*
 * The configuration changed (QEMU's block_resize): the new capacity, if
 * that is what changed.  The other fields the driver reads are fixed
 * while the device runs.
 */
static void vblk_config_irq(void *data)
{
    struct vblk *vb = data;
    uint64_t nr = virtio_cfg_read(&vb->vd, VBLK_CFG_CAPACITY, 8);

    vb->config_irqs++;
    if ( nr != ACCESS_ONCE(vb->blk.nr_sectors) )
        blk_resized(&vb->blk, nr);
}

static void vblk_poll(void *data)
{
    struct vblk *vb = data;
    unsigned int i;

    for ( i = 0; i < vb->blk.nr_queues; i++ )
        if ( vb->q[i].vq.polled )
            blk_queue_interrupt(&vb->blk, i);
    set_timer(&vb->poll, NOW() + VBLK_POLL_NS);
}

static uint32_t op_type(enum blk_op op)
{
    switch ( op )
    {
    case BLK_OP_READ:           return VIRTIO_BLK_T_IN;
    case BLK_OP_WRITE:          return VIRTIO_BLK_T_OUT;
    case BLK_OP_FLUSH:          return VIRTIO_BLK_T_FLUSH;
    case BLK_OP_DISCARD:        return VIRTIO_BLK_T_DISCARD;
    case BLK_OP_WRITE_ZEROES:   return VIRTIO_BLK_T_WRITE_ZEROES;
    }
    return VIRTIO_BLK_T_IN;
}

/* Header, then data or a range, then the status byte the device writes. */
static unsigned int build(struct vblk_queue *q, struct vblk_slot *s,
                          const struct blk_request *req)
{
    unsigned int n = 0, i;

    /* blk_submit() kept nr_segs within max_segs, two under the array. */
    ASSERT(req->nr_segs + 2 <= ARRAY_SIZE(q->bufs));
    s->hdr.type = op_type(req->op);
    s->hdr.ioprio = 0;
    s->hdr.sector = req->op == BLK_OP_FLUSH ? 0 : req->sector;
    q->bufs[n++] = (struct vq_buf){ dma_addr(&s->hdr), sizeof(s->hdr),
                                    false };
    if ( req->op == BLK_OP_READ || req->op == BLK_OP_WRITE )
        for ( i = 0; i < req->nr_segs; i++ )
            q->bufs[n++] = (struct vq_buf){ req->seg[i].addr,
                                            req->seg[i].len,
                                            req->op == BLK_OP_READ };
    else if ( req->op != BLK_OP_FLUSH )
    {
        s->range.sector = req->sector;
        s->range.num_sectors = req->nr_sectors;
        s->range.flags = 0;
        q->bufs[n++] = (struct vq_buf){ dma_addr(&s->range),
                                        sizeof(s->range), false };
    }
    s->status = 0xff;
    q->bufs[n++] = (struct vq_buf){ dma_addr(&s->status), 1, true };
    return n;
}

static enum blk_status vblk_submit(struct blk_dev *dev, unsigned int qi,
                                   struct blk_request *req)
{
    struct vblk *vb = dev->priv;
    struct vblk_queue *q = &vb->q[qi];
    enum blk_status rc = BLK_OK;
    struct vblk_slot *s;
    unsigned long flags;
    unsigned int n;
    bool kick;

    spin_lock_irqsave(&q->lock, flags);
    if ( q->free_slot >= q->vq.size )
    {
        spin_unlock_irqrestore(&q->lock, flags);
        return BLK_EBUSY;
    }
    s = &q->slots[q->free_slot];
    n = build(q, s, req);
    switch ( vq_add(&q->vq, q->bufs, n, s) )
    {
    case 0:
        q->free_slot = s->next_free;
        s->req = req;
        break;
    case VQ_FULL:
        rc = BLK_EBUSY;
        break;
    default:
        rc = BLK_EINVAL;
        break;
    }
    kick = rc == BLK_OK && !req->more && vq_kick_prepare(&q->vq);
    spin_unlock_irqrestore(&q->lock, flags);
    if ( kick )
        virtio_notify(&vb->vd, &q->vq);
    return rc;
}

static void vblk_kick(struct blk_dev *dev, unsigned int qi)
{
    struct vblk *vb = dev->priv;

    virtio_kick_batch(&vb->vd, &vb->q[qi].vq, &vb->q[qi].lock);
}

static enum blk_status vblk_status(uint8_t s)
{
    switch ( s )
    {
    case VIRTIO_BLK_S_OK:       return BLK_OK;
    case VIRTIO_BLK_S_UNSUPP:   return BLK_EUNSUPP;
    default:                    return BLK_EIO;
    }
}

/* Completions of queue @qi, each callback run without the queue's lock. */
static void vblk_complete(struct blk_dev *dev, unsigned int qi)
{
    struct vblk *vb = dev->priv;
    struct vblk_queue *q = &vb->q[qi];
    unsigned long flags;
    struct vblk_slot *s;
    struct blk_request *req;
    enum blk_status st;
    uint32_t len;
    bool bad, warned = false;

    spin_lock_irqsave(&q->lock, flags);
    do {
        vq_disable_cb(&q->vq);
        for ( ;; )
        {
            s = vq_get_used(&q->vq, &len, &bad);
            if ( bad && !warned )
            {
                printk(XENLOG_WARNING "%s: queue %u: device returned a "
                       "descriptor it was not given\n", dev->name, qi);
                warned = true;
            }
            if ( !s )
                break;
            req = s->req;
            st = vblk_status(ACCESS_ONCE(s->status));
            s->req = NULL;
            s->next_free = q->free_slot;
            q->free_slot = s - q->slots;
            spin_unlock_irqrestore(&q->lock, flags);
            req->done(req, st);
            spin_lock_irqsave(&q->lock, flags);
        }
    } while ( vq_enable_cb(&q->vq) );
    spin_unlock_irqrestore(&q->lock, flags);
}

static void vblk_dump(struct blk_dev *dev)
{
    struct vblk *vb = dev->priv;
    unsigned int i;

    for ( i = 0; i < dev->nr_queues; i++ )
    {
        vq_dump(&vb->q[i].vq, dev->name);
        printk("%s vq%u: %lu interrupts%s\n", dev->name, i, vb->q[i].irqs,
               vb->q[i].vq.polled ? " (polled)" : "");
    }
    printk("%s: %lu sectors, %lu configuration changes\n", dev->name,
           (unsigned long)ACCESS_ONCE(dev->nr_sectors), vb->config_irqs);
}

static void vblk_stop(struct blk_dev *dev)
{
    struct vblk *vb = dev->priv;

    virtio_stop(&vb->vd, &vb->poll, dev->name);
}

static const struct blk_dev_ops vblk_ops = {
    .submit = vblk_submit,
    .kick = vblk_kick,
    .complete = vblk_complete,
    .dump = vblk_dump,
    .stop = vblk_stop,
};

/* The device's limits and features, as the block interface says them. */
static void read_config(struct vblk *vb)
{
    struct virtio_dev *vd = &vb->vd;
    struct blk_dev *b = &vb->blk;
    uint32_t v;

    b->nr_sectors = virtio_cfg_read(vd, VBLK_CFG_CAPACITY, 8);
    b->sector_size = BLK_SECTOR_SIZE;
    if ( virtio_has(vd, VIRTIO_BLK_F_BLK_SIZE) &&
         (v = virtio_cfg_read(vd, VBLK_CFG_BLK_SIZE, 4)) >= BLK_SECTOR_SIZE &&
         !(v & (v - 1)) && v <= 65536 )
        b->sector_size = v;
    b->phys_sector_size = b->sector_size;
    if ( virtio_has(vd, VIRTIO_BLK_F_TOPOLOGY) &&
         (v = virtio_cfg_read(vd, VBLK_CFG_PHYS_BLOCK_EXP, 1)) &&
         v <= 16 && b->sector_size << v <= 65536 )
        b->phys_sector_size = b->sector_size << v;
    /* Header and status take two of a request's buffers (q->bufs). */
    b->max_segs = MIN(vq_max_bufs(&vb->q[0].vq), VQ_INDIRECT_MAX) - 2;
    if ( virtio_has(vd, VIRTIO_BLK_F_SEG_MAX) &&
         (v = virtio_cfg_read(vd, VBLK_CFG_SEG_MAX, 4)) )
        b->max_segs = MIN(b->max_segs, v);
    b->max_seg_size = ~0u;
    if ( virtio_has(vd, VIRTIO_BLK_F_SIZE_MAX) &&
         (v = virtio_cfg_read(vd, VBLK_CFG_SIZE_MAX, 4)) >= BLK_SECTOR_SIZE )
        b->max_seg_size = v;
    if ( virtio_has(vd, VIRTIO_BLK_F_RO) )
        b->features |= BLK_F_RO;
    if ( virtio_has(vd, VIRTIO_BLK_F_FLUSH) )
        b->features |= BLK_F_FLUSH;
    if ( virtio_has(vd, VIRTIO_BLK_F_DISCARD) &&
         (b->max_discard_sectors =
          virtio_cfg_read(vd, VBLK_CFG_MAX_DISCARD_SECT, 4)) )
    {
        b->features |= BLK_F_DISCARD;
        b->discard_granularity =
            MAX(virtio_cfg_read(vd, VBLK_CFG_DISCARD_ALIGN, 4), 1);
    }
    if ( virtio_has(vd, VIRTIO_BLK_F_WRITE_ZEROES) &&
         (b->max_write_zeroes_sectors =
          virtio_cfg_read(vd, VBLK_CFG_MAX_WZ_SECT, 4)) )
        b->features |= BLK_F_WRITE_ZEROES;
}

/* Queue @i: its interrupt on the CPU that submits on it (i mod CPUs). */
static bool setup_queue(struct vblk *vb, unsigned int i)
{
    struct vblk_queue *q = &vb->q[i];
    unsigned int n, cpu = smp_queue_cpu(i);

    spin_lock_init(&q->lock, LOCK_RANK_BLK_QUEUE);
    q->vb = vb;
    /* Entry 0 is for configuration changes (vblk_config_irq()). */
    if ( !virtio_queue_setup(&vb->vd, &q->vq, i, VBLK_QUEUE_SIZE, i + 1,
                             cpu, vblk_irq, q) )
        return false;
    q->slots = dma_alloc(q->vq.size * sizeof(*q->slots));
    if ( !q->slots )
        return false;
    for ( n = 0; n < q->vq.size; n++ )
        q->slots[n].next_free = n + 1;
    q->free_slot = 0;
    return true;
}

static void log_device(struct vblk *vb)
{
    const struct blk_dev *b = &vb->blk;
    char name[8];

    printk("PCI: %s %04x:%04x virtio-blk, %lu sectors of %u bytes, "
           "%u queue%s, %s%s%s%s%s\n", pci_name(vb->vd.pci, name),
           vb->vd.pci->vendor, vb->vd.pci->device,
           (unsigned long)(b->nr_sectors / (b->sector_size / BLK_SECTOR_SIZE)),
           b->sector_size, b->nr_queues, b->nr_queues > 1 ? "s" : "",
           vb->vd.msix ? "MSI-X" : "polled",
           b->features & BLK_F_RO ? ", read-only" : "",
           b->features & BLK_F_FLUSH ? ", flush" : "",
           b->features & BLK_F_DISCARD ? ", discard" : "",
           b->features & BLK_F_WRITE_ZEROES ? ", write-zeroes" : "");
    printk("%s: up to %u segments", b->name, b->max_segs);
    if ( b->max_seg_size != ~0u )
        printk(" of %u bytes", b->max_seg_size);
    printk(", %u queue entries%s%s\n", vb->q[0].vq.size,
           virtio_has(&vb->vd, VIRTIO_F_RING_INDIRECT_DESC)
           ? ", indirect descriptors" : "",
           virtio_has(&vb->vd, VIRTIO_F_RING_EVENT_IDX)
           ? ", event index" : "");
}

bool virtio_blk_probe(struct pci_dev *d)
{
    struct vblk *vb;
    unsigned int i, nr;

    if ( d->vendor != VIRTIO_PCI_VENDOR ||
         (d->device != VIRTIO_PCI_MODERN_BASE + VIRTIO_ID_BLOCK &&
          !(d->device == VIRTIO_PCI_TRANS_BLOCK &&
            d->subsys == VIRTIO_ID_BLOCK)) )
        return false;
    if ( blk_count() == BLK_MAX_DEVS )
    {
        printk(XENLOG_WARNING "virtio-blk: more than %u disks: the rest "
               "are not used\n", BLK_MAX_DEVS);
        return false;
    }
    /*
     * Its state in frames of its own, taken for the disks there are; one
     * that fails to start keeps them (a vector may point into them).
     */
    if ( !(vb = dma_alloc(sizeof(*vb))) )
        return false;
    if ( !virtio_pci_init(&vb->vd, d) ||
         !virtio_negotiate(&vb->vd,
                           1ULL << VIRTIO_BLK_F_SIZE_MAX |
                           1ULL << VIRTIO_BLK_F_SEG_MAX |
                           1ULL << VIRTIO_BLK_F_RO |
                           1ULL << VIRTIO_BLK_F_BLK_SIZE |
                           1ULL << VIRTIO_BLK_F_FLUSH |
                           1ULL << VIRTIO_BLK_F_TOPOLOGY |
                           1ULL << VIRTIO_BLK_F_MQ |
                           1ULL << VIRTIO_BLK_F_DISCARD |
                           1ULL << VIRTIO_BLK_F_WRITE_ZEROES) )
        return false;

    nr = 1;
    if ( virtio_has(&vb->vd, VIRTIO_BLK_F_MQ) )
        nr = virtio_cfg_read(&vb->vd, VBLK_CFG_NUM_QUEUES, 2);
    nr = MIN(MIN(nr, virtio_nr_queues(&vb->vd)), num_online_cpus());
    nr = MAX(MIN(nr, BLK_MAX_QUEUES), 1u);
    for ( i = 0; i < nr; i++ )
        if ( !setup_queue(vb, i) )
        {
            virtio_fail(&vb->vd);
            return false;
        }

    snprintf(vb->blk.name, sizeof(vb->blk.name), "virtio-blk%u", nr_vblks);
    for ( i = 0; i < nr; i++ )
        lock_profile_name(&vb->q[i].lock, &lock_profile_global,
                          "%s->q[%u].lock", vb->blk.name, i);
    vb->blk.nr_queues = nr;
    vb->blk.ops = &vblk_ops;
    vb->blk.priv = vb;
    vb->blk.pci = d;
    read_config(vb);
    /* A resize on CPU 0; without MSI-X a resize goes unheard. */
    virtio_config_irq(&vb->vd, 0, 0, vblk_config_irq, vb);
    virtio_driver_ok(&vb->vd);
    for ( i = 0; i < nr && !vb->q[i].vq.polled; i++ )
        continue;
    if ( i < nr )                       /* a queue without an interrupt */
    {
        init_timer(&vb->poll, vblk_poll, vb, smp_processor_id());
        set_timer(&vb->poll, NOW() + VBLK_POLL_NS);
    }
    nr_vblks++;
    blk_register(&vb->blk);
    log_device(vb);
    return true;
}
