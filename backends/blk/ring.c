/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A vbd's rings, as Linux's xen-blkback (blkback.c __do_block_io_op()):
 * each request copied out of the shared pages and decoded (blkif-ring.c)
 * before it is looked at, prepared (request.c: checked, its grants
 * mapped for the device) and its device requests handed to
 * drivers/block.h with the granted frames' addresses as they are: no
 * copy, no bounce.  The response goes out once the device has finished
 * and the grants are released.  Bounded work per run; a request the device's
 * queue or the vbd's request slots have no room for waits on the ring
 * until a completion makes room.
 */
#include "backends/blk/blkback.h"
#include "pv/pv.h"
#include "shim/console.h"
#include "shim/softirq.h"

#define RING_BUDGET     32          /* requests per ring per softirq run */

#define ASSERT_VBD_LOCKED(v) ASSERT(spin_is_locked_by_me(&(v)->lock))

static void respond(struct vbd_ring *r, uint64_t id, uint8_t op, int16_t st)
{
    ASSERT_VBD_LOCKED(r->vbd);
    if ( blkif_ring_respond(&r->ring, id, op, st) )
    {
        r->notifies++;
        pv_evtchn_notify_guest(r->port);
    }
}

static int16_t blkif_status(enum blk_status s)
{
    if ( s == BLK_OK )
        return BLKIF_RSP_OKAY;
    return s == BLK_EUNSUPP ? BLKIF_RSP_EOPNOTSUPP : BLKIF_RSP_ERROR;
}

/*
 * The rings that waited for room (a slot, the device's queue: shared by
 * the vbd's rings) may go on, each on its CPU; a disconnected vbd with
 * nothing left in flight, on CPU 0, lets its rings go.
 */
static void wake_waiting(struct vbd *v)
{
    unsigned int i;

    for ( i = 0; i < v->nr_rings; i++ )
        if ( v->rings[i].busy )
            cpu_raise_softirq(v->rings[i].cpu, BLKBACK_SOFTIRQ);
    if ( !v->connected && !v->inflight )
        cpu_raise_softirq(0, BLKBACK_SOFTIRQ);
}

static void finish(struct vbd_req *q)
{
    struct vbd_ring *r = q->ring;
    struct vbd *v = r->vbd;

    ASSERT_VBD_LOCKED(v);
    vbd_release_segs(q);
    respond(r, q->id, q->operation, blkif_status(q->status));
    q->in_use = false;
    r->inflight--;
    v->inflight--;
    v->completed++;
    wake_waiting(v);
}

static void req_done(struct blk_request *breq, enum blk_status s);

/* @q waits, after any others, for room in the device's queue. */
static void stall(struct vbd_ring *r, struct vbd_req *q)
{
    q->stalled = true;
    q->next_stalled = NULL;
    if ( r->stalled )
        r->stalled_tail->next_stalled = q;
    else
        r->stalled = q;
    r->stalled_tail = q;
    r->busy = true;                     /* a completion raises us again */
}

static struct vbd_req *unstall(struct vbd_ring *r)
{
    struct vbd_req *q = r->stalled;

    r->stalled = q->next_stalled;
    q->stalled = false;
    return q;
}

/*
 * Submit @q's device requests from next_sub on, on the device queue of
 * its ring, each to come back to req_done().  False if the device's
 * queue is full: the caller stalls @q (or leaves it stalled) until a
 * completion.  A refusal stops the rest; @q finishes once what was
 * submitted is done.
 */
static bool submit_subs(struct vbd_ring *r, struct vbd_req *q)
{
    struct blk_dev *dev = r->vbd->dev;
    enum blk_status s;

    ASSERT_VBD_LOCKED(r->vbd);
    while ( q->next_sub < q->nr_subs && q->status == BLK_OK )
    {
        q->sub[q->next_sub].done = req_done;
        q->sub[q->next_sub].data = q;
        /* The ring's run tells the device once, at its end. */
        q->sub[q->next_sub].more = r->batching;
        s = blk_submit_on(dev, r->index % dev->nr_queues,
                          &q->sub[q->next_sub]);
        if ( s == BLK_EBUSY )
        {
            r->stalls++;
            return false;
        }
        r->subs++;
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

static void req_done(struct blk_request *breq, enum blk_status s)
{
    struct vbd_req *q = breq->data;
    struct vbd_ring *r = q->ring;
    struct vbd *v = r->vbd;

    ASSERT(pv_backend_locked());
    spin_lock_irq_on_wait(&v->lock);
    if ( s != BLK_OK && q->status == BLK_OK )
        q->status = s;
    /*
     * The device's queue has room again: a ring waiting for it, @q's own
     * among them (its first pieces in, the rest stalled), goes on.
     */
    wake_waiting(v);
    if ( --q->pending || q->stalled )
        goto out;
    if ( q->status == BLK_OK && q->next_sub == q->nr_subs && q->left )
    {
        vbd_fill_discard(q);                /* the next pieces of a discard */
        if ( !submit_subs(r, q) )
            stall(r, q);
        goto out;
    }
    if ( q->status == BLK_OK && q->flush_after )
    {
        /* A barrier or a flush with data: the writes, then the flush. */
        q->flush_after = false;
        q->sub[0] = (struct blk_request){ .op = BLK_OP_FLUSH };
        q->nr_subs = 1;
        q->next_sub = 0;
        if ( !submit_subs(r, q) )
            stall(r, q);
        goto out;
    }
    finish(q);
 out:
    spin_unlock(&v->lock);
}

static struct vbd_req *free_req(struct vbd *v)
{
    unsigned int i;

    for ( i = 0; i < VBD_REQS; i++ )
        if ( !v->req[i].in_use )
            return &v->req[i];
    return NULL;
}

/*
 * One request into @q: answered at once if it is refused (or has
 * nothing to do), else handed to the device (what the device's queue
 * has no room for waits, r->stalled).
 */
static void dispatch(struct vbd_ring *r, struct vbd_req *q,
                     const struct blkif_req *req)
{
    struct vbd *v = r->vbd;
    int16_t st = BLKIF_RSP_OKAY;

    /* The header alone: the per-segment arrays are 20 KiB, filled as used. */
    q->ring = r;
    q->in_use = true;
    q->flush_after = false;
    q->operation = req->op;
    q->id = req->id;
    q->nr_segs = q->nr_subs = q->next_sub = q->pending = 0;
    q->status = BLK_OK;
    q->left_sector = q->left = 0;
    switch ( req->op )
    {
    case BLKIF_OP_READ:
    case BLKIF_OP_WRITE:
        st = vbd_prepare_rw(r, q, req, req->op == BLKIF_OP_WRITE);
        break;
    case BLKIF_OP_FLUSH_DISKCACHE:
    case BLKIF_OP_WRITE_BARRIER:
        if ( req->operation == BLKIF_OP_INDIRECT )
            st = BLKIF_RSP_ERROR;       /* only reads and writes */
        else if ( !(v->dev->features & BLK_F_FLUSH) )
            st = BLKIF_RSP_EOPNOTSUPP;
        else if ( v->ro )
            st = BLKIF_RSP_ERROR;       /* a write, as Linux sees it */
        else if ( !req->nr_segments )
        {
            /* A flush alone; so is an empty barrier (Linux's preflush). */
            q->sub[0] = (struct blk_request){ .op = BLK_OP_FLUSH };
            q->nr_subs = 1;
        }
        else if ( (st = vbd_prepare_rw(r, q, req, true)) == BLKIF_RSP_OKAY )
            q->flush_after = true;
        break;
    case BLKIF_OP_DISCARD:
        st = vbd_prepare_discard(v, q, req);
        break;
    default:
        st = req->operation == BLKIF_OP_INDIRECT ? BLKIF_RSP_ERROR
                                                 : BLKIF_RSP_EOPNOTSUPP;
        break;
    }
    if ( st != BLKIF_RSP_OKAY || !q->nr_subs )
    {
        q->in_use = false;
        respond(r, q->id, q->operation, st);
        return;
    }
    r->inflight++;
    v->inflight++;
    r->segs += q->nr_segs;
    if ( !submit_subs(r, q) )
        stall(r, q);
}

/* Disconnected while requests waited for room: their rest is not done. */
static void drop_stalled(struct vbd_ring *r)
{
    struct vbd_req *q;

    while ( r->stalled )
    {
        q = unstall(r);
        q->status = BLK_EIO;
        if ( !q->pending )
            finish(q);
    }
}

static bool ring_work(struct vbd_ring *r)
{
    struct blkif_back_ring *br = &r->ring.br;
    struct vbd *v = r->vbd;
    unsigned int budget = RING_BUDGET;
    struct blkif_req req;
    struct vbd_req *q;
    RING_IDX rc, rp;
    int more;

    if ( r->stalled && !v->connected )
        drop_stalled(r);
    if ( !v->connected )
        return false;
    r->busy = false;
    while ( r->stalled )
    {
        /* In order; one still without room stays first. */
        if ( !submit_subs(r, r->stalled) )
        {
            r->busy = true;             /* a completion raises us again */
            return false;
        }
        unstall(r);
    }
    for ( ; ; )
    {
        rc = br->req_cons;
        rp = ACCESS_ONCE(br->sring->req_prod);
        smp_rmb();                      /* req_prod, then the requests */
        if ( RING_REQUEST_PROD_OVERFLOW(br, rp) )
        {
            vbd_broken(r, "req_prod more than a ring ahead of the responses",
                       rp, br->rsp_prod_pvt);
            return false;
        }
        while ( rc != rp && !RING_REQUEST_CONS_OVERFLOW(br, rc) )
        {
            if ( !budget-- )
                return true;
            if ( !(q = free_req(v)) )
            {
                r->no_slot++;
                r->busy = true;         /* a completion raises us again */
                return false;
            }
            blkif_ring_get(&r->ring, rc, &req);
            /* Any one request fits once the vbd has nothing mapped. */
            if ( v->maps && vbd_req_maps(&req) > VBD_MAPS - v->maps )
            {
                r->no_maps++;
                r->busy = true;         /* a completion raises us again */
                return false;
            }
            if ( budget == RING_BUDGET - 1 )
                r->runs++;
            br->req_cons = ++rc;
            r->reqs++;
            if ( smp_processor_id() != r->cpu )
                r->away++;
            dispatch(r, q, &req);
            if ( r->stalled )
            {
                r->busy = true;
                return false;
            }
        }
        RING_FINAL_CHECK_FOR_REQUESTS(br, more);
        if ( !more )
            return false;
    }
}

/*
 * A budget's worth of @r's requests, each one's device requests queued
 * without telling the device (blk_request.more), then one kick for the
 * run, however it ended: each kick is an I/O exit that waits for QEMU's
 * global lock.  Completions' submissions (req_done()) kick at once.
 */
bool vbd_ring_work(struct vbd_ring *r)
{
    struct vbd *v = r->vbd;
    bool again;

    ASSERT(pv_backend_locked());
    ASSERT_VBD_LOCKED(v);
    r->batching = true;
    again = ring_work(r);
    r->batching = false;
    if ( v->dev )
        blk_kick_on(v->dev, r->index % v->dev->nr_queues);
    return again;
}
