/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A queue's RX ring (device to guest), as Linux's xen-netback (rx.c
 * xenvif_rx_skb()) with feature-rx-copy: each packet the device receives
 * is copied into the frames the guest posted (their grants mapped
 * writable for the copy alone), a page a slot with NETRXF_more_data when
 * the guest has feature-sg, the GSO extra info after the first slot, the
 * device's checksum state as NETRXF_data_validated / csum_blank.  A
 * packet the guest has posted no room for is held, and every later one
 * behind it, their device buffers kept, until it posts some: as Linux's
 * netback stops its queue when the frontend is full, so the device runs
 * out of buffers and holds further packets itself (or drops them, its
 * choice) rather than the backend dropping them (a sender on the host
 * then backs off instead of losing packets and retransmitting).
 */
#include "backends/net/netback.h"
#include "pv/pv.h"
#include "shim/console.h"

static void rx_push(struct nb_queue *q)
{
    bool notify;

    RING_PUSH_RESPONSES_AND_CHECK_NOTIFY(&q->rx, notify);
    if ( notify )
        vif_notify(q, false);
}

static void dropped(struct vif *v, struct nb_queue *q, const char *why)
{
    q->rx_dropped++;
    if ( !__atomic_exchange_n(&v->rx_warned, true, __ATOMIC_RELAXED) )
        vif_printk(v, XENLOG_INFO, "packet dropped: %s (counted in "
                   "rx_dropped from now on)\n", why);
}

/* Copy slot @s of the frame into the guest's frame @gref; its status. */
static int16_t copy_slot(const struct net_rx *rx, const struct nb_rx_slot *s,
                         grant_ref_t gref, int32_t field, uint16_t csum)
{
    unsigned int handle;
    uint64_t maddr;
    uint8_t *p;

    if ( pv_grant_map_dev(gref, false, &handle, &maddr) )
        return NETIF_RSP_ERROR;
    p = __va(maddr);
    nb_rx_copy(rx, s->off, s->len, p);
    /* A sum filled here: its two bytes where they fell. */
    if ( field >= 0 && (uint32_t)field >= s->off &&
         (uint32_t)field < s->off + s->len )
        p[field - s->off] = csum >> 8;
    if ( field >= 0 && (uint32_t)field + 1 >= s->off &&
         (uint32_t)field + 1 < s->off + s->len )
        p[field + 1 - s->off] = csum;
    pv_grant_unmap_dev(handle);
    return s->len;
}

/* The guest can't take this frame's blank sum: fill it; -1 if none. */
static int32_t sw_csum(const struct vif *v, const struct net_rx *rx,
                       uint16_t *flags, uint16_t *csum)
{
    const uint8_t *eth = rx->buf[0].data;
    bool v6;
    uint32_t field;

    if ( !(*flags & NETRXF_csum_blank) )
        return -1;
    v6 = rx->buf[0].len >= NET_ETH_HLEN && eth[12] == 0x86 && eth[13] == 0xdd;
    if ( v6 ? v->ipv6_csum : v->ip_csum )
        return -1;
    field = rx->off.csum_start + rx->off.csum_offset;
    if ( field + 2 > rx->len )
        return -2;
    *csum = nb_rx_csum(rx);
    *flags = NETRXF_data_validated;
    return field;
}

/*
 * Give @rx to the guest: true once done with it (given, dropped, or the
 * vif broken), false if the frontend hasn't posted room for it yet (it
 * is asked to notify when it has, as Linux's netback sets req_event).
 */
static bool rx_one(struct vif *v, struct nb_queue *q, const struct net_rx *rx)
{
    struct nb_rx_slot s[NB_RX_MAX_SLOTS];
    struct netif_rx_request req;
    struct netif_rx_response *rsp;
    bool gso = false;
    uint16_t flags = nb_rx_csum_flags(&rx->off), csum = 0;
    unsigned int n, i, last;
    int32_t field;
    RING_IDX rp;

    if ( rx->off.gso_type != NET_GSO_NONE )
    {
        gso = rx->off.gso_type == NET_GSO_TCPV4 ? v->gso4 : v->gso6;
        if ( !gso )
        {
            dropped(v, q, "GSO the frontend didn't ask for");
            return true;
        }
    }
    if ( (field = sw_csum(v, rx, &flags, &csum)) == -2 )
    {
        dropped(v, q, "checksum offsets past the frame");
        return true;
    }
    if ( gso && field >= 0 )
    {
        /* One sum over all its segments would be no segment's. */
        dropped(v, q, "GSO whose sum the frontend can't take blank");
        return true;
    }
    if ( !(n = nb_rx_plan(rx->len, v->sg, gso, s, NB_RX_MAX_SLOTS)) )
    {
        dropped(v, q, "too big for the frontend's slots");
        return true;
    }
    for ( ; ; )
    {
        rp = ACCESS_ONCE(q->rx.sring->req_prod);
        smp_rmb();                      /* req_prod, then the requests */
        if ( RING_REQUEST_PROD_OVERFLOW(&q->rx, rp) )
        {
            vif_broken(v, "RX req_prod more than a ring ahead of the "
                       "responses", rp, q->rx.rsp_prod_pvt);
            return true;
        }
        if ( rp - q->rx.req_cons >= n )
            break;
        if ( q->rx.sring->req_event == q->rx.req_cons + n )
            return false;
        /* Notified once the frontend posts enough; then look again. */
        q->rx.sring->req_event = q->rx.req_cons + n;
        smp_mb();
    }
    for ( last = n - 1; s[last].extra; last-- )
        ;
    for ( i = 0; i < n; i++ )
    {
        /* Responses go where their requests were: copy each out first. */
        RING_COPY_REQUEST(&q->rx, q->rx.req_cons, &req);
        rsp = RING_GET_RESPONSE(&q->rx, q->rx.rsp_prod_pvt);
        if ( s[i].extra )
        {
            struct netif_extra_info *x = (struct netif_extra_info *)rsp;

            memset(x, 0, sizeof(*x));
            x->type = XEN_NETIF_EXTRA_TYPE_GSO;
            x->u.gso.size = rx->off.gso_size;
            x->u.gso.type = rx->off.gso_type == NET_GSO_TCPV4
                            ? XEN_NETIF_GSO_TYPE_TCPV4
                            : XEN_NETIF_GSO_TYPE_TCPV6;
        }
        else
        {
            rsp->id = req.id;
            rsp->offset = 0;
            rsp->flags = (i < last ? NETRXF_more_data : 0) |
                         (i ? 0 : flags | (gso ? NETRXF_extra_info : 0));
            rsp->status = copy_slot(rx, &s[i], req.gref, field, csum);
        }
        q->rx.req_cons++;
        q->rx.rsp_prod_pvt++;
    }
    q->rx_packets++;
    q->rx_gso += gso;
    q->rx_blank += !!(flags & NETRXF_csum_blank);
    rx_push(q);
    return true;
}

static struct net_rx *held_pop(struct nb_queue *q)
{
    struct net_rx *rx = q->held_head;

    q->held_head = rx->next;
    if ( !q->held_head )
        q->held_tail = NULL;
    q->held_nr--;
    return rx;
}

/* Held packets to the guest, in order, while it has room for them. */
void nb_rx_flush(struct nb_queue *q)
{
    struct vif *v = q->vif;
    struct net_rx *rx;
    unsigned long returned = 0;         /* device pairs given buffers */
    unsigned int i;

    ASSERT(spin_is_locked_by_me(vif_queue_lock(q)));
    while ( q->held_nr && q->open && !ACCESS_ONCE(v->broken) && q->have_rx )
    {
        rx = q->held_head;
        if ( !rx_one(v, q, rx) )
            break;
        if ( ACCESS_ONCE(v->broken) )
            break;                      /* the disconnect gives all back */
        held_pop(q);
        returned |= 1UL << (rx->queue % NET_MAX_QUEUES);
        net_rx_return_more(v->dev, rx);
    }
    /* The device hears of the buffers once for the whole flush. */
    for ( i = 0; returned; i++, returned >>= 1 )
        if ( returned & 1 )
            net_kick_on(v->dev, i);
}

/* Every held packet back to the device (a disconnect). */
void nb_rx_give_back(struct nb_queue *q)
{
    struct net_rx *rx;

    while ( q->held_nr )
    {
        rx = held_pop(q);
        net_rx_return(q->vif->dev, rx);
    }
}

/*
 * A packet for @q: after any it holds, else given at once, else held
 * (the device's buffers kept) until the frontend posts room.  At most
 * the device's receive buffers are held: it takes no more meanwhile.
 */
static bool receive(struct vif *v, struct nb_queue *q, struct net_rx *rx)
{
    if ( !q->held_nr && rx_one(v, q, rx) )
        return true;
    if ( ACCESS_ONCE(v->broken) )
        return true;                    /* broken meanwhile */
    rx->next = NULL;
    if ( q->held_tail )
        q->held_tail->next = rx;
    else
        q->held_head = rx;
    q->held_tail = rx;
    q->held_nr++;
    nb_rx_flush(q);
    return false;
}

void nb_receive(struct net_dev *dev, struct net_rx *rx, void *data)
{
    struct vif *v = data;
    unsigned int nr = MIN(ACCESS_ONCE(v->nr_queues), VIF_MAX_QUEUES);
    struct nb_queue *q;
    bool done = true;

    ASSERT(pv_backend_locked());
    if ( nr )
    {
        q = &v->q[rx->queue % nr];
        spin_lock_irq_on_wait(vif_queue_lock(q));
        if ( q->open && !ACCESS_ONCE(v->broken) && q->have_rx )
            done = receive(v, q, rx);
        spin_unlock(vif_queue_lock(q));
    }
    if ( done )
        net_rx_return(dev, rx);
}
