/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * NVMe's pure logic (nvme.h): Identify parsing, the transfer limit, PRP
 * lists from a request's segments, the phase-tag walk of a completion
 * queue and the meaning of a status.  No registers, no locks: the host
 * tests compile this file as it is.
 */
#include "arch/x86/barrier.h"
#include "drivers/nvme/nvme.h"

static uint16_t get16(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

static uint32_t get32(const uint8_t *p)
{
    return get16(p) | (uint32_t)get16(p + 2) << 16;
}

/* An ASCII field, space padded (1.4 5.15.2.2), as a C string. */
static void get_string(char *dst, const uint8_t *src, unsigned int len)
{
    unsigned int i;

    for ( i = 0; i < len; i++ )
        dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? src[i] : '?';
    while ( len && dst[len - 1] == ' ' )
        len--;
    dst[len] = '\0';
}

/* Identify Controller (1.4 figure 251). */
void nvme_parse_id_ctrl(const uint8_t *id, struct nvme_id_ctrl *c)
{
    get_string(c->serial, id + 4, 20);
    get_string(c->model, id + 24, 40);
    c->mdts = id[77];
    c->nn = get32(id + 516);
    c->oncs = get16(id + 520);
    c->vwc = id[525];
    c->wzsl = 0;
    c->dmrsl = 0;
}

/* I/O Command Set specific Identify Controller, NVM (NVM 2.0 4.1.5.2). */
void nvme_parse_id_ctrl_nvm(const uint8_t *id, struct nvme_id_ctrl *c)
{
    c->wzsl = id[1];
    c->dmrsl = get32(id + 4);
}

/* Identify Namespace (1.4 figure 249, NVM 1.0 figure 97). */
bool nvme_parse_id_ns(const uint8_t *id, struct nvme_id_ns *ns)
{
    unsigned int nlbaf = id[25], fmt = id[26] & 0xf;
    uint32_t lbaf;

    ns->nsze = get32(id) | (uint64_t)get32(id + 4) << 32;
    ns->write_protected = id[99] & 1;
    if ( fmt > nlbaf )
        return false;
    lbaf = get32(id + 128 + 4 * fmt);
    ns->lba_shift = (lbaf >> 16) & 0xff;
    ns->has_metadata = lbaf & 0xffff;
    return ns->nsze && !ns->has_metadata && ns->lba_shift >= 9 &&
           ns->lba_shift <= 16;
}

uint32_t nvme_max_sectors(uint8_t mdts, unsigned int mpsmin, uint32_t cap)
{
    unsigned int shift = NVME_PAGE_SHIFT + mpsmin + mdts - BLK_SECTOR_SHIFT;

    if ( !mdts || shift >= 32 )
        return cap;
    return MIN((uint32_t)1 << shift, cap);
}

int nvme_prp_build(const struct blk_seg *seg, unsigned int nr,
                   uint64_t *prp1, uint64_t *prp2, uint64_t *list,
                   uint64_t list_addr, unsigned int list_max)
{
    const uint64_t mask = NVME_PAGE_SIZE - 1;
    unsigned int i, n = 0;
    uint64_t p, end;

    if ( !nr || (seg[0].addr & 3) )
        return -1;
    *prp1 = seg[0].addr;
    for ( i = 0; i < nr; i++ )
    {
        p = seg[i].addr;
        end = p + seg[i].len;
        if ( !seg[i].len || end < p )
            return -1;
        /* Only the first entry has an offset, only the last a short end. */
        if ( (i && (p & mask)) || (i + 1 < nr && (end & mask)) )
            return -1;
        if ( i )
        {
            if ( n == list_max )
                return -1;
            list[n++] = p;
        }
        for ( p = (p & ~mask) + NVME_PAGE_SIZE; p < end;
              p += NVME_PAGE_SIZE )
        {
            if ( n == list_max )
                return -1;
            list[n++] = p;
        }
    }
    *prp2 = n == 0 ? 0 : n == 1 ? list[0] : list_addr;
    return n;
}

bool nvme_cq_pop(struct nvme_cq_ring *r, struct nvme_cqe *out)
{
    volatile struct nvme_cqe *e = &r->cqe[r->head];

    if ( (e->status & 1) != r->phase )
        return false;
    /* The phase tag before the rest of the entry (written before it). */
    smp_rmb();
    out->result = e->result;
    out->rsvd = 0;
    out->sq_head = e->sq_head;
    out->sq_id = e->sq_id;
    out->cid = e->cid;
    out->status = e->status;
    if ( ++r->head == r->size )
    {
        r->head = 0;
        r->phase ^= 1;
    }
    return true;
}

int nvme_cqe_slot(const struct nvme_cqe *c, uint16_t qid,
                  unsigned int nr_slots)
{
    if ( c->cid >= nr_slots || c->sq_id != qid )
        return -1;
    return c->cid;
}

enum blk_status nvme_blk_status(uint16_t status)
{
    uint16_t s = status >> 1;

    if ( !s )
        return BLK_OK;
    if ( NVME_SCT(s) == 0 && NVME_SC(s) == NVME_SC_INVALID_OPCODE )
        return BLK_EUNSUPP;
    if ( NVME_SCT(s) == 0 && NVME_SC(s) == NVME_SC_WRITE_PROTECTED )
        return BLK_EROFS;
    return BLK_EIO;
}
