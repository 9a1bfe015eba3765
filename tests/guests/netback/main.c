/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The shim's network backend through a netfront of our own, on QEMU's
 * user network (restricted): vif 0's xenstore entries as libxl writes
 * them, the XenbusState handshake with split event channels, an ARP
 * request answered by the user network's gateway through the RX ring, a
 * ping in a two-slot chain answered, a csum_blank UDP packet sent, TCP
 * GSO cut by the shim (QEMU's user network has no TSO) into three
 * segments, each answered by slirp, and into 300 of one byte, sent in
 * rounds; and a hostile frontend: packets of 0 and 13 bytes, past 64
 * KiB, bigger than the MTU, too many slots, invalid, foreign and revoked
 * grants, GSO of ICMP, with an MSS past the MTU, or with its payload in
 * 100-byte slots, a
 * csum_blank ICMP packet, an RX slot whose grant is revoked after it was
 * posted, RX with nothing posted (more packets than the device has
 * buffers: none lost, all given in order once posted), a TX grant cleared
 * and its frame given back while the device still reads it, and fatal
 * ones after which the vif closes and a reconnect works: slot chains
 * that never end, TX and RX req_prod far past the ring, a slot across
 * its page, a ring-ref and a port that aren't the guest's to give, more
 * queues than offered; with two vCPUs, two queues (queue-N/), each TX
 * ring used.  Every grant is released afterwards and the shim stays up.
 * Last, the host takes the NIC from a frontend that never closes: the
 * shim takes the vif all the same after 10 s.
 */
#include "grant.h"
#include "event.h"
#include "xs.h"

/* ring.h's barriers for the guest library's interface version. */
#define xen_mb()    __sync_synchronize()
#define xen_rmb()   asm volatile ( "" ::: "memory" )
#define xen_wmb()   asm volatile ( "" ::: "memory" )
#include <xen/io/ring.h>
#include <xen/io/netif.h>
#include <xen/io/xenbus.h>

const char test_title[] = "netback: vif 0 through a netfront of our own";

#define FE      "device/vif/0"
#define BE      "/local/domain/0/backend/vif/1/0"
#define NTX     4
#define NRX     8
#define NQ      2                       /* queues this frontend can use */
#define REF_TXRING  10                  /* queue i's: 10 + 2i, 11 + 2i */
#define REF_RXRING  11
#define REF_TX      16                  /* TX page i: REF_TX + i */
#define REF_RX      24                  /* RX page i: REF_RX + i */
#define REF_BAD     40

static uint8_t tx_ring_page[NQ][PAGE_SIZE] __gnt_page;
static uint8_t rx_ring_page[NQ][PAGE_SIZE] __gnt_page;
static uint8_t txbuf[NTX][PAGE_SIZE] __gnt_page;
static uint8_t rxbuf[NRX][PAGE_SIZE] __gnt_page;
/* A queue's rings and ports; q is the one the helpers use. */
static struct queue {
    struct netif_tx_front_ring txr;
    struct netif_rx_front_ring rxr;
    evtchn_port_t tx_port, rx_port;
} qs[NQ], *q = &qs[0];
static unsigned int nr_queues, max_queues;
static uint8_t mac[6], gw_mac[6];
static char buf[XENSTORE_PAYLOAD_MAX + 1];
static uint16_t next_id;

static const char *rd(const char *path)
{
    const char *r = xs_read_str(path);

    memcpy(buf, r, strlen(r) + 1);
    return buf;
}

static void expect_node(const char *path, const char *want)
{
    if ( strcmp(rd(path), want) )
        test_fail("%s: \"%s\", expected \"%s\"", path, buf, want);
}

static void yield(void)
{
    hypercall_sched_op(SCHEDOP_yield, NULL);
}

/*
 * How long the backend, the device and slirp get to answer: counted in
 * system time, not yields, which go by fast while a loaded host leaves
 * QEMU's I/O thread waiting; generous, as TCG on a busy host can be.
 */
static bool waited_long(uint64_t start)
{
    return system_time() - start > 20ULL * 1000000000ULL;
}

static bool wait_be_state(unsigned int want)
{
    char w[4];

    snprintf(w, sizeof(w), "%u", want);
    if ( xs_wait_value(BE "/state", w, 20) )
        return true;
    test_fail("backend state %s, waited for %s", rd(BE "/state"), w);
    return false;
}

static void fe_write(const char *name, const char *v)
{
    char p[64];

    snprintf(p, sizeof(p), FE "/%s", name);
    if ( strcmp(xs_write(0, p, v), "OK") )
        test_fail("writing %s", p);
}

static void fe_num(const char *name, unsigned int n)
{
    char v[12];

    snprintf(v, sizeof(v), "%u", n);
    fe_write(name, v);
}

static evtchn_port_t new_port(void)
{
    evtchn_alloc_unbound_t a = { .dom = DOMID_SELF, .remote_dom = 0 };

    check_rc(evtchn_op(EVTCHNOP_alloc_unbound, &a), 0);
    return a.port;
}

/* Queue @i's rings and ports, its nodes in @dir ("" or "queue-N/"). */
static void connect_queue(unsigned int i, bool split, const char *dir)
{
    struct netif_tx_sring *ts = (void *)tx_ring_page[i];
    struct netif_rx_sring *rs = (void *)rx_ring_page[i];
    char p[48];

    q = &qs[i];
    memset(tx_ring_page[i], 0, PAGE_SIZE);
    memset(rx_ring_page[i], 0, PAGE_SIZE);
    SHARED_RING_INIT(ts);
    FRONT_RING_INIT(&q->txr, ts, PAGE_SIZE);
    SHARED_RING_INIT(rs);
    FRONT_RING_INIT(&q->rxr, rs, PAGE_SIZE);
    gnt_grant(1, REF_TXRING + 2 * i, 0, virt_to_mfn(tx_ring_page[i]), 0);
    gnt_grant(1, REF_RXRING + 2 * i, 0, virt_to_mfn(rx_ring_page[i]), 0);
    q->tx_port = new_port();
    q->rx_port = split ? new_port() : q->tx_port;
    snprintf(p, sizeof(p), "%stx-ring-ref", dir);
    fe_num(p, REF_TXRING + 2 * i);
    snprintf(p, sizeof(p), "%srx-ring-ref", dir);
    fe_num(p, REF_RXRING + 2 * i);
    /* One form or the other: the last connection's nodes go. */
    snprintf(p, sizeof(p), FE "/%sevent-channel%s", dir, split ? "" : "-tx");
    xs_req_str(XS_RM, 0, p);
    snprintf(p, sizeof(p), FE "/%sevent-channel-rx", dir);
    xs_req_str(XS_RM, 0, p);
    snprintf(p, sizeof(p), "%sevent-channel%s", dir, split ? "-tx" : "");
    fe_num(p, q->tx_port);
    if ( split )
    {
        snprintf(p, sizeof(p), "%sevent-channel-rx", dir);
        fe_num(p, q->rx_port);
    }
}

/*
 * Fresh rings and ports for @queues (queue 0 split or not, others
 * split), Connected; a count past what is offered sets none up and the
 * backend must close.
 */
static bool connect(bool split, unsigned int queues)
{
    unsigned int i;
    char dir[16];

    nr_queues = queues <= max_queues && queues <= NQ ? queues : 0;
    for ( i = 0; i < nr_queues; i++ )
    {
        snprintf(dir, sizeof(dir), "queue-%u/", i);
        connect_queue(i, split || i, queues == 1 ? "" : dir);
    }
    q = &qs[0];
    fe_write("request-rx-copy", "1");
    fe_write("feature-rx-notify", "1");
    fe_write("feature-sg", "1");
    fe_num("multi-queue-num-queues", queues);
    fe_num("state", XenbusStateConnected);
    return wait_be_state(nr_queues ? XenbusStateConnected
                                   : XenbusStateClosing);
}

/* Close as netfront does, let go of the ports, start over. */
static void reconnect(const char *why, bool split, unsigned int queues)
{
    evtchn_status_t st;
    unsigned int i;

    fe_num("state", XenbusStateClosing);
    wait_be_state(XenbusStateClosing);
    fe_num("state", XenbusStateClosed);
    wait_be_state(XenbusStateClosed);
    for ( i = 0; i < nr_queues; i++ )
    {
        q = &qs[i];
        if ( gnt_status_bits(1, REF_TXRING + 2 * i) ||
             gnt_status_bits(1, REF_RXRING + 2 * i) )
            test_fail("%s: queue %u's rings still in use after Closed", why,
                      i);
        check_rc(evtchn_status_of(q->tx_port, &st), 0);
        if ( st.status != EVTCHNSTAT_unbound )
            test_fail("%s: port %u status %u after Closed", why, q->tx_port,
                      st.status);
        evtchn_close(q->tx_port);
        if ( q->rx_port != q->tx_port )
            evtchn_close(q->rx_port);
    }
    fe_num("state", XenbusStateInitialising);
    wait_be_state(XenbusStateInitWait);
    connect(split, queues);
}

/* --------------------------------------------------------------- TX */

static void tx_put(grant_ref_t ref, uint16_t off, uint16_t flags,
                   uint16_t size)
{
    *RING_GET_REQUEST(&q->txr, q->txr.req_prod_pvt++) =
        (struct netif_tx_request){ ref, off, flags, next_id++, size };
}

static void tx_put_extra(uint8_t type, uint16_t gso_size, uint8_t gso_type)
{
    struct netif_extra_info x = { .type = type };

    x.u.gso.size = gso_size;
    x.u.gso.type = gso_type;
    memcpy(RING_GET_REQUEST(&q->txr, q->txr.req_prod_pvt++), &x, sizeof(x));
}

static void tx_push(void)
{
    RING_PUSH_REQUESTS(&q->txr);
    evtchn_send(q->tx_port);
}

/*
 * Push what was put, wait for a response to each slot, and check every
 * one that isn't NETIF_RSP_NULL is @want (@nulls of them NULL).
 */
static void tx_wait_for(const char *what, int16_t want, unsigned int nulls)
{
    unsigned int i, n = 0;
    struct netif_tx_response r;
    uint64_t start = system_time();

    while ( q->txr.sring->rsp_prod != q->txr.req_prod_pvt &&
            !waited_long(start) )
        yield();
    if ( q->txr.sring->rsp_prod != q->txr.req_prod_pvt )
    {
        test_fail("%s: %u responses for %u requests", what,
                  q->txr.sring->rsp_prod - q->txr.rsp_cons,
                  q->txr.req_prod_pvt - q->txr.rsp_cons);
        return;
    }
    for ( ; q->txr.rsp_cons != q->txr.sring->rsp_prod; q->txr.rsp_cons++ )
    {
        r = *RING_GET_RESPONSE(&q->txr, q->txr.rsp_cons);
        if ( r.status == NETIF_RSP_NULL )
            n++;
        else if ( r.status != want )
            test_fail("%s: id %u status %d, expected %d", what, r.id,
                      r.status, want);
    }
    if ( n != nulls )
        test_fail("%s: %u NULL responses, expected %u", what, n, nulls);
    for ( i = 0; i < NTX; i++ )
        if ( gnt_status_bits(1, REF_TX + i) )
            test_fail("%s: TX page %u's grant still in use", what, i);
}

static void tx_expect(const char *what, int16_t want, unsigned int nulls)
{
    tx_push();
    tx_wait_for(what, want, nulls);
}

/* @len bytes of @frame into TX page @i at @off: one read-only grant. */
static void tx_page(unsigned int i, uint16_t off, const void *frame,
                    unsigned int len)
{
    memcpy(txbuf[i] + off, frame, len);
    gnt_grant(1, REF_TX + i, 0, virt_to_mfn(txbuf[i]), GTF_readonly);
}

/* --------------------------------------------------------------- RX */

/* Post a buffer; notify as netfront does, when req_event says so. */
static void rx_post(unsigned int i, grant_ref_t ref)
{
    int notify;

    *RING_GET_REQUEST(&q->rxr, q->rxr.req_prod_pvt++) =
        (struct netif_rx_request){ .id = i, .gref = ref };
    RING_PUSH_REQUESTS_AND_CHECK_NOTIFY(&q->rxr, notify);
    if ( notify )
        evtchn_send(q->rx_port);
}

static void rx_post_all(void)
{
    unsigned int i;

    for ( i = 0; i < NRX; i++ )
    {
        memset(rxbuf[i], 0, 64);
        gnt_grant(1, REF_RX + i, 0, virt_to_mfn(rxbuf[i]), 0);
        rx_post(i, REF_RX + i);
    }
}

/*
 * Wait for a received frame of @type (an ARP reply, an ICMP echo
 * reply); each buffer consumed before it is posted again, those after
 * it are left for the next wait.  Its RX page, or -1.
 */
static int rx_wait(uint16_t ethertype, uint8_t op_at, uint8_t op)
{
    struct netif_rx_response r;
    uint64_t start = system_time();
    int found = -1;

    while ( found < 0 && !waited_long(start) )
    {
        for ( ; found < 0 && q->rxr.rsp_cons != q->rxr.sring->rsp_prod;
              q->rxr.rsp_cons++ )
        {
            r = *RING_GET_RESPONSE(&q->rxr, q->rxr.rsp_cons);
            if ( r.id >= NRX || r.status <= 0 )
                continue;
            if ( r.flags & (NETRXF_more_data | NETRXF_extra_info) )
                test_fail("rx: flags %#x on a small frame", r.flags);
            if ( rxbuf[r.id][12] == ethertype >> 8 &&
                 rxbuf[r.id][13] == (ethertype & 0xff) &&
                 rxbuf[r.id][op_at] == op )
                found = r.id;
            else
                rx_post(r.id, REF_RX + r.id);
        }
        if ( found < 0 )
            yield();
    }
    return found;
}

/* ------------------------------------------------------------ frames */

static uint8_t frame[1600];

static uint16_t csum(const uint8_t *p, unsigned int len, uint32_t sum)
{
    unsigned int i;

    for ( i = 0; i < len; i++ )
        sum += i & 1 ? p[i] : p[i] << 8;
    while ( sum >> 16 )
        sum = (sum & 0xffff) + (sum >> 16);
    return sum;
}

/* An ARP request for 10.0.2.2 from 10.0.2.15: 42 bytes. */
static unsigned int arp_request(void)
{
    static const uint8_t ips[] = { 10, 0, 2, 15, 0, 0, 0, 0, 0, 0,
                                   10, 0, 2, 2 };

    memset(frame, 0xff, 6);
    memcpy(frame + 6, mac, 6);
    memcpy(frame + 12, "\x08\x06\x00\x01\x08\x00\x06\x04\x00\x01", 10);
    memcpy(frame + 22, mac, 6);
    memcpy(frame + 28, ips, 4);
    memcpy(frame + 32, ips + 4, 10);
    return 42;
}

/* IPv4 to 10.0.2.2 of @proto with @payload bytes after its 20. */
static unsigned int ipv4(uint8_t proto, unsigned int payload)
{
    unsigned int len = 14 + 20 + payload;
    uint16_t c;

    memcpy(frame, gw_mac, 6);
    memcpy(frame + 6, mac, 6);
    frame[12] = 0x08;
    frame[13] = 0;
    memset(frame + 14, 0, 20);
    frame[14] = 0x45;
    frame[16] = (len - 14) >> 8;
    frame[17] = len - 14;
    frame[22] = 64;
    frame[23] = proto;
    memcpy(frame + 26, "\x0a\x00\x02\x0f\x0a\x00\x02\x02", 8);
    c = ~csum(frame + 14, 20, 0);
    frame[24] = c >> 8;
    frame[25] = c;
    return len;
}

static unsigned int ping(unsigned int payload)
{
    unsigned int len = ipv4(1, 8 + payload), i;
    uint16_t c;

    memset(frame + 34, 0, 8);
    frame[34] = 8;                      /* echo request */
    frame[38] = 0x50;                   /* id */
    frame[41] = 1;                      /* sequence */
    for ( i = 0; i < payload; i++ )
        frame[42 + i] = i;
    c = ~csum(frame + 34, 8 + payload, 0);
    frame[36] = c >> 8;
    frame[37] = c;
    return len;
}

/* An echo request of 8 bytes with sequence number @seq. */
static unsigned int ping_seq(uint16_t seq)
{
    unsigned int len = ping(8);
    uint16_t c;

    frame[40] = seq >> 8;
    frame[41] = seq;
    frame[36] = frame[37] = 0;
    c = ~csum(frame + 34, 16, 0);
    frame[36] = c >> 8;
    frame[37] = c;
    return len;
}

/* UDP to port 9 with its checksum left blank (the pseudo-header's sum). */
static unsigned int udp_blank(unsigned int payload)
{
    unsigned int len = ipv4(17, 8 + payload), l4 = 8 + payload;
    uint16_t c;

    memset(frame + 34, 0, 8 + payload);
    frame[35] = 40;
    frame[37] = 9;
    frame[38] = l4 >> 8;
    frame[39] = l4;
    c = csum(frame + 26, 8, 17 + l4);
    frame[40] = c >> 8;
    frame[41] = c;
    return len;
}

/*
 * TCP from port 4660 to 10.0.2.2's port 9, ACK set (no connection:
 * slirp answers each segment with a RST once its sum checks), its sum
 * left blank, @payload bytes of it in TX page 0 after the headers (54
 * bytes, built in frame[] too).
 */
static unsigned int tcp_blank(unsigned int payload)
{
    unsigned int len = ipv4(6, 20 + payload), l4 = 20 + payload;
    uint16_t c;

    memset(frame + 34, 0, 20);
    frame[34] = 0x12;
    frame[35] = 0x34;
    frame[37] = 9;
    frame[41] = 100;                    /* sequence 100 */
    frame[45] = 1;                      /* ACK 1 */
    frame[46] = 5 << 4;
    frame[47] = 0x10;                   /* ACK */
    frame[48] = frame[49] = 0xff;       /* window */
    c = csum(frame + 26, 8, 6 + l4);
    frame[50] = c >> 8;
    frame[51] = c;
    tx_page(0, 0, frame, 54);
    memset(txbuf[0] + 54, 0x5a, payload);
    return len;
}

/* Up to @n TCP RSTs from slirp, each buffer posted again; how many. */
static unsigned int rx_tcp(unsigned int n)
{
    unsigned int seen = 0;
    int p;

    while ( seen < n && (p = rx_wait(0x0800, 23, 6)) >= 0 )
    {
        seen += !!(rxbuf[p][47] & 0x04);
        rx_post(p, REF_RX + p);
    }
    return seen;
}

/* ------------------------------------------------------------ tests */

static unsigned int atoi_max(const char *s)
{
    unsigned int n = 0;

    while ( *s >= '0' && *s <= '9' && n < 1000 )
        n = n * 10 + (*s++ - '0');
    return n;
}

static void entries(void)
{
    unsigned int i;

    expect_node(FE "/backend", BE);
    expect_node(FE "/backend-id", "0");
    expect_node(FE "/handle", "0");
    expect_node(BE "/frontend", "/local/domain/1/" FE);
    expect_node(BE "/frontend-id", "1");
    expect_node(BE "/online", "1");
    expect_node(BE "/handle", "0");
    expect_node(BE "/type", "vif");
    wait_be_state(XenbusStateInitWait);
    expect_node(BE "/feature-rx-copy", "1");
    expect_node(BE "/feature-rx-flip", "0");
    expect_node(BE "/feature-sg", "1");
    expect_node(BE "/feature-split-event-channels", "1");
    max_queues = atoi_max(rd(BE "/multi-queue-max-queues"));
    if ( max_queues < 1 || max_queues > 4 )
        test_fail("multi-queue-max-queues %s", buf);
    /* No TSO in QEMU's user network: the shim cuts GSO itself. */
    expect_node(BE "/feature-gso-tcpv4", "1");
    expect_node(BE "/feature-gso-tcpv6", "1");
    rd(FE "/mac");
    for ( i = 0; i < 6; i++ )
    {
        const char *p = buf + 3 * i;
        unsigned int h = 0, k;

        for ( k = 0; k < 2; k++ )
            h = h * 16 + (p[k] <= '9' ? p[k] - '0' : p[k] - 'a' + 10);
        mac[i] = h;
    }
    expect_node(BE "/mac", buf);
    if ( strcmp(xs_write(0, BE "/state", "4"), "EACCES") )
        test_fail("the guest wrote its backend's state");
}

/* An ARP request out, its reply in: both rings work. */
static void arp(const char *why)
{
    int p;

    tx_page(0, 0, frame, arp_request());
    tx_put(REF_TX, 0, 0, 42);
    tx_expect(why, NETIF_RSP_OKAY, 0);
    if ( (p = rx_wait(0x0806, 21, 2)) < 0 )
    {
        test_fail("%s: no ARP reply from 10.0.2.2", why);
        return;
    }
    memcpy(gw_mac, rxbuf[p] + 22, 6);
    rx_post(p, REF_RX + p);
}

static void good(void)
{
    unsigned int len;
    int p;

    arp("ARP");
    /* A ping in two slots: its headers at 100 in one, the rest in another. */
    len = ping(1000);
    tx_page(0, 100, frame, 34);
    tx_page(1, 3000, frame + 34, len - 34);
    tx_put(REF_TX, 100, NETTXF_more_data, len);
    tx_put(REF_TX + 1, 3000, 0, len - 34);
    tx_expect("ping in two slots", NETIF_RSP_OKAY, 0);
    if ( (p = rx_wait(0x0800, 34, 0)) < 0 )
        test_fail("no echo reply");
    else
        rx_post(p, REF_RX + p);
    /* UDP with its sum left to the backend (csum_blank), and multicast. */
    len = udp_blank(200);
    tx_page(0, 0, frame, len);
    tx_put(REF_TX, 0, NETTXF_csum_blank | NETTXF_data_validated, len);
    tx_expect("csum_blank UDP", NETIF_RSP_OKAY, 0);
    tx_put(REF_TX, 0, NETTXF_extra_info, 0);
    tx_put_extra(XEN_NETIF_EXTRA_TYPE_MCAST_ADD, 0, 0);
    tx_expect("multicast add", NETIF_RSP_OKAY, 1);
    /*
     * TCP GSO of 2500 bytes with an MSS of 1000: three segments cut by
     * the shim, each with its own headers and sum, which slirp checks
     * before it answers each with a RST.
     */
    len = tcp_blank(2500);
    tx_put(REF_TX, 0, NETTXF_extra_info | NETTXF_csum_blank, len);
    tx_put_extra(XEN_NETIF_EXTRA_TYPE_GSO, 1000, XEN_NETIF_GSO_TYPE_TCPV4);
    tx_expect("TCP GSO, three segments", NETIF_RSP_OKAY, 1);
    if ( (p = rx_tcp(3)) != 3 )
        test_fail("TCP GSO: %d RSTs from slirp, expected 3 (a segment's "
                  "sum wrong?)", p);
    /*
     * An MSS of 1 (nothing in the ABI forbids it; a Linux dom0 cuts it
     * too): 300 segments, more than one round (64 in flight, the
     * device's queue 256), the rest sent as the first complete.  The
     * response says all went; slirp answers what our ring has room for.
     * Then three such at once: two contexts a pair, so the third waits
     * for one, and the pair's room is shared between rounds.
     */
    len = tcp_blank(300);
    tx_put(REF_TX, 0, NETTXF_extra_info | NETTXF_csum_blank, len);
    tx_put_extra(XEN_NETIF_EXTRA_TYPE_GSO, 1, XEN_NETIF_GSO_TYPE_TCPV4);
    tx_expect("TCP GSO, 300 segments of 1 byte", NETIF_RSP_OKAY, 1);
    if ( (p = rx_tcp(NRX)) != NRX )
        test_fail("TCP GSO of 300 segments: %d RSTs from slirp, expected "
                  "at least %d", p, NRX);
    for ( p = 0; p < 3; p++ )
    {
        tx_put(REF_TX, 0, NETTXF_extra_info | NETTXF_csum_blank, len);
        tx_put_extra(XEN_NETIF_EXTRA_TYPE_GSO, 1, XEN_NETIF_GSO_TYPE_TCPV4);
    }
    tx_expect("TCP GSO, three of 300 segments at once", NETIF_RSP_OKAY, 3);
    rx_tcp(NRX);
}

static void refused(void)
{
    unsigned int i, len;

    tx_page(0, 0, frame, ping(64));
    tx_put(REF_TX, 0, 0, 0);
    tx_expect("a packet of 0 bytes", NETIF_RSP_ERROR, 0);
    tx_put(REF_TX, 0, 0, 13);
    tx_expect("a packet of 13 bytes", NETIF_RSP_ERROR, 0);
    /* 70000 bytes: the first slot's size wrapped past 64 KiB. */
    tx_put(REF_TX, 0, NETTXF_more_data, 70000 & 0xffff);
    tx_put(REF_TX + 1, 0, NETTXF_more_data, 4096);
    tx_put(REF_TX + 2, 0, 0, 4096);
    tx_expect("a packet past 64 KiB", NETIF_RSP_ERROR, 0);
    /* 9000 bytes without GSO: more than the MTU. */
    for ( i = 1; i < 3; i++ )
        tx_page(i, 0, frame, 64);
    tx_put(REF_TX, 0, NETTXF_more_data, 9000);
    tx_put(REF_TX + 1, 0, NETTXF_more_data, 4096);
    tx_put(REF_TX + 2, 0, 0, 808);
    tx_expect("9000 bytes, no GSO", NETIF_RSP_ERROR, 0);
    /* 19 slots after the first: over the legacy 18. */
    tx_put(REF_TX, 0, NETTXF_more_data, 20 * 100);
    for ( i = 1; i < 20; i++ )
        tx_put(REF_TX + 1, 0, i < 19 ? NETTXF_more_data : 0, 100);
    tx_expect("20 slots", NETIF_RSP_ERROR, 0);
    /* GSO of no TCP: nothing to cut. */
    len = ping(64);
    tx_page(0, 0, frame, len);
    tx_put(REF_TX, 0, NETTXF_extra_info | NETTXF_csum_blank, len);
    tx_put_extra(XEN_NETIF_EXTRA_TYPE_GSO, 1448, XEN_NETIF_GSO_TYPE_TCPV4);
    tx_expect("GSO of ICMP", NETIF_RSP_ERROR, 1);
    /* An MSS past the MTU: its first segment is too big to send. */
    len = tcp_blank(2500);
    tx_put(REF_TX, 0, NETTXF_extra_info | NETTXF_csum_blank, len);
    tx_put_extra(XEN_NETIF_EXTRA_TYPE_GSO, 2000, XEN_NETIF_GSO_TYPE_TCPV4);
    tx_expect("GSO with an MSS past the MTU", NETIF_RSP_ERROR, 1);
    /* The payload in 100-byte slots: a segment in 15 pieces. */
    len = tcp_blank(1700);
    for ( i = 1; i < 3; i++ )
        tx_page(i, 0, txbuf[0] + 54, 1700);
    tx_put(REF_TX, 0, NETTXF_extra_info | NETTXF_csum_blank | NETTXF_more_data,
           len);
    tx_put_extra(XEN_NETIF_EXTRA_TYPE_GSO, 1448, XEN_NETIF_GSO_TYPE_TCPV4);
    for ( i = 0; i < 17; i++ )
        tx_put(REF_TX + 1, 100 * i, i < 16 ? NETTXF_more_data : 0, 100);
    tx_expect("GSO in 100-byte slots", NETIF_RSP_ERROR, 1);
    /* A blank checksum where none can be offloaded: ICMP. */
    tx_put(REF_TX, 0, NETTXF_csum_blank, len);
    tx_expect("csum_blank ICMP", NETIF_RSP_ERROR, 0);

    /* Grants: past the table, for another domain, revoked. */
    tx_put(100000, 0, 0, len);
    tx_expect("grant ref 100000", NETIF_RSP_ERROR, 0);
    gnt_grant(1, REF_BAD, 7, virt_to_mfn(txbuf[3]), GTF_readonly);
    tx_put(REF_BAD, 0, 0, len);
    tx_expect("a grant to domain 7", NETIF_RSP_ERROR, 0);
    gnt_grant(1, REF_BAD, 0, virt_to_mfn(txbuf[3]), GTF_readonly);
    gnt_v1[REF_BAD].flags = 0;
    tx_put(REF_BAD, 0, 0, len);
    tx_expect("a revoked grant", NETIF_RSP_ERROR, 0);
    /* A good slot after a bad one in the same chain: all refused. */
    tx_put(REF_TX, 0, NETTXF_more_data, len);
    tx_put(REF_BAD, 0, 0, len - 40);
    tx_expect("a chain with a revoked grant", NETIF_RSP_ERROR, 0);
    arp("ARP after the refusals");
}

/* Consume every posted RX buffer (ARP replies), posting none back. */
static void rx_drain(void)
{
    unsigned int i, k;
    RING_IDX was;

    for ( i = 0; i < 4 * NRX && q->rxr.sring->rsp_prod != q->rxr.req_prod_pvt;
          i++ )
    {
        was = q->rxr.sring->rsp_prod;
        tx_page(0, 0, frame, arp_request());
        tx_put(REF_TX, 0, 0, 42);
        tx_expect("ARP (draining)", NETIF_RSP_OKAY, 0);
        for ( k = 0; k < 100000 && q->rxr.sring->rsp_prod == was; k++ )
            yield();
    }
    q->rxr.rsp_cons = q->rxr.sring->rsp_prod;
    if ( q->rxr.sring->rsp_prod != q->rxr.req_prod_pvt )
        test_fail("rx: %u buffers never filled",
                  q->rxr.req_prod_pvt - q->rxr.sring->rsp_prod);
}

/* More packets than the device has receive buffers (256 a queue). */
#define FLOOD       280

static void rx_hostile(void)
{
    struct netif_rx_response r;
    uint64_t start;
    unsigned int i, len, got = 0, next = 0, seq;

    /*
     * Nothing posted, and the frontend reads nothing: FLOOD echo
     * replies come; the backend holds what the device received, the
     * device runs out of buffers and QEMU keeps the rest.
     */
    rx_drain();
    for ( i = 0; i < FLOOD; i++ )
    {
        len = ping_seq(i);
        tx_page(0, 0, frame, len);
        tx_put(REF_TX, 0, 0, len);
        tx_expect("ping with no RX buffers", NETIF_RSP_OKAY, 0);
    }
    start = system_time();
    while ( system_time() - start < 500000000ULL )
        yield();                        /* the last replies reach it */
    /* A slot whose grant is revoked after it was posted. */
    gnt_grant(1, REF_BAD, 0, virt_to_mfn(rxbuf[0]), 0);
    *RING_GET_REQUEST(&q->rxr, q->rxr.req_prod_pvt++) =
        (struct netif_rx_request){ .id = 0, .gref = REF_BAD };
    RING_PUSH_REQUESTS(&q->rxr);        /* no notification: not yet */
    gnt_v1[REF_BAD].flags = 0;
    tx_page(0, 0, frame, arp_request());
    tx_put(REF_TX, 0, 0, 42);
    tx_expect("ARP into a revoked RX grant", NETIF_RSP_OKAY, 0);
    start = system_time();
    while ( q->rxr.sring->rsp_prod == q->rxr.rsp_cons && !waited_long(start) )
        yield();
    r = *RING_GET_RESPONSE(&q->rxr, q->rxr.rsp_cons);
    if ( q->rxr.sring->rsp_prod == q->rxr.rsp_cons || r.id != 0 ||
         r.status != NETIF_RSP_ERROR )
        test_fail("rx into a revoked grant: id %u status %d", r.id,
                  r.status);
    q->rxr.rsp_cons = q->rxr.sring->rsp_prod;
    /*
     * The rest of the replies, in order, then the ARP's: the revoked
     * slot took the first, none is lost.
     */
    rx_post_all();
    start = system_time();
    while ( system_time() - start < 1000000000ULL )
    {
        if ( q->rxr.rsp_cons == q->rxr.sring->rsp_prod )
        {
            yield();
            continue;
        }
        r = *RING_GET_RESPONSE(&q->rxr, q->rxr.rsp_cons++);
        if ( r.id >= NRX )
            continue;
        if ( r.status > 0 && rxbuf[r.id][12] == 8 && !rxbuf[r.id][13] &&
             rxbuf[r.id][34] == 0 )
        {
            seq = rxbuf[r.id][40] << 8 | rxbuf[r.id][41];
            if ( got && seq != next )
                test_fail("held replies out of order: %u after %u", seq,
                          next - 1);
            next = seq + 1;
            got++;
        }
        rx_post(r.id, REF_RX + r.id);
        start = system_time();          /* a second after the last */
    }
    if ( got != FLOOD - 1 || next != FLOOD )
        test_fail("%u of %u echo replies came after the first, the last "
                  "%d", got, FLOOD, (int)next - 1);
    arp("ARP with buffers again");
}

/*
 * A grant revoked mid-flight: while the device still reads a packet's
 * frame, the grant shows it in use; the guest then clears the entry by
 * force and gives the frame back.  The packet still goes out whole (the
 * frame stays referenced until the backend lets go), the response says
 * OKAY, and mm-audit finds every reference right.  TX page 3 is gone
 * afterwards.  If the device was done before the guest could look,
 * there is nothing in flight to revoke: said, not failed.
 */
static void revoked_mid_flight(void)
{
    xen_pfn_t mfn = virt_to_mfn(txbuf[3]);
    struct xen_memory_reservation r = {
        .nr_extents = 1, .domid = DOMID_SELF,
    };
    unsigned int len = ping(1000);
    uint16_t bits;
    int p;

    tx_page(3, 0, frame, len);
    tx_put(REF_TX + 3, 0, 0, len);
    tx_push();
    yield();                /* the backend runs (backend-batch), maps it */
    bits = gnt_status_bits(1, REF_TX + 3);
    if ( q->txr.sring->rsp_prod == q->txr.req_prod_pvt )
        printf("mid-flight: the device was done already\n");
    else
    {
        if ( bits != GTF_reading )
            test_fail("in flight, yet its grant shows %#x", bits);
        gnt_v1[REF_TX + 3].flags = 0;
        set_xen_guest_handle(r.extent_start, &mfn);
        check_rc(HYPERCALL(__HYPERVISOR_memory_op,
                           XENMEM_decrease_reservation, &r, 0, 0, 0), 1);
        printf("mid-flight: grant cleared and frame given back\n");
    }
    tx_wait_for("a packet whose grant was revoked mid-flight",
                NETIF_RSP_OKAY, 0);
    if ( (p = rx_wait(0x0800, 34, 0)) < 0 )
        test_fail("no echo reply to the revoked packet");
    else
        rx_post(p, REF_RX + p);
}

/*
 * Connect with @node overwritten by @value: the backend closes with
 * @error in its error node; then a good connection again.
 */
static void bad_connect(const char *node, unsigned int value,
                        const char *error)
{
    fe_num("state", XenbusStateClosing);
    wait_be_state(XenbusStateClosing);
    fe_num("state", XenbusStateClosed);
    wait_be_state(XenbusStateClosed);
    evtchn_close(q->tx_port);
    if ( q->rx_port != q->tx_port )
        evtchn_close(q->rx_port);
    fe_num("state", XenbusStateInitialising);
    wait_be_state(XenbusStateInitWait);
    connect_queue(0, true, "");
    q = &qs[0];
    nr_queues = 1;
    fe_num(node, value);
    fe_num("multi-queue-num-queues", 1);
    fe_num("state", XenbusStateConnected);
    wait_be_state(XenbusStateClosing);
    expect_node(BE "/error", error);
    reconnect(error, true, 1);
    rx_post_all();
    arp(error);
}

/*
 * A frontend writing a state that isn't one, twenty times: the vif
 * closes, the reason in its error node each time, the log's line once
 * (expect: log-max), not a line a write.
 */
static void bad_state_flood(void)
{
    unsigned int i;

    for ( i = 0; i < 20; i++ )
        fe_num("state", 9);
    wait_be_state(XenbusStateClosing);
    expect_node(BE "/error", "saw state 9 at the frontend");
    reconnect("a bad state", true, 1);
    rx_post_all();
    arp("a bad state");
}

/* Each breaks the protocol: the vif closes, a reconnect works. */
static void fatal(void)
{
    unsigned int i;
    char msg[80];

    tx_page(0, 0, frame, arp_request());
    for ( i = 0; i < 3; i++ )
        tx_put(REF_TX, 0, NETTXF_more_data, 42);
    tx_push();
    wait_be_state(XenbusStateClosing);
    reconnect("a slot chain that never ends", true, 1);
    rx_post_all();
    arp("ARP after an endless chain");

    q->txr.sring->req_prod = q->txr.req_prod_pvt + 1000;
    evtchn_send(q->tx_port);
    wait_be_state(XenbusStateClosing);
    reconnect("TX req_prod far past the ring", true, 1);
    rx_post_all();
    arp("ARP after TX req_prod far past");

    tx_put(REF_TX, 4000, 0, 200);
    tx_push();
    wait_be_state(XenbusStateClosing);
    /* A shared event channel this time. */
    reconnect("a slot across its page", false, 1);
    rx_post_all();
    arp("ARP on a shared event channel");

    q->rxr.sring->req_prod = q->rxr.req_prod_pvt + 1000;
    tx_page(0, 0, frame, arp_request());
    tx_put(REF_TX, 0, 0, 42);
    tx_push();
    wait_be_state(XenbusStateClosing);
    reconnect("RX req_prod far past the ring", true, 1);
    rx_post_all();
    arp("ARP after RX req_prod far past");

    /* A ring or a port that isn't the guest's to give: fatal at connect. */
    bad_connect("tx-ring-ref", 100000, "mapping the rings of queue 0");
    bad_connect("event-channel-rx", 4000,
                "binding the event channels of queue 0");

    /* More queues than offered: fatal at connect. */
    reconnect("too many queues", true, max_queues + 1);
    snprintf(msg, sizeof(msg), "the frontend asked for %u queues, at most "
             "%u offered", max_queues + 1, max_queues);
    expect_node(BE "/error", msg);
    reconnect("after too many queues", true, 1);
    rx_post_all();
    arp("ARP after asking for too many queues");
}

/*
 * Two queues (queue-0/ split, queue-1/ split too), each TX ring sending
 * an ARP request; the device's one receive queue fills queue 0's RX.
 */
static void multi_queue(void)
{
    unsigned int i;
    int p;

    if ( max_queues < 2 )
        return;
    reconnect("two queues", true, 2);
    if ( nr_queues != 2 )
        return;
    q = &qs[0];
    rx_post_all();
    for ( i = 0; i < 2; i++ )
    {
        q = &qs[i];
        tx_page(0, 0, frame, arp_request());
        tx_put(REF_TX, 0, 0, 42);
        tx_expect("ARP on a second queue", NETIF_RSP_OKAY, 0);
        q = &qs[0];
        if ( (p = rx_wait(0x0806, 21, 2)) < 0 )
            test_fail("queue %u: no ARP reply", i);
        else
            rx_post(p, REF_RX + p);
    }
    reconnect("back to one queue", true, 1);
    rx_post_all();
    arp("ARP after two queues");
}

static bool gone(const char *value)
{
    return !strcmp(value, "ENOENT") || !strcmp(value, "EACCES");
}

/*
 * The host takes the NIC back (QEMU's device_del, from run.sh's monitor
 * line once this says so) while this frontend stays Connected with RX
 * buffers posted: as libxl removes a device after its timeout, the shim
 * takes the vif anyway after backend-remove-timeout (10 s by default; the
 * expect file gives 2 s), and its log says so: both directories
 * removed (the backend's, under domain 0's, reads EACCES once gone, as
 * in Xen's xenstored), the rings', the buffers' grants and the ports the
 * guest's alone again.
 */
static void stuck_removal(void)
{
    evtchn_status_t st;
    uint64_t start;
    unsigned int i;

    rx_post_all();
    printf("netback: holding on to the NIC\n");
    if ( !wait_be_state(XenbusStateClosing) )
        return;
    expect_node(BE "/online", "0");
    start = system_time();
    while ( !gone(rd(BE "/state")) )
    {
        if ( system_time() - start > 60ULL * 1000000000ULL )
        {
            test_fail("the backend stays: state %s", buf);
            return;
        }
        yield();
    }
    expect_node(FE "/state", "ENOENT");
    check_rc(gnt_status_bits(1, REF_TXRING), 0);
    check_rc(gnt_status_bits(1, REF_RXRING), 0);
    for ( i = 0; i < NRX; i++ )
        check_rc(gnt_status_bits(1, REF_RX + i), 0);
    check_rc(evtchn_status_of(q->tx_port, &st), 0);
    if ( st.status != EVTCHNSTAT_unbound || st.u.unbound.dom != 0 )
        test_fail("port %u status %u after the removal", q->tx_port,
                  st.status);
}

void test_main(void)
{
    if ( event_init() )
        return test_error("event_init failed");
    if ( !xs_init() )
        return test_error("no xenstore ring");
    gnt_setup(1);
    entries();
    if ( !connect(true, 1) )
        return;
    if ( gnt_status_bits(1, REF_TXRING) != (GTF_reading | GTF_writing) )
        test_fail("the TX ring's grant not held while connected");
    rx_post_all();
    good();
    refused();
    rx_hostile();
    revoked_mid_flight();
    fatal();
    bad_state_flood();
    multi_queue();
    reconnect("at the end", true, 1);
    stuck_removal();
    test_success();
}
