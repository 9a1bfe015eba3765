/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * virtio-net (virtio 1.2, 5.1): feature bits, the configuration layout,
 * the per-packet header, and the header's pure logic (virtio-net-lib.c,
 * host-tested): built from the interface's offload metadata (net.h) on
 * send, read back into it on receive, and the accounting that puts a
 * received packet together from mergeable buffers with every length the
 * device gives checked against the buffer posted.
 */
#ifndef DRIVERS_VIRTIO_VIRTIO_NET_H
#define DRIVERS_VIRTIO_VIRTIO_NET_H

#include "drivers/net.h"

#define VIRTIO_ID_NET               1
#define VIRTIO_PCI_TRANS_NET        0x1000

/* Feature bits (5.1.3). */
#define VIRTIO_NET_F_CSUM           0
#define VIRTIO_NET_F_GUEST_CSUM     1
#define VIRTIO_NET_F_CTRL_GUEST_OFFLOADS 2
#define VIRTIO_NET_F_MTU            3
#define VIRTIO_NET_F_MAC            5
#define VIRTIO_NET_F_GUEST_TSO4     7
#define VIRTIO_NET_F_GUEST_TSO6     8
#define VIRTIO_NET_F_HOST_TSO4      11
#define VIRTIO_NET_F_HOST_TSO6      12
#define VIRTIO_NET_F_MRG_RXBUF      15
#define VIRTIO_NET_F_STATUS         16
#define VIRTIO_NET_F_CTRL_VQ        17
#define VIRTIO_NET_F_MQ             22

/* struct virtio_net_config (5.1.4). */
#define VNET_CFG_MAC                0
#define VNET_CFG_STATUS             6
#define  VIRTIO_NET_S_LINK_UP       1
#define VNET_CFG_MAX_PAIRS          8
#define VNET_CFG_MTU                10

/*
 * The control queue (5.1.6.5): multiqueue's pair count (5.1.6.5.5), the
 * receive offloads in use (5.1.6.5.6, a mask of VIRTIO_NET_F_GUEST_*).
 */
#define VIRTIO_NET_CTRL_MQ          4
#define  VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET 0
#define VIRTIO_NET_CTRL_GUEST_OFFLOADS 5
#define  VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET 0
#define VIRTIO_NET_OK               0

/* struct virtio_net_hdr (5.1.6): its VERSION_1 form, 12 bytes. */
struct virtio_net_hdr {
    uint8_t flags;
#define VIRTIO_NET_HDR_F_NEEDS_CSUM 1
#define VIRTIO_NET_HDR_F_DATA_VALID 2
    uint8_t gso_type;
#define VIRTIO_NET_HDR_GSO_NONE     0
#define VIRTIO_NET_HDR_GSO_TCPV4    1
#define VIRTIO_NET_HDR_GSO_UDP      3
#define VIRTIO_NET_HDR_GSO_TCPV6    4
#define VIRTIO_NET_HDR_GSO_ECN      0x80
    uint16_t hdr_len;
    uint16_t gso_size;
    uint16_t csum_start;
    uint16_t csum_offset;
    uint16_t num_buffers;
};
#define VNET_HDR_LEN                12

/* The header a packet of offloads @o is sent with (5.1.6.2). */
void vnet_hdr_build(struct virtio_net_hdr *h, const struct net_offload *o);

/*
 * A received header's offloads into @o (5.1.6.4), of what @features
 * (NET_F_*) let the device say; false if it says what it may not (a
 * GSO type not negotiated, a checksum field past @len bytes of frame).
 */
bool vnet_hdr_parse(const struct virtio_net_hdr *h, unsigned int features,
                    uint32_t len, struct net_offload *o);

/*
 * A received packet put together from used buffers (5.1.6.3.2, 5.1.6.4):
 * the first's header says how many buffers (num_buffers, with
 * MRG_RXBUF; else 1); each one's used length is checked against what was
 * posted, and a packet with any bad length, too many buffers or too few
 * bytes for an Ethernet header is dropped whole.
 */
struct vnet_rx_asm {
    uint16_t want;              /* buffers of this packet; 0: between */
    uint16_t have;
    uint32_t len;               /* frame bytes so far, without the header */
    bool drop;
};
#define VNET_RX_MORE    0       /* the packet goes on in the next buffer */
#define VNET_RX_DONE    1       /* complete: a->len frame bytes */
#define VNET_RX_DROP    2       /* complete, or not one: give it all back */
/*
 * One used buffer: @used bytes written of @posted; the first's
 * num_buffers in @nr_bufs (taken only when a packet starts; 1 without
 * MRG_RXBUF); at most @max buffers a packet.
 */
int vnet_rx_add(struct vnet_rx_asm *a, uint32_t used, uint32_t posted,
                uint16_t nr_bufs, unsigned int max);

#endif /* DRIVERS_VIRTIO_VIRTIO_NET_H */
