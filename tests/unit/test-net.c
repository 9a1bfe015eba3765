/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the network interface's pure logic (drivers/net-lib.c)
 * and net-selftest's frames (drivers/net-selftest-lib.c): the RFC 1071
 * sum (its own example, any split, odd offsets), every check a packet to
 * send passes, the software fill of a needs-checksum field wherever the
 * fragments cut it, and the ARP and ICMP frames byte for byte.
 */
#include "tests/unit/unit.h"
#include "../../drivers/net-lib.c"
#include "../../drivers/net-selftest-lib.c"

static void done(struct net_tx *t, enum net_status s)
{
    (void)t;
    (void)s;
}

static struct net_dev dev = {
    .mtu = 1500, .max_frags = 4, .features = NET_F_TSO6,
};

/* RFC 1071 4.1: 00 01 f2 03 f4 f5 f6 f7 sums to ddf2. */
static void test_csum_rfc1071(void)
{
    static const uint8_t b[8] = { 0x00, 0x01, 0xf2, 0x03,
                                  0xf4, 0xf5, 0xf6, 0xf7 };
    unsigned int cut;

    CHECK_EQ(net_csum_fold(net_csum_add(0, b, 8, false)), 0xddf2);
    for ( cut = 0; cut <= 8; cut++ )
        CHECK_EQ(net_csum_fold(net_csum_add(net_csum_add(0, b, cut, false),
                                            b + cut, 8 - cut, cut & 1)),
                 0xddf2);
    /* An odd length pads with a zero byte. */
    CHECK_EQ(net_csum_fold(net_csum_add(0, b, 7, false)), 0xddf2 - 0xf7);
    CHECK_EQ(net_csum_fold(0x1ffff), 0x1);
}

/* The definition, a byte at a time: even offsets are the high halves. */
static uint32_t ref_csum_add(uint32_t sum, const uint8_t *b, uint32_t len,
                             bool odd)
{
    uint64_t s = sum;
    uint32_t i;

    for ( i = 0; i < len; i++, odd = !odd )
        s += odd ? b[i] : (uint32_t)b[i] << 8;
    while ( s >> 32 )
        s = (s & 0xffffffffu) + (s >> 32);
    return s;
}

/* The word-at-a-time sum folds to the definition's, any length, start. */
static void test_csum_words(void)
{
    static uint8_t b[1600];
    uint32_t seed = 1, len, off, sum;
    unsigned int i;

    for ( i = 0; i < sizeof(b); i++ )
    {
        seed = seed * 1103515245 + 12345;
        b[i] = seed >> 16;
    }
    memset(b + 1000, 0xff, 600);        /* carries, all the way up */
    for ( off = 0; off < 9; off++ )
        for ( len = 0; len < 1600 - off; len += len < 40 ? 1 : 37 )
            for ( i = 0; i < 4; i++ )
            {
                sum = i < 2 ? 0 : 0xfffffffe;
                CHECK_EQ(net_csum_fold(net_csum_add(sum, b + off, len,
                                                    i & 1)),
                         net_csum_fold(ref_csum_add(sum, b + off, len,
                                                    i & 1)));
            }
}

static struct net_frag fr[5];
static struct net_tx tx;

static void tx_of(unsigned int n, uint32_t len)
{
    unsigned int i;

    memset(&tx, 0, sizeof(tx));
    for ( i = 0; i < n; i++ )
        fr[i] = (struct net_frag){ 0x1000 * (i + 1), len };
    tx.nr_frags = n;
    tx.frag = fr;
    tx.done = done;
}

static void test_tx_check(void)
{
    uint32_t len;

    tx_of(1, 60);
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_OK);
    CHECK_EQ(len, 60);
    tx_of(4, 300);
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_OK);
    CHECK_EQ(len, 1200);
    tx_of(5, 20);                       /* over max_frags */
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_EINVAL);
    tx_of(0, 20);
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_EINVAL);
    tx_of(2, 60);
    fr[1].len = 0;                      /* an empty fragment */
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_EINVAL);
    tx_of(1, 60);
    fr[0].addr = ~0ULL - 10;            /* wraps */
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_EINVAL);
    tx_of(1, 13);                       /* shorter than a header */
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_EINVAL);
    tx_of(1, 1518);                     /* the MTU with a VLAN tag */
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_OK);
    tx_of(1, 1519);
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_EINVAL);
    tx_of(1, 60);
    tx.done = NULL;
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_EINVAL);
}

static void test_tx_check_offloads(void)
{
    uint32_t len;

    tx_of(1, 60);
    tx.off.flags = NET_OFF_CSUM_PARTIAL;
    tx.off.csum_start = 34;
    tx.off.csum_offset = 24;            /* the field's last byte at 59 */
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_OK);
    tx.off.csum_offset = 25;
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_EINVAL);
    tx.off.csum_start = 0xffff;
    tx.off.csum_offset = 0xffff;
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_EINVAL);
    tx.off.flags = 0x80;                /* unknown flag */
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_EINVAL);

    tx_of(3, 20000);                    /* GSO: over the MTU is fine */
    tx.off = (struct net_offload){ NET_OFF_CSUM_PARTIAL, NET_GSO_TCPV6,
                                   1440, 74, 54, 16 };
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_OK);
    tx.off.gso_type = NET_GSO_TCPV4;    /* not the device's */
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_EUNSUPP);
    tx.off.gso_type = 7;
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_EINVAL);
    tx.off.gso_type = NET_GSO_TCPV6;
    tx.off.gso_size = 0;
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_EINVAL);
    tx.off.gso_size = 1440;
    tx.off.flags = 0;                   /* GSO needs the checksum */
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_EINVAL);
    tx_of(4, 16400);                    /* past 64 KiB of IP */
    tx.off = (struct net_offload){ NET_OFF_CSUM_PARTIAL, NET_GSO_TCPV6,
                                   1440, 74, 54, 16 };
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_EINVAL);
}

static uint8_t mem[5][256];

static void *map(uint64_t addr)
{
    return mem[addr / 0x1000 - 1];
}

/* The frame's bytes, cut into pieces of @cuts, filled and checked. */
static void csum_cut(const unsigned int *cuts, unsigned int n,
                     uint16_t start, uint16_t offset, const uint8_t *frame,
                     unsigned int len)
{
    uint8_t flat[1024];
    unsigned int i, at = 0;
    /* What the field held: the pseudo-header's sum, or 0. */
    uint32_t pseudo = frame[start + offset] << 8 | frame[start + offset + 1];

    memset(&tx, 0, sizeof(tx));
    for ( i = 0; i < n; at += cuts[i++] )
    {
        memcpy(mem[i], frame + at, cuts[i]);
        fr[i] = (struct net_frag){ 0x1000 * (i + 1), cuts[i] };
    }
    CHECK_EQ(at, len);
    tx.nr_frags = n;
    tx.frag = fr;
    tx.off.flags = NET_OFF_CSUM_PARTIAL;
    tx.off.csum_start = start;
    tx.off.csum_offset = offset;
    net_tx_csum(&tx, map);
    for ( at = 0, i = 0; i < n; at += cuts[i++] )
        memcpy(flat + at, mem[i], cuts[i]);
    /*
     * With the pseudo-header the region now sums to all ones, as a
     * receiver checks it; the rest is untouched.
     */
    CHECK_EQ(net_csum_fold(net_csum_add(pseudo, flat + start, len - start,
                                        false)), 0xffff);
    CHECK(!memcmp(flat, frame, start + offset));
    CHECK(!memcmp(flat + start + offset + 2, frame + start + offset + 2,
                  len - start - offset - 2));
}

static void test_tx_csum(void)
{
    static const unsigned int whole[1] = { 98 };
    /* The field (bytes 36-37) cut in two; odd pieces before it. */
    static const unsigned int cut_field[3] = { 13, 24, 61 };
    static const unsigned int odd[4] = { 35, 1, 1, 61 };
    uint8_t f[98];
    unsigned int i;

    for ( i = 0; i < sizeof(f); i++ )
        f[i] = i * 37 + 5;
    f[36] = f[37] = 0;
    csum_cut(whole, 1, 34, 2, f, 98);
    csum_cut(cut_field, 3, 34, 2, f, 98);
    csum_cut(odd, 4, 34, 2, f, 98);
    /* The same sum however cut. */
    csum_cut(whole, 1, 34, 2, f, 98);
    CHECK_EQ(mem[0][36] << 8 | mem[0][37],
             (uint16_t)~net_csum_fold(net_csum_add(0, f + 34, 64, false)));
    /* A pseudo-header sum already in the field counts too (TCP/UDP). */
    f[36] = 0x12;
    f[37] = 0x34;
    csum_cut(cut_field, 3, 34, 2, f, 98);
}

/* A region summing to 0xffff already: 0 is written as 0xffff. */
static void test_tx_csum_zero(void)
{
    uint8_t f[20] = { 0 };

    f[14] = 0xff;
    f[15] = 0xff;
    memset(&tx, 0, sizeof(tx));
    memcpy(mem[0], f, 20);
    fr[0] = (struct net_frag){ 0x1000, 20 };
    tx.nr_frags = 1;
    tx.frag = fr;
    tx.off = (struct net_offload){ .flags = NET_OFF_CSUM_PARTIAL,
                                   .csum_start = 14, .csum_offset = 4 };
    net_tx_csum(&tx, map);
    CHECK_EQ(mem[0][18], 0xff);
    CHECK_EQ(mem[0][19], 0xff);
}

static const uint8_t me[6] = { 0x52, 0x54, 0, 0x12, 0x34, 0x56 };
static const uint8_t gw[6] = { 0x52, 0x55, 10, 0, 2, 2 };

static void test_arp(void)
{
    static const uint8_t want[42] = {
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x52, 0x54, 0, 0x12, 0x34, 0x56,
        0x08, 0x06, 0, 1, 0x08, 0, 6, 4, 0, 1,
        0x52, 0x54, 0, 0x12, 0x34, 0x56, 10, 0, 2, 15,
        0, 0, 0, 0, 0, 0, 10, 0, 2, 2,
    };
    uint8_t f[60] = { 0 }, mac[6];

    CHECK_EQ(nst_arp_request(f, me, 0x0a00020f, 0x0a000202), 42);
    CHECK(!memcmp(f, want, 42));
    /* The reply: to us, from the gateway. */
    memcpy(f, me, 6);
    memcpy(f + 6, gw, 6);
    f[21] = 2;
    memcpy(f + 22, gw, 6);
    memcpy(f + 28, want + 38, 4);
    memcpy(f + 32, me, 6);
    memcpy(f + 38, want + 28, 4);
    CHECK(nst_arp_reply(f, 60, me, 0x0a00020f, 0x0a000202, mac));
    CHECK(!memcmp(mac, gw, 6));
    CHECK(!nst_arp_reply(f, 41, me, 0x0a00020f, 0x0a000202, mac));
    CHECK(!nst_arp_reply(f, 60, me, 0x0a00020f, 0x0a000203, mac));
    CHECK(!nst_arp_reply(f, 60, gw, 0x0a00020f, 0x0a000202, mac));
    f[21] = 1;                          /* a request, not a reply */
    CHECK(!nst_arp_reply(f, 60, me, 0x0a00020f, 0x0a000202, mac));
}

/* The gateway's answer to @f: addresses swapped, type 0, sums redone. */
static void reflect(uint8_t *f, unsigned int len)
{
    uint8_t t[6];
    uint16_t c;

    memcpy(t, f, 6);
    memcpy(f, f + 6, 6);
    memcpy(f + 6, t, 6);
    memcpy(t, f + 26, 4);
    memcpy(f + 26, f + 30, 4);
    memcpy(f + 30, t, 4);
    f[34] = 0;
    f[36] = f[37] = 0;
    c = ~net_csum_fold(net_csum_add(0, f + 34, len - 34, false));
    f[36] = c >> 8;
    f[37] = c;
}

static void test_icmp(void)
{
    uint8_t f[1500];
    unsigned int len;

    len = nst_icmp_echo(f, me, gw, 0x0a00020f, 0x0a000202, 0x5053, 7, 56,
                        true);
    CHECK_EQ(len, 98);
    CHECK_EQ(f[12] << 8 | f[13], 0x0800);
    CHECK_EQ(net_csum_fold(net_csum_add(0, f + 14, 20, false)), 0xffff);
    CHECK_EQ(net_csum_fold(net_csum_add(0, f + 34, 64, false)), 0xffff);
    CHECK_EQ(f[34], 8);
    /* Left for an offload: the field is 0. */
    nst_icmp_echo(f, me, gw, 0x0a00020f, 0x0a000202, 0x5053, 7, 56, false);
    CHECK_EQ(f[36] | f[37], 0);

    len = nst_icmp_echo(f, me, gw, 0x0a00020f, 0x0a000202, 0x5053, 7, 1400,
                        true);
    CHECK_EQ(len, 1442);
    reflect(f, len);
    CHECK(nst_icmp_reply(f, len, me, 0x0a00020f, 0x0a000202, 0x5053, 7,
                         1400));
    CHECK(!nst_icmp_reply(f, len, me, 0x0a00020f, 0x0a000202, 0x5053, 8,
                          1400));
    CHECK(!nst_icmp_reply(f, len - 1, me, 0x0a00020f, 0x0a000202, 0x5053,
                          7, 1400));
    f[600] ^= 1;                        /* the payload, sum and all */
    CHECK(!nst_icmp_reply(f, len, me, 0x0a00020f, 0x0a000202, 0x5053, 7,
                          1400));
    f[600] ^= 1;
    f[37] ^= 1;                         /* the ICMP sum alone */
    CHECK(!nst_icmp_reply(f, len, me, 0x0a00020f, 0x0a000202, 0x5053, 7,
                          1400));
    f[37] ^= 1;
    f[24] ^= 1;                         /* the IP header's sum */
    CHECK(!nst_icmp_reply(f, len, me, 0x0a00020f, 0x0a000202, 0x5053, 7,
                          1400));
}

int main(void)
{
    RUN(test_csum_rfc1071);
    RUN(test_csum_words);
    RUN(test_tx_check);
    RUN(test_tx_check_offloads);
    RUN(test_tx_csum);
    RUN(test_tx_csum_zero);
    RUN(test_arp);
    RUN(test_icmp);
    UNIT_EXIT();
}
