/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A vbd's ring, as Linux's xen-blkback (blkback.c __do_block_io_op(),
 * dispatch_rw_block_io()): each request copied out of the shared page
 * before it is looked at, checked, its segments' grants mapped for the
 * device (read-only for a write's source) and their machine addresses
 * handed to drivers/block.h as they are: no copy, no bounce.  The
 * response goes out once the device has finished and the grants are
 * released.  Bounded work per run; a request the device's queue has no
 * room for waits on the ring until a completion makes room.
 */
#include "backends/blk/blkback.h"
#include "pv/pv.h"
#include "shim/console.h"
#include "shim/softirq.h"

#define RING_BUDGET     32          /* requests per vbd per softirq run */

static void respond(struct vbd *v, uint64_t id, uint8_t op, int16_t st)
{
    bool notify;

    if ( v->x86_32 )
    {
        struct blkif_x86_32_back_ring *r = &v->ring.x86_32;
        struct blkif_x86_32_response *rsp =
            RING_GET_RESPONSE(r, r->rsp_prod_pvt);

        rsp->id = id;
        rsp->operation = op;
        rsp->status = st;
        r->rsp_prod_pvt++;
        RING_PUSH_RESPONSES_AND_CHECK_NOTIFY(r, notify);
    }
    else
    {
        struct blkif_back_ring *r = &v->ring.native;
        struct blkif_response *rsp = RING_GET_RESPONSE(r, r->rsp_prod_pvt);

        rsp->id = id;
        rsp->operation = op;
        rsp->status = st;
        r->rsp_prod_pvt++;
        RING_PUSH_RESPONSES_AND_CHECK_NOTIFY(r, notify);
    }
    if ( notify )
        pv_evtchn_notify_guest(v->port);
}

static void unmap_segs(struct vbd_req *q, unsigned int n)
{
    while ( n-- )
        pv_grant_unmap_dev(q->handle[n]);
}

static int16_t blkif_status(enum blk_status s)
{
    if ( s == BLK_OK )
        return BLKIF_RSP_OKAY;
    return s == BLK_EUNSUPP ? BLKIF_RSP_EOPNOTSUPP : BLKIF_RSP_ERROR;
}

/* drivers/: a request is done (BLOCK_SOFTIRQ, any CPU, domain lock). */
static void req_done(struct blk_request *breq, enum blk_status s)
{
    struct vbd_req *q = breq->data;
    struct vbd *v = q->vbd;

    ASSERT(pv_backend_locked());
    if ( s == BLK_OK && q->flush_after )
    {
        /* A barrier or a flush with data: the write, then the flush. */
        q->flush_after = false;
        breq->op = BLK_OP_FLUSH;
        breq->nr_segs = 0;
        s = blk_submit(v->dev, breq);
        if ( s == BLK_OK )
            return;
    }
    unmap_segs(q, q->nr_segs);
    respond(v, q->id, q->operation, blkif_status(s));
    q->in_use = false;
    v->inflight--;
    if ( v->busy || (!v->connected && !v->inflight) )
        cpu_raise_softirq(0, BLKBACK_SOFTIRQ);
}

/* A request in the native layout, whichever the ring has. */
static void copy_request(struct vbd *v, RING_IDX i, struct blkif_request *r)
{
    if ( v->x86_32 )
    {
        struct blkif_x86_32_request r32;
        unsigned int n;

        RING_COPY_REQUEST(&v->ring.x86_32, i, &r32);
        r->operation = r32.operation;
        r->nr_segments = r32.nr_segments;
        r->handle = r32.handle;
        r->id = r32.id;
        r->sector_number = r32.sector_number;
        for ( n = 0; n < BLKIF_MAX_SEGMENTS_PER_REQUEST; n++ )
            r->seg[n] = r32.seg[n];
    }
    else
        RING_COPY_REQUEST(&v->ring.native, i, r);
}

/* The checks Linux's dispatch_rw_block_io() makes; BLKIF_RSP_*. */
static int16_t check_rw(const struct vbd *v, const struct blkif_request *r,
                        bool write)
{
    uint64_t nr = 0;
    unsigned int i;

    if ( !r->nr_segments || r->nr_segments > BLKIF_MAX_SEGMENTS_PER_REQUEST )
        return BLKIF_RSP_ERROR;
    if ( write && v->ro )
        return BLKIF_RSP_ERROR;
    for ( i = 0; i < r->nr_segments; i++ )
    {
        const struct blkif_request_segment *s = &r->seg[i];

        if ( s->last_sect >= PAGE_SIZE / BLK_SECTOR_SIZE ||
             s->first_sect > s->last_sect )
            return BLKIF_RSP_ERROR;
        nr += s->last_sect - s->first_sect + 1;
    }
    if ( r->sector_number >= v->dev->nr_sectors ||
         nr > v->dev->nr_sectors - r->sector_number )
        return BLKIF_RSP_ERROR;
    return BLKIF_RSP_OKAY;
}

/* Map every segment's grant for the device; false (none kept) if one fails. */
static bool map_segs(struct vbd *v, struct vbd_req *q,
                     const struct blkif_request *r, bool write)
{
    unsigned int i;
    uint64_t maddr;

    for ( i = 0; i < r->nr_segments; i++ )
    {
        const struct blkif_request_segment *s = &r->seg[i];

        /* A read: the device writes the frame.  A write: it reads it. */
        if ( pv_grant_map_dev(s->gref, write, &q->handle[i], &maddr) )
        {
            unmap_segs(q, i);
            return false;
        }
        q->seg[i].addr = maddr + s->first_sect * BLK_SECTOR_SIZE;
        q->seg[i].len = (s->last_sect - s->first_sect + 1) * BLK_SECTOR_SIZE;
    }
    q->nr_segs = r->nr_segments;
    return true;
}

static struct vbd_req *free_req(struct vbd *v)
{
    unsigned int i;

    for ( i = 0; i < VBD_RING_SLOTS; i++ )
        if ( !v->req[i].in_use )
            return &v->req[i];
    return NULL;
}

/*
 * One request: answered at once if it is refused, else handed to the
 * device.  False if the device's queue is full: it stays on the ring.
 */
static bool dispatch(struct vbd *v, const struct blkif_request *r)
{
    struct vbd_req *q = free_req(v);
    bool write = r->operation != BLKIF_OP_READ, flush = false;
    enum blk_status s;
    int16_t st;

    switch ( r->operation )
    {
    case BLKIF_OP_READ:
    case BLKIF_OP_WRITE:
        break;
    case BLKIF_OP_FLUSH_DISKCACHE:
    case BLKIF_OP_WRITE_BARRIER:
        if ( !(v->dev->features & BLK_F_FLUSH) )
        {
            respond(v, r->id, r->operation, BLKIF_RSP_EOPNOTSUPP);
            return true;
        }
        flush = true;
        break;
    default:
        respond(v, r->id, r->operation, BLKIF_RSP_EOPNOTSUPP);
        return true;
    }
    ASSERT(q);                          /* a slot for each ring entry */
    *q = (struct vbd_req){
        .vbd = v, .operation = r->operation, .id = r->id,
        .breq = { .sector = r->sector_number, .seg = q->seg,
                  .done = req_done, .data = q },
    };
    if ( flush && !r->nr_segments && r->operation != BLKIF_OP_WRITE_BARRIER )
        q->breq.op = BLK_OP_FLUSH;      /* a flush alone */
    else
    {
        if ( (st = check_rw(v, r, write)) != BLKIF_RSP_OKAY )
        {
            respond(v, r->id, r->operation, st);
            return true;
        }
        if ( !map_segs(v, q, r, write) )
        {
            respond(v, r->id, r->operation, BLKIF_RSP_ERROR);
            return true;
        }
        q->breq.op = write ? BLK_OP_WRITE : BLK_OP_READ;
        q->breq.nr_segs = q->nr_segs;
        q->flush_after = flush;
    }

    q->in_use = true;
    s = blk_submit(v->dev, &q->breq);
    if ( s == BLK_OK )
    {
        v->inflight++;
        return true;
    }
    q->in_use = false;
    unmap_segs(q, q->nr_segs);
    if ( s == BLK_EBUSY )
        return false;
    respond(v, r->id, r->operation, blkif_status(s));
    return true;
}

/* The ring's indexes through whichever layout it has. */
#define RING_OP(v, op, ...) ((v)->x86_32 ? op(&(v)->ring.x86_32, ##__VA_ARGS__) \
                                         : op(&(v)->ring.native, ##__VA_ARGS__))

bool vbd_ring_work(struct vbd *v)
{
    struct blkif_back_ring *n = &v->ring.native;
    struct blkif_x86_32_back_ring *c = &v->ring.x86_32;
    struct blkif_request r;
    unsigned int budget = RING_BUDGET;
    RING_IDX rc, rp;
    int more;

    ASSERT(pv_backend_locked());
    if ( !v->connected )
        return false;
    v->busy = false;
    for ( ; ; )
    {
        rc = v->x86_32 ? c->req_cons : n->req_cons;
        rp = v->x86_32 ? ACCESS_ONCE(c->sring->req_prod)
                       : ACCESS_ONCE(n->sring->req_prod);
        smp_rmb();                      /* req_prod, then the requests */
        if ( RING_OP(v, RING_REQUEST_PROD_OVERFLOW, rp) )
        {
            vbd_broken(v, "req_prod more than a ring ahead of the responses",
                       rp, v->x86_32 ? c->rsp_prod_pvt : n->rsp_prod_pvt);
            return false;
        }
        while ( rc != rp && !RING_OP(v, RING_REQUEST_CONS_OVERFLOW, rc) )
        {
            if ( !budget-- )
                return true;
            copy_request(v, rc, &r);
            if ( !dispatch(v, &r) )
            {
                v->busy = true;         /* a completion raises us again */
                return false;
            }
            rc++;
            if ( v->x86_32 )
                c->req_cons = rc;
            else
                n->req_cons = rc;
        }
        if ( v->x86_32 )
            RING_FINAL_CHECK_FOR_REQUESTS(c, more);
        else
            RING_FINAL_CHECK_FOR_REQUESTS(n, more);
        if ( !more )
            return false;
    }
}
