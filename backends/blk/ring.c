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
 *
 * Each ring under its own lock, on its own CPU, with its completions
 * (on that CPU too where the device has a queue per CPU): the slots and
 * maps every ring of the vbd draws on are taken and given back
 * atomically, and a ring that finds none marks itself busy before it
 * looks once more, so that either it sees what another ring gave back
 * or that ring, looking after it gave, sees it busy and raises it.
 */
#include "backends/blk/blkback.h"
#include "arch/x86/barrier.h"
#include "pv/pv.h"
#include "shim/console.h"
#include "shim/softirq.h"

#define RING_BUDGET     32          /* requests per ring per softirq run */

#define ASSERT_RING_LOCKED(r) ASSERT(spin_is_locked_by_me(vbd_ring_lock(r)))

/* A free request slot of @v, taken; NULL if none. */
static struct vbd_req *take_req(struct vbd *v)
{
    unsigned long used = __atomic_load_n(&v->req_used, __ATOMIC_RELAXED);
    const unsigned long all = ~0UL >> (8 * sizeof(long) - VBD_REQS);
    unsigned int i;

    do {
        if ( used == all )
            return NULL;
        i = __builtin_ctzl(~used);
    } while ( !__atomic_compare_exchange_n(&v->req_used, &used,
                                           used | (1UL << i), false,
                                           __ATOMIC_SEQ_CST,
                                           __ATOMIC_RELAXED) );
    return &v->req[i];
}

static void put_req(struct vbd *v, struct vbd_req *q)
{
    __atomic_fetch_and(&v->req_used, ~(1UL << (q - v->req)),
                       __ATOMIC_SEQ_CST);
}

/*
 * @n more segments held against the vbd's VBD_MAPS, if they fit: any
 * one request fits once the vbd holds none.
 */
static bool maps_get(struct vbd *v, unsigned int n)
{
    unsigned int m = __atomic_load_n(&v->maps, __ATOMIC_RELAXED);

    do {
        if ( m && n > VBD_MAPS - m )
            return false;
    } while ( !__atomic_compare_exchange_n(&v->maps, &m, m + n, false,
                                           __ATOMIC_SEQ_CST,
                                           __ATOMIC_RELAXED) );
    return true;
}

static void maps_put(struct vbd *v, unsigned int n)
{
    __atomic_fetch_sub(&v->maps, n, __ATOMIC_SEQ_CST);
}

/* Busy, then a full barrier: the look again that follows is ordered. */
static void mark_busy(struct vbd_ring *r)
{
    __atomic_store_n(&r->busy, true, __ATOMIC_SEQ_CST);
    smp_mb();
}

static void respond(struct vbd_ring *r, uint64_t id, uint8_t op, int16_t st)
{
    ASSERT_RING_LOCKED(r);
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

/* @v's rings that wait for room go on, each on its CPU. */
static void wake_busy(struct vbd *v)
{
    unsigned int i, n = MIN(ACCESS_ONCE(v->nr_rings), VBD_MAX_QUEUES);

    for ( i = 0; i < n; i++ )
        if ( __atomic_load_n(&v->rings[i].busy, __ATOMIC_SEQ_CST) )
            cpu_raise_softirq(ACCESS_ONCE(v->rings[i].cpu), BLKBACK_SOFTIRQ);
}

/*
 * The rings that waited for room (a slot, maps: shared by the vbd's
 * rings) may go on, each on its CPU; a disconnected vbd with nothing
 * left in flight, on CPU 0, lets its rings go.  Called after what was
 * given back, with a full barrier between (the atomic operations that
 * gave it, or the caller's), from any ring's CPU.
 */
static void wake_waiting(struct vbd *v)
{
    wake_busy(v);
    if ( !ACCESS_ONCE(v->connected) &&
         !__atomic_load_n(&v->inflight, __ATOMIC_SEQ_CST) )
        cpu_raise_softirq(0, BLKBACK_SOFTIRQ);
}

/* @q's slot and maps back to the vbd (@q answered or never taken). */
static void release_req(struct vbd *v, struct vbd_req *q)
{
    maps_put(v, q->maps);
    q->maps = 0;
    put_req(v, q);
}

static void finish(struct vbd_req *q)
{
    struct vbd_ring *r = q->ring;
    struct vbd *v = r->vbd;

    ASSERT_RING_LOCKED(r);
    vbd_release_segs(q);
    respond(r, q->id, q->operation, blkif_status(q->status));
    r->inflight--;
    __atomic_fetch_add(&v->completed, 1, __ATOMIC_RELAXED);
    release_req(v, q);
    __atomic_fetch_sub(&v->inflight, 1, __ATOMIC_SEQ_CST);
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

/* @q, unstalled to be tried, first again: still no room. */
static void restall(struct vbd_ring *r, struct vbd_req *q)
{
    q->stalled = true;
    q->next_stalled = r->stalled;
    if ( !r->stalled )
        r->stalled_tail = q;
    r->stalled = q;
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

    ASSERT_RING_LOCKED(r);
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
    unsigned int i;

    ASSERT(pv_backend_locked());
    spin_lock_irq_on_wait(vbd_ring_lock(r));
    if ( s != BLK_OK && q->status == BLK_OK )
        q->status = s;
    /*
     * The device's queue has room again: a ring waiting for it, @q's own
     * among them (its first pieces in, the rest stalled), goes on, and so
     * do other disks' (partitions of the same device, an NVMe
     * controller's other namespaces share its queues), which no
     * completion of their own may come to wake.  The room was made
     * before @breq came back; a ring that found none and marked itself
     * busy since looks again after.
     */
    smp_mb();
    for ( i = 0; i < ACCESS_ONCE(nr_vbds); i++ )
        if ( &vbds[i] != r->vbd )
            wake_busy(&vbds[i]);
    wake_waiting(r->vbd);
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
    spin_unlock(vbd_ring_lock(r));
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
        st = vbd_prepare_discard(r, q, req);
        break;
    default:
        st = req->operation == BLKIF_OP_INDIRECT ? BLKIF_RSP_ERROR
                                                 : BLKIF_RSP_EOPNOTSUPP;
        break;
    }
    if ( st != BLKIF_RSP_OKAY || !q->nr_subs )
    {
        respond(r, q->id, q->operation, st);
        release_req(v, q);
        wake_waiting(v);
        return;
    }
    r->inflight++;
    __atomic_fetch_add(&v->inflight, 1, __ATOMIC_SEQ_CST);
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

/*
 * Stalled requests in order, one still without room staying first;
 * false if one is.  A room-maker on another ring (a shared device
 * queue: this disk's, or another's on the same device or controller,
 * req_done()) finds us busy, or we find its room on the look again.  Each
 * is off the list while tried: one whose rest is refused finishes in
 * submit_subs(), and its slot may be another ring's at once.
 */
static bool submit_stalled(struct vbd_ring *r)
{
    struct vbd_req *q;

    while ( r->stalled )
    {
        q = unstall(r);
        if ( submit_subs(r, q) )
            continue;
        mark_busy(r);                   /* a completion raises us again */
        if ( !submit_subs(r, q) )
        {
            restall(r, q);
            return false;
        }
        r->busy = false;
    }
    return true;
}

/*
 * A slot for the next request, @want segments held against the maps;
 * NULL (busy, counted) if the vbd's other rings have them all.
 */
static struct vbd_req *take_room(struct vbd_ring *r, unsigned int want)
{
    struct vbd *v = r->vbd;
    struct vbd_req *q;
    unsigned int tries;

    for ( tries = 0; ; tries++ )
    {
        if ( (q = take_req(v)) )
        {
            if ( maps_get(v, want) )
            {
                q->maps = want;
                if ( tries )
                    r->busy = false;
                return q;
            }
            put_req(v, q);
        }
        if ( tries )
            break;
        mark_busy(r);                   /* a completion raises us again */
    }
    if ( q )
        r->no_maps++;
    else
        r->no_slot++;
    return NULL;
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
    bool open = r->open && !ACCESS_ONCE(v->broken);

    if ( r->stalled && !open )
        drop_stalled(r);
    if ( !open )
        return false;
    r->busy = false;
    if ( !submit_stalled(r) )
        return false;
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
            blkif_ring_get(&r->ring, rc, &req);
            if ( !(q = take_room(r, vbd_req_maps(&req))) )
                return false;
            if ( budget == RING_BUDGET - 1 )
                r->runs++;
            br->req_cons = ++rc;
            r->reqs++;
            if ( smp_processor_id() != r->cpu )
                r->away++;
            dispatch(r, q, &req);
            if ( r->stalled && !submit_stalled(r) )
                return false;
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
    ASSERT_RING_LOCKED(r);
    r->batching = true;
    again = ring_work(r);
    r->batching = false;
    /* A closed ring submitted nothing: its device may be on its way out. */
    if ( r->open && v->dev )
        blk_kick_on(v->dev, r->index % v->dev->nr_queues);
    return again;
}
