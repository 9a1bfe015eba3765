/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * virtio-net's data path (virtio 1.2, 5.1.6) behind drivers/net.h: send
 * as a header slot plus the caller's fragments (one indirect table a
 * packet), receive buffers put together into packets (mergeable where
 * negotiated) with every length and id the device gives checked, handed
 * to the receiver and reposted when it gives them back.
 */
#include "drivers/dma.h"
#include "drivers/virtio/virtio-net-dev.h"
#include "shim/console.h"

static enum net_status vnet_transmit(struct net_dev *dev, unsigned int qi,
                                     struct net_tx *tx)
{
    struct vnet *vn = dev->priv;
    struct vnet_queue *q = &vn->q[qi];
    enum net_status rc = NET_OK;
    struct vnet_tx_slot *s;
    unsigned long flags;
    unsigned int i, n = 0;
    bool kick;

    /* net_transmit() kept nr_frags within max_frags, one under bufs. */
    ASSERT(tx->nr_frags < ARRAY_SIZE(q->bufs));
    spin_lock_irqsave(&q->tx_lock, flags);
    if ( q->free_slot >= q->txq.size )
    {
        spin_unlock_irqrestore(&q->tx_lock, flags);
        return NET_EBUSY;
    }
    s = &q->slots[q->free_slot];
    vnet_hdr_build(&s->hdr, &tx->off);
    q->bufs[n++] = (struct vq_buf){ dma_addr(&s->hdr), VNET_HDR_LEN, false };
    for ( i = 0; i < tx->nr_frags; i++ )
        q->bufs[n++] = (struct vq_buf){ tx->frag[i].addr, tx->frag[i].len,
                                        false };
    switch ( vq_add(&q->txq, q->bufs, n, s) )
    {
    case 0:
        q->free_slot = s->next_free;
        q->tx_used++;
        s->tx = tx;
        break;
    case VQ_FULL:
        rc = NET_EBUSY;
        break;
    default:
        rc = NET_EINVAL;
        break;
    }
    kick = rc == NET_OK && !tx->more && vq_kick_prepare(&q->txq);
    spin_unlock_irqrestore(&q->tx_lock, flags);
    if ( kick )
        virtio_notify(&vn->vd, &q->txq);
    return rc;
}

/* Slots free now (a packet takes one: an indirect table); racy, a hint. */
static unsigned int vnet_tx_room(struct net_dev *dev, unsigned int qi)
{
    struct vnet *vn = dev->priv;
    struct vnet_queue *q = &vn->q[qi];

    return q->txq.size - ACCESS_ONCE(q->tx_used);
}

/* Packets sent: each one's completion, without the queue's lock. */
static void tx_complete(struct vnet *vn, struct vnet_queue *q)
{
    struct vnet_tx_slot *s;
    struct net_tx *tx;
    unsigned long flags;
    uint32_t len;
    bool bad;

    spin_lock_irqsave(&q->tx_lock, flags);
    do {
        vq_disable_cb(&q->txq);
        while ( (s = vq_get_used(&q->txq, &len, &bad)) || bad )
        {
            if ( bad && !q->tx_warned )
            {
                printk(XENLOG_WARNING "%s: send queue %u: device returned "
                       "a descriptor it was not given\n", vn->net.name,
                       q->index);
                q->tx_warned = true;
            }
            if ( !s )
                break;
            tx = s->tx;
            s->tx = NULL;
            s->next_free = q->free_slot;
            q->free_slot = s - q->slots;
            q->tx_used--;
            q->tx_packets++;
            spin_unlock_irqrestore(&q->tx_lock, flags);
            tx->done(tx, NET_OK);
            spin_lock_irqsave(&q->tx_lock, flags);
        }
    } while ( vq_enable_cb(&q->txq) );
    spin_unlock_irqrestore(&q->tx_lock, flags);
    net_tx_reaped(&vn->net, q->index);
}

void vnet_rx_post(struct vnet *vn, struct vnet_queue *q, unsigned int b)
{
    uint8_t *p = q->rx_bufs + (unsigned long)b * vn->buf_size;
    struct vq_buf buf = { dma_addr(p), vn->buf_size, true };

    /* As many buffers as entries: there is always room. */
    int rc = vq_add(&q->rxq, &buf, 1, p);

    ASSERT(!rc);
    (void)rc;
}

static unsigned int buf_index(struct vnet *vn, struct vnet_queue *q,
                              const uint8_t *p)
{
    return (p - q->rx_bufs) / vn->buf_size;
}

/* Repost @pkt's buffers and free it; under rx_lock. */
static void rx_recycle(struct vnet *vn, struct vnet_queue *q,
                       struct vnet_rx_pkt *pkt)
{
    unsigned int i;

    for ( i = 0; i < pkt->rx.nr_bufs; i++ )
        vnet_rx_post(vn, q, buf_index(vn, q, pkt->rx.buf[i].data));
    pkt->rx.nr_bufs = 0;
    pkt->next_free = q->free_pkt;
    q->free_pkt = pkt;
}

/*
 * Publish the reposted buffers and unlock; not from within rx_complete(),
 * which does it once at its end for every buffer reposted meanwhile.
 */
static void rx_kick(struct vnet *vn, struct vnet_queue *q,
                    unsigned long flags)
{
    bool kick = !q->rx_running && vq_unpublished(&q->rxq) &&
                vq_kick_prepare(&q->rxq);

    spin_unlock_irqrestore(&q->rx_lock, flags);
    if ( kick )
        virtio_notify(&vn->vd, &q->rxq);
}

static void vnet_rx_return(struct net_dev *dev, struct net_rx *rx, bool more)
{
    struct vnet *vn = dev->priv;
    struct vnet_queue *q = &vn->q[rx->queue];
    unsigned long flags;

    spin_lock_irqsave(&q->rx_lock, flags);
    rx_recycle(vn, q, rx->priv);
    /* One of several: the caller's vnet_kick() publishes them all. */
    if ( more )
        spin_unlock_irqrestore(&q->rx_lock, flags);
    else
        rx_kick(vn, q, flags);
}

static void rx_bad(struct vnet *vn, struct vnet_queue *q, const char *why)
{
    q->rx_dropped++;
    if ( q->rx_warned )
        return;
    q->rx_warned = true;
    printk(XENLOG_WARNING "%s: receive queue %u: %s: packet dropped\n",
           vn->net.name, q->index, why);
}

/*
 * One used buffer @p of @len bytes into the packet being put together;
 * the packet if it is now complete and good, else NULL.  Under rx_lock.
 */
static struct vnet_rx_pkt *rx_add(struct vnet *vn, struct vnet_queue *q,
                                  uint8_t *p, uint32_t len)
{
    struct vnet_rx_pkt *pkt = q->cur;
    const struct virtio_net_hdr *h;
    bool first = !q->asm_.want;
    uint16_t nr = 1;
    int r;

    if ( first && virtio_has(&vn->vd, VIRTIO_NET_F_MRG_RXBUF) )
        nr = ACCESS_ONCE(((struct virtio_net_hdr *)p)->num_buffers);
    r = vnet_rx_add(&q->asm_, len, vn->buf_size, nr, NET_RX_MAX_BUFS);
    if ( first )
    {
        /* As many packets as buffers: there is always one. */
        pkt = q->cur = q->free_pkt;
        ASSERT(pkt);
        q->free_pkt = pkt->next_free;
        pkt->rx.nr_bufs = 0;
    }
    if ( pkt->rx.nr_bufs < NET_RX_MAX_BUFS )
    {
        unsigned int i = pkt->rx.nr_bufs++;

        pkt->rx.buf[i].data = first ? p + VNET_HDR_LEN : p;
        pkt->rx.buf[i].len = MIN(len, vn->buf_size) -
                             (first ? MIN(len, VNET_HDR_LEN) : 0);
    }
    else
        vnet_rx_post(vn, q, buf_index(vn, q, p));
    if ( r == VNET_RX_MORE )
        return NULL;
    q->cur = NULL;
    if ( r == VNET_RX_DONE )
    {
        h = (const void *)(pkt->rx.buf[0].data - VNET_HDR_LEN);
        pkt->rx.len = q->asm_.len;
        if ( vnet_hdr_parse(h, vn->net.features, pkt->rx.len, &pkt->rx.off) )
            return pkt;
        rx_bad(vn, q, "header with offloads not negotiated");
    }
    else
        rx_bad(vn, q, "bad length or buffer count");
    rx_recycle(vn, q, pkt);
    return NULL;
}

/* Packets received: each to the receiver, without the queue's lock. */
static void rx_complete(struct vnet *vn, struct vnet_queue *q)
{
    struct net_dev *dev = &vn->net;
    struct vnet_rx_pkt *pkt;
    net_receive_t *fn;
    unsigned long flags;
    uint32_t len;
    uint8_t *p;
    bool bad;

    spin_lock_irqsave(&q->rx_lock, flags);
    q->rx_running = true;
    do {
        vq_disable_cb(&q->rxq);
        while ( (p = vq_get_used(&q->rxq, &len, &bad)) || bad )
        {
            if ( bad )
                rx_bad(vn, q, "device returned a descriptor it was not "
                       "given");
            if ( !p )
                break;
            if ( !(pkt = rx_add(vn, q, p, len)) )
                continue;
            q->rx_packets++;
            pkt->rx.queue = q->index;
            pkt->rx.priv = pkt;
            fn = __atomic_load_n(&dev->receive, __ATOMIC_ACQUIRE);
            if ( !fn )
            {
                rx_recycle(vn, q, pkt);
                continue;
            }
            spin_unlock_irqrestore(&q->rx_lock, flags);
            fn(dev, &pkt->rx, ACCESS_ONCE(dev->receive_data));
            spin_lock_irqsave(&q->rx_lock, flags);
        }
    } while ( vq_enable_cb(&q->rxq) );
    /* Every buffer reposted meanwhile, this CPU's or another's. */
    q->rx_running = false;
    rx_kick(vn, q, flags);
}

/* The end of a batch: the pair's sends and its reposted buffers. */
static void vnet_kick(struct net_dev *dev, unsigned int qi)
{
    struct vnet *vn = dev->priv;
    struct vnet_queue *q = &vn->q[qi];
    unsigned long flags;

    virtio_kick_batch(&vn->vd, &q->txq, &q->tx_lock);
    spin_lock_irqsave(&q->rx_lock, flags);
    rx_kick(vn, q, flags);
}

static void vnet_complete(struct net_dev *dev, unsigned int qi)
{
    struct vnet *vn = dev->priv;

    tx_complete(vn, &vn->q[qi]);
    rx_complete(vn, &vn->q[qi]);
}

bool vnet_link_up(struct net_dev *dev)
{
    struct vnet *vn = dev->priv;

    if ( !virtio_has(&vn->vd, VIRTIO_NET_F_STATUS) )
        return true;
    return virtio_cfg_read(&vn->vd, VNET_CFG_STATUS, 2) &
           VIRTIO_NET_S_LINK_UP;
}

/* The device's TCP GSO to us, of the kinds @f (NET_F_GSO_RX4/6) alone. */
bool vnet_rx_gso(struct net_dev *dev, unsigned int f)
{
    struct vnet *vn = dev->priv;
    uint64_t o = 1ULL << VIRTIO_NET_F_GUEST_CSUM;

    if ( f & NET_F_GSO_RX4 )
        o |= 1ULL << VIRTIO_NET_F_GUEST_TSO4;
    if ( f & NET_F_GSO_RX6 )
        o |= 1ULL << VIRTIO_NET_F_GUEST_TSO6;
    return vnet_ctrl(vn, VIRTIO_NET_CTRL_GUEST_OFFLOADS,
                     VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET, &o, sizeof(o));
}

static void vnet_dump(struct net_dev *dev)
{
    struct vnet *vn = dev->priv;
    unsigned int i;

    for ( i = 0; i < dev->nr_queues; i++ )
    {
        struct vnet_queue *q = &vn->q[i];

        vq_dump(&q->rxq, dev->name);
        vq_dump(&q->txq, dev->name);
        printk("%s pair %u: %lu interrupts, %lu packets received, %lu "
               "dropped, %lu sent\n", dev->name, i, q->irqs, q->rx_packets,
               q->rx_dropped, q->tx_packets);
    }
}

static void vnet_stop(struct net_dev *dev)
{
    struct vnet *vn = dev->priv;

    virtio_stop(&vn->vd, &vn->poll, dev->name);
}

const struct net_dev_ops vnet_ops = {
    .transmit = vnet_transmit,
    .kick = vnet_kick,
    .tx_room = vnet_tx_room,
    .complete = vnet_complete,
    .rx_return = vnet_rx_return,
    .link_up = vnet_link_up,
    .rx_gso = vnet_rx_gso,
    .dump = vnet_dump,
    .stop = vnet_stop,
};
