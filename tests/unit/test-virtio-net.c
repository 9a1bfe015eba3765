/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of virtio-net's pure logic (drivers/virtio/virtio-net-lib.c):
 * the header built from each kind of offload metadata, a received
 * header read back only within what was negotiated, and received
 * packets put together from mergeable buffers, this test playing a
 * device that lies: used lengths past the buffer posted, short headers,
 * num_buffers of 0 or past the limit, runts; each such packet dropped
 * whole and the next one read right.
 */
#include "tests/unit/unit.h"
#include "../../drivers/virtio/virtio-net-lib.c"

static void test_hdr_layout(void)
{
    CHECK_EQ(sizeof(struct virtio_net_hdr), VNET_HDR_LEN);
    CHECK_EQ(offsetof(struct virtio_net_hdr, csum_start), 6);
    CHECK_EQ(offsetof(struct virtio_net_hdr, num_buffers), 10);
}

static void test_hdr_build(void)
{
    struct virtio_net_hdr h;
    struct net_offload o = { 0 };

    memset(&h, 0xaa, sizeof(h));
    vnet_hdr_build(&h, &o);
    CHECK_EQ(h.flags, 0);
    CHECK_EQ(h.gso_type, VIRTIO_NET_HDR_GSO_NONE);
    CHECK_EQ(h.csum_start | h.csum_offset | h.gso_size | h.hdr_len, 0);
    CHECK_EQ(h.num_buffers, 0);

    o = (struct net_offload){ .flags = NET_OFF_CSUM_PARTIAL,
                              .csum_start = 34, .csum_offset = 6 };
    vnet_hdr_build(&h, &o);
    CHECK_EQ(h.flags, VIRTIO_NET_HDR_F_NEEDS_CSUM);
    CHECK_EQ(h.csum_start, 34);
    CHECK_EQ(h.csum_offset, 6);
    CHECK_EQ(h.gso_type, VIRTIO_NET_HDR_GSO_NONE);

    /* Validated on send means nothing to the device. */
    o = (struct net_offload){ .flags = NET_OFF_CSUM_VALID };
    vnet_hdr_build(&h, &o);
    CHECK_EQ(h.flags, 0);

    o = (struct net_offload){ NET_OFF_CSUM_PARTIAL, NET_GSO_TCPV4, 1448,
                              66, 34, 16 };
    vnet_hdr_build(&h, &o);
    CHECK_EQ(h.gso_type, VIRTIO_NET_HDR_GSO_TCPV4);
    CHECK_EQ(h.gso_size, 1448);
    CHECK_EQ(h.hdr_len, 66);
    CHECK_EQ(h.csum_offset, 16);
    o.gso_type = NET_GSO_TCPV6;
    vnet_hdr_build(&h, &o);
    CHECK_EQ(h.gso_type, VIRTIO_NET_HDR_GSO_TCPV6);
}

static void test_hdr_parse(void)
{
    struct virtio_net_hdr h = { 0 };
    struct net_offload o;
    unsigned int all = NET_F_CSUM_RX | NET_F_GSO_RX4 | NET_F_GSO_RX6;

    CHECK(vnet_hdr_parse(&h, 0, 60, &o));
    CHECK_EQ(o.flags | o.gso_type, 0);

    h.flags = VIRTIO_NET_HDR_F_DATA_VALID;
    CHECK(!vnet_hdr_parse(&h, 0, 60, &o));      /* no GUEST_CSUM */
    CHECK(vnet_hdr_parse(&h, NET_F_CSUM_RX, 60, &o));
    CHECK_EQ(o.flags, NET_OFF_CSUM_VALID);

    h.flags = VIRTIO_NET_HDR_F_NEEDS_CSUM;
    h.csum_start = 34;
    h.csum_offset = 24;
    CHECK(vnet_hdr_parse(&h, NET_F_CSUM_RX, 60, &o));
    CHECK_EQ(o.flags, NET_OFF_CSUM_PARTIAL);
    CHECK_EQ(o.csum_start, 34);
    CHECK(!vnet_hdr_parse(&h, NET_F_CSUM_RX, 59, &o));  /* past the end */
    h.csum_start = 0xffff;
    h.csum_offset = 0xffff;
    CHECK(!vnet_hdr_parse(&h, all, 65535, &o));

    h.flags = 4;                                /* RSC_INFO: not ours */
    CHECK(!vnet_hdr_parse(&h, all, 60, &o));

    h = (struct virtio_net_hdr){ VIRTIO_NET_HDR_F_NEEDS_CSUM,
                                 VIRTIO_NET_HDR_GSO_TCPV4, 66, 1448, 34, 16,
                                 1 };
    CHECK(!vnet_hdr_parse(&h, NET_F_CSUM_RX, 3000, &o));
    CHECK(vnet_hdr_parse(&h, all, 3000, &o));
    CHECK_EQ(o.gso_type, NET_GSO_TCPV4);
    CHECK_EQ(o.gso_size, 1448);
    CHECK_EQ(o.hdr_len, 66);
    h.gso_type = VIRTIO_NET_HDR_GSO_TCPV6;
    CHECK(!vnet_hdr_parse(&h, NET_F_CSUM_RX | NET_F_GSO_RX4, 3000, &o));
    CHECK(vnet_hdr_parse(&h, all, 3000, &o));
    CHECK_EQ(o.gso_type, NET_GSO_TCPV6);
    h.gso_size = 0;
    CHECK(!vnet_hdr_parse(&h, all, 3000, &o));
    h.gso_size = 1448;
    h.gso_type = VIRTIO_NET_HDR_GSO_UDP;
    CHECK(!vnet_hdr_parse(&h, all, 3000, &o));
    h.gso_type = VIRTIO_NET_HDR_GSO_TCPV4 | VIRTIO_NET_HDR_GSO_ECN;
    CHECK(!vnet_hdr_parse(&h, all, 3000, &o));
}

#define POSTED  1024
#define MAXB    4

static struct vnet_rx_asm a;

static void test_rx_single(void)
{
    memset(&a, 0, sizeof(a));
    CHECK_EQ(vnet_rx_add(&a, VNET_HDR_LEN + 60, POSTED, 1, MAXB),
             VNET_RX_DONE);
    CHECK_EQ(a.len, 60);
    /* The whole buffer, exactly. */
    CHECK_EQ(vnet_rx_add(&a, POSTED, POSTED, 1, MAXB), VNET_RX_DONE);
    CHECK_EQ(a.len, POSTED - VNET_HDR_LEN);
    /* A runt: less than an Ethernet header. */
    CHECK_EQ(vnet_rx_add(&a, VNET_HDR_LEN + 13, POSTED, 1, MAXB),
             VNET_RX_DROP);
    CHECK_EQ(a.want, 0);
}

static void test_rx_merge(void)
{
    memset(&a, 0, sizeof(a));
    CHECK_EQ(vnet_rx_add(&a, POSTED, POSTED, 3, MAXB), VNET_RX_MORE);
    /* Later buffers' num_buffers fields are data: not looked at. */
    CHECK_EQ(vnet_rx_add(&a, POSTED, POSTED, 77, MAXB), VNET_RX_MORE);
    CHECK_EQ(vnet_rx_add(&a, 30, POSTED, 0, MAXB), VNET_RX_DONE);
    CHECK_EQ(a.len, 2 * POSTED - VNET_HDR_LEN + 30);
    /* Exactly the limit. */
    CHECK_EQ(vnet_rx_add(&a, POSTED, POSTED, MAXB, MAXB), VNET_RX_MORE);
    CHECK_EQ(vnet_rx_add(&a, POSTED, POSTED, 0, MAXB), VNET_RX_MORE);
    CHECK_EQ(vnet_rx_add(&a, POSTED, POSTED, 0, MAXB), VNET_RX_MORE);
    CHECK_EQ(vnet_rx_add(&a, 1, POSTED, 0, MAXB), VNET_RX_DONE);
    CHECK_EQ(a.len, 4 * POSTED - VNET_HDR_LEN - POSTED + 1);
}

static void test_rx_lies(void)
{
    memset(&a, 0, sizeof(a));
    /* A first buffer longer than posted: its packet's buffers all go. */
    CHECK_EQ(vnet_rx_add(&a, POSTED + 1, POSTED, 2, MAXB), VNET_RX_MORE);
    CHECK_EQ(vnet_rx_add(&a, 100, POSTED, 0, MAXB), VNET_RX_DROP);
    /* A later one longer than posted. */
    CHECK_EQ(vnet_rx_add(&a, POSTED, POSTED, 2, MAXB), VNET_RX_MORE);
    CHECK_EQ(vnet_rx_add(&a, ~0u, POSTED, 0, MAXB), VNET_RX_DROP);
    /* num_buffers 0: that buffer alone. */
    CHECK_EQ(vnet_rx_add(&a, 100, POSTED, 0, MAXB), VNET_RX_DROP);
    /* Past the limit: consumed to its end, then dropped. */
    CHECK_EQ(vnet_rx_add(&a, POSTED, POSTED, MAXB + 1, MAXB), VNET_RX_MORE);
    CHECK_EQ(vnet_rx_add(&a, POSTED, POSTED, 0, MAXB), VNET_RX_MORE);
    CHECK_EQ(vnet_rx_add(&a, POSTED, POSTED, 0, MAXB), VNET_RX_MORE);
    CHECK_EQ(vnet_rx_add(&a, POSTED, POSTED, 0, MAXB), VNET_RX_MORE);
    CHECK_EQ(vnet_rx_add(&a, POSTED, POSTED, 0, MAXB), VNET_RX_DROP);
    /* Shorter than the header: num_buffers not believed. */
    CHECK_EQ(vnet_rx_add(&a, VNET_HDR_LEN - 1, POSTED, 3, MAXB),
             VNET_RX_DROP);
    /* And the next packet is read right. */
    CHECK_EQ(vnet_rx_add(&a, VNET_HDR_LEN + 64, POSTED, 2, MAXB),
             VNET_RX_MORE);
    CHECK_EQ(vnet_rx_add(&a, 64, POSTED, 0, MAXB), VNET_RX_DONE);
    CHECK_EQ(a.len, 128);
}

int main(void)
{
    RUN(test_hdr_layout);
    RUN(test_hdr_build);
    RUN(test_hdr_parse);
    RUN(test_rx_single);
    RUN(test_rx_merge);
    RUN(test_rx_lies);
    UNIT_EXIT();
}
