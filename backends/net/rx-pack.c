/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The RX ring's pure logic (netif-ring.h): which of the guest's posted
 * slots a received frame takes (Linux's xen-netback rx.c
 * xenvif_rx_skb(): a page of data a slot, the extra info after the
 * first), the bytes copied into each, and the flags its first response
 * carries.  No guest memory, no locks: host-tested and fuzzed as it is.
 */
#include "backends/net/netif-ring.h"

unsigned int nb_rx_plan(uint32_t len, bool sg, bool extra,
                        struct nb_rx_slot *s, unsigned int max)
{
    unsigned int n = 0;
    uint32_t off = 0;

    if ( !len || (!sg && len > NB_PAGE_SIZE) )
        return 0;
    while ( off < len )
    {
        if ( n == max )
            return 0;
        s[n].off = off;
        s[n].len = MIN(len - off, NB_PAGE_SIZE);
        s[n].extra = false;
        off += s[n++].len;
        if ( n == 1 && extra )
        {
            if ( n == max )
                return 0;
            s[n++] = (struct nb_rx_slot){ .extra = true };
        }
    }
    return n;
}

void nb_rx_copy(const struct net_rx *rx, uint32_t off, uint32_t len,
                uint8_t *dst)
{
    unsigned int i;
    uint32_t pos = 0, from, n;

    for ( i = 0; i < rx->nr_bufs && len; pos += rx->buf[i++].len )
    {
        if ( off >= pos + rx->buf[i].len )
            continue;
        from = off - pos;
        n = MIN(rx->buf[i].len - from, len);
        memcpy(dst, rx->buf[i].data + from, n);
        dst += n;
        off += n;
        len -= n;
    }
}

uint16_t nb_rx_csum_flags(const struct net_offload *off)
{
    if ( off->flags & NET_OFF_CSUM_PARTIAL )
        return NETRXF_csum_blank | NETRXF_data_validated;
    if ( off->flags & NET_OFF_CSUM_VALID )
        return NETRXF_data_validated;
    return 0;
}

uint16_t nb_rx_csum(const struct net_rx *rx)
{
    uint32_t start = rx->off.csum_start, pos = 0, sum = 0, from;
    unsigned int i;
    uint16_t c;

    for ( i = 0; i < rx->nr_bufs; pos += rx->buf[i++].len )
    {
        if ( pos + rx->buf[i].len <= start )
            continue;
        from = start > pos ? start - pos : 0;
        sum = net_csum_add(sum, rx->buf[i].data + from,
                           rx->buf[i].len - from, (pos + from - start) & 1);
    }
    c = ~net_csum_fold(sum);
    return c ? c : 0xffff;              /* 0 is "none" to UDP (RFC 768) */
}
