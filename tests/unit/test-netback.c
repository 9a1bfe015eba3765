/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the network backend's pure logic on real rings
 * (xen/io/netif.h's macros): the TX slot-chain parser against every
 * verdict Linux's xen-netback gives (slot chains, extra info, the
 * legacy and fatal slot limits, 0-byte and 64 KiB+ packets, slots
 * across pages, GSO, multicast, indexes wrapping), the checksum set-up
 * for IPv4 and IPv6 (extension headers, fragments, a pseudo-header sum
 * that makes the right checksum), and the RX slot plan, copy and sum.
 */
#include "tests/unit/unit.h"
#include "../../drivers/net-lib.c"
#include "../../backends/net/tx-parse.c"
#include "../../backends/net/rx-pack.c"

static union {
    struct netif_tx_sring s;
    uint8_t page[4096];
} txp;
static struct netif_tx_back_ring back;
static struct netif_tx_front_ring front;
static struct nb_tx_pkt p;

/* A fresh ring whose indexes start at @start (to test wrapping). */
static void ring(RING_IDX start)
{
    memset(&txp, 0, sizeof(txp));
    SHARED_RING_INIT(&txp.s);
    FRONT_RING_INIT(&front, &txp.s, sizeof(txp));
    BACK_RING_INIT(&back, &txp.s, sizeof(txp));
    front.req_prod_pvt = back.req_cons = back.rsp_prod_pvt = start;
    txp.s.req_prod = txp.s.rsp_prod = start;
}

static void put(uint32_t gref, uint16_t off, uint16_t flags, uint16_t id,
                uint16_t size)
{
    *RING_GET_REQUEST(&front, front.req_prod_pvt++) =
        (struct netif_tx_request){ gref, off, flags, id, size };
}

static void put_extra(uint8_t type, uint8_t flags, uint16_t gso_size,
                      uint8_t gso_type)
{
    struct netif_extra_info x = { .type = type, .flags = flags };

    x.u.gso.size = gso_size;
    x.u.gso.type = gso_type;
    memcpy(RING_GET_REQUEST(&front, front.req_prod_pvt++), &x, sizeof(x));
}

static void parse(void)
{
    nb_tx_parse(&back, front.req_prod_pvt, &p);
}

static void test_tx_single(void)
{
    ring(0);
    put(7, 100, NETTXF_csum_blank, 3, 60);
    parse();
    CHECK_EQ(p.verdict, NB_TX_SEND);
    CHECK_EQ(p.nr_slots, 1);
    CHECK_EQ(p.nr_data, 1);
    CHECK_EQ(p.len, 60);
    CHECK_EQ(p.data[0].size, 60);
    CHECK_EQ(p.data[0].gref, 7);
    CHECK_EQ(p.flags, NETTXF_csum_blank);
    CHECK_EQ(back.req_cons, 0);         /* the caller moves it */
}

static void test_tx_chain(void)
{
    ring(0);
    put(1, 0, NETTXF_more_data, 1, 3000);
    put(2, 0, NETTXF_more_data, 2, 1000);
    put(3, 4000, 0, 3, 96);
    parse();
    CHECK_EQ(p.verdict, NB_TX_SEND);
    CHECK_EQ(p.nr_slots, 3);
    CHECK_EQ(p.nr_data, 3);
    CHECK_EQ(p.len, 3000);
    CHECK_EQ(p.data[0].size, 1904);
    CHECK_EQ(p.data[1].size, 1000);
    CHECK_EQ(p.data[2].id, 3);
}

static void test_tx_extras(void)
{
    ring(0);
    put(1, 0, NETTXF_more_data | NETTXF_extra_info, 1, 8000);
    put_extra(XEN_NETIF_EXTRA_TYPE_HASH, XEN_NETIF_EXTRA_FLAG_MORE, 0, 0);
    put_extra(XEN_NETIF_EXTRA_TYPE_GSO, 0, 1448, XEN_NETIF_GSO_TYPE_TCPV4);
    put(2, 0, 0, 2, 4096);
    parse();
    CHECK_EQ(p.verdict, NB_TX_SEND);
    CHECK_EQ(p.nr_slots, 4);
    CHECK_EQ(p.nr_extras, 2);
    CHECK_EQ(p.nr_data, 2);
    CHECK_EQ(p.gso.type, XEN_NETIF_EXTRA_TYPE_GSO);
    CHECK_EQ(p.gso.u.gso.size, 1448);
    CHECK_EQ(p.data[0].size, 8000 - 4096);
    CHECK_EQ(p.data[1].id, 2);

    /* GSO size 0 and an unknown GSO type are fatal. */
    ring(0);
    put(1, 0, NETTXF_extra_info, 1, 60);
    put_extra(XEN_NETIF_EXTRA_TYPE_GSO, 0, 0, XEN_NETIF_GSO_TYPE_TCPV4);
    parse();
    CHECK_EQ(p.verdict, NB_TX_FATAL);
    ring(0);
    put(1, 0, NETTXF_extra_info, 1, 60);
    put_extra(XEN_NETIF_EXTRA_TYPE_GSO, 0, 1000, 9);
    parse();
    CHECK_EQ(p.verdict, NB_TX_FATAL);
}

static void test_tx_bad_extras(void)
{
    /* Type 0 or past the last. */
    ring(0);
    put(1, 0, NETTXF_extra_info, 1, 60);
    put_extra(0, 0, 0, 0);
    parse();
    CHECK_EQ(p.verdict, NB_TX_FATAL);
    ring(0);
    put(1, 0, NETTXF_extra_info, 1, 60);
    put_extra(XEN_NETIF_EXTRA_TYPE_MAX, 0, 0, 0);
    parse();
    CHECK_EQ(p.verdict, NB_TX_FATAL);
    /* Extras that run off the requests. */
    ring(0);
    put(1, 0, NETTXF_extra_info, 1, 60);
    put_extra(XEN_NETIF_EXTRA_TYPE_HASH, XEN_NETIF_EXTRA_FLAG_MORE, 0, 0);
    parse();
    CHECK_EQ(p.verdict, NB_TX_FATAL);
    /* Multicast control alone: answered OKAY, nothing sent. */
    ring(0);
    put(1, 0, NETTXF_extra_info, 1, 0);
    put_extra(XEN_NETIF_EXTRA_TYPE_MCAST_ADD, 0, 0, 0);
    parse();
    CHECK_EQ(p.verdict, NB_TX_MCAST);
    CHECK_EQ(p.nr_slots, 2);
}

static void test_tx_endless_chain(void)
{
    unsigned int i;

    /* more_data on the last request there is: fatal. */
    ring(0);
    for ( i = 0; i < 5; i++ )
        put(i, 0, NETTXF_more_data, i, 100);
    parse();
    CHECK_EQ(p.verdict, NB_TX_FATAL);

    /* A whole ring of more_data: fatal at fatal_skb_slots. */
    ring(0);
    for ( i = 0; i < RING_SIZE(&back); i++ )
        put(i, 0, NETTXF_more_data, i, 10);
    parse();
    CHECK_EQ(p.verdict, NB_TX_FATAL);
    CHECK_EQ(p.a, NB_TX_FATAL_SLOTS + 1);

    /* 19 further slots: more than the legacy 18, dropped whole. */
    ring(0);
    put(0, 0, NETTXF_more_data, 0, 19 * 100 + 100);
    for ( i = 1; i <= 19; i++ )
        put(i, 0, i < 19 ? NETTXF_more_data : 0, i, 100);
    parse();
    CHECK_EQ(p.verdict, NB_TX_DROP);
    CHECK_EQ(p.nr_slots, 20);
    CHECK_EQ(p.nr_data, 20);
    CHECK_EQ(p.data[19].id, 19);        /* every slot gets its response */

    /* 18 further slots are fine. */
    ring(0);
    put(0, 0, NETTXF_more_data, 0, 18 * 100 + 100);
    for ( i = 1; i <= 18; i++ )
        put(i, 0, i < 18 ? NETTXF_more_data : 0, i, 100);
    parse();
    CHECK_EQ(p.verdict, NB_TX_SEND);
    CHECK_EQ(p.nr_data, NB_TX_MAX_DATA);
}

static void test_tx_sizes(void)
{
    /* 0 bytes, and a first slot shorter than an Ethernet header. */
    ring(0);
    put(1, 0, 0, 1, 0);
    parse();
    CHECK_EQ(p.verdict, NB_TX_DROP);
    CHECK_EQ(p.nr_slots, 1);
    ring(0);
    put(1, 0, NETTXF_more_data, 1, 100);
    put(2, 0, 0, 2, 90);
    parse();
    CHECK_EQ(p.verdict, NB_TX_DROP);
    CHECK_EQ(p.nr_slots, 2);

    /* 64 KiB and more: the first's size wrapped, a slot bigger. */
    ring(0);
    put(1, 0, NETTXF_more_data, 1, (70000 & 0xffff));
    put(2, 0, NETTXF_more_data, 2, 4096);
    put(3, 0, 0, 3, 4096);
    parse();
    CHECK_EQ(p.verdict, NB_TX_DROP);
    CHECK_EQ(p.nr_slots, 3);

    /* Across a page: the first, and a later slot. */
    ring(0);
    put(1, 4000, 0, 1, 200);
    parse();
    CHECK_EQ(p.verdict, NB_TX_FATAL);
    ring(0);
    put(1, 0, NETTXF_more_data, 1, 300);
    put(2, 4000, 0, 2, 200);
    parse();
    CHECK_EQ(p.verdict, NB_TX_FATAL);
}

static void test_tx_wrap(void)
{
    /* Indexes about to wrap past 2^32 and the ring's end. */
    ring(0xfffffffe);
    put(1, 0, NETTXF_more_data, 1, 200);
    put(2, 0, NETTXF_more_data, 2, 100);
    put(3, 0, 0, 3, 50);
    CHECK_EQ(front.req_prod_pvt, 1);
    parse();
    CHECK_EQ(p.verdict, NB_TX_SEND);
    CHECK_EQ(p.nr_slots, 3);
    CHECK_EQ(p.data[2].gref, 3);
    /* A producer more than a ring ahead is the caller's to refuse. */
    nb_tx_parse(&back, back.req_cons + RING_SIZE(&back) + 1, &p);
    CHECK_EQ(p.verdict, NB_TX_FATAL);
}

/* An Ethernet + IPv4 + UDP/TCP frame of @len with a payload pattern. */
static uint8_t frame[2048];

static uint32_t ipv4(uint8_t proto, uint32_t len, uint16_t frag)
{
    uint32_t i;

    memset(frame, 0, sizeof(frame));
    frame[12] = 0x08;
    frame[14] = 0x45;
    frame[15 + 1] = (len - 14) >> 8;
    frame[15 + 2] = (len - 14);
    frame[14 + 6] = frag >> 8;
    frame[14 + 7] = frag;
    frame[14 + 8] = 64;
    frame[14 + 9] = proto;
    memcpy(frame + 26, "\x0a\x00\x02\x0f\x0a\x00\x02\x02", 8);
    for ( i = 34; i < len; i++ )
        frame[i] = i * 7;
    return len;
}

/* The L4 checksum the long way: pseudo-header then the segment. */
static uint16_t l4_sum(const uint8_t *src, unsigned int alen, uint8_t proto,
                       uint32_t start, uint32_t len, uint32_t field)
{
    uint8_t tmp[2048];
    uint32_t sum, l4 = len - start;

    memcpy(tmp, frame, len);
    tmp[field] = tmp[field + 1] = 0;
    sum = net_csum_add(0, src, alen, false);
    sum += proto + l4;
    sum = net_csum_add(sum, tmp + start, l4, false);
    return ~net_csum_fold(sum);
}

static void test_csum_ipv4(void)
{
    struct net_offload o = { 0 };
    uint32_t len = ipv4(17, 300, 0x4000), sum;
    uint16_t want = l4_sum(frame + 26, 8, 17, 34, len, 40);

    CHECK_EQ(nb_csum_setup(frame, len, len, true, &o), 0);
    CHECK_EQ(o.flags, NET_OFF_CSUM_PARTIAL);
    CHECK_EQ(o.csum_start, 34);
    CHECK_EQ(o.csum_offset, 6);
    /* The pseudo-header in the field: a sum from csum_start is right. */
    sum = ~net_csum_fold(net_csum_add(0, frame + 34, len - 34, false));
    CHECK_EQ((uint16_t)sum, want);

    memset(&o, 0, sizeof(o));
    len = ipv4(6, 100, 0);
    CHECK_EQ(nb_csum_setup(frame, len, len, false, &o), 0);
    CHECK_EQ(o.csum_offset, 16);
    /* Too little copied: how much is needed. */
    CHECK_EQ(nb_csum_setup(frame, 40, len, false, &o), 34 + 18);
    CHECK_EQ(nb_csum_setup(frame, 20, len, false, &o), 34);
    /* Fragments, other protocols, a frame too short, not IP. */
    len = ipv4(6, 100, 0x2000);
    CHECK_EQ(nb_csum_setup(frame, len, len, false, &o), -1);
    len = ipv4(6, 100, 0x0010);
    CHECK_EQ(nb_csum_setup(frame, len, len, false, &o), -1);
    len = ipv4(1, 100, 0);
    CHECK_EQ(nb_csum_setup(frame, len, len, false, &o), -1);
    len = ipv4(6, 100, 0);
    CHECK_EQ(nb_csum_setup(frame, len, 50, false, &o), -1);
    frame[14] = 0x44;                   /* IHL 4 */
    CHECK_EQ(nb_csum_setup(frame, len, len, false, &o), -1);
    frame[12] = 0x08;
    frame[13] = 0x06;                   /* ARP */
    CHECK_EQ(nb_csum_setup(frame, len, len, false, &o), -1);
}

static void test_csum_ipv6(void)
{
    struct net_offload o = { 0 };
    uint32_t len = 200, i;

    memset(frame, 0, sizeof(frame));
    frame[12] = 0x86;
    frame[13] = 0xdd;
    frame[14] = 0x60;
    frame[14 + 6] = 0;                  /* hop-by-hop, 8 bytes */
    for ( i = 22; i < 54; i++ )
        frame[i] = i;
    frame[54] = 60;                     /* then destination options, 16 */
    frame[55] = 0;
    frame[62] = 6;                      /* then TCP */
    frame[63] = 1;
    CHECK_EQ(nb_csum_setup(frame, len, len, true, &o), 0);
    CHECK_EQ(o.csum_start, 54 + 8 + 16);
    CHECK_EQ(o.csum_offset, 16);
    CHECK_EQ((uint16_t)~net_csum_fold(net_csum_add(0, frame + 78, len - 78,
                                                   false)),
             l4_sum(frame + 22, 32, 6, 78, len, 94));

    /* A fragment header with an offset: not offloaded. */
    memset(&o, 0, sizeof(o));
    frame[20] = 44;
    frame[54] = 6;
    frame[55] = 0;
    frame[57] = 0x08;                   /* offset 1 */
    CHECK_EQ(nb_csum_setup(frame, len, len, false, &o), -1);
    frame[57] = 0;                      /* offset 0, no MF: fine */
    CHECK_EQ(nb_csum_setup(frame, len, len, false, &o), 0);
    CHECK_EQ(o.csum_start, 62);
    /* Extension headers past what the backend copies. */
    frame[20] = 0;
    frame[54] = 0;
    frame[55] = 40;                     /* 328 bytes */
    CHECK_EQ(nb_csum_setup(frame, len, 1000, false, &o), -1);
}

static void test_rx_plan(void)
{
    struct nb_rx_slot s[NB_RX_MAX_SLOTS];

    CHECK_EQ(nb_rx_plan(0, true, false, s, 18), 0);
    CHECK_EQ(nb_rx_plan(1514, false, false, s, 18), 1);
    CHECK_EQ(s[0].len, 1514);
    CHECK_EQ(nb_rx_plan(4097, false, false, s, 18), 0);
    CHECK_EQ(nb_rx_plan(4097, true, false, s, 18), 2);
    CHECK_EQ(s[1].off, 4096);
    CHECK_EQ(s[1].len, 1);
    CHECK_EQ(nb_rx_plan(65535, true, true, s, 18), 17);
    CHECK(!s[0].extra && s[1].extra && !s[2].extra);
    CHECK_EQ(s[2].off, 4096);
    CHECK_EQ(s[16].len, 65535 - 15 * 4096);
    CHECK_EQ(nb_rx_plan(65535, true, true, s, 16), 0);
    CHECK_EQ(nb_rx_plan(100, true, true, s, 1), 0);
    CHECK_EQ(nb_rx_plan(100, true, true, s, 2), 2);
}

static void test_rx_copy_csum(void)
{
    static struct net_rx rx;
    uint8_t out[2048];
    uint32_t len = ipv4(17, 1400, 0), cut[3] = { 100, 1001, 1400 }, at = 0;
    unsigned int i;
    uint16_t want = l4_sum(frame + 26, 8, 17, 34, len, 40);

    /* The field holds the pseudo-header sum: a partial frame. */
    memset(&rx, 0, sizeof(rx));
    rx.off.csum_start = 34;
    rx.off.csum_offset = 6;
    CHECK_EQ(nb_csum_setup(frame, len, len, true, &rx.off), 0);
    for ( i = 0; i < 3; at = cut[i++] )
    {
        rx.buf[i].data = frame + at;
        rx.buf[i].len = cut[i] - at;
    }
    rx.nr_bufs = 3;
    rx.len = len;
    memset(out, 0, sizeof(out));
    nb_rx_copy(&rx, 0, 50, out);
    nb_rx_copy(&rx, 50, 999, out + 50);
    nb_rx_copy(&rx, 1049, len - 1049, out + 1049);
    CHECK(!memcmp(out, frame, len));
    CHECK_EQ(nb_rx_csum(&rx), want);
    CHECK_EQ(nb_rx_csum_flags(&rx.off),
             NETRXF_csum_blank | NETRXF_data_validated);
    rx.off.flags = NET_OFF_CSUM_VALID;
    CHECK_EQ(nb_rx_csum_flags(&rx.off), NETRXF_data_validated);
    rx.off.flags = 0;
    CHECK_EQ(nb_rx_csum_flags(&rx.off), 0);
}

int main(void)
{
    RUN(test_tx_single);
    RUN(test_tx_chain);
    RUN(test_tx_extras);
    RUN(test_tx_bad_extras);
    RUN(test_tx_endless_chain);
    RUN(test_tx_sizes);
    RUN(test_tx_wrap);
    RUN(test_csum_ipv4);
    RUN(test_csum_ipv6);
    RUN(test_rx_plan);
    RUN(test_rx_copy_csum);
    UNIT_EXIT();
}
