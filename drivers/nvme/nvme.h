/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * NVMe over PCIe (NVM Express Base 1.4): controller registers, queue
 * entries, the admin and NVM commands the driver sends, the Identify
 * fields it reads, and the pure logic on them (PRP lists, the phase-tag
 * walk of a completion queue, Identify parsing) that host tests compile.
 */
#ifndef DRIVERS_NVME_NVME_H
#define DRIVERS_NVME_NVME_H

#include "shim/lib.h"
#include "drivers/block.h"

/* PCI class of an NVMe controller: mass storage, NVM, NVMe (1.4 2.1.5). */
#define NVME_PCI_CLASS          0x010802

/* Controller registers (3.1), offsets into BAR 0. */
#define NVME_REG_CAP            0x00    /* 64 bits */
#define NVME_REG_VS             0x08
#define NVME_REG_INTMS          0x0c
#define NVME_REG_CC             0x14
#define NVME_REG_CSTS           0x1c
#define NVME_REG_AQA            0x24
#define NVME_REG_ASQ            0x28    /* 64 bits */
#define NVME_REG_ACQ            0x30    /* 64 bits */
#define NVME_REG_DBS            0x1000  /* doorbells */

/* CAP fields (3.1.1). */
#define NVME_CAP_MQES(cap)      ((cap) & 0xffff)            /* 0-based */
#define NVME_CAP_TO(cap)        (((cap) >> 24) & 0xff)      /* 500 ms */
#define NVME_CAP_DSTRD(cap)     (((cap) >> 32) & 0xf)
#define NVME_CAP_CSS_NVM(cap)   (((cap) >> 37) & 1)
#define NVME_CAP_MPSMIN(cap)    (((cap) >> 48) & 0xf)       /* 4 KiB << */

/* CC (3.1.5) and CSTS (3.1.6). */
#define NVME_CC_EN              (1u << 0)
#define NVME_CC_CSS_NVM         (0u << 4)
#define NVME_CC_MPS(shift)      (((shift) - 12) << 7)
#define NVME_CC_AMS_RR          (0u << 11)
#define NVME_CC_SHN_NORMAL      (1u << 14)
#define NVME_CC_IOSQES          (6u << 16)  /* 64-byte entries */
#define NVME_CC_IOCQES          (4u << 20)  /* 16-byte entries */
#define NVME_CSTS_RDY           (1u << 0)
#define NVME_CSTS_CFS           (1u << 1)

/* The memory page the driver tells the controller (CC.MPS): 4 KiB. */
#define NVME_PAGE_SHIFT         12
#define NVME_PAGE_SIZE          (1u << NVME_PAGE_SHIFT)

/* A submission queue entry (4.2): 64 bytes. */
struct nvme_sqe {
    uint8_t opcode;
    uint8_t flags;          /* FUSE, PSDT (0: PRPs) */
    uint16_t cid;
    uint32_t nsid;
    uint64_t rsvd;
    uint64_t mptr;
    uint64_t prp1, prp2;
    uint32_t cdw10, cdw11, cdw12, cdw13, cdw14, cdw15;
};

/* A completion queue entry (4.6): 16 bytes. */
struct nvme_cqe {
    uint32_t result;        /* DW0: command specific */
    uint32_t rsvd;
    uint16_t sq_head, sq_id;
    uint16_t cid;
    uint16_t status;        /* bit 0 the phase tag, then the status field */
};

/* Status field (4.6.1), as nvme_cqe.status >> 1. */
#define NVME_SC(s)              ((s) & 0xff)
#define NVME_SCT(s)             (((s) >> 8) & 7)
#define NVME_SC_INVALID_OPCODE  0x01    /* SCT 0 */
#define NVME_SC_INVALID_FIELD   0x02
#define NVME_SC_WRITE_PROTECTED 0x20

/* Admin commands (5). */
#define NVME_ADMIN_DELETE_SQ    0x00
#define NVME_ADMIN_CREATE_SQ    0x01
#define NVME_ADMIN_DELETE_CQ    0x04
#define NVME_ADMIN_CREATE_CQ    0x05
#define NVME_ADMIN_IDENTIFY     0x06
#define NVME_ADMIN_SET_FEATURES 0x09
#define NVME_QUEUE_PC           (1u << 0)   /* physically contiguous */
#define NVME_CQ_IEN             (1u << 1)   /* interrupts enabled */
#define NVME_ID_CNS_NS          0x00
#define NVME_ID_CNS_CTRL        0x01
#define NVME_ID_CNS_NS_LIST     0x02
#define NVME_ID_CNS_CSI_CTRL    0x06        /* 2.0: per command set */
#define NVME_FEAT_NUM_QUEUES    0x07

/* NVM commands (NVM Command Set 1.0, 3). */
#define NVME_CMD_FLUSH          0x00
#define NVME_CMD_WRITE          0x01
#define NVME_CMD_READ           0x02
#define NVME_CMD_WRITE_ZEROES   0x08
#define NVME_CMD_DSM            0x09
#define NVME_DSM_AD             (1u << 2)   /* deallocate */

/* A Dataset Management range (NVM 3.2.3): 16 bytes. */
struct nvme_dsm_range {
    uint32_t cattr;
    uint32_t nlb;
    uint64_t slba;
};

/* What the driver keeps of Identify Controller (1.4 5.15.2.2). */
struct nvme_id_ctrl {
    char serial[21], model[41];
    uint8_t mdts;           /* 2^mdts minimum pages in a transfer; 0: any */
    uint16_t oncs;          /* optional NVM commands */
    uint8_t vwc;            /* bit 0: a volatile write cache */
    uint32_t nn;            /* namespaces, the highest id */
    /* Identify Controller for the NVM command set (CNS 06h, NVMe 2.0). */
    uint8_t wzsl;           /* Write Zeroes: 2^wzsl minimum pages; 0: any */
    uint32_t dmrsl;         /* blocks in one DSM range; 0: any */
};
#define NVME_ONCS_DSM           (1u << 2)
#define NVME_ONCS_WRITE_ZEROES  (1u << 3)

/* What the driver keeps of Identify Namespace (NVM 4.1.5.1). */
struct nvme_id_ns {
    uint64_t nsze;          /* blocks */
    unsigned int lba_shift; /* log2 of the block size */
    bool has_metadata;      /* metadata with each block: not used */
    bool write_protected;   /* NSATTR bit 0 */
};

/*
 * Parse the 4096-byte Identify data @id.  A namespace is usable if false
 * is not returned: its LBA format in range, its block size 512 bytes to
 * 64 KiB, no metadata.
 */
void nvme_parse_id_ctrl(const uint8_t *id, struct nvme_id_ctrl *c);
void nvme_parse_id_ctrl_nvm(const uint8_t *id, struct nvme_id_ctrl *c);
bool nvme_parse_id_ns(const uint8_t *id, struct nvme_id_ns *ns);

/*
 * The most 512-byte sectors one read or write may move: MDTS (units of
 * the minimum page, 4 KiB << @mpsmin), and at most @cap.
 */
uint32_t nvme_max_sectors(uint8_t mdts, unsigned int mpsmin, uint32_t cap);

/*
 * The PRP entries (1.4 4.3) for @nr segments of a transfer: the first
 * entry in *@prp1; the second in *@prp2 if there are two, else the rest
 * go in @list (at most @list_max, one page, no chaining) and *@prp2 gets
 * @list_addr.  Every entry but the first is page aligned, every segment
 * but the last ends on a page (the block layer's seg_boundary kept them
 * so); the first is dword aligned.  The number of list entries written,
 * or -1 if the segments can't be PRPs.
 */
int nvme_prp_build(const struct blk_seg *seg, unsigned int nr,
                   uint64_t *prp1, uint64_t *prp2, uint64_t *list,
                   uint64_t list_addr, unsigned int list_max);

/*
 * A completion queue as the driver walks it (1.4 4.6): an entry is new
 * when its phase tag equals @phase, which flips each time @head wraps.
 */
struct nvme_cq_ring {
    volatile struct nvme_cqe *cqe;
    uint16_t size, head;
    uint8_t phase;          /* starts at 1: the queue memory is zeroed */
};

/*
 * The next new entry (copied to *@out) and the head moved past it; false
 * when there is none.  The caller writes the head doorbell afterwards.
 */
bool nvme_cq_pop(struct nvme_cq_ring *r, struct nvme_cqe *out);

/*
 * The slot a completion of I/O queue @qid (with @nr_slots command slots,
 * the command id being the slot) names: -1 if its command id is none of
 * them or it names another submission queue (a broken device's).
 */
int nvme_cqe_slot(const struct nvme_cqe *c, uint16_t qid,
                  unsigned int nr_slots);

/* A completion status as the block interface says it. */
enum blk_status nvme_blk_status(uint16_t status);

#endif /* DRIVERS_NVME_NVME_H */
