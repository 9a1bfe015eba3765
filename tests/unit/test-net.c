/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the network interface's pure logic (drivers/net-lib.c)
 * and net-selftest's frames (drivers/net-selftest-lib.c): the RFC 1071
 * sum (its own example, any split, odd offsets), every check a packet to
 * send passes, the software fill of a needs-checksum field wherever the
 * fragments cut it, software GSO's segments (TCP over IPv4 and IPv6) and
 * what it refuses, and the ARP and ICMP frames byte for byte.
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
    tx.off.gso_type = NET_GSO_TCPV4;    /* not the device's: net.c cuts */
    CHECK_EQ(net_tx_check(&dev, &tx, &len), NET_OK);
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

/*
 * Software GSO (net_gso_check(), net_gso_seg_hdr()): a TCP GSO packet
 * over IPv4 or IPv6 cut into segments as tcp_gso_segment() cuts it.
 */
#define GSO_SEQ     0xfffffa00u     /* wraps after the first segment */
#define GSO_ID      0xfffe          /* wraps after the second */
#define GSO_FLAGS   0x99            /* CWR, ACK, PSH, FIN */

static uint8_t gso_pkt[8192], gso_hdr[256], gso_flat[2048], gso_cat[8192];

static uint32_t rd16(const uint8_t *p)
{
    return p[0] << 8 | p[1];
}

static uint32_t rd32(const uint8_t *p)
{
    return rd16(p) << 16 | rd16(p + 2);
}

static void wr16(uint8_t *p, uint32_t v)
{
    p[0] = v >> 8;
    p[1] = v;
}

/*
 * A GSO packet into @p: Ethernet II, IPv4 (DF, a valid sum) or IPv6,
 * TCP with @opt bytes of options (0, or 12: timestamps), @paylen bytes
 * of payload from a seeded generator; its headers' length.
 */
static uint32_t gso_build(uint8_t *p, bool v6, unsigned int opt,
                          uint32_t paylen)
{
    static const uint8_t ts[12] = { 1, 1, 8, 10, 0x11, 0x22, 0x33, 0x44,
                                    0x55, 0x66, 0x77, 0x88 };
    uint32_t l4 = NET_ETH_HLEN + (v6 ? 40 : 20), hlen = l4 + 20 + opt;
    uint32_t seed = 7 + paylen, i;
    uint8_t *ip = p + NET_ETH_HLEN, *th = p + l4;

    memset(p, 0, hlen);
    memcpy(p, gw, 6);
    memcpy(p + 6, me, 6);
    wr16(p + 12, v6 ? 0x86dd : 0x0800);
    if ( v6 )
    {
        ip[0] = 0x60 | 0x0a;            /* a traffic class, a flow label */
        ip[1] = 0xbc;
        ip[2] = 0xde;
        ip[3] = 0xf0;
        wr16(ip + 4, hlen - l4 + paylen);
        ip[6] = 6;
        ip[7] = 64;
        for ( i = 0; i < 16; i++ )
        {
            ip[8 + i] = 0xf0 + i;       /* fe80::... and 2001:db8::... */
            ip[24 + i] = 0x20 + i * 13;
        }
        ip[8] = 0xfe;
        ip[9] = 0x80;
    }
    else
    {
        ip[0] = 0x45;
        ip[1] = 0x02;                   /* ECT(0) */
        wr16(ip + 2, hlen - NET_ETH_HLEN + paylen);
        wr16(ip + 4, GSO_ID);
        wr16(ip + 6, 0x4000);           /* DF */
        ip[8] = 64;
        ip[9] = 6;
        memcpy(ip + 12, "\x0a\x00\x02\x0f\x0a\x00\x02\x02", 8);
        wr16(ip + 10, ~net_csum_fold(ref_csum_add(0, ip, 20, false)));
    }
    wr16(th, 0xc350);
    wr16(th + 2, 443);
    wr16(th + 4, GSO_SEQ >> 16);
    wr16(th + 6, GSO_SEQ);
    wr16(th + 8, 0x1234);
    wr16(th + 10, 0x5678);
    th[12] = (20 + opt) / 4 << 4;
    th[13] = GSO_FLAGS;
    wr16(th + 14, 502);
    wr16(th + 16, 0xabcd);              /* overwritten in each segment */
    wr16(th + 18, 0);
    memcpy(th + 20, ts, opt);
    for ( i = 0; i < paylen; i++ )
    {
        seed = seed * 1103515245 + 12345;
        p[hlen + i] = seed >> 16;
    }
    return hlen;
}

/* The pseudo-header's sum (RFC 793, RFC 8200 8.1) for @tl TCP bytes. */
static uint32_t gso_pseudo(const uint8_t *p, bool v6, uint32_t tl)
{
    const uint8_t *ip = p + NET_ETH_HLEN;
    uint8_t ph[40];

    if ( v6 )
    {
        memcpy(ph, ip + 8, 32);
        ph[32] = tl >> 24;
        ph[33] = tl >> 16;
        ph[34] = tl >> 8;
        ph[35] = tl;
        ph[36] = ph[37] = ph[38] = 0;
        ph[39] = 6;
        return ref_csum_add(0, ph, 40, false);
    }
    memcpy(ph, ip + 12, 8);
    ph[8] = 0;
    ph[9] = 6;
    wr16(ph + 10, tl);
    return ref_csum_add(0, ph, 12, false);
}

/* Whether a segment's header byte @k may differ from the packet's. */
static bool gso_changes(bool v6, uint32_t l4, uint32_t k)
{
    uint32_t ip = k - NET_ETH_HLEN, th = k - l4;

    if ( k >= l4 )
        return (th >= 4 && th < 8) || th == 13 || th == 16 || th == 17;
    if ( k < NET_ETH_HLEN )
        return false;
    if ( v6 )
        return ip == 4 || ip == 5;
    return (ip >= 2 && ip < 6) || ip == 10 || ip == 11;
}

/*
 * net_gso_check() on an exact copy of @avail bytes of @h (the sanitizer
 * catches a read past them).
 */
static bool gso_try(const uint8_t *h, uint32_t avail, uint32_t max,
                    uint32_t len, const struct net_offload *o, uint32_t *l4,
                    uint32_t *hlen, uint32_t *nseg)
{
    uint8_t *c = malloc(avail ? avail : 1);
    bool ok;

    CHECK(c);
    if ( !c )
        return false;
    memcpy(c, h, avail);
    ok = net_gso_check(c, avail, max, len, o, l4, hlen, nseg);
    free(c);
    return ok;
}

/* The segments' addresses: 0x100000 their headers, 0x200000 the packet. */
static void *gso_map(uint64_t addr)
{
    if ( addr >= 0x200000 )
        return gso_pkt + (addr - 0x200000);
    return gso_hdr + (addr - 0x100000);
}

static void gso_cut(bool v6, unsigned int opt, uint32_t paylen, uint16_t mss)
{
    uint32_t hlen = gso_build(gso_pkt, v6, opt, paylen);
    uint32_t len = hlen + paylen, l4, h = 0, nseg = 0, i, k, off, n, tl;
    uint32_t pseudo, cut, total = 0;
    struct net_offload o = { NET_OFF_CSUM_PARTIAL,
                             v6 ? NET_GSO_TCPV6 : NET_GSO_TCPV4, mss, 0,
                             v6 ? 54 : 34, 16 };
    uint8_t tmpl[128], *ip = gso_hdr + NET_ETH_HLEN, *th;
    struct net_frag f[3];
    struct net_tx t;

    memcpy(tmpl, gso_pkt, hlen);
    CHECK(gso_try(gso_pkt, hlen, 128, len, &o, &l4, &h, &nseg));
    CHECK_EQ(l4, v6 ? 54 : 34);
    CHECK_EQ(h, hlen);
    CHECK_EQ(nseg, (paylen + mss - 1) / mss);
    if ( unit_case_failed )
        return;
    th = gso_hdr + l4;
    for ( i = 0; i < nseg; i++ )
    {
        off = i * mss;
        n = MIN(mss, paylen - off);
        tl = hlen - l4 + n;
        memset(gso_hdr, 0xa5, sizeof(gso_hdr));
        net_gso_seg_hdr(gso_hdr, gso_pkt, l4, hlen, v6, i, nseg, mss, n);
        for ( k = hlen; k < sizeof(gso_hdr) && gso_hdr[k] == 0xa5; k++ )
            ;
        CHECK_EQ(k, sizeof(gso_hdr));   /* nothing past the headers */
        if ( v6 )
            CHECK_EQ(rd16(ip + 4), tl);
        else
        {
            CHECK_EQ(rd16(ip + 2), 20 + tl);
            CHECK_EQ(rd16(ip + 4), (GSO_ID + i) & 0xffff);
            CHECK_EQ(net_csum_fold(ref_csum_add(0, ip, 20, false)), 0xffff);
        }
        CHECK_EQ(rd32(th + 4), (uint32_t)(GSO_SEQ + i * mss));
        CHECK_EQ(th[13], (GSO_FLAGS & 0x10) | (i ? 0 : 0x80) |
                         (i + 1 == nseg ? 0x09 : 0));
        for ( k = 0; k < hlen; k++ )
            if ( !gso_changes(v6, l4, k) && gso_hdr[k] != gso_pkt[k] )
                break;
        CHECK_EQ(k, hlen);              /* the first byte differing */
        pseudo = gso_pseudo(gso_pkt, v6, tl);
        CHECK_EQ(rd16(th + 16), net_csum_fold(pseudo));

        /* The device's fill: the headers, the payload in two at an odd. */
        cut = (n / 2) | 1;
        f[0] = (struct net_frag){ 0x100000, hlen };
        f[1] = (struct net_frag){ 0x200000 + hlen + off, MIN(cut, n) };
        f[2] = (struct net_frag){ 0x200000 + hlen + off + cut, n - cut };
        memset(&t, 0, sizeof(t));
        t.nr_frags = cut < n ? 3 : 2;
        t.frag = f;
        t.off = (struct net_offload){ .flags = NET_OFF_CSUM_PARTIAL,
                                      .csum_start = l4, .csum_offset = 16 };
        net_tx_csum(&t, gso_map);
        memcpy(gso_flat, gso_hdr, hlen);
        memcpy(gso_flat + hlen, gso_pkt + hlen + off, n);
        CHECK_EQ(net_csum_fold(ref_csum_add(pseudo, gso_flat + l4, tl,
                                            false)), 0xffff);
        memcpy(gso_cat + total, gso_flat + hlen, n);
        total += n;
    }
    CHECK_EQ(total, paylen);
    CHECK(!memcmp(gso_cat, gso_pkt + hlen, paylen));
    CHECK(!memcmp(tmpl, gso_pkt, hlen));  /* the packet's untouched */
}

static void test_gso_cut(void)
{
    gso_cut(false, 0, 5000, 1448);      /* 4 segments, the last 656 */
    gso_cut(false, 12, 5000, 1448);
    gso_cut(false, 12, 5001, 1448);     /* an odd last one */
    gso_cut(true, 0, 5000, 1448);
    gso_cut(true, 12, 5000, 1448);
    gso_cut(true, 12, 3 * 1448 + 1, 1448);  /* the last of 1 byte */
    gso_cut(false, 0, 2 * 1448, 1448);  /* the last one full */
    gso_cut(true, 0, 1000, 1448);       /* one: every flag kept */
    gso_cut(false, 12, 1000, 1448);
    gso_cut(false, 0, 7777, 536);       /* 15 segments */
    gso_cut(true, 12, 100, 7);          /* 15, the last of 2 */
}

/* net_gso_check() on @p (from gso_build()) changed at @at to @v. */
static bool gso_with(const uint8_t *p, uint32_t at, uint8_t v,
                     uint32_t avail, uint32_t len,
                     const struct net_offload *o)
{
    uint8_t c[128];
    uint32_t l4, hlen, nseg;

    memcpy(c, p, sizeof(c));
    c[at] = v;
    return gso_try(c, avail, 128, len, o, &l4, &hlen, &nseg);
}

static void test_gso_check_refuses(void)
{
    static uint8_t p4[128], p6[128];
    const struct net_offload o4 = { NET_OFF_CSUM_PARTIAL, NET_GSO_TCPV4,
                                    1448, 0, 34, 16 };
    const struct net_offload o6 = { NET_OFF_CSUM_PARTIAL, NET_GSO_TCPV6,
                                    1448, 0, 54, 16 };
    struct net_offload o;
    uint32_t l4, hlen, nseg, k, mss;
    unsigned int v;

    /* Headers alone: 54 bytes and 86 bytes (timestamps); 1000 of data. */
    CHECK_EQ(gso_build(p4, false, 0, 0), 54);
    CHECK_EQ(gso_build(p6, true, 12, 0), 86);
    CHECK(gso_try(p4, 54, 128, 1054, &o4, &l4, &hlen, &nseg));
    CHECK_EQ(l4, 34);
    CHECK_EQ(hlen, 54);
    CHECK_EQ(nseg, 1);
    CHECK(gso_try(p6, 86, 128, 1086, &o6, &l4, &hlen, &nseg));
    CHECK_EQ(l4, 54);
    CHECK_EQ(hlen, 86);
    CHECK_EQ(nseg, 1);

    /* The offloads. */
    for ( v = 0; v < 2; v++ )
    {
        const uint8_t *p = v ? p6 : p4;
        uint32_t h = v ? 86 : 54;

        o = v ? o6 : o4;
        o.gso_type = NET_GSO_NONE;
        CHECK(!gso_try(p, h, 128, h + 1000, &o, &l4, &hlen, &nseg));
        o.gso_type = 7;
        CHECK(!gso_try(p, h, 128, h + 1000, &o, &l4, &hlen, &nseg));
        o.gso_type = v ? NET_GSO_TCPV4 : NET_GSO_TCPV6;   /* the other */
        CHECK(!gso_try(p, h, 128, h + 1000, &o, &l4, &hlen, &nseg));
        o = v ? o6 : o4;
        o.gso_size = 0;
        CHECK(!gso_try(p, h, 128, h + 1000, &o, &l4, &hlen, &nseg));
        o = v ? o6 : o4;
        o.csum_offset = 6;              /* UDP's */
        CHECK(!gso_try(p, h, 128, h + 1000, &o, &l4, &hlen, &nseg));
        o.csum_offset = 17;
        CHECK(!gso_try(p, h, 128, h + 1000, &o, &l4, &hlen, &nseg));
        o = v ? o6 : o4;
        o.csum_start--;
        CHECK(!gso_try(p, h, 128, h + 1000, &o, &l4, &hlen, &nseg));
        o.csum_start += 2;
        CHECK(!gso_try(p, h, 128, h + 1000, &o, &l4, &hlen, &nseg));
        o.csum_start = v ? 34 : 54;     /* the other's */
        CHECK(!gso_try(p, h, 128, h + 1000, &o, &l4, &hlen, &nseg));
        o.csum_start = h;
        CHECK(!gso_try(p, h, 128, h + 1000, &o, &l4, &hlen, &nseg));
    }

    /* The ethertype: the other IP's, a VLAN tag. */
    CHECK(!gso_with(p4, 12, 0x86, 54, 1054, &o4));
    CHECK(!gso_with(p4, 13, 0xdd, 54, 1054, &o4));
    CHECK(!gso_with(p4, 12, 0x81, 54, 1054, &o4));      /* 0x8100 */
    CHECK(!gso_with(p6, 12, 0x08, 86, 1086, &o6));
    CHECK(!gso_with(p6, 13, 0x00, 86, 1086, &o6));
    CHECK(!gso_with(p6, 12, 0x81, 86, 1086, &o6));      /* 0x81dd */
    memcpy(gso_hdr, p6, 128);
    wr16(gso_hdr + 12, 0x8100);
    CHECK(!gso_try(gso_hdr, 86, 128, 1086, &o6, &l4, &hlen, &nseg));
    memcpy(gso_hdr, p4, 128);
    wr16(gso_hdr + 12, 0x0806);                         /* ARP */
    CHECK(!gso_try(gso_hdr, 54, 128, 1054, &o4, &l4, &hlen, &nseg));

    /* IPv4: options, not version 4, not TCP. */
    CHECK(!gso_with(p4, 14, 0x46, 54, 1054, &o4));
    CHECK(!gso_with(p4, 14, 0x4f, 54, 1054, &o4));
    CHECK(!gso_with(p4, 14, 0x44, 54, 1054, &o4));
    CHECK(!gso_with(p4, 14, 0x60, 54, 1054, &o4));
    CHECK(!gso_with(p4, 14, 0x65, 54, 1054, &o4));
    CHECK(!gso_with(p4, 23, 17, 54, 1054, &o4));
    CHECK(!gso_with(p4, 23, 0, 54, 1054, &o4));
    /* IPv6: not version 6, extension headers, not TCP. */
    CHECK(!gso_with(p6, 14, 0x45, 86, 1086, &o6));
    CHECK(!gso_with(p6, 14, 0x7a, 86, 1086, &o6));
    CHECK(!gso_with(p6, 20, 0, 86, 1086, &o6));         /* hop-by-hop */
    CHECK(!gso_with(p6, 20, 17, 86, 1086, &o6));
    CHECK(!gso_with(p6, 20, 44, 86, 1086, &o6));        /* fragment */
    /* Not these: traffic class, flow label, IPv4's flags, TTL. */
    CHECK(gso_with(p6, 15, 0x00, 86, 1086, &o6));
    CHECK(gso_with(p4, 20, 0x00, 54, 1054, &o4));
    CHECK(gso_with(p4, 22, 1, 54, 1054, &o4));

    /* TCP's data offset: under 5 words; the most, 15, within @max. */
    for ( v = 0; v < 5; v++ )
    {
        CHECK(!gso_with(p4, 46, v << 4, 128, 1054, &o4));
        CHECK(!gso_with(p6, 66, v << 4, 128, 1086, &o6));
    }
    CHECK(gso_with(p4, 46, 0xf0, 94, 1054, &o4));
    CHECK(!gso_with(p4, 46, 0xf0, 93, 1054, &o4));
    CHECK(gso_with(p6, 66, 0xf0, 114, 1086, &o6));
    CHECK(!gso_with(p6, 66, 0xf0, 113, 1086, &o6));
    CHECK(!gso_with(p4, 46, 0xf0, 128, 94, &o4));       /* no payload */
    CHECK(gso_with(p4, 46, 0x6f, 58, 1054, &o4));       /* low bits */

    /* The headers within @avail and @max, a payload after them. */
    CHECK(!gso_try(p4, 53, 128, 1054, &o4, &l4, &hlen, &nseg));
    CHECK(!gso_try(p6, 85, 128, 1086, &o6, &l4, &hlen, &nseg));
    CHECK(!gso_try(p4, 54, 53, 1054, &o4, &l4, &hlen, &nseg));
    CHECK(gso_try(p4, 54, 54, 1054, &o4, &l4, &hlen, &nseg));
    CHECK(!gso_try(p6, 86, 85, 1086, &o6, &l4, &hlen, &nseg));
    CHECK(gso_try(p6, 86, 86, 1086, &o6, &l4, &hlen, &nseg));
    CHECK(!gso_try(p4, 54, 128, 54, &o4, &l4, &hlen, &nseg));
    CHECK(!gso_try(p6, 86, 128, 86, &o6, &l4, &hlen, &nseg));
    CHECK(!gso_try(p4, 54, 128, 0, &o4, &l4, &hlen, &nseg));
    /* Too short to hold TCP's data offset: not read past @avail. */
    for ( k = 0; k < 54; k++ )
        CHECK(!gso_try(p4, k, 128, 1054, &o4, &l4, &hlen, &nseg));
    for ( k = 0; k < 86; k++ )
        CHECK(!gso_try(p6, k, 128, 1086, &o6, &l4, &hlen, &nseg));

    /* The segments: a byte alone, k MSS, k MSS and a byte. */
    CHECK(gso_try(p4, 54, 128, 55, &o4, &l4, &hlen, &nseg));
    CHECK_EQ(nseg, 1);
    CHECK(gso_try(p6, 86, 128, 87, &o6, &l4, &hlen, &nseg));
    CHECK_EQ(nseg, 1);
    for ( mss = 1; mss <= 1448; mss = mss * 3 + 5 )
        for ( k = 1; k * mss + 87 <= NET_MAX_PACKET && k <= 300; k++ )
            for ( v = 0; v < 2; v++ )
            {
                const uint8_t *p = v ? p6 : p4;
                uint32_t h = v ? 86 : 54;

                o = v ? o6 : o4;
                o.gso_size = mss;
                CHECK(gso_try(p, h, 128, h + k * mss, &o, &l4, &hlen,
                              &nseg));
                CHECK_EQ(nseg, k);
                CHECK(gso_try(p, h, 128, h + 1 + k * mss, &o, &l4, &hlen,
                              &nseg));
                CHECK_EQ(nseg, k + 1);
            }
    o = o4;
    o.gso_size = 0xffff;                /* 64 KiB of IP: one segment */
    CHECK(gso_try(p4, 54, 128, NET_MAX_PACKET, &o, &l4, &hlen, &nseg));
    CHECK_EQ(nseg, 1);
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
    RUN(test_gso_cut);
    RUN(test_gso_check_refuses);
    UNIT_EXIT();
}
