/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The network devices (net.h): the registry, the checks every packet
 * sent passes (net-lib.c), the checksum a device without the offload
 * leaves to us, the pair a CPU sends on, and the softirq that runs
 * completions and receptions where the pairs' interrupts arrive.
 */
#include "arch/x86/percpu.h"
#include "drivers/dma.h"
#include "drivers/net.h"
#include "drivers/queue-pending.h"
#include "shim/softirq.h"

static struct net_dev *net_devs[8];
static unsigned int nr_net_devs;

static void net_softirq(void)
{
    unsigned int cpu = smp_processor_id(), i, q;

    for ( i = 0; i < ACCESS_ONCE(nr_net_devs); i++ )
    {
        struct net_dev *dev = net_devs[i];
        unsigned long pend = queue_pending_take(&dev->pending[cpu]);

        for ( q = 0; pend; q++, pend >>= 1 )
            if ( pend & 1 )
                dev->ops->complete(dev, q);
    }
}

static bool gso_init(struct net_dev *dev);

bool net_register(struct net_dev *dev)
{
    if ( nr_net_devs == ARRAY_SIZE(net_devs) )
        return false;
    if ( !gso_init(dev) )
        return false;
    if ( !nr_net_devs )
        open_softirq(NET_SOFTIRQ, net_softirq);
    net_devs[nr_net_devs] = dev;
    __atomic_store_n(&nr_net_devs, nr_net_devs + 1, __ATOMIC_RELEASE);
    return true;
}

unsigned int net_count(void)
{
    return nr_net_devs;
}

struct net_dev *net_get(unsigned int index)
{
    return index < nr_net_devs ? net_devs[index] : NULL;
}

void net_set_receive(struct net_dev *dev, net_receive_t *fn, void *data)
{
    /* The data before the function a softirq may call it with. */
    ACCESS_ONCE(dev->receive_data) = data;
    __atomic_store_n(&dev->receive, fn, __ATOMIC_RELEASE);
}

void net_queue_interrupt(struct net_dev *dev, unsigned int q)
{
    queue_pending_set(&dev->pending[smp_processor_id()], q);
    raise_softirq(NET_SOFTIRQ);
}

/* All RAM is in the directmap: a fragment is reached through it. */
static void *map_frag(uint64_t addr)
{
    return __va(addr);
}

/*
 * Software GSO, as Linux's skb_gso_segment() for a dom0 NIC without TSO:
 * a TCP GSO packet for a device without the offload is cut here into
 * MSS-sized segments, each with its own headers (net_gso_seg_hdr()) and
 * the payload where it lies, sent one after another with `more` and the
 * device's checksum offload or the software fill below; the packet's
 * done() comes once the last segment's has.  A packet goes only whole:
 * with no room for all its segments on the pair, or no free context,
 * NET_EBUSY (the sender retries after a completion).
 */
#define GSO_CTX         2               /* packets being sent, per pair */
#define GSO_SEGS        256             /* a 64 KiB packet, MSS 256 or more */
#define GSO_FRAGS       8               /* per segment, with its headers */
#define GSO_HDR         128

struct gso_ctx;
struct gso_seg {
    struct net_tx tx;
    struct gso_ctx *ctx;
    struct net_frag frag[GSO_FRAGS];
    uint8_t hdr[GSO_HDR];
};
struct gso_ctx {
    bool in_use;
    struct net_tx *orig;
    unsigned int left;                  /* segments not yet done */
    unsigned int failed;                /* an enum net_status, or NET_OK */
    struct gso_seg seg[GSO_SEGS];
};

/*
 * @n segments fewer to wait for.  After the last: the context is free
 * again, true, and the packet's status in *@s for its done().
 */
static bool gso_put(struct gso_ctx *c, unsigned int n, enum net_status *s)
{
    if ( __atomic_sub_fetch(&c->left, n, __ATOMIC_ACQ_REL) )
        return false;
    *s = __atomic_load_n(&c->failed, __ATOMIC_ACQUIRE);
    __atomic_store_n(&c->in_use, false, __ATOMIC_RELEASE);
    return true;
}

static void gso_seg_done(struct net_tx *tx, enum net_status s)
{
    struct gso_seg *sg = tx->data;
    struct net_tx *orig = sg->ctx->orig;

    if ( s != NET_OK )
        __atomic_store_n(&sg->ctx->failed, s, __ATOMIC_RELEASE);
    if ( gso_put(sg->ctx, 1, &s) )
        orig->done(orig, s);
}

/* Bytes [@from, @from + @len) of @tx as fragments: how many, 0: > @max. */
static unsigned int gso_frags(const struct net_tx *tx, uint32_t from,
                              uint32_t len, struct net_frag *f,
                              unsigned int max)
{
    uint32_t pos = 0, skip, n;
    unsigned int i, k = 0;

    for ( i = 0; i < tx->nr_frags && len; pos += tx->frag[i++].len )
    {
        if ( from >= pos + tx->frag[i].len )
            continue;
        if ( k == max )
            return 0;
        skip = from - pos;
        n = MIN(tx->frag[i].len - skip, len);
        f[k++] = (struct net_frag){ tx->frag[i].addr + skip, n };
        from += n;
        len -= n;
    }
    return len ? 0 : k;
}

static bool gso_init(struct net_dev *dev)
{
    dev->gso_pool = dma_alloc((unsigned long)dev->nr_queues * GSO_CTX *
                              sizeof(struct gso_ctx));
    return dev->gso_pool;
}

static struct gso_ctx *gso_get(struct net_dev *dev, unsigned int q)
{
    struct gso_ctx *c = (struct gso_ctx *)dev->gso_pool + q * GSO_CTX;
    unsigned int k;

    for ( k = 0; k < GSO_CTX; k++, c++ )
        if ( !ACCESS_ONCE(c->in_use) &&
             !__atomic_exchange_n(&c->in_use, true, __ATOMIC_ACQUIRE) )
            return c;
    return NULL;
}

static enum net_status gso_send(struct net_dev *dev, unsigned int q,
                                struct net_tx *tx, uint32_t len)
{
    const uint8_t *h = __va(tx->frag[0].addr);
    bool v6 = tx->off.gso_type == NET_GSO_TCPV6;
    uint32_t mss = tx->off.gso_size, l4, hlen, nseg, i, off, n;
    enum net_status s;
    struct gso_ctx *c;
    unsigned int k;

    if ( !net_gso_check(h, tx->frag[0].len, GSO_HDR, len, &tx->off, &l4,
                        &hlen, &nseg) || nseg > GSO_SEGS )
        return NET_EINVAL;
    if ( dev->tx_slots && nseg > dev->tx_slots )
        return NET_EINVAL;              /* could never all be queued */
    if ( dev->ops->tx_room && dev->ops->tx_room(dev, q) < nseg )
        return NET_EBUSY;
    if ( !(c = gso_get(dev, q)) )
        return NET_EBUSY;
    /* Every segment's fragments first: nothing is sent unless all fit. */
    for ( i = 0; i < nseg; i++ )
    {
        struct gso_seg *sg = &c->seg[i];

        off = hlen + i * mss;
        n = MIN(mss, len - off);
        sg->frag[0] = (struct net_frag){ dma_addr(sg->hdr), hlen };
        k = gso_frags(tx, off, n, sg->frag + 1, GSO_FRAGS - 1);
        if ( !k || k + 1 > dev->max_frags )
        {
            __atomic_store_n(&c->in_use, false, __ATOMIC_RELEASE);
            return NET_EINVAL;
        }
        net_gso_seg_hdr(sg->hdr, h, l4, hlen, v6, i, nseg, mss, n);
        sg->ctx = c;
        sg->tx = (struct net_tx){
            .nr_frags = k + 1, .frag = sg->frag, .done = gso_seg_done,
            .data = sg, .more = i + 1 < nseg || tx->more,
            .off = { .flags = NET_OFF_CSUM_PARTIAL, .csum_start = l4,
                     .csum_offset = 16 },
        };
    }
    c->orig = tx;
    c->failed = NET_OK;
    c->left = nseg;
    for ( i = 0; i < nseg; i++ )
    {
        if ( (s = net_transmit_on(dev, q, &c->seg[i].tx)) == NET_OK )
            continue;
        /*
         * Room was checked: only a device failing gets here.  The rest
         * never go; done() comes once those sent are, or, if they all
         * are already, the caller hears it now (never done() from here:
         * the caller may hold what done() takes, a vif's lock).
         */
        if ( s == NET_EBUSY && i )
            s = NET_EIO;                /* not all again: some went */
        __atomic_store_n(&c->failed, s, __ATOMIC_RELEASE);
        return gso_put(c, nseg - i, &s) ? s : NET_OK;
    }
    return NET_OK;
}

enum net_status net_transmit(struct net_dev *dev, struct net_tx *tx)
{
    return net_transmit_on(dev, smp_processor_id() % dev->nr_queues, tx);
}

enum net_status net_transmit_on(struct net_dev *dev, unsigned int q,
                                struct net_tx *tx)
{
    uint32_t len;
    enum net_status s = net_tx_check(dev, tx, &len);

    if ( s != NET_OK )
        return s;
    if ( tx->off.gso_type != NET_GSO_NONE &&
         !(dev->features & (tx->off.gso_type == NET_GSO_TCPV4 ? NET_F_TSO4
                                                              : NET_F_TSO6)) )
        return gso_send(dev, q % dev->nr_queues, tx, len);
    /*
     * A device without checksum offload sends what it is given: fill the
     * sum here (the field is the sender's, in its own packet).  GSO
     * here is the device's own to cut, with its checksum offload: the
     * rest went to gso_send() above.
     */
    if ( (tx->off.flags & NET_OFF_CSUM_PARTIAL) &&
         !(dev->features & NET_F_CSUM_TX) )
    {
        net_tx_csum(tx, map_frag);
        tx->off.flags &= ~NET_OFF_CSUM_PARTIAL;
    }
    return dev->ops->transmit(dev, q % dev->nr_queues, tx);
}

void net_kick_on(struct net_dev *dev, unsigned int q)
{
    dev->ops->kick(dev, q % dev->nr_queues);
}

void net_rx_return(struct net_dev *dev, struct net_rx *rx)
{
    dev->ops->rx_return(dev, rx, false);
}

void net_rx_return_more(struct net_dev *dev, struct net_rx *rx)
{
    dev->ops->rx_return(dev, rx, true);
}
