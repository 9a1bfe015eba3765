/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of software GSO's rounds (drivers/net.c), this test playing
 * a device without TSO whose send queue holds a few packets: a packet of
 * more segments than the queue and than a context's 64 goes in rounds,
 * each segment's headers and payload as net_gso_seg_hdr() and the
 * packet's fragments make them, one round and one notification for each
 * run of the queue's completions;
 * done() once, after the last; a round that finds the queue full of
 * others' packets with none of its own in flight waits for the queue's
 * next completions (net_tx_reaped()); a device failing midway ends the
 * packet with its status, nothing more sent; no room or no context at
 * the start is NET_EBUSY with nothing sent; a segment in too many pieces,
 * however late in the packet, is NET_EINVAL with nothing sent, and the
 * one-pass check agrees with cutting every segment on random layouts; a
 * device with TSO of both kinds gets no contexts at all.
 */
#include "tests/unit/unit.h"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "../../shim/spinlock.c"
#include "tests/unit/log-capture.h"
#include "../../drivers/net-lib.c"
#include "../../drivers/net.c"

uint64_t now_ns(void)
{
    return 0;
}

void open_softirq(unsigned int nr, void (*handler)(void))
{
}

void raise_softirq(unsigned int nr)
{
}

/* One CPU, online; a device's release raises its softirq there. */
unsigned long cpu_online_map = 1;

void cpu_raise_softirq(unsigned int cpu, unsigned int nr)
{
}

void *dma_alloc(unsigned long bytes)
{
    return calloc(1, bytes);
}

/* Whose the memory is: nobody's here, nothing is freed by owner. */
unsigned int dma_owner_set(unsigned int owner)
{
    return 0;
}

/* The NICs here have no PCI function: never called. */
void pci_hold(struct pci_dev *d)
{
}

void pci_unhold(struct pci_dev *d)
{
}

/* The device: a FIFO of queued packets, QSIZE at most. */
#define QSIZE_MAX   600
static struct net_tx *queued[QSIZE_MAX];
static unsigned int qhead, qcount, qsize, kicks, sent, fail_at;
static bool unannounced;                /* queued with `more`, no kick yet */

static enum net_status dev_transmit(struct net_dev *dev, unsigned int q,
                                    struct net_tx *tx)
{
    if ( fail_at && sent + 1 == fail_at )
        return NET_EIO;
    if ( qcount == qsize )
        return NET_EBUSY;
    queued[(qhead + qcount++) % QSIZE_MAX] = tx;
    sent++;
    unannounced = tx->more;
    if ( !tx->more )
        kicks++;
    return NET_OK;
}

static void dev_kick(struct net_dev *dev, unsigned int q)
{
    unannounced = false;
    kicks++;
}

static unsigned int dev_tx_room(struct net_dev *dev, unsigned int q)
{
    return qsize - qcount;
}

static const struct net_dev_ops ops = {
    .transmit = dev_transmit, .kick = dev_kick, .tx_room = dev_tx_room,
};
static struct net_dev dev = {
    .name = "test0", .mtu = 1500, .nr_queues = 1, .max_frags = 16,
    .ops = &ops,
};

/* What the device sent, each segment's bytes put together. */
static uint8_t wire[70000][64];
static unsigned int wire_len[70000], nwire;

static void take_bytes(struct net_tx *tx)
{
    unsigned int i, n = 0;

    for ( i = 0; i < tx->nr_frags; i++ )
    {
        if ( n + tx->frag[i].len <= sizeof(wire[0]) )
            memcpy(wire[nwire] + n, __va(tx->frag[i].addr),
                   tx->frag[i].len);
        n += tx->frag[i].len;
    }
    wire_len[nwire++] = n;
}

/* The queue's head taken off it, as the device's completion does. */
static struct net_tx *dev_pop(void)
{
    qcount--;
    return queued[qhead++ % QSIZE_MAX];
}

/* @tx done: a segment's bytes kept for the checks, then its done(). */
static void complete_one(struct net_tx *tx)
{
    if ( tx->done == gso_seg_done )
        take_bytes(tx);
    tx->done(tx, NET_OK);
}

/* Complete @n packets from the queue's head, then the run's end. */
static void dev_complete(unsigned int n)
{
    struct net_tx *done[QSIZE_MAX];
    unsigned int i;

    for ( i = 0; i < n && qcount; i++ )
        done[i] = dev_pop();
    n = i;
    for ( i = 0; i < n; i++ )
        complete_one(done[i]);
    net_tx_reaped(&dev, 0);
}

/* Runs of @n completions (0: all queued) until the queue is empty. */
static void drain(unsigned int n)
{
    while ( qcount )
        dev_complete(n ? n : qcount);
}

/* Others' packets: done counted. */
static unsigned int others_done;
static void other_done(struct net_tx *tx, enum net_status s)
{
    others_done++;
}
static uint8_t other_buf[64];
static struct net_frag other_frag = { 0, 60 };
static struct net_tx others[QSIZE_MAX];

static void queue_others(unsigned int n)
{
    unsigned int i;

    other_frag.addr = dma_addr(other_buf);
    for ( i = 0; i < n; i++ )
    {
        others[i] = (struct net_tx){ .nr_frags = 1, .frag = &other_frag,
                                     .done = other_done };
        CHECK_EQ(dev_transmit(&dev, 0, &others[i]), NET_OK);
    }
}

/* The packet: Ethernet, IPv4, TCP (seq 1000, ACK|PSH|FIN), a payload. */
static uint8_t hdr[54], payload[65536];
static struct net_frag frags[20];
static struct net_tx pkt;
static unsigned int pkt_done;
static enum net_status pkt_status;

static void pkt_done_fn(struct net_tx *tx, enum net_status s)
{
    pkt_done++;
    pkt_status = s;
}

/* @plen bytes of payload in pieces of @piece bytes, after the headers. */
static void build(unsigned int plen, unsigned int piece, uint16_t mss)
{
    unsigned int i, off;

    memset(hdr, 0, sizeof(hdr));
    hdr[12] = 0x08;                     /* IPv4 */
    hdr[14] = 0x45;
    hdr[14 + 2] = (20 + 20 + plen) >> 8;
    hdr[14 + 3] = 20 + 20 + plen;
    hdr[14 + 8] = 64;
    hdr[14 + 9] = 6;                    /* TCP */
    hdr[34 + 6] = 1000 >> 8;            /* sequence 1000 */
    hdr[34 + 7] = 1000 & 0xff;
    hdr[34 + 12] = 5 << 4;
    hdr[34 + 13] = 0x19;                /* ACK, PSH, FIN */
    for ( i = 0; i < plen; i++ )
        payload[i] = i * 7 + (i >> 8);
    frags[0] = (struct net_frag){ dma_addr(hdr), 54 };
    for ( off = 0, i = 1; off < plen; off += piece, i++ )
        frags[i] = (struct net_frag){ dma_addr(payload + off),
                                      MIN(piece, plen - off) };
    pkt = (struct net_tx){
        .nr_frags = i, .frag = frags, .done = pkt_done_fn,
        .off = { .flags = NET_OFF_CSUM_PARTIAL, .gso_type = NET_GSO_TCPV4,
                 .gso_size = mss, .csum_start = 34, .csum_offset = 16 },
    };
    pkt_done = 0;
    pkt_status = NET_EINVAL;
}

static void reset(unsigned int size)
{
    qhead = qcount = kicks = sent = fail_at = nwire = others_done = 0;
    unannounced = false;
    qsize = size;
}

/* Every segment on the wire as cut from @plen bytes at @mss. */
static bool wire_right(unsigned int plen, unsigned int mss)
{
    unsigned int i, n = (plen + mss - 1) / mss, seglen, seq;
    bool ok = nwire == n;

    for ( i = 0; ok && i < n; i++ )
    {
        const uint8_t *w = wire[i], *th = w + 34;

        seglen = MIN(mss, plen - i * mss);
        seq = (uint32_t)th[4] << 24 | th[5] << 16 | th[6] << 8 | th[7];
        ok &= wire_len[i] == 54 + seglen;
        ok &= seq == 1000 + i * mss;
        ok &= (th[13] & 0x09) == (i + 1 == n ? 0x09 : 0);
        ok &= (unsigned int)(w[16] << 8 | w[17]) == 40 + seglen;
        if ( seglen <= sizeof(wire[0]) - 54 )
            ok &= !memcmp(w + 54, payload + i * mss, seglen);
    }
    return ok;
}

static void test_rounds(void)
{
    unsigned int rounds = 0;

    /*
     * 300 one-byte segments through a queue of 64: five rounds at least.
     * The packet came with `more` (its sender kicks at its batch's end),
     * which only a first round that sends the last segment may keep.
     */
    reset(64);
    build(300, 4096, 1);
    pkt.more = true;
    CHECK_EQ(net_transmit_on(&dev, 0, &pkt), NET_OK);
    CHECK_EQ(sent, 64);
    CHECK(!unannounced);                /* the round's end was told */
    CHECK_EQ(kicks, 1);
    while ( qcount && rounds++ < 1000 )
        dev_complete(qcount);
    CHECK_EQ(sent, 300);
    CHECK(!unannounced);
    /*
     * One notification a round: the first's, then one for each run of
     * completions but the last (nothing left to send): not per segment.
     */
    CHECK_EQ(kicks, rounds);
    CHECK_EQ(pkt_done, 1);
    CHECK_EQ(pkt_status, NET_OK);
    CHECK(wire_right(300, 1));
    CHECK_EQ(nwire, 300);

    /* More than a context's 64 in flight: a queue of 512, MSS 8. */
    reset(512);
    build(4000, 1000, 8);
    CHECK_EQ(net_transmit_on(&dev, 0, &pkt), NET_OK);
    CHECK_EQ(sent, GSO_SEGS);           /* no more in flight than that */
    dev_complete(10);
    CHECK_EQ(sent, GSO_SEGS + 10);      /* more from each completion */
    drain(1);
    CHECK_EQ(pkt_done, 1);
    CHECK_EQ(pkt_status, NET_OK);
    CHECK(wire_right(4000, 8));
}

static void test_stall(void)
{
    reset(4);
    build(10, 4096, 1);
    CHECK_EQ(net_transmit_on(&dev, 0, &pkt), NET_OK);
    CHECK_EQ(sent, 4);
    /*
     * The queue empties and others fill it before our completions run:
     * their rounds find no room with nothing of ours in flight.
     */
    {
        struct net_tx *ours[4];
        unsigned int i;

        for ( i = 0; i < 4; i++ )
            ours[i] = dev_pop();
        queue_others(4);
        for ( i = 0; i < 4; i++ )
            complete_one(ours[i]);
    }
    CHECK_EQ(pkt_done, 0);
    CHECK_EQ(sent, 8);                  /* ours 4, others 4 */
    CHECK(gso_pair(&dev, 0)->ctx[0].want);
    net_tx_reaped(&dev, 0);             /* the run's end: still full */
    CHECK_EQ(sent, 8);
    dev_complete(1);                    /* an other's: room for one */
    CHECK_EQ(others_done, 1);
    CHECK_EQ(sent, 9);
    drain(1);
    CHECK_EQ(others_done, 4);
    CHECK_EQ(pkt_done, 1);
    CHECK_EQ(pkt_status, NET_OK);
    CHECK(wire_right(10, 1));
}

static void test_failure(void)
{
    /*
     * The device fails the 10th segment of the first round: the 9 sent
     * with `more` are announced all the same, and waited for.
     */
    reset(64);
    build(300, 4096, 1);
    fail_at = 10;
    CHECK_EQ(net_transmit_on(&dev, 0, &pkt), NET_OK);
    CHECK(!unannounced);
    drain(0);
    CHECK_EQ(sent, 9);
    CHECK_EQ(pkt_done, 1);
    CHECK_EQ(pkt_status, NET_EIO);

    /* The 70th, in a later round. */
    reset(64);
    build(300, 4096, 1);
    fail_at = 70;
    CHECK_EQ(net_transmit_on(&dev, 0, &pkt), NET_OK);
    drain(0);
    CHECK_EQ(sent, 69);
    CHECK_EQ(pkt_done, 1);
    CHECK_EQ(pkt_status, NET_EIO);
    CHECK(!unannounced);

    /* Failing the first: the caller hears it, done() never comes. */
    reset(64);
    build(300, 4096, 1);
    fail_at = 1;
    CHECK_EQ(net_transmit_on(&dev, 0, &pkt), NET_EIO);
    CHECK_EQ(sent, 0);
    CHECK_EQ(pkt_done, 0);
}

static void test_busy(void)
{
    struct net_tx a, b, c;

    /* A full queue: nothing sent, no done(), the context free again. */
    reset(4);
    queue_others(4);
    build(300, 4096, 1);
    CHECK_EQ(net_transmit_on(&dev, 0, &pkt), NET_EBUSY);
    CHECK_EQ(sent, 4);
    dev_complete(4);
    CHECK_EQ(net_transmit_on(&dev, 0, &pkt), NET_OK);
    drain(0);
    CHECK_EQ(pkt_done, 1);

    /* Two contexts a pair: a third packet waits for one, room or not. */
    reset(QSIZE_MAX);
    build(300, 4096, 1);
    a = b = c = pkt;
    CHECK_EQ(net_transmit_on(&dev, 0, &a), NET_OK);
    CHECK_EQ(net_transmit_on(&dev, 0, &b), NET_OK);
    CHECK_EQ(sent, 2 * GSO_SEGS);       /* room left: QSIZE_MAX is more */
    CHECK_EQ(net_transmit_on(&dev, 0, &c), NET_EBUSY);
    CHECK_EQ(sent, 2 * GSO_SEGS);
    drain(0);
    CHECK_EQ(pkt_done, 2);
    CHECK_EQ(net_transmit_on(&dev, 0, &c), NET_OK);
    drain(0);
    CHECK_EQ(pkt_done, 3);
    CHECK_EQ(pkt_status, NET_OK);
}

static void test_pieces(void)
{
    unsigned int i;

    /*
     * MSS 10 over 2900 bytes in one piece, then ten pieces of 10: one
     * piece a segment, 300 segments; then 2900 and eight pieces of 1: the
     * last segment in eight pieces (seven at most go), so none goes.
     */
    reset(64);
    build(3000, 4096, 10);
    frags[1].len = 2900;
    for ( i = 0; i < 10; i++ )
        frags[2 + i] = (struct net_frag){ dma_addr(payload + 2900 + i * 10),
                                          10 };
    pkt.nr_frags = 12;
    CHECK_EQ(net_transmit_on(&dev, 0, &pkt), NET_OK);
    drain(0);
    CHECK_EQ(pkt_done, 1);
    CHECK(wire_right(3000, 10));

    reset(64);
    build(2908, 4096, 10);
    frags[1].len = 2900;
    for ( i = 0; i < 8; i++ )
        frags[2 + i] = (struct net_frag){ dma_addr(payload + 2900 + i), 1 };
    pkt.nr_frags = 10;
    CHECK_EQ(net_transmit_on(&dev, 0, &pkt), NET_EINVAL);
    CHECK_EQ(sent, 0);
    CHECK_EQ(pkt_done, 0);
}

/* gso_fits() against cutting every segment, on random layouts. */
static void test_fits_random(void)
{
    struct net_frag f[GSO_FRAGS];
    unsigned int t, i, plen, mss, max, k;
    uint32_t off, n;
    bool all, ok = true;

    srand(1);
    for ( t = 0; t < 20000; t++ )
    {
        plen = 1 + rand() % 3000;
        mss = 1 + rand() % 1500;
        max = 1 + rand() % (GSO_FRAGS - 1);
        frags[0] = (struct net_frag){ dma_addr(hdr), 54 };
        for ( off = 0, i = 1; off < plen && i < 19; i++ )
        {
            n = rand() % 4 ? 1 + rand() % 400 : 0;     /* some empty */
            n = MIN(n, plen - off);
            frags[i] = (struct net_frag){ dma_addr(payload + off), n };
            off += n;
        }
        if ( off < plen )
            frags[i++] = (struct net_frag){ dma_addr(payload + off),
                                            plen - off };
        pkt.nr_frags = i;
        pkt.frag = frags;
        all = true;
        for ( off = 54; off < 54 + plen; off += mss )
        {
            k = gso_frags(&pkt, off, MIN(mss, 54 + plen - off), f, max);
            all &= k != 0;
        }
        ok &= gso_fits(&pkt, 54, mss, 54 + plen, max) == all;
    }
    CHECK(ok);
}

/*
 * A device with TSO of both kinds gets no contexts (none of its packets
 * is cut), takes a GSO packet whole, and its completion runs look at no
 * context; one with TSO4 alone still gets them, for TCP over IPv6.
 */
static void test_tso_device(void)
{
    struct net_dev tso = dev, tso4 = dev;

    tso.features = NET_F_TSO4 | NET_F_TSO6;
    tso.gso_pool = NULL;
    CHECK(gso_init(&tso));
    CHECK(!tso.gso_pool);
    free(tso.gso_pool);
    tso.gso_pool = NULL;
    reset(4);
    build(3000, 1000, 1000);
    CHECK_EQ(net_transmit_on(&tso, 0, &pkt), NET_OK);
    CHECK_EQ(sent, 1);
    CHECK(dev_pop() == &pkt);
    CHECK_EQ(pkt.off.gso_type, NET_GSO_TCPV4);
    net_tx_reaped(&tso, 0);
    tso4.features = NET_F_TSO4;
    tso4.gso_pool = NULL;
    CHECK(gso_init(&tso4));
    CHECK(tso4.gso_pool);
    free(tso4.gso_pool);
}

int main(void)
{
    CHECK(gso_init(&dev));
    RUN(test_tso_device);
    RUN(test_rounds);
    RUN(test_stall);
    RUN(test_failure);
    RUN(test_busy);
    RUN(test_pieces);
    RUN(test_fits_random);
    UNIT_EXIT();
}
