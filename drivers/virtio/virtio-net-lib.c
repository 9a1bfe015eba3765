/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * virtio-net's pure logic (virtio-net.h): the packet header from and to
 * the interface's offload metadata, and a received packet's buffers
 * counted and checked.  No registers, no locks: the host tests compile
 * this file as it is.
 */
#include "drivers/virtio/virtio-net.h"

void vnet_hdr_build(struct virtio_net_hdr *h, const struct net_offload *o)
{
    memset(h, 0, sizeof(*h));
    if ( o->flags & NET_OFF_CSUM_PARTIAL )
    {
        h->flags = VIRTIO_NET_HDR_F_NEEDS_CSUM;
        h->csum_start = o->csum_start;
        h->csum_offset = o->csum_offset;
    }
    switch ( o->gso_type )
    {
    case NET_GSO_TCPV4:
        h->gso_type = VIRTIO_NET_HDR_GSO_TCPV4;
        break;
    case NET_GSO_TCPV6:
        h->gso_type = VIRTIO_NET_HDR_GSO_TCPV6;
        break;
    default:
        h->gso_type = VIRTIO_NET_HDR_GSO_NONE;
        return;
    }
    h->gso_size = o->gso_size;
    h->hdr_len = o->hdr_len;
}

bool vnet_hdr_parse(const struct virtio_net_hdr *h, unsigned int features,
                    uint32_t len, struct net_offload *o)
{
    memset(o, 0, sizeof(*o));
    if ( h->flags & ~(VIRTIO_NET_HDR_F_NEEDS_CSUM |
                      VIRTIO_NET_HDR_F_DATA_VALID) )
        return false;
    /* Either flag only with GUEST_CSUM (5.1.6.4.1). */
    if ( h->flags && !(features & NET_F_CSUM_RX) )
        return false;
    if ( h->flags & VIRTIO_NET_HDR_F_NEEDS_CSUM )
    {
        if ( (uint32_t)h->csum_start + h->csum_offset + 2 > len )
            return false;
        o->flags |= NET_OFF_CSUM_PARTIAL;
        o->csum_start = h->csum_start;
        o->csum_offset = h->csum_offset;
    }
    if ( h->flags & VIRTIO_NET_HDR_F_DATA_VALID )
        o->flags |= NET_OFF_CSUM_VALID;

    switch ( h->gso_type )
    {
    case VIRTIO_NET_HDR_GSO_NONE:
        return true;
    case VIRTIO_NET_HDR_GSO_TCPV4:
        if ( !(features & NET_F_GSO_RX4) )
            return false;
        o->gso_type = NET_GSO_TCPV4;
        break;
    case VIRTIO_NET_HDR_GSO_TCPV6:
        if ( !(features & NET_F_GSO_RX6) )
            return false;
        o->gso_type = NET_GSO_TCPV6;
        break;
    default:                    /* UDP, ECN: never negotiated */
        return false;
    }
    if ( !h->gso_size )
        return false;
    o->gso_size = h->gso_size;
    o->hdr_len = h->hdr_len;
    return true;
}

int vnet_rx_add(struct vnet_rx_asm *a, uint32_t used, uint32_t posted,
                uint16_t nr_bufs, unsigned int max)
{
    if ( !a->want )
    {
        /*
         * The first buffer: the header, and how many buffers the packet
         * takes (not to be believed when the header itself is short).
         */
        a->want = nr_bufs && used >= VNET_HDR_LEN ? nr_bufs : 1;
        a->have = 0;
        a->len = 0;
        a->drop = !nr_bufs || nr_bufs > max || used < VNET_HDR_LEN ||
                  used > posted;
        if ( !a->drop )
            a->len = used - VNET_HDR_LEN;
    }
    else if ( used > posted )
        a->drop = true;
    else
        a->len += used;

    if ( ++a->have < a->want )
        return VNET_RX_MORE;
    a->want = 0;
    if ( a->drop || a->len < NET_ETH_HLEN || a->len > NET_MAX_PACKET )
        return VNET_RX_DROP;
    return VNET_RX_DONE;
}
