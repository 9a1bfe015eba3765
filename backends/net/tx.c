/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A queue's TX ring (guest to device), as Linux's xen-netback
 * (netback.c xenvif_tx_action()): each packet's slot chain copied out
 * and checked (tx-parse.c), its grants mapped read-only, its first bytes
 * copied into the shim (the checksum field may need writing, and the
 * guest's grants are read-only), the rest handed to the device where it
 * lies: no copy.  The responses go out once the device is done with the
 * frames and their grants are released; a packet refused is answered
 * NETIF_RSP_ERROR at once, a chain that breaks the protocol closes the
 * vif.  Under the queue's lock; the vif's TX grants, which its queues
 * share, held and given back atomically (a queue that finds none marks
 * itself waiting, then looks again; one giving some back looks at the
 * others' waits after).
 */
#include "backends/net/netback.h"
#include "arch/x86/barrier.h"
#include "arch/x86/percpu.h"
#include "drivers/dma.h"
#include "pv/pv.h"
#include "shim/console.h"
#include "shim/softirq.h"

#define TX_BUDGET       64          /* packets per queue per softirq run */
#define NO_HANDLE       (~0u)

static void tx_rsp(struct nb_queue *q, uint16_t id, int16_t status)
{
    struct netif_tx_response *r = RING_GET_RESPONSE(&q->tx,
                                                    q->tx.rsp_prod_pvt);

    r->id = id;
    r->status = status;
    q->tx.rsp_prod_pvt++;
}

static void tx_push(struct nb_queue *q)
{
    bool notify;

    RING_PUSH_RESPONSES_AND_CHECK_NOTIFY(&q->tx, notify);
    if ( notify )
        vif_notify(q, true);
}

/*
 * Every slot of a packet gets a response (make_tx_response()): its
 * first data slot, NETIF_RSP_NULL for each extra info, then the others.
 */
static void answer(struct nb_queue *q, const uint16_t *id, unsigned int nr,
                   unsigned int nr_extras, int16_t status)
{
    unsigned int i;

    tx_rsp(q, id[0], status);
    for ( i = 0; i < nr_extras; i++ )
        tx_rsp(q, 0, NETIF_RSP_NULL);
    for ( i = 1; i < nr; i++ )
        tx_rsp(q, id[i], status);
    if ( status != NETIF_RSP_OKAY )
        q->tx_errors++;
    tx_push(q);
}

static void answer_pkt(struct nb_queue *q, const struct nb_tx_pkt *p,
                       int16_t status)
{
    uint16_t id[NB_TX_FATAL_SLOTS + 1];
    unsigned int i;

    for ( i = 0; i < p->nr_data; i++ )
        id[i] = p->data[i].id;
    answer(q, id, p->nr_data, p->nr_extras, status);
}

static void unmap_one(struct nb_tx_req *r, unsigned int i)
{
    pv_grant_unmap_dev(r->handle[i]);
    r->handle[i] = NO_HANDLE;
    __atomic_fetch_sub(&r->q->vif->tx_maps, 1, __ATOMIC_SEQ_CST);
}

/*
 * @n grants held against the vif's NB_TX_MAX_MAPS, if they fit or
 * @q has nothing in flight (so it always moves); mapped, each is given
 * back by unmap_one().
 */
static bool tx_maps_get(struct nb_queue *q, unsigned int n)
{
    struct vif *v = q->vif;
    unsigned int m = __atomic_load_n(&v->tx_maps, __ATOMIC_RELAXED);

    do {
        if ( m + n > NB_TX_MAX_MAPS && q->inflight )
            return false;
    } while ( !__atomic_compare_exchange_n(&v->tx_maps, &m, m + n, false,
                                           __ATOMIC_SEQ_CST,
                                           __ATOMIC_RELAXED) );
    return true;
}

static void unmap(struct nb_tx_req *r)
{
    unsigned int i;

    for ( i = 0; i < r->nr_maps; i++ )
        if ( r->handle[i] != NO_HANDLE )
            unmap_one(r, i);
    r->nr_maps = 0;
}

/* The device is done with @r (or never took it): release, answer. */
static void finish(struct nb_tx_req *r, int16_t status)
{
    struct nb_queue *q = r->q;
    struct vif *v = q->vif;
    unsigned int i, n;

    unmap(r);
    answer(q, r->id, r->nr_data, r->nr_extras, status);
    if ( status == NETIF_RSP_OKAY )
    {
        q->tx_packets++;
        if ( r->tx.off.gso_type != NET_GSO_NONE )
            q->tx_gso++;
    }
    r->in_use = false;
    q->inflight--;
    /*
     * Queues waiting for room (in the queue, in the vif's grants: any
     * queue's, or in a device queue: a stalled packet's, send_stalled())
     * run again, each on its CPU; a drain on CPU 0.  The grants went
     * back with full barriers.
     */
    smp_mb();
    n = MIN(ACCESS_ONCE(v->nr_queues), VIF_MAX_QUEUES);
    for ( i = 0; i < n; i++ )
        if ( __atomic_load_n(&v->q[i].tx_wait, __ATOMIC_SEQ_CST) )
            cpu_raise_softirq(v->q[i].cpu, NETBACK_SOFTIRQ);
    /*
     * A closed queue (disconnect() closes each under its lock, then
     * looks at what is in flight): its last packet lets the vif go.
     */
    if ( !q->open )
        cpu_raise_softirq(0, NETBACK_SOFTIRQ);
}

/* drivers/: the device no longer reads @tx (NET_SOFTIRQ, any CPU). */
static void tx_done(struct net_tx *tx, enum net_status s)
{
    struct nb_tx_req *r = tx->data;
    struct nb_queue *q = r->q;

    ASSERT(pv_backend_locked());
    spin_lock_irq_on_wait(vif_queue_lock(q));
    finish(r, s == NET_OK ? NETIF_RSP_OKAY : NETIF_RSP_ERROR);
    spin_unlock(vif_queue_lock(q));
}

/* Bytes [from, from + len) of the packet, from its mapped slots. */
static void gather(uint8_t *dst, const struct nb_tx_pkt *p,
                   const uint64_t *maddr, uint32_t from, uint32_t len)
{
    uint32_t pos = 0, skip, n;
    unsigned int i;

    for ( i = 0; i < p->nr_data && len; pos += p->data[i++].size )
    {
        if ( from >= pos + p->data[i].size )
            continue;
        skip = from - pos;
        n = MIN(p->data[i].size - skip, len);
        memcpy(dst, (uint8_t *)__va(maddr[i]) + p->data[i].offset + skip, n);
        dst += n;
        from += n;
        len -= n;
    }
}

/*
 * The headers into r->hdr (at least NB_TX_COPY bytes, or up to the
 * checksum field), the offloads from the flags and the GSO extra info.
 * The bytes copied, or 0 if the packet's checksum can't be offloaded.
 */
static uint32_t headers(struct nb_tx_req *r, const struct nb_tx_pkt *p,
                        const uint64_t *maddr, struct net_offload *off)
{
    uint32_t copy = MIN(p->len, NB_TX_COPY);
    bool gso = p->gso.type, blank = p->flags & NETTXF_csum_blank;
    int rc;

    gather(r->hdr, p, maddr, 0, copy);
    memset(off, 0, sizeof(*off));
    if ( !blank && !gso )
        return copy;
    /* A GSO packet's checksums are the device's: always partial. */
    while ( (rc = nb_csum_setup(r->hdr, copy, p->len, gso && !blank,
                                off)) > 0 )
    {
        if ( (uint32_t)rc > NB_HDR_MAX || (uint32_t)rc <= copy )
            return 0;
        gather(r->hdr + copy, p, maddr, copy, rc - copy);
        copy = rc;
    }
    if ( rc < 0 )
        return 0;
    if ( gso )
    {
        off->gso_type = p->gso.u.gso.type == XEN_NETIF_GSO_TYPE_TCPV4
                        ? NET_GSO_TCPV4 : NET_GSO_TCPV6;
        off->gso_size = p->gso.u.gso.size;
    }
    return copy;
}

/* The fragments: the copied headers, then each slot's bytes past them. */
static void fragments(struct nb_tx_req *r, const struct nb_tx_pkt *p,
                      const uint64_t *maddr, uint32_t copy)
{
    uint32_t pos = 0, skip;
    unsigned int i, n = 0;

    r->frag[n++] = (struct net_frag){ dma_addr(r->hdr), copy };
    for ( i = 0; i < p->nr_data; pos += p->data[i++].size )
    {
        skip = copy > pos ? MIN(copy - pos, p->data[i].size) : 0;
        if ( skip == p->data[i].size )
        {
            unmap_one(r, i);            /* all of it copied: it can go */
            continue;
        }
        r->frag[n++] = (struct net_frag){
            maddr[i] + p->data[i].offset + skip, p->data[i].size - skip };
    }
    r->tx.nr_frags = n;
}

/* Map the packet's data slots for the device to read; a GNTST_ error. */
static int map_slots(struct nb_tx_req *r, const struct nb_tx_pkt *p,
                     uint64_t *maddr)
{
    unsigned int i;
    int rc;

    for ( i = 0; i < p->nr_data; i++ )
    {
        if ( (rc = pv_grant_map_dev(p->data[i].gref, true, &r->handle[i],
                                    &maddr[i])) )
        {
            r->nr_maps = i;
            unmap(r);
            /* What tx_work() held for the slots not mapped. */
            __atomic_fetch_sub(&r->q->vif->tx_maps, p->nr_data - i,
                               __ATOMIC_SEQ_CST);
            return rc;
        }
        r->id[i] = p->data[i].id;
    }
    r->nr_maps = p->nr_data;
    return 0;
}

static struct nb_tx_req *free_req(struct nb_queue *q)
{
    unsigned int i;

    for ( i = 0; i < NB_TX_INFLIGHT; i++ )
        if ( !q->req[i].in_use )
            return &q->req[i];
    return NULL;
}

/* Hand @r to the device; false if its queue is full (r stalls). */
static bool send(struct nb_queue *q, struct nb_tx_req *r)
{
    struct net_dev *dev = q->vif->dev;
    enum net_status s;

    s = net_transmit_on(dev, q->index % dev->nr_queues, &r->tx);
    if ( s == NET_EBUSY )
    {
        q->stalled = r;
        return false;
    }
    if ( s != NET_OK )
        finish(r, NETIF_RSP_ERROR);
    return true;
}

/* One packet parsed off the ring (not fatal): answered, or sent. */
static void tx_one(struct nb_queue *q, const struct nb_tx_pkt *p)
{
    uint64_t maddr[NB_TX_MAX_DATA];
    struct nb_tx_req *r;
    uint32_t copy;
    int rc;

    if ( p->verdict != NB_TX_SEND )
    {
        answer_pkt(q, p, p->verdict == NB_TX_MCAST ? NETIF_RSP_OKAY
                                                   : NETIF_RSP_ERROR);
        return;
    }
    r = free_req(q);
    ASSERT(r);                          /* inflight < NB_TX_INFLIGHT */
    r->q = q;
    r->nr_data = p->nr_data;
    r->nr_extras = p->nr_extras;
    if ( (rc = map_slots(r, p, maddr)) )
    {
        answer_pkt(q, p, rc == GNTST_no_device_space ? NETIF_RSP_DROPPED
                                                     : NETIF_RSP_ERROR);
        return;
    }
    r->in_use = true;
    q->inflight++;
    /* The device hears of the run's packets at its end (nb_tx_work()). */
    r->tx = (struct net_tx){ .frag = r->frag, .done = tx_done, .data = r,
                             .more = true };
    if ( !(copy = headers(r, p, maddr, &r->tx.off)) )
    {
        finish(r, NETIF_RSP_ERROR);     /* no checksum offload possible */
        return;
    }
    fragments(r, p, maddr, copy);
    send(q, r);
}

/* A disconnect with a packet waiting for room: it is not sent. */
void nb_tx_abort_stalled(struct nb_queue *q)
{
    struct nb_tx_req *r = q->stalled;

    if ( !r )
        return;
    q->stalled = NULL;
    finish(r, NETIF_RSP_ERROR);
}

/* Waiting, then a full barrier: the look again that follows is ordered. */
static void mark_wait(struct nb_queue *q)
{
    __atomic_store_n(&q->tx_wait, true, __ATOMIC_SEQ_CST);
    smp_mb();
}

/*
 * The packet that found the device's queue full, again; false if it
 * still does.  Another queue's completion on a shared device queue
 * finds us waiting, or we find its room on the look again.
 */
static bool send_stalled(struct nb_queue *q)
{
    struct nb_tx_req *r;
    unsigned int tries;

    for ( tries = 0; (r = q->stalled); tries++ )
    {
        q->stalled = NULL;
        if ( send(q, r) )
            break;
        if ( tries )
            return false;               /* a completion raises us again */
        mark_wait(q);
    }
    if ( tries )
        q->tx_wait = false;
    return true;
}

static bool tx_work(struct nb_queue *q)
{
    struct vif *v = q->vif;
    unsigned int budget = TX_BUDGET;
    struct nb_tx_pkt p;
    RING_IDX rp;
    int more;

    q->tx_wait = false;
    if ( !send_stalled(q) )
        return false;
    for ( ; ; )
    {
        rp = ACCESS_ONCE(q->tx.sring->req_prod);
        smp_rmb();                      /* req_prod, then the requests */
        if ( RING_REQUEST_PROD_OVERFLOW(&q->tx, rp) )
        {
            vif_broken(v, "TX req_prod more than a ring ahead of the "
                       "responses", rp, q->tx.rsp_prod_pvt);
            return false;
        }
        while ( q->tx.req_cons != rp )
        {
            if ( !budget-- )
                return true;
            if ( q->inflight == NB_TX_INFLIGHT )
            {
                /* Its own completions, under its lock, raise it. */
                q->tx_wait = true;
                return false;
            }
            nb_tx_parse(&q->tx, rp, &p);
            if ( p.verdict == NB_TX_FATAL )
            {
                vif_broken(v, p.why, p.a, p.b);
                return false;
            }
            /* Parsed again, from the ring, once there is room. */
            if ( p.verdict == NB_TX_SEND && !tx_maps_get(q, p.nr_data) )
            {
                mark_wait(q);           /* a completion raises us again */
                if ( !tx_maps_get(q, p.nr_data) )
                    return false;
                q->tx_wait = false;
            }
            q->tx.req_cons += p.nr_slots;
            q->tx_taken++;
            if ( smp_processor_id() != q->cpu )
                q->tx_away++;
            tx_one(q, &p);
            if ( q->stalled && !send_stalled(q) )
                return false;
        }
        RING_FINAL_CHECK_FOR_REQUESTS(&q->tx, more);
        if ( !more )
            return false;
    }
}

/*
 * The guest's TX ring, a budget's worth: each packet queued on the
 * device without telling it (net_tx.more), then one kick for the run,
 * however it ended.
 */
bool nb_tx_work(struct nb_queue *q)
{
    struct vif *v = q->vif;
    struct net_dev *dev = v->dev;
    bool again;

    ASSERT(pv_backend_locked() && spin_is_locked_by_me(vif_queue_lock(q)));
    if ( !q->open || ACCESS_ONCE(v->broken) || !q->have_tx )
        return false;
    again = tx_work(q);
    net_kick_on(dev, q->index % dev->nr_queues);
    return again;
}
