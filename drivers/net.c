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
#include "drivers/pci.h"
#include "drivers/queue-pending.h"
#include "drivers/registry.h"
#include "shim/console.h"
#include "shim/softirq.h"
#include "shim/spinlock.h"

static struct net_dev *net_devs[NET_MAX_DEVS];
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

/* The network backend, for NICs registered once it has started. */
static void (*add_hook)(struct net_dev *dev);
static void (*remove_hook)(struct net_dev *dev);

bool net_register(struct net_dev *dev)
{
    if ( nr_net_devs == ARRAY_SIZE(net_devs) )
    {
        printk(XENLOG_WARNING "%s: more than %u NICs: not used\n",
               dev->name, NET_MAX_DEVS);
        return false;
    }
    if ( !gso_init(dev) )
        return false;
    if ( !nr_net_devs )
        open_softirq(NET_SOFTIRQ, net_softirq);
    if ( dev->pci )
        pci_hold(dev->pci);
    net_devs[nr_net_devs] = dev;
    __atomic_store_n(&nr_net_devs, nr_net_devs + 1, __ATOMIC_RELEASE);
    REGISTRY_ADDED(add_hook, dev);
    return true;
}

void net_set_remove_hook(void (*fn)(struct net_dev *dev))
{
    remove_hook = fn;
}

void net_remove_pci(struct pci_dev *d)
{
    REGISTRY_REMOVE_PCI(net_devs, nr_net_devs, d, remove_hook, net_release);
}

void net_release(struct net_dev *dev)
{
    dev->receive = NULL;
    REGISTRY_RELEASE(net_devs, nr_net_devs, dev, NET_SOFTIRQ);
}

void net_set_add_hook(void (*fn)(struct net_dev *dev))
{
    add_hook = fn;
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

bool net_rx_gso(struct net_dev *dev, unsigned int f)
{
    unsigned int has = dev->features & (NET_F_GSO_RX4 | NET_F_GSO_RX6);

    if ( !has || !dev->ops->rx_gso )
        return true;
    return dev->ops->rx_gso(dev, f & has);
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
 * the payload where it lies, sent with `more` and the device's checksum
 * offload or the software fill below; the packet's done() comes once
 * every segment sent is done.  A packet of any number of segments goes
 * in rounds: what the pair has room for (tx_room), at most GSO_SEGS in
 * flight, then more at the end of each of the pair's send-completion
 * runs (net_tx_reaped()): one round and one notification for the room
 * the run freed, or for a pair that was full of others' packets.
 * Nothing is sent of a packet whose segments could not all be (a segment
 * in more pieces than a device request takes: NET_EINVAL), nor with no
 * room at all on the pair or no free context (NET_EBUSY: the sender
 * retries after a completion).
 * A device failing midway ends the packet: what went is waited for, the
 * rest never goes, and done() gets the failure.
 */
#define GSO_CTX         2               /* packets being sent, per pair */
/*
 * Segments in flight, per packet: a 64 KiB packet at Ethernet's MSS (45)
 * in one round; more go as these complete.  Each is a header and a
 * descriptor list (about 300 bytes), two contexts a pair.
 */
#define GSO_SEGS        64
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
    bool in_use;                        /* taken by exchange */
    spinlock_t lock;                    /* the rest, while in use */
    struct net_dev *dev;
    unsigned int q;
    struct net_tx *orig;
    const uint8_t *h;                   /* its headers (the caller's copy) */
    uint32_t l4, hlen, mss, len, nseg;
    bool v6, more;                      /* orig's `more`, for its last */
    bool want;                          /* a round at the pair's next run */
    uint32_t next;                      /* the next segment to send */
    uint32_t inflight;                  /* sent, not yet done */
    enum net_status failed;             /* the first failure, or NET_OK */
    struct gso_seg seg[GSO_SEGS];       /* segment i in seg[i % GSO_SEGS] */
};
/* A pair's: its send-completion runs (net_tx_reaped()), its contexts. */
struct gso_pair {
    unsigned long reaped;
    struct gso_ctx ctx[GSO_CTX];
};

static struct gso_pair *gso_pair(struct net_dev *dev, unsigned int q)
{
    return (struct gso_pair *)dev->gso_pool + q;
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

/*
 * Whether each @mss-byte segment of @tx's payload (from @hlen to @len)
 * lies in at most @max fragments: one pass over segments and fragments
 * together, however many segments (an MSS of 1 makes 65,000).
 */
static bool gso_fits(const struct net_tx *tx, uint32_t hlen, uint32_t mss,
                     uint32_t len, unsigned int max)
{
    uint32_t off, end, start = 0, pos;  /* start: fragment fi's offset */
    unsigned int fi = 0, j, k;

    for ( off = hlen; off < len; off = end )
    {
        end = off + MIN(mss, len - off);
        while ( fi < tx->nr_frags && start + tx->frag[fi].len <= off )
            start += tx->frag[fi++].len;
        for ( j = fi, pos = start, k = 0; j < tx->nr_frags && pos < end;
              pos += tx->frag[j++].len )
            if ( tx->frag[j].len && ++k > max )
                return false;
    }
    return true;
}

/*
 * A pair's contexts, for a device without TSO of either kind: one with
 * both never has a packet to cut (net_transmit_on()), and its pool
 * stays NULL (40 KiB a pair saved, for every pair of a cloud's NIC).
 */
static bool gso_init(struct net_dev *dev)
{
    struct gso_ctx *c;
    unsigned int i;

    if ( (dev->features & (NET_F_TSO4 | NET_F_TSO6)) ==
         (NET_F_TSO4 | NET_F_TSO6) )
        return true;
    dev->gso_pool = dma_alloc((unsigned long)dev->nr_queues *
                              sizeof(struct gso_pair));
    if ( !dev->gso_pool )
        return false;
    for ( i = 0; i < dev->nr_queues * GSO_CTX; i++ )
    {
        c = &gso_pair(dev, i / GSO_CTX)->ctx[i % GSO_CTX];
        spin_lock_init(&c->lock, LOCK_RANK_NET_GSO);
        lock_profile_name(&c->lock, &lock_profile_global,
                          "%s->gso[%u].lock", dev->name, i);
    }
    return true;
}

static struct gso_ctx *gso_get(struct net_dev *dev, unsigned int q)
{
    struct gso_ctx *c = gso_pair(dev, q)->ctx;
    unsigned int k;

    for ( k = 0; k < GSO_CTX; k++, c++ )
        if ( !ACCESS_ONCE(c->in_use) &&
             !__atomic_exchange_n(&c->in_use, true, __ATOMIC_ACQUIRE) )
            return c;
    return NULL;
}

static void gso_seg_done(struct net_tx *tx, enum net_status s);

/* Packets pair @q can take now (a driver without tx_room(): a round's). */
static unsigned int gso_room(struct net_dev *dev, unsigned int q)
{
    return dev->ops->tx_room ? dev->ops->tx_room(dev, q) : GSO_SEGS;
}

/*
 * Send what the pair and the context have room for, under @c's lock;
 * the device hears of the round at its end (its last without `more`, or
 * a kick if the device stopped it early).  A failure ends the packet
 * (c->failed); with more to send, the pair's next completion run sends
 * it (c->want, set here if none of ours is in flight to set it).
 */
static void gso_round(struct gso_ctx *c)
{
    struct net_dev *dev = c->dev;
    uint32_t i, n, off, seglen;
    enum net_status s;
    unsigned long reaped;
    struct gso_seg *sg;
    unsigned int k;

again:
    reaped = __atomic_load_n(&gso_pair(dev, c->q)->reaped,
                             __ATOMIC_ACQUIRE);
    s = NET_OK;
    n = MIN(MIN(c->nseg - c->next, GSO_SEGS - c->inflight),
            gso_room(dev, c->q));
    for ( i = 0; i < n; i++ )
    {
        sg = &c->seg[c->next % GSO_SEGS];
        off = c->hlen + c->next * c->mss;
        seglen = MIN(c->mss, c->len - off);
        sg->frag[0] = (struct net_frag){ dma_addr(sg->hdr), c->hlen };
        k = gso_frags(c->orig, off, seglen, sg->frag + 1, GSO_FRAGS - 1);
        ASSERT(k);                      /* gso_fits() said it would */
        net_gso_seg_hdr(sg->hdr, c->h, c->l4, c->hlen, c->v6, c->next,
                        c->nseg, c->mss, seglen);
        sg->ctx = c;
        sg->tx = (struct net_tx){
            .nr_frags = k + 1, .frag = sg->frag, .done = gso_seg_done,
            .data = sg,
            /* The packet's last as the packet; a round's last tells. */
            .more = c->next + 1 < c->nseg ? i + 1 < n : c->more,
            .off = { .flags = NET_OFF_CSUM_PARTIAL, .csum_start = c->l4,
                     .csum_offset = 16 },
        };
        if ( (s = net_transmit_on(dev, c->q, &sg->tx)) != NET_OK )
            break;
        c->next++;
        c->inflight++;
    }
    /* Stopped early: what went with `more` must not wait unannounced. */
    if ( s != NET_OK && i )
        net_kick_on(dev, c->q);
    if ( s != NET_OK && s != NET_EBUSY )
        c->failed = s;                  /* the rest never goes */
    else if ( !c->inflight && c->next < c->nseg )
    {
        /*
         * The pair is full of others' packets: wait for its next run,
         * then look whether one ran since this round began:
         * net_tx_reaped() counts a run, then looks for waiters, so one
         * of the two sees the other.  Again if one did (each retry
         * takes another run: no spinning on a full pair).
         */
        ACCESS_ONCE(c->want) = true;
        smp_mb();
        if ( ACCESS_ONCE(gso_pair(dev, c->q)->reaped) != reaped )
        {
            c->want = false;
            goto again;
        }
    }
}

/* Under @c's lock: the packet's end, if it has come; its sender's tx. */
static struct net_tx *gso_end(struct gso_ctx *c)
{
    struct net_tx *orig = c->orig;

    if ( c->inflight || (c->failed == NET_OK && c->next < c->nseg) )
        return NULL;
    c->orig = NULL;
    return orig;
}

/* The context free again, then done(), which may send the next. */
static void gso_done(struct gso_ctx *c, struct net_tx *orig,
                     enum net_status s)
{
    __atomic_store_n(&c->in_use, false, __ATOMIC_RELEASE);
    orig->done(orig, s);
}

/*
 * A segment done, from the pair's completion run: the packet's end, or
 * more to send at the run's end (net_tx_reaped()), a round for the whole
 * run's room and one notification.
 */
static void gso_seg_done(struct net_tx *tx, enum net_status s)
{
    struct gso_ctx *c = ((struct gso_seg *)tx->data)->ctx;
    struct net_tx *orig;
    unsigned long flags;

    spin_lock_irqsave(&c->lock, flags);
    if ( s != NET_OK && c->failed == NET_OK )
        c->failed = s;
    c->inflight--;
    if ( c->failed == NET_OK && c->next < c->nseg )
        ACCESS_ONCE(c->want) = true;
    orig = gso_end(c);
    s = c->failed;
    spin_unlock_irqrestore(&c->lock, flags);
    if ( orig )
        gso_done(c, orig, s);
}

void net_tx_reaped(struct net_dev *dev, unsigned int q)
{
    struct gso_pair *pair;
    struct gso_ctx *c;
    enum net_status s;
    struct net_tx *orig;
    unsigned long flags;
    unsigned int k;

    if ( !dev->gso_pool )
        return;                         /* a device with TSO: none */
    pair = gso_pair(dev, q);
    c = pair->ctx;
    /* A full barrier: the room freed and the count, then the look. */
    __atomic_add_fetch(&pair->reaped, 1, __ATOMIC_SEQ_CST);
    for ( k = 0; k < GSO_CTX; k++, c++ )
    {
        if ( !ACCESS_ONCE(c->want) )
            continue;
        spin_lock_irqsave(&c->lock, flags);
        orig = NULL;
        if ( c->want )
        {
            c->want = false;
            gso_round(c);
            orig = gso_end(c);
        }
        s = c->failed;
        spin_unlock_irqrestore(&c->lock, flags);
        if ( orig )
            gso_done(c, orig, s);
    }
}

static enum net_status gso_send(struct net_dev *dev, unsigned int q,
                                struct net_tx *tx, uint32_t len)
{
    const uint8_t *h = __va(tx->frag[0].addr);
    uint32_t l4, hlen, nseg;
    enum net_status s = NET_OK;
    unsigned long flags;
    struct gso_ctx *c;

    if ( !net_gso_check(h, tx->frag[0].len, GSO_HDR, len, &tx->off, &l4,
                        &hlen, &nseg) ||
         !gso_fits(tx, hlen, tx->off.gso_size, len,
                   MIN(GSO_FRAGS, dev->max_frags) - 1) )
        return NET_EINVAL;
    if ( !gso_room(dev, q) || !(c = gso_get(dev, q)) )
        return NET_EBUSY;
    spin_lock_irqsave(&c->lock, flags);
    c->dev = dev;
    c->q = q;
    c->orig = tx;
    c->h = h;
    c->l4 = l4;
    c->hlen = hlen;
    c->mss = tx->off.gso_size;
    c->len = len;
    c->nseg = nseg;
    c->v6 = tx->off.gso_type == NET_GSO_TCPV6;
    c->more = tx->more;
    c->want = false;
    c->next = c->inflight = 0;
    c->failed = NET_OK;
    gso_round(c);
    c->more = false;                    /* later rounds end with a kick */
    /*
     * Nothing went (no room after all, or the device refused the
     * first): the caller hears it now and done() never comes.  Else
     * done() comes from a completion, never from here: the caller may
     * hold what done() takes (a vif queue's lock).
     */
    if ( !c->inflight )
    {
        s = c->want ? NET_EBUSY : c->failed;
        ASSERT(s != NET_OK);
        c->want = false;
        c->orig = NULL;
    }
    spin_unlock_irqrestore(&c->lock, flags);
    if ( s != NET_OK )
        __atomic_store_n(&c->in_use, false, __ATOMIC_RELEASE);
    return s;
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
