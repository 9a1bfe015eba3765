/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The NVMe driver's own state: a controller, its queue pairs (the admin
 * pair, polled at boot, and an I/O pair per CPU it grants) and its
 * namespaces, each a block device.  Shared by nvme-ctrl.c (bring-up,
 * admin commands), nvme-ns.c (namespaces) and nvme-io.c (I/O).
 */
#ifndef DRIVERS_NVME_NVME_CTRL_H
#define DRIVERS_NVME_NVME_CTRL_H

#include "drivers/block.h"
#include "drivers/nvme/nvme.h"
#include "drivers/pci.h"
#include "shim/spinlock.h"
#include "shim/timer.h"

#define NVME_MAX_CTRLS          8
#define NVME_MAX_NS             4       /* namespaces used per controller */
#define NVME_ADMIN_DEPTH        16
#define NVME_IO_DEPTH           64      /* at most, per I/O queue */
/* One PRP list page per command: 512 entries, 2 MiB a transfer at most. */
#define NVME_PRP_LIST_MAX       (NVME_PAGE_SIZE / 8)
#define NVME_MAX_SECTORS        (NVME_PRP_LIST_MAX * NVME_PAGE_SIZE / \
                                 BLK_SECTOR_SIZE)

struct nvme_ctrl;

/* One command the driver gave a queue: its id is its index. */
struct nvme_slot {
    struct blk_request *req;    /* NULL: not outstanding */
    uint16_t next_free;
};

struct nvme_queue {
    spinlock_t lock;            /* the submission tail, the slots, the CQ */
    struct nvme_ctrl *ctrl;
    uint16_t qid, depth;        /* depth: entries in each of SQ and CQ */
    struct nvme_sqe *sq;
    uint16_t sq_tail;
    uint16_t sq_rung;           /* sq_tail at the last doorbell write */
    struct nvme_cq_ring cq;
    volatile uint32_t *sq_db, *cq_db;
    /*
     * depth - 1 slots, so never more commands than the SQ holds; each
     * with a page for its PRP list or its Dataset Management range.
     */
    struct nvme_slot slots[NVME_IO_DEPTH];
    uint16_t free_slot;
    uint64_t *pages;            /* depth - 1 pages, slot i's at i */
    unsigned int cpu;           /* where its interrupt arrives */
    bool polled;                /* no MSI-X vector: the poll timer's */
    unsigned long irqs, strays;
};

struct nvme_ns {
    struct blk_dev blk;
    struct nvme_ctrl *ctrl;
    uint32_t nsid;
    unsigned int lba_shift;
    uint64_t nsze;              /* blocks */
};

struct nvme_ctrl {
    struct pci_dev *pci;
    volatile uint8_t *regs;
    uint64_t cap;
    unsigned int index;         /* nvme<index> */
    unsigned int db_stride;     /* bytes between doorbells */
    uint64_t timeout_ns;        /* CAP.TO */
    struct nvme_id_ctrl id;
    struct nvme_queue admin;
    struct nvme_queue io[BLK_MAX_QUEUES];
    unsigned int nr_io;
    bool msix;
    bool dead;                  /* given up, disabled: said once */
    struct nvme_ns ns[NVME_MAX_NS];
    unsigned int nr_ns;
    unsigned int nr_stopped;    /* namespaces given back (a removal) */
    /*
     * The I/O queues' pending bits, per CPU (drivers/block.h), every
     * namespace's: the one that runs them may be given back before the
     * others, which still have requests on the same queues.
     */
    unsigned long pending[NR_CPUS];
    struct timer poll;          /* for polled I/O queues */
    uint32_t max_sectors;       /* 512-byte, in one transfer (MDTS) */
};

/* nvme-ctrl.c: Identify (CNS @cns) into nvme_id_buf, polled. */
extern uint8_t *nvme_id_buf;
bool nvme_identify(struct nvme_ctrl *c, uint8_t cns, uint32_t nsid,
                   uint8_t csi, const char *what, bool quiet);

/* nvme-ns.c: the shared limits, then every namespace a block device. */
void nvme_read_limits(struct nvme_ctrl *c);
void nvme_add_namespaces(struct nvme_ctrl *c);
/* nvme-ctrl.c: a namespace given back; the last one stops @c. */
void nvme_ns_stopped(struct nvme_ctrl *c);

/* nvme-io.c: an I/O queue's block side, and the namespaces' ops. */
extern const struct blk_dev_ops nvme_blk_ops;
/* Fill slot @i of @q's SQ at the tail and ring the doorbell; locked. */
void nvme_sq_submit(struct nvme_queue *q, const struct nvme_sqe *cmd);
/* The same without the doorbell; nvme_sq_ring() rings it for all. */
void nvme_sq_put(struct nvme_queue *q, const struct nvme_sqe *cmd);
void nvme_sq_ring(struct nvme_queue *q);
/* Set up @q's memory (depth entries), its doorbells, its slots. */
bool nvme_queue_alloc(struct nvme_ctrl *c, struct nvme_queue *q,
                      uint16_t qid, uint16_t depth);

#endif /* DRIVERS_NVME_NVME_CTRL_H */
