/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * net-selftest: a test aid that talks to QEMU's user network (slirp) at
 * boot through the first network device's interface (net.h) and logs
 * each step: it asks ARP for the gateway 10.0.2.2 as 10.0.2.15, then
 * pings it with a frame in three fragments (one across a page), one
 * whose ICMP checksum is left to the device (or net.c), one of 1400
 * bytes (its reply over several mergeable buffers), and one with a wrong
 * checksum, which must get no reply; oversized and unsupported packets
 * must be refused.  A reply that doesn't come in time fails the test,
 * never hangs the boot.
 */
#include "arch/x86/percpu.h"
#include "drivers/dma.h"
#include "drivers/drivers.h"
#include "drivers/net-selftest.h"
#include "shim/console.h"
#include "shim/frame.h"
#include "shim/param.h"
#include "shim/timer.h"

/* net-selftest=<boolean>: test the first network device (default off). */
static bool opt_net_selftest;
boolean_param("net-selftest", opt_net_selftest);

/*
 * net-selftest-timeout=<seconds>: how long a reply may take (default 5:
 * TCG, a loaded host).
 */
static unsigned int opt_net_selftest_timeout = 5;
integer_param("net-selftest-timeout", opt_net_selftest_timeout);
#define TIMEOUT_NS      ((uint64_t)opt_net_selftest_timeout * 1000000000ULL)
#define SILENCE_NS      1000000000ULL   /* no reply meant: wait 1 s */
#define MY_IP           0x0a00020f      /* 10.0.2.15 */
#define GW_IP           0x0a000202      /* 10.0.2.2 */
#define ECHO_ID         0x5053
#define BIG_PING        1400
#define NR_FRAMES       8
#define FRAME_MAX       2048

/* Frames received, copied out by the receive hook, taken by the test. */
static struct {
    uint8_t data[FRAME_MAX];
    uint32_t len;
    unsigned int nr_bufs;
} frames[NR_FRAMES];
static unsigned int frames_in, frames_out;

static struct {
    struct net_tx tx;
    struct net_frag frag[3];
    enum net_status status;
    bool done;
} io;
static bool stuck;
static uint8_t *buf;                /* 4 pages of dma_alloc() memory */
static uint8_t frame[FRAME_MAX];    /* a frame being built */
static uint8_t gw_mac[NET_ETH_ALEN];
static struct net_dev *dev;

/* From NET_SOFTIRQ: copy the frame out and give the buffers back. */
static void receive(struct net_dev *d, struct net_rx *rx, void *data)
{
    unsigned int i, at = 0, slot = frames_in % NR_FRAMES;

    if ( frames_in - frames_out < NR_FRAMES && rx->len <= FRAME_MAX )
    {
        for ( i = 0; i < rx->nr_bufs; at += rx->buf[i++].len )
            memcpy(frames[slot].data + at, rx->buf[i].data, rx->buf[i].len);
        frames[slot].len = at;
        frames[slot].nr_bufs = rx->nr_bufs;
        /* The frame before its count (another pair's CPU may copy). */
        __atomic_store_n(&frames_in, frames_in + 1, __ATOMIC_RELEASE);
    }
    net_rx_return(d, rx);
}

static void tx_done(struct net_tx *tx, enum net_status status)
{
    io.status = status;
    __atomic_store_n(&io.done, true, __ATOMIC_RELEASE);
}

/* Send @len bytes in @nr fragments placed at @off[] of buf. */
static bool send(const char *what, unsigned int nr, const uint32_t *off,
                 const uint32_t *len, const struct net_offload *o)
{
    uint64_t deadline = NOW() + TIMEOUT_NS;
    enum net_status s;
    unsigned int i, at = 0;

    memset(&io, 0, sizeof(io));
    for ( i = 0; i < nr; at += len[i++] )
    {
        memcpy(buf + off[i], frame + at, len[i]);
        io.frag[i] = (struct net_frag){ dma_addr(buf + off[i]), len[i] };
    }
    io.tx.nr_frags = nr;
    io.tx.frag = io.frag;
    io.tx.done = tx_done;
    if ( o )
        io.tx.off = *o;
    s = net_transmit(dev, &io.tx);
    while ( s == NET_OK && !__atomic_load_n(&io.done, __ATOMIC_ACQUIRE) )
    {
        if ( NOW() > deadline )
        {
            stuck = true;
            printk(XENLOG_ERR "net-selftest: %s: %s: FAILED: not sent in "
                   "%u s\n", dev->name, what, opt_net_selftest_timeout);
            return false;
        }
        timer_halt();
    }
    if ( s == NET_OK )
        s = io.status;
    if ( s != NET_OK )
        printk(XENLOG_ERR "net-selftest: %s: %s: FAILED: %s\n", dev->name,
               what, net_status_name(s));
    return s == NET_OK;
}

/* One fragment: the frame at the start of buf. */
static bool send1(const char *what, uint32_t len,
                  const struct net_offload *o)
{
    const uint32_t off = 0;

    return send(what, 1, &off, &len, o);
}

/* A frame that @match()es within @ns; its buffer count in *@nr_bufs. */
static bool wait_for(bool (*match)(const uint8_t *f, uint32_t len, void *a),
                     void *arg, uint64_t ns, unsigned int *nr_bufs)
{
    uint64_t deadline = NOW() + ns;

    for ( ;; )
    {
        while ( frames_out != __atomic_load_n(&frames_in, __ATOMIC_ACQUIRE) )
        {
            unsigned int slot = frames_out++ % NR_FRAMES;

            if ( match(frames[slot].data, frames[slot].len, arg) )
            {
                if ( nr_bufs )
                    *nr_bufs = frames[slot].nr_bufs;
                timer_halt_end();
                return true;
            }
        }
        if ( NOW() > deadline )
            return false;
        timer_halt();
    }
}

static bool is_arp_reply(const uint8_t *f, uint32_t len, void *a)
{
    return nst_arp_reply(f, len, dev->mac, MY_IP, GW_IP, gw_mac);
}

struct echo {
    uint16_t seq;
    unsigned int size;
};

static bool is_echo_reply(const uint8_t *f, uint32_t len, void *a)
{
    const struct echo *e = a;

    return nst_icmp_reply(f, len, dev->mac, MY_IP, GW_IP, ECHO_ID, e->seq,
                          e->size);
}

static bool test_arp(void)
{
    send1("ARP request", nst_arp_request(frame, dev->mac, MY_IP, GW_IP),
          NULL);
    if ( stuck )
        return false;
    if ( !wait_for(is_arp_reply, NULL, TIMEOUT_NS, NULL) )
    {
        printk(XENLOG_ERR "net-selftest: %s: ARP: FAILED: no reply from "
               "10.0.2.2 in %u s\n", dev->name,
               opt_net_selftest_timeout);
        return false;
    }
    printk("net-selftest: %s: ARP: 10.0.2.2 is at "
           "%02x:%02x:%02x:%02x:%02x:%02x\n", dev->name, gw_mac[0],
           gw_mac[1], gw_mac[2], gw_mac[3], gw_mac[4], gw_mac[5]);
    return true;
}

/* Ping 10.0.2.2 (@how, logged), @e->size bytes; the reply awaited. */
static bool ping(const char *how, struct echo *e, unsigned int nr,
                 const uint32_t *off, const uint32_t *len, bool csum)
{
    struct net_offload o = {
        .flags = NET_OFF_CSUM_PARTIAL,
        .csum_start = NST_ICMP_OFF,
        .csum_offset = NST_ICMP_CSUM_OFF,
    };
    unsigned int nr_bufs;

    nst_icmp_echo(frame, dev->mac, gw_mac, MY_IP, GW_IP, ECHO_ID, e->seq,
                  e->size, csum);
    if ( !send(how, nr, off, len, csum ? NULL : &o) )
        return false;
    if ( !wait_for(is_echo_reply, e, TIMEOUT_NS, &nr_bufs) )
    {
        printk(XENLOG_ERR "net-selftest: %s: ICMP echo %s: FAILED: no "
               "reply in %u s\n", dev->name, how,
               opt_net_selftest_timeout);
        return false;
    }
    printk("net-selftest: %s: ICMP echo %s: reply in %u receive "
           "buffer%s\n", dev->name, how, nr_bufs, nr_bufs > 1 ? "s" : "");
    return true;
}

static bool test_pings(void)
{
    /* Ethernet; IP and ICMP headers across a page; the payload. */
    static const uint32_t sg_off[3] = { 0, PAGE_SIZE - 21, 2 * PAGE_SIZE };
    static const uint32_t sg_len[3] = { NET_ETH_HLEN, 40, 44 };
    struct echo e = { 1, 56 };
    uint32_t off = 0, len = NST_ICMP_OFF + NST_ICMP_HLEN + e.size;
    const uint32_t big_off[2] = { 0, 2 * PAGE_SIZE };
    const uint32_t big_len[2] = { 100, NST_ICMP_OFF + NST_ICMP_HLEN +
                                       BIG_PING - 100 };

    if ( !ping("in 3 fragments", &e, 3, sg_off, sg_len, true) )
        return false;
    e.seq++;
    if ( !ping(dev->features & NET_F_CSUM_TX
               ? "with its checksum left to the device"
               : "with its checksum left to software (no device offload)",
               &e, 1, &off, &len, false) )
        return false;
    e.seq++;
    e.size = BIG_PING;
    if ( !ping("of 1400 bytes", &e, 2, big_off, big_len, true) )
        return false;

    /* A wrong checksum: the gateway must drop it. */
    e.seq++;
    e.size = 56;
    nst_icmp_echo(frame, dev->mac, gw_mac, MY_IP, GW_IP, ECHO_ID, e.seq,
                  e.size, true);
    frame[NST_ICMP_OFF + NST_ICMP_CSUM_OFF] ^= 0x5a;
    if ( !send1("ICMP echo with a wrong checksum", len, NULL) )
        return false;
    if ( wait_for(is_echo_reply, &e, SILENCE_NS, NULL) )
    {
        printk(XENLOG_ERR "net-selftest: %s: an ICMP echo with a wrong "
               "checksum was answered: FAILED\n", dev->name);
        return false;
    }
    printk("net-selftest: %s: an ICMP echo with a wrong checksum gets no "
           "reply\n", dev->name);
    return true;
}

/* What the interface must refuse before the device sees it. */
static bool test_refused(void)
{
    struct net_offload tso = {
        .flags = NET_OFF_CSUM_PARTIAL, .gso_type = NET_GSO_TCPV4,
        .gso_size = 1448, .csum_start = NST_ICMP_OFF, .csum_offset = 16,
    };
    uint32_t big = dev->mtu + NET_ETH_HLEN + NET_VLAN_HLEN + 1;
    struct net_tx tx = { .nr_frags = 1, .done = tx_done };
    struct net_frag f = { dma_addr(buf), 12 };
    enum net_status s1, s2, s3 = NET_EINVAL;

    tx.frag = &f;
    s1 = net_transmit(dev, &tx);            /* shorter than a header */
    f.len = MIN(big, 4 * PAGE_SIZE);
    s2 = net_transmit(dev, &tx);            /* over the MTU */
    if ( !(dev->features & NET_F_TSO4) )
    {
        /* Software GSO cuts TCP alone: this is no IP at all. */
        memset(buf, 0, NST_ICMP_OFF + 20);
        f.len = 4 * PAGE_SIZE;
        tx.off = tso;
        s3 = net_transmit(dev, &tx);
    }
    if ( s1 != NET_EINVAL || (big <= 4 * PAGE_SIZE && s2 != NET_EINVAL) ||
         s3 != NET_EINVAL )
    {
        printk(XENLOG_ERR "net-selftest: %s: a bad packet was not refused "
               "(%s, %s, %s): FAILED\n", dev->name, net_status_name(s1),
               net_status_name(s2), net_status_name(s3));
        return false;
    }
    printk("net-selftest: %s: a runt, an oversized frame and GSO of no "
           "TCP%s are refused\n", dev->name,
           dev->features & NET_F_TSO4 ? " (TSO offered: not tried)" : "");
    return true;
}

void net_selftest(void)
{
    const uint8_t *m;

    if ( !opt_net_selftest )
        return;
    if ( !net_count() )
    {
        printk(XENLOG_WARNING "net-selftest: no network device\n");
        return;
    }
    dev = net_get(0);
    m = dev->mac;
    if ( !(buf = dma_alloc(4 * PAGE_SIZE)) )
        return;
    printk("net-selftest: %s: MAC %02x:%02x:%02x:%02x:%02x:%02x, link %s\n",
           dev->name, m[0], m[1], m[2], m[3], m[4], m[5],
           dev->ops->link_up(dev) ? "up" : "down");
    net_set_receive(dev, receive, NULL);
    if ( test_refused() && test_arp() && test_pings() )
        printk("net-selftest: %s: passed\n", dev->name);
    if ( stuck )
        printk(XENLOG_ERR "net-selftest: stopped: a packet is still the "
               "device's\n");
    /* Nobody takes packets after us: each given back at once. */
    net_set_receive(dev, NULL, NULL);
}
