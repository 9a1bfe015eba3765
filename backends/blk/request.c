/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A guest request's preparation, as Linux's dispatch_rw_block_io(),
 * xen_blkbk_parse_indirect() and dispatch_discard_io() do it: the
 * segments (direct, or copied out of indirect pages mapped read-only
 * meanwhile) checked against the page, the disk and its logical block,
 * their grants mapped for the device (read-only for a write's source),
 * and the device requests they become: as few as the device's limits
 * allow (blk_fit()), or a discard's range in pieces of the device's
 * size.  ring.c submits them and answers the guest, and holds the
 * maps a request may take against the vbd's (vbd_req_maps()).  Under
 * the ring's lock.
 */
#include "backends/blk/blkback.h"
#include "pv/pv.h"

static void unmap_handles(struct vbd_req *q, unsigned int n)
{
    while ( n-- )
        pv_grant_unmap_dev(q->handle[n]);
}

void vbd_release_segs(struct vbd_req *q)
{
    ASSERT(q->maps >= q->nr_segs);
    unmap_handles(q, q->nr_segs);
    q->nr_segs = 0;
}

unsigned int vbd_req_maps(const struct blkif_req *req)
{
    unsigned int n = req->nr_segments;

    if ( req->op != BLKIF_OP_READ && req->op != BLKIF_OP_WRITE &&
         req->op != BLKIF_OP_FLUSH_DISKCACHE &&
         req->op != BLKIF_OP_WRITE_BARRIER )
        return 0;
    return n <= (req->operation == BLKIF_OP_INDIRECT
                 ? VBD_SEGS_MAX : BLKIF_MAX_SEGMENTS_PER_REQUEST) ? n : 0;
}

void vbd_fill_discard(struct vbd_req *q)
{
    const struct blk_dev *dev = q->ring->vbd->dev;
    uint32_t max = dev->max_discard_sectors & ~(q->ring->vbd->lbs - 1);
    uint32_t n;

    q->nr_subs = q->next_sub = 0;
    while ( q->left && q->nr_subs < VBD_SEGS_MAX )
    {
        n = MIN(q->left, (uint64_t)max);
        q->sub[q->nr_subs++] = (struct blk_request){
            .op = BLK_OP_DISCARD, .sector = q->left_sector,
            .nr_sectors = n,
        };
        q->left_sector += n;
        q->left -= n;
    }
}

/* Map every segment's grant for the device; false (none kept) if one fails. */
static bool map_segs(struct vbd_req *q, unsigned int n, bool write)
{
    unsigned int i;
    uint64_t maddr;

    for ( i = 0; i < n; i++ )
    {
        const struct blkif_request_segment *s = &q->rseg[i];

        /* A read: the device writes the frame.  A write: it reads it. */
        if ( pv_grant_map_dev(s->gref, write, &q->handle[i], &maddr) )
        {
            unmap_handles(q, i);
            return false;
        }
        q->seg[i].addr = maddr + s->first_sect * BLK_SECTOR_SIZE;
        q->seg[i].len = (s->last_sect - s->first_sect + 1) * BLK_SECTOR_SIZE;
    }
    q->nr_segs = n;
    return true;
}

/*
 * An indirect request's segments into q->rseg: its pages mapped
 * read-only (the device never sees them) while they are copied out.
 */
static bool indirect_segs(struct vbd_req *q, const struct blkif_req *r)
{
    unsigned int i, n = BLKIF_INDIRECT_PAGES(r->nr_segments);
    const uint8_t *page[BLKIF_MAX_INDIRECT_PAGES_PER_REQUEST];
    uint64_t maddr;
    bool ok = true;

    for ( i = 0; i < n; i++ )
    {
        if ( pv_grant_map_dev(r->indirect[i], true, &q->handle[i], &maddr) )
        {
            ok = false;
            break;
        }
        page[i] = __va(maddr);
    }
    if ( ok )
        blkif_indirect_segs(page, r->nr_segments, q->rseg);
    unmap_handles(q, i);
    return ok;
}

/*
 * The device requests for q->seg[0..nr_segs): as many segments in each
 * as the device takes in one (all of them, usually), in order on the
 * disk.  False if a segment can't go to the device at all.
 */
static bool split(struct vbd_req *q, enum blk_op op, uint64_t sector)
{
    const struct blk_dev *dev = q->ring->vbd->dev;
    unsigned int i = 0, n, j;

    q->nr_subs = 0;
    while ( i < q->nr_segs )
    {
        if ( !(n = blk_fit(dev, &q->seg[i], q->nr_segs - i)) )
            return false;
        q->sub[q->nr_subs++] = (struct blk_request){
            .op = op, .sector = sector, .nr_segs = n, .seg = &q->seg[i],
        };
        for ( j = 0; j < n; j++ )
            sector += q->seg[i + j].len >> BLK_SECTOR_SHIFT;
        i += n;
    }
    return true;
}

int16_t vbd_prepare_rw(struct vbd_ring *r, struct vbd_req *q,
                       const struct blkif_req *req, bool write)
{
    struct vbd *v = r->vbd;
    bool indirect = req->operation == BLKIF_OP_INDIRECT;
    unsigned int n = req->nr_segments;
    uint64_t nr, sector;

    ASSERT(spin_is_locked_by_me(vbd_ring_lock(r)));
    if ( !n || n > (indirect ? VBD_SEGS_MAX : BLKIF_MAX_SEGMENTS_PER_REQUEST) )
        return BLKIF_RSP_ERROR;
    if ( write && v->ro )
        return BLKIF_RSP_ERROR;
    if ( indirect )
    {
        if ( !indirect_segs(q, req) )
            return BLKIF_RSP_ERROR;
    }
    else
        memcpy(q->rseg, req->seg, n * sizeof(req->seg[0]));
    if ( !blkif_segs_check(q->rseg, n, &nr) ||
         !blkif_map(req->sector, nr, v->start, v->nr_sectors, &sector) ||
         !blkif_aligned(req->sector, q->rseg, n, v->lbs) )
        return BLKIF_RSP_ERROR;
    if ( !map_segs(q, n, write) )
        return BLKIF_RSP_ERROR;
    if ( !split(q, write ? BLK_OP_WRITE : BLK_OP_READ, sector) )
    {
        vbd_release_segs(q);
        return BLKIF_RSP_ERROR;
    }
    return BLKIF_RSP_OKAY;
}

int16_t vbd_prepare_discard(struct vbd_ring *r, struct vbd_req *q,
                            const struct blkif_req *req)
{
    struct vbd *v = r->vbd;
    uint64_t sector = 0;

    ASSERT(spin_is_locked_by_me(vbd_ring_lock(r)));
    if ( !v->discard || (req->flag & BLKIF_DISCARD_SECURE) )
        return BLKIF_RSP_EOPNOTSUPP;    /* discard-secure is 0 */
    if ( v->ro || (req->nr_sectors &&
                   !blkif_map(req->sector, req->nr_sectors, v->start,
                              v->nr_sectors, &sector)) ||
         ((req->sector | req->nr_sectors) & (v->lbs - 1)) )
        return BLKIF_RSP_ERROR;
    q->left_sector = sector;
    q->left = req->nr_sectors;
    vbd_fill_discard(q);
    return BLKIF_RSP_OKAY;
}
