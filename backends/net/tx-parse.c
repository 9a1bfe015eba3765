/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The TX ring's pure logic (netif-ring.h): a packet's slot chain, taken
 * apart as Linux's xen-netback takes it (netback.c xenvif_tx_build_gops(),
 * xenvif_get_extras(), xenvif_count_requests(), xenvif_set_skb_gso()),
 * and where its checksum goes (Linux's skb_checksum_setup()).  No
 * device, no guest memory but the ring it is given, no locks: the host
 * tests and the fuzzer compile this file as it is.
 */
#include "backends/net/netif-ring.h"

#define ETH_P_IP        0x0800
#define ETH_P_IPV6      0x86dd
#define IPPROTO_TCP     6
#define IPPROTO_UDP     17

static void verdict(struct nb_tx_pkt *p, enum nb_tx_verdict v,
                    const char *why, unsigned int a, unsigned int b)
{
    p->verdict = v;
    p->why = why;
    p->a = a;
    p->b = b;
}

/* The extra info slots after the first (xenvif_get_extras()). */
static bool get_extras(struct netif_tx_back_ring *r, RING_IDX *cons,
                       unsigned int *work, struct nb_tx_pkt *p, bool *mcast)
{
    struct netif_extra_info extra;

    do {
        if ( !*work )
        {
            verdict(p, NB_TX_FATAL, "missing extra info", p->nr_extras, 0);
            return false;
        }
        (*work)--;
        RING_COPY_REQUEST(r, *cons, &extra);
        (*cons)++;
        p->nr_slots++;
        p->nr_extras++;
        if ( !extra.type || extra.type >= XEN_NETIF_EXTRA_TYPE_MAX )
        {
            verdict(p, NB_TX_FATAL, "invalid extra type", extra.type, 0);
            return false;
        }
        if ( extra.type == XEN_NETIF_EXTRA_TYPE_GSO )
            p->gso = extra;
        else if ( extra.type == XEN_NETIF_EXTRA_TYPE_MCAST_ADD ||
                  extra.type == XEN_NETIF_EXTRA_TYPE_MCAST_DEL )
            *mcast = true;
    } while ( extra.flags & XEN_NETIF_EXTRA_FLAG_MORE );
    return true;
}

/*
 * The slots after the first (xenvif_count_requests()): the first's size
 * is the packet's, each further slot's taken from it, so data[0].size
 * ends as the first slot's own part.  A chain past the legacy limit or
 * a slot bigger than what is left is dropped (all its slots consumed); a
 * chain past the ring's requests or fatal_skb_slots, or a slot across
 * its page, is fatal.
 */
static bool count_requests(struct netif_tx_back_ring *r, RING_IDX cons,
                           unsigned int work, struct nb_tx_pkt *p)
{
    struct netif_tx_request *first = &p->data[0], txp;
    unsigned int slots = 0;
    bool drop = false;

    if ( !(first->flags & NETTXF_more_data) )
        return true;
    do {
        if ( slots >= work )
        {
            verdict(p, NB_TX_FATAL, "slot chain past the requests on the "
                    "ring", slots + 1, work);
            return false;
        }
        if ( slots >= NB_TX_FATAL_SLOTS )
        {
            verdict(p, NB_TX_FATAL, "slot chain too long (slots, limit)",
                    slots + 1, NB_TX_FATAL_SLOTS);
            return false;
        }
        if ( !drop && slots >= NB_TX_LEGACY_SLOTS )
        {
            verdict(p, NB_TX_DROP, "too many slots", slots + 1,
                    NB_TX_LEGACY_SLOTS);
            drop = true;
        }
        RING_COPY_REQUEST(r, cons + slots, &txp);
        /* A frame of 64 KiB or more overflowed the first's size. */
        if ( !drop && txp.size > first->size )
        {
            verdict(p, NB_TX_DROP, "slot size above the remaining size",
                    txp.size, first->size);
            drop = true;
        }
        first->size -= txp.size;
        slots++;
        p->nr_slots++;
        p->data[p->nr_data++] = txp;
        if ( txp.offset + txp.size > NB_PAGE_SIZE )
        {
            verdict(p, NB_TX_FATAL, "slot across its page (offset, size)",
                    txp.offset, txp.size);
            return false;
        }
    } while ( txp.flags & NETTXF_more_data );
    return !drop;
}

void nb_tx_parse(struct netif_tx_back_ring *r, RING_IDX prod,
                 struct nb_tx_pkt *p)
{
    RING_IDX cons = r->req_cons;
    unsigned int work = prod - cons;
    bool mcast = false;

    memset(p, 0, sizeof(*p));
    if ( !work || work > RING_SIZE(r) )
    {
        verdict(p, NB_TX_FATAL, "no request to parse", work, 0);
        return;
    }
    RING_COPY_REQUEST(r, cons, &p->data[0]);
    cons++;
    work--;
    p->nr_slots = p->nr_data = 1;
    p->flags = p->data[0].flags;
    p->len = p->data[0].size;

    if ( (p->flags & NETTXF_extra_info) && !get_extras(r, &cons, &work, p,
                                                       &mcast) )
        return;
    if ( mcast )
    {
        /* Linux answers these alone; more_data slots are packets anew. */
        verdict(p, NB_TX_MCAST, NULL, 0, 0);
        return;
    }
    if ( !count_requests(r, cons, work, p) )
        return;
    if ( p->data[0].size < NET_ETH_HLEN )
    {
        verdict(p, NB_TX_DROP, "first slot shorter than an Ethernet header",
                p->data[0].size, p->len);
        return;
    }
    if ( p->data[0].offset + p->data[0].size > NB_PAGE_SIZE )
    {
        verdict(p, NB_TX_FATAL, "first slot across its page (offset, size)",
                p->data[0].offset, p->data[0].size);
        return;
    }
    if ( p->gso.type )
    {
        if ( !p->gso.u.gso.size )
        {
            verdict(p, NB_TX_FATAL, "GSO size zero", 0, 0);
            return;
        }
        if ( p->gso.u.gso.type != XEN_NETIF_GSO_TYPE_TCPV4 &&
             p->gso.u.gso.type != XEN_NETIF_GSO_TYPE_TCPV6 )
        {
            verdict(p, NB_TX_FATAL, "bad GSO type", p->gso.u.gso.type, 0);
            return;
        }
    }
    verdict(p, NB_TX_SEND, NULL, 0, 0);
}

/* NEED(n): the headers must reach n bytes (-1 past the frame). */
#define NEED(n) do {                                                    \
        uint32_t n_ = (n);                                              \
        if ( n_ > len )                                                 \
            return -1;                                                  \
        if ( n_ > have )                                                \
            return n_;                                                  \
    } while ( 0 )

/* The IPv6 extension headers (skb_checksum_setup_ipv6()). */
static int ipv6_l4(const uint8_t *h, uint32_t have, uint32_t len,
                   uint32_t *off, uint8_t *proto)
{
    bool fragment = false;

    for ( ; ; )
    {
        switch ( *proto )
        {
        case 0:                 /* hop-by-hop */
        case 43:                /* routing */
        case 60:                /* destination options */
            NEED(*off + 2);
            *proto = h[*off];
            *off += (h[*off + 1] + 1) * 8;
            break;
        case 51:                /* authentication */
            NEED(*off + 2);
            *proto = h[*off];
            *off += (h[*off + 1] + 2) * 4;
            break;
        case 44:                /* fragment */
            NEED(*off + 8);
            /* An offset or more fragments. */
            if ( net_be16(h + *off + 2) & 0xfff9 )
                fragment = true;
            *proto = h[*off];
            *off += 8;
            break;
        default:
            return fragment ? -1 : 0;
        }
        if ( *off > NB_HDR_MAX )
            return -1;
    }
}

int nb_csum_setup(uint8_t *h, uint32_t have, uint32_t len, bool pseudo,
                  struct net_offload *off)
{
    uint32_t at = NET_ETH_HLEN, start, field, sum = 0;
    uint16_t type;
    uint8_t proto;
    int rc;

    NEED(NET_ETH_HLEN);
    type = net_be16(h + 12);
    if ( type == ETH_P_IP )
    {
        NEED(at + 20);
        start = at + (h[at] & 0xf) * 4;
        if ( (h[at] >> 4) != 4 || start < at + 20 )
            return -1;
        if ( net_be16(h + at + 6) & 0x3fff )        /* MF or an offset */
            return -1;
        proto = h[at + 9];
        sum = net_csum_add(0, h + at + 12, 8, false);
    }
    else if ( type == ETH_P_IPV6 )
    {
        NEED(at + 40);
        if ( (h[at] >> 4) != 6 )
            return -1;
        proto = h[at + 6];
        start = at + 40;
        if ( (rc = ipv6_l4(h, have, len, &start, &proto)) )
            return rc;
        sum = net_csum_add(0, h + at + 8, 32, false);
    }
    else
        return -1;

    switch ( proto )
    {
    case IPPROTO_TCP:
        field = 16;
        break;
    case IPPROTO_UDP:
        field = 6;
        break;
    default:
        return -1;
    }
    NEED(start + field + 2);
    off->flags |= NET_OFF_CSUM_PARTIAL;
    off->csum_start = start;
    off->csum_offset = field;
    if ( pseudo )
    {
        uint32_t l4 = len - start;

        sum += proto + (l4 >> 16) + (l4 & 0xffff);
        sum = net_csum_fold(sum);
        h[start + field] = sum >> 8;
        h[start + field + 1] = sum;
    }
    return 0;
}
