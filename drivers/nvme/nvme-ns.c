/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * NVMe namespaces (NVM Command Set 1.0, 4.1.5.1): each active one with a
 * usable LBA format becomes a block device with the controller's queues,
 * its limits (MDTS, DMRSL, WZSL) and features (VWC, ONCS, write protect).
 */
#include "drivers/nvme/nvme-ctrl.h"
#include "shim/console.h"

/* The limits every namespace shares: DMRSL and WZSL where given (2.0). */
void nvme_read_limits(struct nvme_ctrl *c)
{
    if ( nvme_identify(c, NVME_ID_CNS_CSI_CTRL, 0, 0, "identify NVM limits",
                       true) )
        nvme_parse_id_ctrl_nvm(nvme_id_buf, &c->id);
}

/* Blocks of 2^@lba_shift bytes in one Write Zeroes: WZSL, 16-bit NLB. */
static uint32_t max_write_zeroes(const struct nvme_ctrl *c,
                                 unsigned int lba_shift)
{
    unsigned int shift = NVME_PAGE_SHIFT + NVME_CAP_MPSMIN(c->cap) +
                         c->id.wzsl;

    if ( !c->id.wzsl || shift >= 32 + lba_shift )
        return 0x10000;
    return MIN(0x10000u, 1u << (shift - lba_shift));
}

/* Namespace @nsid as block device nvme<c>n<nsid> in @ns, if usable. */
static bool prepare_namespace(struct nvme_ctrl *c, struct nvme_ns *ns,
                              uint32_t nsid)
{
    struct blk_dev *b = &ns->blk;
    struct nvme_id_ns id;
    unsigned int to_sect;
    uint32_t max_lbas;

    memset(ns, 0, sizeof(*ns));
    snprintf(b->name, sizeof(b->name), "nvme%un%u", c->index, nsid);
    if ( !nvme_identify(c, NVME_ID_CNS_NS, nsid, 0, "identify namespace",
                       false) )
        return false;
    if ( !nvme_parse_id_ns(nvme_id_buf, &id) )
    {
        printk(XENLOG_WARNING "%s: LBA format with metadata, or of 2^%u "
               "bytes: not used\n", b->name, id.lba_shift);
        return false;
    }
    to_sect = id.lba_shift - BLK_SECTOR_SHIFT;
    if ( id.nsze > (~0ULL >> to_sect) )
        return false;
    ns->ctrl = c;
    ns->nsid = nsid;
    ns->lba_shift = id.lba_shift;
    b->nr_sectors = id.nsze << to_sect;
    b->sector_size = 1u << id.lba_shift;
    b->nr_queues = c->nr_io;
    /* MDTS, the command's 16-bit block count, one PRP list page. */
    max_lbas = MIN(c->max_sectors >> to_sect, 0x10000u);
    b->max_sectors = max_lbas << to_sect;
    b->max_segs = b->max_sectors / (NVME_PAGE_SIZE / BLK_SECTOR_SIZE) + 1;
    b->max_seg_size = ~0u;
    b->seg_boundary = NVME_PAGE_SIZE;
    b->dma_align = 4;
    if ( id.write_protected )
        b->features |= BLK_F_RO;
    if ( c->id.vwc & 1 )
        b->features |= BLK_F_FLUSH;
    if ( c->id.oncs & NVME_ONCS_DSM )
    {
        b->features |= BLK_F_DISCARD;
        b->max_discard_sectors = MIN((uint64_t)(c->id.dmrsl ?: ~0u)
                                     << to_sect, ~0u >> to_sect << to_sect);
        b->discard_granularity = 1u << to_sect;
    }
    if ( c->id.oncs & NVME_ONCS_WRITE_ZEROES )
    {
        b->features |= BLK_F_WRITE_ZEROES;
        b->max_write_zeroes_sectors =
            MIN((uint64_t)max_write_zeroes(c, id.lba_shift) << to_sect,
                ~0u >> to_sect << to_sect);
    }
    b->ops = &nvme_blk_ops;
    b->priv = ns;
    b->pci = c->pci;
    b->pending = c->pending;
    ns->nsze = id.nsze;
    return true;
}

static bool add_namespace(struct nvme_ctrl *c, struct nvme_ns *ns)
{
    struct blk_dev *b = &ns->blk;

    if ( !blk_register(b) )
        return false;
    c->nr_ns++;
    printk("%s: %lu blocks of %u bytes%s%s%s%s, up to %u sectors a "
           "transfer\n", b->name, (unsigned long)ns->nsze, b->sector_size,
           b->features & BLK_F_RO ? ", read-only" : "",
           b->features & BLK_F_FLUSH ? ", flush" : "",
           b->features & BLK_F_DISCARD ? ", discard" : "",
           b->features & BLK_F_WRITE_ZEROES ? ", write-zeroes" : "",
           b->max_sectors);
    return true;
}

/* The active namespaces (CNS 02h), else 1..NN (NVMe 1.0). */
void nvme_add_namespaces(struct nvme_ctrl *c)
{
    uint32_t list[NVME_MAX_NS], nsid;
    unsigned int i, n = 0, ready;

    if ( nvme_identify(c, NVME_ID_CNS_NS_LIST, 0, 0, "list namespaces", true) )
        for ( ; n < NVME_MAX_NS; n++ )
        {
            memcpy(&nsid, nvme_id_buf + 4 * n, 4);
            if ( !nsid )
                break;
            list[n] = nsid;
        }
    else
        for ( ; n < MIN(c->id.nn, (uint32_t)NVME_MAX_NS); n++ )
            list[n] = n + 1;
    /*
     * Every namespace identified before any is registered: a controller
     * that stops answering meanwhile is given up (disabled, its queues
     * gone), and a disk registered on it would wait forever.
     */
    for ( i = ready = 0; i < n; i++ )
        ready += prepare_namespace(c, &c->ns[ready], list[i]);
    for ( i = 0; i < ready && !c->dead; i++ )
        if ( !add_namespace(c, &c->ns[i]) )
            break;
}
