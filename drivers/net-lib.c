/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The network interface's pure logic (net.h): what a packet to send must
 * satisfy, and the Internet checksum (RFC 1071) that fills a
 * NET_OFF_CSUM_PARTIAL field for a device that can't.  No device, no
 * locks: the host tests compile this file as it is.
 */
#include "drivers/net.h"

#define NET_OFF_KNOWN   (NET_OFF_CSUM_PARTIAL | NET_OFF_CSUM_VALID)

static enum net_status check_offload(const struct net_dev *dev,
                                     const struct net_offload *o,
                                     uint32_t len)
{
    if ( o->flags & ~NET_OFF_KNOWN )
        return NET_EINVAL;
    if ( (o->flags & NET_OFF_CSUM_PARTIAL) &&
         (uint32_t)o->csum_start + o->csum_offset + 2 > len )
        return NET_EINVAL;
    switch ( o->gso_type )
    {
    case NET_GSO_NONE:
        /* One frame on the wire: within the MTU (and a VLAN tag). */
        return len <= dev->mtu + NET_ETH_HLEN + NET_VLAN_HLEN
               ? NET_OK : NET_EINVAL;
    case NET_GSO_TCPV4:
    case NET_GSO_TCPV6:
        /* Segments are checksummed by whoever cuts them. */
        if ( !o->gso_size || !(o->flags & NET_OFF_CSUM_PARTIAL) )
            return NET_EINVAL;
        /* Without the device's TSO, net.c cuts it (gso_send()). */
        return NET_OK;
    }
    return NET_EINVAL;
}

enum net_status net_tx_check(const struct net_dev *dev,
                             const struct net_tx *tx, uint32_t *len)
{
    uint64_t total = 0;
    unsigned int i;

    *len = 0;
    if ( !tx->nr_frags || tx->nr_frags > dev->max_frags || !tx->frag ||
         !tx->done )
        return NET_EINVAL;
    for ( i = 0; i < tx->nr_frags; i++ )
    {
        const struct net_frag *f = &tx->frag[i];

        if ( !f->len || f->addr + f->len < f->addr )
            return NET_EINVAL;
        total += f->len;
    }
    if ( total < NET_ETH_HLEN || total > NET_MAX_PACKET )
        return NET_EINVAL;
    *len = total;
    return check_offload(dev, &tx->off, total);
}

/*
 * Bytes at even offsets from the sum's start are the high halves.  The
 * bytes are summed as little-endian 32-bit words (2^16 is 1 modulo
 * 0xffff, so the halves fold into the same 16-bit sum), and that sum is
 * byte-swapped unless @p starts at an odd offset (RFC 1071 2(B): the
 * sum of swapped words is the swapped sum): eight bytes a step, not one,
 * which under TCG is most of a sent packet's cost in the shim.
 */
uint32_t net_csum_add(uint32_t sum, const void *p, uint32_t len, bool odd)
{
    const uint8_t *b = p;
    uint64_t s = 0, w;
    uint32_t i = 0;

    for ( ; i + 8 <= len; i += 8 )
    {
        __builtin_memcpy(&w, b + i, 8);     /* a load, not a call */
        s += (w & 0xffffffffu) + (w >> 32);
    }
    for ( ; i + 2 <= len; i += 2 )
        s += b[i] | (uint32_t)b[i + 1] << 8;
    if ( i < len )
        s += b[i];
    while ( s >> 16 )
        s = (s & 0xffff) + (s >> 16);
    if ( !odd )
        s = (s >> 8) | ((s & 0xff) << 8);
    s += sum;
    while ( s >> 32 )
        s = (s & 0xffffffffu) + (s >> 32);
    return s;
}

static void gso_put16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = v;
}

bool net_gso_check(const uint8_t *h, uint32_t avail, uint32_t max,
                   uint32_t len, const struct net_offload *o, uint32_t *l4,
                   uint32_t *hlen, uint32_t *nseg)
{
    bool v6 = o->gso_type == NET_GSO_TCPV6;
    const uint8_t *ip = h + NET_ETH_HLEN;
    uint32_t thlen;

    if ( (o->gso_type != NET_GSO_TCPV4 && !v6) || !o->gso_size ||
         o->csum_offset != 16 )
        return false;
    *l4 = NET_ETH_HLEN + (v6 ? 40 : 20);
    if ( o->csum_start != *l4 || avail < *l4 + 20 ||
         net_be16(h + 12) != (v6 ? 0x86dd : 0x0800) )
        return false;
    if ( v6 ? (ip[0] >> 4) != 6 || ip[6] != 6 : ip[0] != 0x45 || ip[9] != 6 )
        return false;
    thlen = (h[*l4 + 12] >> 4) * 4u;
    *hlen = *l4 + thlen;
    if ( thlen < 20 || *hlen > avail || *hlen > max || len <= *hlen )
        return false;
    *nseg = (len - *hlen + o->gso_size - 1) / o->gso_size;
    return true;
}

void net_gso_seg_hdr(uint8_t *out, const uint8_t *tmpl, uint32_t l4,
                     uint32_t hlen, bool v6, uint32_t i, uint32_t nseg,
                     uint32_t mss, uint32_t seglen)
{
    uint8_t *ip = out + NET_ETH_HLEN, *th = out + l4;
    uint32_t tl = hlen - l4 + seglen;
    uint32_t seq = (uint32_t)net_be16(tmpl + l4 + 4) << 16 |
                   net_be16(tmpl + l4 + 6);
    uint8_t pseudo[8] = { tl >> 24, tl >> 16, tl >> 8, tl, 0, 0, 0, 6 };
    uint32_t sum;

    memcpy(out, tmpl, hlen);
    seq += i * mss;
    gso_put16(th + 4, seq >> 16);
    gso_put16(th + 6, seq);
    if ( i + 1 < nseg )
        th[13] &= ~0x09;                /* FIN, PSH: the last one's */
    if ( i )
        th[13] &= ~0x80;                /* CWR: the first one's */
    if ( v6 )
    {
        gso_put16(ip + 4, tl);
        sum = net_csum_add(0, ip + 8, 32, false);
    }
    else
    {
        gso_put16(ip + 2, 20 + tl);
        gso_put16(ip + 4, net_be16(tmpl + NET_ETH_HLEN + 4) + i);
        gso_put16(ip + 10, 0);
        gso_put16(ip + 10, ~net_csum_fold(net_csum_add(0, ip, 20, false)));
        sum = net_csum_add(0, ip + 12, 8, false);
    }
    gso_put16(th + 16, net_csum_fold(net_csum_add(sum, pseudo, 8, false)));
}

uint16_t net_csum_fold(uint32_t sum)
{
    sum = (sum & 0xffff) + (sum >> 16);
    sum = (sum & 0xffff) + (sum >> 16);
    return sum;
}

void net_tx_csum(const struct net_tx *tx, void *(*map)(uint64_t addr))
{
    uint32_t start = tx->off.csum_start, at = start + tx->off.csum_offset;
    uint32_t pos = 0, sum = 0, i, from, n;
    uint16_t c;
    uint8_t *field[2] = { NULL, NULL };

    for ( i = 0; i < tx->nr_frags; pos += tx->frag[i++].len )
    {
        uint8_t *p = map(tx->frag[i].addr);
        uint32_t len = tx->frag[i].len;

        /* The field's two bytes, wherever they fall. */
        if ( at >= pos && at < pos + len )
            field[0] = p + (at - pos);
        if ( at + 1 >= pos && at + 1 < pos + len )
            field[1] = p + (at + 1 - pos);
        if ( pos + len <= start )
            continue;
        from = start > pos ? start - pos : 0;
        n = len - from;
        sum = net_csum_add(sum, p + from, n, (pos + from - start) & 1);
    }
    c = ~net_csum_fold(sum);
    /* 0 is "no checksum" to UDP; 0xffff is the same sum (RFC 768). */
    if ( !c )
        c = 0xffff;
    ASSERT(field[0] && field[1]);
    *field[0] = c >> 8;
    *field[1] = c;
}

const char *net_status_name(enum net_status s)
{
    switch ( s )
    {
    case NET_OK:        return "ok";
    case NET_EINVAL:    return "invalid packet";
    case NET_EBUSY:     return "queue full";
    case NET_EIO:       return "device error";
    }
    return "?";
}
