/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer harness for the network backend's pure logic
 * (backends/net/tx-parse.c, rx-pack.c): any bytes as a TX ring's
 * requests, parsed packet after packet as the backend does, keep every
 * promise nb_tx_parse() makes (slots within the requests, a packet to
 * send whose slots add up, stay in their pages and hold an Ethernet
 * header) and the checksum set-up never points past the frame or the
 * shim's copy; the same bytes as a received frame are planned into RX
 * slots that cover it exactly and copied back byte for byte, with the
 * software sum the long way's.  ASan/UBSan watch every access.
 */
#define __XEN_INTERFACE_VERSION__ 0x00040e00
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/net-lib.c"
#include "backends/net/tx-parse.c"
#include "backends/net/rx-pack.c"

#define FUZZ_ASSERT(cond) do {                                             \
    if ( !(cond) )                                                         \
    {                                                                      \
        fprintf(stderr, "fuzz-netback: %s:%d: %s\n", __FILE__, __LINE__,   \
                #cond);                                                    \
        abort();                                                           \
    }                                                                      \
} while ( 0 )

static union {
    struct netif_tx_sring s;
    uint8_t page[4096];
} ring;

static void check_pkt(const struct nb_tx_pkt *p, unsigned int work)
{
    uint32_t sum = 0;
    unsigned int i;

    FUZZ_ASSERT(p->nr_slots >= 1 && p->nr_slots <= work);
    FUZZ_ASSERT(p->nr_data >= 1 && p->nr_data <= NB_TX_FATAL_SLOTS + 1);
    FUZZ_ASSERT(p->nr_data + p->nr_extras <= p->nr_slots);
    if ( p->verdict != NB_TX_SEND )
        return;
    FUZZ_ASSERT(p->nr_slots == p->nr_data + p->nr_extras);
    FUZZ_ASSERT(p->nr_data <= NB_TX_MAX_DATA);
    FUZZ_ASSERT(p->data[0].size >= NET_ETH_HLEN);
    for ( i = 0; i < p->nr_data; i++ )
    {
        FUZZ_ASSERT(p->data[i].offset + p->data[i].size <= NB_PAGE_SIZE);
        sum += p->data[i].size;
    }
    FUZZ_ASSERT(sum == p->len);
    FUZZ_ASSERT(!p->gso.type || (p->gso.u.gso.size &&
                (p->gso.u.gso.type == XEN_NETIF_GSO_TYPE_TCPV4 ||
                 p->gso.u.gso.type == XEN_NETIF_GSO_TYPE_TCPV6)));
}

/* The backend's header copy: up to NB_TX_COPY, more up to NB_HDR_MAX. */
static void check_csum(uint8_t *frame, uint32_t len, bool pseudo)
{
    struct net_offload o = { 0 };
    uint32_t copy = len < NB_TX_COPY ? len : NB_TX_COPY;
    int rc;

    while ( (rc = nb_csum_setup(frame, copy, len, pseudo, &o)) > 0 )
    {
        FUZZ_ASSERT((uint32_t)rc > copy && (uint32_t)rc <= len);
        if ( (uint32_t)rc > NB_HDR_MAX )
            return;
        copy = rc;
    }
    if ( rc < 0 )
        return;
    FUZZ_ASSERT(o.flags == NET_OFF_CSUM_PARTIAL);
    FUZZ_ASSERT((uint32_t)o.csum_start + o.csum_offset + 2 <= copy);
    FUZZ_ASSERT(copy <= len && copy <= NB_HDR_MAX);
}

static void fuzz_tx(const uint8_t *data, size_t size)
{
    struct netif_tx_back_ring back;
    struct nb_tx_pkt p;
    RING_IDX start, prod;
    unsigned int n, i;

    if ( size < 5 )
        return;
    memset(&ring, 0, sizeof(ring));
    SHARED_RING_INIT(&ring.s);
    BACK_RING_INIT(&back, &ring.s, sizeof(ring));
    /* Where the indexes start (near a wrap too), then the requests. */
    memcpy(&start, data, 4);
    data += 4;
    size -= 4;
    n = size / sizeof(struct netif_tx_request);
    if ( n > RING_SIZE(&back) )
        n = RING_SIZE(&back);
    back.req_cons = back.rsp_prod_pvt = start;
    for ( i = 0; i < n; i++ )
        memcpy(RING_GET_REQUEST(&back, start + i),
               data + i * sizeof(struct netif_tx_request),
               sizeof(struct netif_tx_request));
    prod = start + n;
    while ( back.req_cons != prod )
    {
        unsigned int work = prod - back.req_cons;

        nb_tx_parse(&back, prod, &p);
        if ( p.verdict == NB_TX_FATAL )
            break;
        check_pkt(&p, work);
        back.req_cons += p.nr_slots;
    }
}

static void fuzz_rx(const uint8_t *data, size_t size)
{
    static uint8_t frame[65536], out[65536];
    static struct net_rx rx;
    struct nb_rx_slot s[NB_RX_MAX_SLOTS];
    uint32_t len, pos = 0, sum;
    unsigned int n, i, max;
    bool sg, extra;
    uint16_t want;

    if ( size < 4 )
        return;
    sg = data[0] & 1;
    extra = data[0] & 2;
    max = data[1] % (NB_RX_MAX_SLOTS + 1);
    /* The frame: the input, repeated to a length it names. */
    len = (data[2] | data[3] << 8) % 65536;
    data += 4;
    size -= 4;
    if ( !size )
        return;
    for ( i = 0; i < len; i++ )
        frame[i] = data[i % size];

    n = nb_rx_plan(len, sg, extra, s, max);
    if ( n )
    {
        FUZZ_ASSERT(n <= max && len);
        FUZZ_ASSERT(sg || len <= NB_PAGE_SIZE);
        for ( i = 0; i < n; i++ )
        {
            FUZZ_ASSERT(s[i].extra == (extra && i == 1));
            if ( s[i].extra )
                continue;
            FUZZ_ASSERT(s[i].off == pos && s[i].len && s[i].len <= 4096);
            pos += s[i].len;
        }
        FUZZ_ASSERT(pos == len);
    }
    if ( !len )
        return;

    /* The frame in device buffers cut where the input says. */
    memset(&rx, 0, sizeof(rx));
    for ( pos = 0, i = 0; pos < len && i < NET_RX_MAX_BUFS; i++ )
    {
        uint32_t cut = i + 1 == NET_RX_MAX_BUFS ? len - pos
                       : 1 + (data[i % size] * 37u) % 2048;

        if ( cut > len - pos )
            cut = len - pos;
        rx.buf[i].data = frame + pos;
        rx.buf[i].len = cut;
        pos += cut;
    }
    rx.nr_bufs = i;
    rx.len = len;
    for ( i = 0; i < n; i++ )
        if ( !s[i].extra )
            nb_rx_copy(&rx, s[i].off, s[i].len, out + s[i].off);
    FUZZ_ASSERT(!n || !memcmp(out, frame, len));

    rx.off.csum_start = data[0] % len;
    sum = net_csum_add(0, frame + rx.off.csum_start,
                       len - rx.off.csum_start, false);
    want = ~net_csum_fold(sum);
    FUZZ_ASSERT(nb_rx_csum(&rx) == (want ? want : 0xffff));

    check_csum(frame, len, data[0] & 4);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_tx(data, size);
    fuzz_rx(data, size);
    return 0;
}
