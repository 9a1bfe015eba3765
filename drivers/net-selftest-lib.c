/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * net-selftest's frames (net-selftest.h): built and checked byte by
 * byte in network order, checksums by net-lib.c's RFC 1071 sum.  No
 * device: the host tests compile this file as it is.
 */
#include "drivers/net-selftest.h"

#define ARP_REQUEST     1
#define ARP_REPLY       2
#define IPPROTO_ICMP    1
#define ICMP_ECHO_REPLY 0
#define ICMP_ECHO       8

static const uint8_t broadcast[NET_ETH_ALEN] = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff
};

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = v;
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v >> 16);
    put16(p + 2, v);
}

static uint16_t get16(const uint8_t *p)
{
    return p[0] << 8 | p[1];
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static unsigned int eth(uint8_t *f, const uint8_t *dst, const uint8_t *src,
                        uint16_t type)
{
    memcpy(f, dst, NET_ETH_ALEN);
    memcpy(f + NET_ETH_ALEN, src, NET_ETH_ALEN);
    put16(f + 12, type);
    return NET_ETH_HLEN;
}

unsigned int nst_arp_request(uint8_t *f, const uint8_t *mac, uint32_t sip,
                             uint32_t tip)
{
    uint8_t *a = f + eth(f, broadcast, mac, NST_ETH_P_ARP);

    put16(a, 1);                    /* Ethernet */
    put16(a + 2, NST_ETH_P_IP);
    a[4] = NET_ETH_ALEN;
    a[5] = 4;
    put16(a + 6, ARP_REQUEST);
    memcpy(a + 8, mac, NET_ETH_ALEN);
    put32(a + 14, sip);
    memset(a + 18, 0, NET_ETH_ALEN);
    put32(a + 24, tip);
    return NST_ARP_LEN;
}

bool nst_arp_reply(const uint8_t *f, uint32_t len, const uint8_t *mac,
                   uint32_t sip, uint32_t tip, uint8_t *tmac)
{
    const uint8_t *a = f + NET_ETH_HLEN;

    if ( len < NST_ARP_LEN || memcmp(f, mac, NET_ETH_ALEN) ||
         get16(f + 12) != NST_ETH_P_ARP || get16(a) != 1 ||
         get16(a + 2) != NST_ETH_P_IP || a[4] != NET_ETH_ALEN || a[5] != 4 ||
         get16(a + 6) != ARP_REPLY || get32(a + 14) != tip ||
         memcmp(a + 18, mac, NET_ETH_ALEN) || get32(a + 24) != sip )
        return false;
    memcpy(tmac, a + 8, NET_ETH_ALEN);
    return true;
}

static uint8_t pattern(uint16_t seq, unsigned int i)
{
    return i * 13 + seq;
}

unsigned int nst_icmp_echo(uint8_t *f, const uint8_t *mac,
                           const uint8_t *dmac, uint32_t sip, uint32_t dip,
                           uint16_t id, uint16_t seq, unsigned int size,
                           bool csum)
{
    uint8_t *ip = f + eth(f, dmac, mac, NST_ETH_P_IP);
    uint8_t *icmp = ip + NST_IP_HLEN;
    unsigned int i;

    memset(ip, 0, NST_IP_HLEN + NST_ICMP_HLEN);
    ip[0] = 0x45;                   /* version 4, 5 words */
    put16(ip + 2, NST_IP_HLEN + NST_ICMP_HLEN + size);
    put16(ip + 4, seq);
    ip[8] = 64;                     /* TTL */
    ip[9] = IPPROTO_ICMP;
    put32(ip + 12, sip);
    put32(ip + 16, dip);
    put16(ip + 10, ~net_csum_fold(net_csum_add(0, ip, NST_IP_HLEN, false)));
    icmp[0] = ICMP_ECHO;
    put16(icmp + 4, id);
    put16(icmp + 6, seq);
    for ( i = 0; i < size; i++ )
        icmp[NST_ICMP_HLEN + i] = pattern(seq, i);
    if ( csum )
        put16(icmp + NST_ICMP_CSUM_OFF,
              ~net_csum_fold(net_csum_add(0, icmp, NST_ICMP_HLEN + size,
                                          false)));
    return NST_ICMP_OFF + NST_ICMP_HLEN + size;
}

bool nst_icmp_reply(const uint8_t *f, uint32_t len, const uint8_t *mac,
                    uint32_t sip, uint32_t dip, uint16_t id, uint16_t seq,
                    unsigned int size)
{
    const uint8_t *ip = f + NET_ETH_HLEN, *icmp = ip + NST_IP_HLEN;
    unsigned int i, total = NST_IP_HLEN + NST_ICMP_HLEN + size;

    if ( len < NET_ETH_HLEN + total || memcmp(f, mac, NET_ETH_ALEN) ||
         get16(f + 12) != NST_ETH_P_IP || ip[0] != 0x45 ||
         get16(ip + 2) != total || (get16(ip + 6) & 0x3fff) ||
         ip[9] != IPPROTO_ICMP || get32(ip + 12) != dip ||
         get32(ip + 16) != sip ||
         net_csum_fold(net_csum_add(0, ip, NST_IP_HLEN, false)) != 0xffff ||
         icmp[0] != ICMP_ECHO_REPLY || icmp[1] || get16(icmp + 4) != id ||
         get16(icmp + 6) != seq ||
         net_csum_fold(net_csum_add(0, icmp, NST_ICMP_HLEN + size,
                                    false)) != 0xffff )
        return false;
    for ( i = 0; i < size; i++ )
        if ( icmp[NST_ICMP_HLEN + i] != pattern(seq, i) )
            return false;
    return true;
}
