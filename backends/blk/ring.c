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

static void finish(struct vbd_req *q)
{
    struct vbd *v = q->vbd;

    unmap_segs(q, q->nr_segs);
    respond(v, q->id, q->operation, blkif_status(q->status));
    q->in_use = false;
    v->inflight--;
    if ( v->busy || (!v->connected && !v->inflight) )
        cpu_raise_softirq(0, BLKBACK_SOFTIRQ);
}

/*
 * Submit @q's device requests from next_sub on.  False if the device's
 * queue is full: the rest wait (v->stalled) for a completion.  A refusal
 * stops the rest; @q finishes once what was submitted is done.
 */
static bool submit_subs(struct vbd *v, struct vbd_req *q)
{
    enum blk_status s;

    while ( q->next_sub < q->nr_subs && q->status == BLK_OK )
    {
        s = blk_submit(v->dev, &q->sub[q->next_sub]);
        if ( s == BLK_EBUSY )
        {
            v->stalled = q;
            return false;
        }
        q->next_sub++;
        if ( s == BLK_OK )
            q->pending++;
        else
            q->status = s;
    }
    if ( !q->pending )
        finish(q);
    return true;
}

/* drivers/: a request is done (BLOCK_SOFTIRQ, any CPU, domain lock). */
static void req_done(struct blk_request *breq, enum blk_status s)
{
    struct vbd_req *q = breq->data;
    struct vbd *v = q->vbd;

    ASSERT(pv_backend_locked());
    if ( s != BLK_OK && q->status == BLK_OK )
        q->status = s;
    if ( --q->pending || v->stalled == q )
        return;
    if ( q->status == BLK_OK && q->flush_after )
    {
        /* A barrier or a flush with data: the writes, then the flush. */
        q->flush_after = false;
        q->sub[0] = (struct blk_request){ .op = BLK_OP_FLUSH,
                                          .done = req_done, .data = q };
        q->nr_subs = 1;
        q->next_sub = 0;
        submit_subs(v, q);
        return;
    }
    finish(q);
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
 * Segments the device can't take in one request (its segment count,
 * transfer size, or the page boundary NVMe's PRPs need: a guest's
 * partial middle page), one device request each, in order on the disk.
 */
static void split(struct vbd_req *q)
{
    uint64_t sector = q->sub[0].sector;
    unsigned int i;

    for ( i = 0; i < q->nr_segs; i++ )
    {
        q->sub[i] = (struct blk_request){
            .op = q->sub[0].op, .sector = sector, .nr_segs = 1,
            .seg = &q->seg[i], .done = req_done, .data = q,
        };
        sector += q->seg[i].len >> BLK_SECTOR_SHIFT;
    }
    q->nr_subs = q->nr_segs;
}

/*
 * One request: answered at once if it is refused, else handed to the
 * device (what the device's queue has no room for waits, v->stalled).
 */
static void dispatch(struct vbd *v, const struct blkif_request *r)
{
    struct vbd_req *q = free_req(v);
    bool write = r->operation != BLKIF_OP_READ, flush = false;
    int16_t st = BLKIF_RSP_OKAY;

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
            return;
        }
        flush = true;
        break;
    default:
        respond(v, r->id, r->operation, BLKIF_RSP_EOPNOTSUPP);
        return;
    }
    ASSERT(q);                          /* a slot for each ring entry */
    *q = (struct vbd_req){
        .vbd = v, .in_use = true, .operation = r->operation, .id = r->id,
        .nr_subs = 1,
        .sub[0] = { .sector = r->sector_number, .seg = q->seg,
                    .done = req_done, .data = q },
    };
    if ( flush && !r->nr_segments && r->operation != BLKIF_OP_WRITE_BARRIER )
        q->sub[0].op = BLK_OP_FLUSH;    /* a flush alone */
    else
    {
        if ( (st = check_rw(v, r, write)) != BLKIF_RSP_OKAY ||
             !map_segs(v, q, r, write) )
        {
            q->in_use = false;
            respond(v, r->id, r->operation,
                    st != BLKIF_RSP_OKAY ? st : BLKIF_RSP_ERROR);
            return;
        }
        q->sub[0].op = write ? BLK_OP_WRITE : BLK_OP_READ;
        q->sub[0].nr_segs = q->nr_segs;
        q->flush_after = flush;
        if ( q->nr_segs > 1 && blk_check(v->dev, &q->sub[0]) == BLK_EINVAL )
            split(q);
    }
    v->inflight++;
    submit_subs(v, q);
}

/* The ring's indexes through whichever layout it has. */
#define RING_OP(v, op, ...)                                             \
    ((v)->x86_32 ? op(&(v)->ring.x86_32, ##__VA_ARGS__)                 \
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
    if ( v->stalled && !v->connected )
    {
        /* Disconnected while waiting for room: the rest is not done. */
        struct vbd_req *q = v->stalled;

        v->stalled = NULL;
        q->status = BLK_EIO;
        if ( !q->pending )
            finish(q);
    }
    if ( !v->connected )
        return false;
    v->busy = false;
    if ( v->stalled )
    {
        struct vbd_req *q = v->stalled;

        v->stalled = NULL;
        if ( !submit_subs(v, q) )
        {
            v->busy = true;             /* a completion raises us again */
            return false;
        }
    }
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
            rc++;
            if ( v->x86_32 )
                c->req_cons = rc;
            else
                n->req_cons = rc;
            dispatch(v, &r);
            if ( v->stalled )
            {
                v->busy = true;         /* a completion raises us again */
                return false;
            }
        }
        if ( v->x86_32 )
            RING_FINAL_CHECK_FOR_REQUESTS(c, more);
        else
            RING_FINAL_CHECK_FOR_REQUESTS(n, more);
        if ( !more )
            return false;
    }
}
