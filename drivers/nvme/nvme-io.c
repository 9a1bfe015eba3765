/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * NVMe namespaces as block devices (drivers/block.h): a request becomes
 * one NVM command on the submitting CPU's I/O queue pair, its id the
 * index of the slot that holds it; completions found by phase tag, each
 * id checked to be outstanding, run from BLOCK_SOFTIRQ where the
 * completion queue's interrupt arrives.
 */
#include "arch/x86/barrier.h"
#include "drivers/dma.h"
#include "drivers/ioremap.h"
#include "drivers/nvme/nvme-ctrl.h"
#include "shim/console.h"
#include "shim/perfc.h"

#define STRAYS_LOGGED   4       /* per queue, then counted only */
#define BATCH           16      /* completions per doorbell write */

bool nvme_queue_alloc(struct nvme_ctrl *c, struct nvme_queue *q,
                      uint16_t qid, uint16_t depth)
{
    unsigned int i;

    spin_lock_init(&q->lock, LOCK_RANK_NVME_QUEUE);
    lock_profile_name(&q->lock, &lock_profile_global, "nvme%u->q[%u].lock",
                      c->index, qid);
    q->ctrl = c;
    q->qid = qid;
    q->depth = depth;
    q->sq = dma_alloc(depth * sizeof(struct nvme_sqe));
    q->cq.cqe = dma_alloc(depth * sizeof(struct nvme_cqe));
    q->cq.size = depth;
    q->cq.head = 0;
    q->cq.phase = 1;
    q->sq_tail = q->sq_rung = 0;
    q->sq_db = (volatile uint32_t *)(c->regs + NVME_REG_DBS +
                                     2 * qid * c->db_stride);
    q->cq_db = (volatile uint32_t *)(c->regs + NVME_REG_DBS +
                                     (2 * qid + 1) * c->db_stride);
    if ( qid )
        q->pages = dma_alloc((depth - 1UL) * NVME_PAGE_SIZE);
    if ( !q->sq || !q->cq.cqe || (qid && !q->pages) )
        return false;
    for ( i = 0; i + 1 < depth; i++ )
        q->slots[i] = (struct nvme_slot){ NULL, i + 1 };
    q->free_slot = 0;
    return true;
}

void nvme_sq_put(struct nvme_queue *q, const struct nvme_sqe *cmd)
{
    q->sq[q->sq_tail] = *cmd;
    if ( ++q->sq_tail == q->depth )
        q->sq_tail = 0;
}

void nvme_sq_ring(struct nvme_queue *q)
{
    if ( q->sq_tail == q->sq_rung )
        return;
    /* The entries before the doorbell that hands them over. */
    smp_wmb();
    perfc_incr(device_notifications);
    mmio_write32(q->sq_db, q->sq_tail);
    q->sq_rung = q->sq_tail;
}

void nvme_sq_submit(struct nvme_queue *q, const struct nvme_sqe *cmd)
{
    nvme_sq_put(q, cmd);
    nvme_sq_ring(q);
}

/* @req as an NVM command in @cmd, its PRP list or range in @page. */
static bool build(const struct nvme_ns *ns, const struct blk_request *req,
                  struct nvme_sqe *cmd, uint64_t *page)
{
    unsigned int lba_to_sect = ns->lba_shift - BLK_SECTOR_SHIFT;
    uint64_t slba = req->sector >> lba_to_sect, bytes = 0;
    struct nvme_dsm_range *range = (struct nvme_dsm_range *)page;
    unsigned int i;

    memset(cmd, 0, sizeof(*cmd));
    cmd->nsid = ns->nsid;
    cmd->cdw10 = slba;
    cmd->cdw11 = slba >> 32;
    switch ( req->op )
    {
    case BLK_OP_READ:
    case BLK_OP_WRITE:
        cmd->opcode = req->op == BLK_OP_READ ? NVME_CMD_READ
                                             : NVME_CMD_WRITE;
        for ( i = 0; i < req->nr_segs; i++ )
            bytes += req->seg[i].len;
        /* blk_submit() kept the blocks within max_sectors (16 bits). */
        cmd->cdw12 = (bytes >> ns->lba_shift) - 1;
        return nvme_prp_build(req->seg, req->nr_segs, &cmd->prp1,
                              &cmd->prp2, page, dma_addr(page),
                              NVME_PRP_LIST_MAX) >= 0;
    case BLK_OP_FLUSH:
        cmd->opcode = NVME_CMD_FLUSH;
        cmd->cdw10 = cmd->cdw11 = 0;
        return true;
    case BLK_OP_DISCARD:
        cmd->opcode = NVME_CMD_DSM;
        range->cattr = 0;
        range->nlb = req->nr_sectors >> lba_to_sect;
        range->slba = slba;
        cmd->prp1 = dma_addr(range);
        cmd->cdw10 = 0;                 /* one range */
        cmd->cdw11 = NVME_DSM_AD;
        return true;
    case BLK_OP_WRITE_ZEROES:
        cmd->opcode = NVME_CMD_WRITE_ZEROES;
        cmd->cdw12 = (req->nr_sectors >> lba_to_sect) - 1;
        return true;
    }
    return false;
}

static enum blk_status nvme_submit(struct blk_dev *dev, unsigned int qi,
                                   struct blk_request *req)
{
    struct nvme_ns *ns = dev->priv;
    struct nvme_queue *q = &ns->ctrl->io[qi];
    struct nvme_sqe cmd;
    struct nvme_slot *s;
    unsigned long flags;
    uint16_t i;

    spin_lock_irqsave(&q->lock, flags);
    if ( q->free_slot + 1 >= q->depth )
    {
        spin_unlock_irqrestore(&q->lock, flags);
        return BLK_EBUSY;
    }
    i = q->free_slot;
    s = &q->slots[i];
    if ( !build(ns, req, &cmd, q->pages + i * (NVME_PAGE_SIZE / 8)) )
    {
        spin_unlock_irqrestore(&q->lock, flags);
        return BLK_EINVAL;
    }
    cmd.cid = i;
    q->free_slot = s->next_free;
    s->req = req;
    nvme_sq_put(q, &cmd);
    if ( !req->more )
        nvme_sq_ring(q);
    spin_unlock_irqrestore(&q->lock, flags);
    return BLK_OK;
}

/* The end of a batch: one doorbell write for all of it. */
static void nvme_kick(struct blk_dev *dev, unsigned int qi)
{
    struct nvme_ns *ns = dev->priv;
    struct nvme_queue *q = &ns->ctrl->io[qi];
    unsigned long flags;

    spin_lock_irqsave(&q->lock, flags);
    nvme_sq_ring(q);
    spin_unlock_irqrestore(&q->lock, flags);
}

/* Take up to BATCH completions off @q.  How many. */
static unsigned int reap(struct nvme_ns *ns, struct nvme_queue *q,
                         struct blk_request **req, enum blk_status *st)
{
    struct nvme_cqe cqe;
    struct nvme_slot *s;
    unsigned int n = 0;
    int slot;

    ASSERT(spin_is_locked_by_me(&q->lock));
    while ( n < BATCH && nvme_cq_pop(&q->cq, &cqe) )
    {
        slot = nvme_cqe_slot(&cqe, q->qid, q->depth - 1);
        s = slot < 0 ? NULL : &q->slots[slot];
        if ( !s || !s->req )
        {
            if ( q->strays++ < STRAYS_LOGGED )
                printk(XENLOG_WARNING "nvme%u: queue %u: completion for "
                       "command %u of SQ %u, not outstanding: ignored\n",
                       ns->ctrl->index, q->qid, cqe.cid, cqe.sq_id);
            continue;
        }
        req[n] = s->req;
        st[n++] = nvme_blk_status(cqe.status);
        if ( cqe.status >> 1 )
            printk(XENLOG_DEBUG "nvme%u: queue %u: command %u: status "
                   "%#x\n", ns->ctrl->index, q->qid, cqe.cid,
                   cqe.status >> 1);
        s->req = NULL;
        s->next_free = q->free_slot;
        q->free_slot = s - q->slots;
    }
    return n;
}

/* Completions of I/O queue @qi, the callbacks run without its lock. */
static void nvme_complete(struct blk_dev *dev, unsigned int qi)
{
    struct nvme_ns *ns = dev->priv;
    struct nvme_queue *q = &ns->ctrl->io[qi];
    struct blk_request *req[BATCH];
    enum blk_status st[BATCH];
    unsigned long flags;
    unsigned int n, i;
    uint16_t head;

    do {
        spin_lock_irqsave(&q->lock, flags);
        head = q->cq.head;
        n = reap(ns, q, req, st);
        if ( head != q->cq.head )
            mmio_write32(q->cq_db, q->cq.head);
        spin_unlock_irqrestore(&q->lock, flags);
        for ( i = 0; i < n; i++ )
            req[i]->done(req[i], st[i]);
    } while ( n == BATCH );
}

static void nvme_dump(struct blk_dev *dev)
{
    struct nvme_ns *ns = dev->priv;
    unsigned int qi, i, out;

    for ( qi = 0; qi < dev->nr_queues; qi++ )
    {
        struct nvme_queue *q = &ns->ctrl->io[qi];

        for ( i = out = 0; i + 1 < q->depth; i++ )
            out += !!ACCESS_ONCE(q->slots[i].req);
        printk("%s queue %u: SQ tail %u, CQ head %u phase %u, %u of %u "
               "commands outstanding, %lu interrupts%s, %lu strays\n",
               dev->name, q->qid, q->sq_tail, q->cq.head, q->cq.phase, out,
               q->depth - 1, q->irqs, q->polled ? " (polled)" : "",
               q->strays);
    }
}

static void nvme_stop(struct blk_dev *dev)
{
    struct nvme_ns *ns = dev->priv;

    nvme_ns_stopped(ns->ctrl);
}

const struct blk_dev_ops nvme_blk_ops = {
    .submit = nvme_submit,
    .kick = nvme_kick,
    .complete = nvme_complete,
    .dump = nvme_dump,
    .stop = nvme_stop,
};
