/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An NVMe controller brought up at boot (NVM Express Base 1.4, 7.6.1):
 * reset and enable within CAP.TO, the admin queue polled, Identify, the
 * number of queues, an I/O queue pair per CPU with an MSI-X vector on
 * that CPU (else polled); then the namespaces (nvme-ns.c).
 */
#include "arch/x86/barrier.h"
#include "arch/x86/percpu.h"
#include "arch/x86/smp.h"
#include "arch/x86/time.h"
#include "drivers/dma.h"
#include "drivers/drivers.h"
#include "drivers/ioremap.h"
#include "drivers/nvme/nvme-ctrl.h"
#include "shim/console.h"

#define ADMIN_TIMEOUT_NS    5000000000ULL   /* an admin command: 5 s */
#define POLL_NS             1000000ULL      /* no interrupt: 1 ms */

static unsigned int nr_ctrls;           /* named so far: nvme0, nvme1... */
static unsigned int nr_live;            /* not yet stopped (the limit) */
uint8_t *nvme_id_buf;

static uint32_t reg32(struct nvme_ctrl *c, unsigned int off)
{
    return mmio_read32(c->regs + off);
}

static void set_reg32(struct nvme_ctrl *c, unsigned int off, uint32_t v)
{
    mmio_write32(c->regs + off, v);
}

/* CSTS.RDY becomes @rdy within CAP.TO; false if not, or the device died. */
static bool wait_ready(struct nvme_ctrl *c, bool rdy)
{
    uint64_t start = now_ns();
    uint32_t csts;

    for ( ;; )
    {
        csts = reg32(c, NVME_REG_CSTS);
        if ( csts == ~0u || (rdy && (csts & NVME_CSTS_CFS)) )
            return false;
        if ( !!(csts & NVME_CSTS_RDY) == rdy )
            return true;
        if ( now_ns() - start > c->timeout_ns )
            return false;
        cpu_relax();
    }
}

/* Stop the controller reaching our memory, and say why it is not used. */
static bool give_up(struct nvme_ctrl *c, const char *why)
{
    char name[8];

    if ( c->dead )
        return false;               /* said once */
    c->dead = true;
    set_reg32(c, NVME_REG_CC, 0);
    printk(XENLOG_WARNING "nvme%u: %s %s: not used\n", c->index,
           pci_name(c->pci, name), why);
    return false;
}

void nvme_ns_stopped(struct nvme_ctrl *c)
{
    if ( ++c->nr_stopped < c->nr_ns )
        return;
    /* The last: the controller off (CC.EN 0: its queues gone), no polls. */
    set_reg32(c, NVME_REG_CC, 0);
    if ( !wait_ready(c, false) )
        printk(XENLOG_WARNING "nvme%u: does not stop\n", c->index);
    if ( timer_is_active(&c->poll) )
        stop_timer(&c->poll);
    nr_live--;
}

/*
 * Run one admin command to its completion, polled; *@result its DW0.
 * @quiet: a failure status is expected and not logged.  A command that
 * doesn't complete gives the controller up.
 */
static bool admin(struct nvme_ctrl *c, struct nvme_sqe *cmd,
                  uint32_t *result, const char *what, bool quiet)
{
    static uint16_t next_cid;
    struct nvme_queue *q = &c->admin;
    uint64_t start = now_ns();
    struct nvme_cqe cqe;

    if ( c->dead )
        return false;
    cmd->cid = next_cid++;
    nvme_sq_submit(q, cmd);
    for ( ;; )
    {
        if ( !nvme_cq_pop(&q->cq, &cqe) )
        {
            if ( now_ns() - start > ADMIN_TIMEOUT_NS )
            {
                printk(XENLOG_WARNING "nvme%u: %s: no completion in %llu "
                       "s\n", c->index, what, ADMIN_TIMEOUT_NS / 1000000000);
                return give_up(c, "does not answer");
            }
            cpu_relax();
            continue;
        }
        mmio_write32(q->cq_db, q->cq.head);
        if ( cqe.cid == cmd->cid && cqe.sq_id == 0 )
            break;
        printk(XENLOG_WARNING "nvme%u: admin: completion for command %u, "
               "not outstanding: ignored\n", c->index, cqe.cid);
    }
    if ( cqe.status >> 1 )
    {
        if ( !quiet )
            printk(XENLOG_WARNING "nvme%u: %s: status %#x\n", c->index, what,
                   cqe.status >> 1);
        return false;
    }
    if ( result )
        *result = cqe.result;
    return true;
}

bool nvme_identify(struct nvme_ctrl *c, uint8_t cns, uint32_t nsid,
                   uint8_t csi, const char *what, bool quiet)
{
    struct nvme_sqe cmd = {
        .opcode = NVME_ADMIN_IDENTIFY, .nsid = nsid,
        .prp1 = dma_addr(nvme_id_buf), .cdw10 = cns,
        .cdw11 = (uint32_t)csi << 24,
    };

    memset(nvme_id_buf, 0, NVME_PAGE_SIZE);
    return admin(c, &cmd, NULL, what, quiet);
}

/* Reset, the admin queue, enable (7.6.1). */
static bool enable(struct nvme_ctrl *c)
{
    struct nvme_queue *a = &c->admin;

    c->cap = reg32(c, NVME_REG_CAP) |
             (uint64_t)reg32(c, NVME_REG_CAP + 4) << 32;
    if ( c->cap == ~0ULL )
        return give_up(c, "reads as all ones");
    c->timeout_ns = MAX(NVME_CAP_TO(c->cap), 1u) * 500000000ULL;
    c->db_stride = 4u << NVME_CAP_DSTRD(c->cap);
    if ( !NVME_CAP_CSS_NVM(c->cap) || NVME_CAP_MPSMIN(c->cap) )
        return give_up(c, "has no NVM command set or 4 KiB pages");
    if ( (reg32(c, NVME_REG_CC) & NVME_CC_EN) ||
         (reg32(c, NVME_REG_CSTS) & NVME_CSTS_RDY) )
    {
        set_reg32(c, NVME_REG_CC, 0);
        if ( !wait_ready(c, false) )
            return give_up(c, "does not reset");
    }
    if ( !nvme_queue_alloc(c, a, 0, NVME_ADMIN_DEPTH) )
        return give_up(c, "gets no memory");
    set_reg32(c, NVME_REG_AQA,
              (NVME_ADMIN_DEPTH - 1) << 16 | (NVME_ADMIN_DEPTH - 1));
    mmio_write64_split(c->regs + NVME_REG_ASQ, dma_addr(a->sq));
    mmio_write64_split(c->regs + NVME_REG_ACQ, dma_addr((void *)a->cq.cqe));
    set_reg32(c, NVME_REG_CC, NVME_CC_EN | NVME_CC_CSS_NVM |
              NVME_CC_MPS(NVME_PAGE_SHIFT) | NVME_CC_AMS_RR |
              NVME_CC_IOSQES | NVME_CC_IOCQES);
    if ( !wait_ready(c, true) )
    {
        printk(XENLOG_WARNING "nvme%u: not ready in %lu ms (CSTS %#x)\n",
               c->index, (unsigned long)(c->timeout_ns / 1000000),
               reg32(c, NVME_REG_CSTS));
        return give_up(c, "does not start");
    }
    return true;
}

static void io_irq(void *data)
{
    struct nvme_queue *q = data;

    q->irqs++;
    /* Any namespace's will do: they share the pending bits and queues. */
    blk_queue_interrupt(&q->ctrl->ns[0].blk, q->qid - 1);
}

/* Queue pair @i (qid i + 1): its vector on CPU i mod CPUs, else polled. */
static bool create_io_queue(struct nvme_ctrl *c, unsigned int i,
                            uint16_t depth)
{
    struct nvme_queue *q = &c->io[i];
    unsigned int entry = i + 1;
    struct nvme_sqe cmd;
    uint32_t flags = NVME_QUEUE_PC;

    if ( !nvme_queue_alloc(c, q, i + 1, depth) )
        return false;
    q->cpu = smp_queue_cpu(i);
    q->polled = !c->msix || entry >= c->pci->msix_size ||
                !pci_msix_bind(c->pci, entry, q->cpu, io_irq, q);
    if ( !q->polled )
        flags |= NVME_CQ_IEN | entry << 16;
    else
        printk(XENLOG_WARNING "nvme%u: I/O queue %u: no MSI-X vector, "
               "completions polled\n", c->index, q->qid);

    cmd = (struct nvme_sqe){
        .opcode = NVME_ADMIN_CREATE_CQ, .prp1 = dma_addr((void *)q->cq.cqe),
        .cdw10 = (uint32_t)(depth - 1) << 16 | q->qid, .cdw11 = flags,
    };
    if ( !admin(c, &cmd, NULL, "create I/O completion queue", false) )
        return false;
    cmd = (struct nvme_sqe){
        .opcode = NVME_ADMIN_CREATE_SQ, .prp1 = dma_addr(q->sq),
        .cdw10 = (uint32_t)(depth - 1) << 16 | q->qid,
        .cdw11 = (uint32_t)q->qid << 16 | NVME_QUEUE_PC,
    };
    return admin(c, &cmd, NULL, "create I/O submission queue", false);
}

/* As many pairs as CPUs, as the controller grants (Set Features 07h). */
static bool create_io_queues(struct nvme_ctrl *c)
{
    unsigned int want = MIN(num_online_cpus(), (unsigned int)BLK_MAX_QUEUES);
    struct nvme_sqe cmd = {
        .opcode = NVME_ADMIN_SET_FEATURES, .cdw10 = NVME_FEAT_NUM_QUEUES,
        .cdw11 = (want - 1) << 16 | (want - 1),
    };
    uint16_t depth = MIN(NVME_CAP_MQES(c->cap) + 1u, NVME_IO_DEPTH);
    uint32_t granted;

    if ( !admin(c, &cmd, &granted, "set the number of queues", false) )
        return false;
    want = MIN(want, (granted & 0xffff) + 1);
    want = MIN(want, (granted >> 16) + 1);
    if ( depth < 2 )
        return false;
    if ( (uint64_t)NVME_REG_DBS + 2 * (want + 1) * c->db_stride >
         c->pci->bar[0].size )
        return false;
    for ( c->nr_io = 0; c->nr_io < want; c->nr_io++ )
        if ( !create_io_queue(c, c->nr_io, depth) )
            break;
    return c->nr_io;
}

static void poll_queues(void *data)
{
    struct nvme_ctrl *c = data;
    unsigned int i;

    for ( i = 0; i < c->nr_io; i++ )
        if ( c->io[i].polled )
            blk_queue_interrupt(&c->ns[0].blk, i);
    set_timer(&c->poll, NOW() + POLL_NS);
}

static bool start(struct nvme_ctrl *c)
{
    char name[8];

    if ( !enable(c) )
        return false;
    if ( !nvme_identify(c, NVME_ID_CNS_CTRL, 0, 0, "identify controller",
                        false) )
        return give_up(c, "cannot be identified");
    nvme_parse_id_ctrl(nvme_id_buf, &c->id);
    c->max_sectors = nvme_max_sectors(c->id.mdts, NVME_CAP_MPSMIN(c->cap),
                                      NVME_MAX_SECTORS);
    nvme_read_limits(c);
    c->msix = pci_msix_init(c->pci);
    pci_enable(c->pci, c->msix);
    if ( !c->msix )                 /* no INTx either: nobody routes it */
        set_reg32(c, NVME_REG_INTMS, ~0u);
    if ( !create_io_queues(c) )
        return give_up(c, "gives no I/O queue");
    printk("PCI: %s %04x:%04x NVMe \"%s\" serial \"%s\", %u I/O queue "
           "pair%s of %u, %s\n", pci_name(c->pci, name), c->pci->vendor,
           c->pci->device, c->id.model, c->id.serial, c->nr_io,
           c->nr_io > 1 ? "s" : "", c->io[0].depth,
           c->msix ? "MSI-X" : "polled");
    nvme_add_namespaces(c);
    if ( !c->nr_ns )
        printk(XENLOG_WARNING "nvme%u: no usable namespace\n", c->index);
    return true;
}

bool nvme_probe(struct pci_dev *d)
{
    struct nvme_ctrl *c;
    unsigned int i;
    char name[8];

    if ( d->class != NVME_PCI_CLASS )
        return false;
    if ( nr_live == NVME_MAX_CTRLS )
    {
        printk(XENLOG_WARNING "nvme: %s: more than %u controllers: not "
               "used\n", pci_name(d, name), NVME_MAX_CTRLS);
        return false;
    }
    /* Every controller's, kept for good (not the first one's). */
    if ( !nvme_id_buf )
    {
        unsigned int was = dma_owner_set(0);

        nvme_id_buf = dma_alloc(NVME_PAGE_SIZE);
        dma_owner_set(was);
        if ( !nvme_id_buf )
            return false;
    }
    /* As a virtio-blk disk's: frames of its own, kept if it fails. */
    if ( !(c = dma_alloc(sizeof(*c))) )
        return false;
    c->pci = d;
    c->index = nr_ctrls;
    if ( !pci_assign_bars(d) || d->bar[0].io || d->bar[0].size < 0x2000 ||
         !(c->regs = pci_map_bar(d, 0)) )
    {
        printk(XENLOG_WARNING "nvme: %s: BAR 0 unusable\n",
               pci_name(d, name));
        return false;
    }
    pci_enable(d, false);
    nr_ctrls++;
    nr_live++;
    if ( !start(c) )
        return true;        /* ours, dead: no other driver takes it */
    for ( i = 0; i < c->nr_io; i++ )
        if ( c->io[i].polled && c->nr_ns )
        {
            init_timer(&c->poll, poll_queues, c, smp_processor_id());
            set_timer(&c->poll, NOW() + POLL_NS);
            break;
        }
    return true;
}
