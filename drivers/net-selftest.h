/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frames net-selftest sends and the ones it waits for (pure logic in
 * net-selftest-lib.c, host-tested): an ARP request and its reply (RFC
 * 826), an ICMP echo request over IPv4 and its reply (RFC 792, 791).
 */
#ifndef DRIVERS_NET_SELFTEST_H
#define DRIVERS_NET_SELFTEST_H

#include "drivers/net.h"

#define NST_ETH_P_IP        0x0800
#define NST_ETH_P_ARP       0x0806
#define NST_ARP_LEN         42      /* Ethernet + ARP for IPv4 */
#define NST_IP_HLEN         20
#define NST_ICMP_HLEN       8
/* The ICMP header's offset in a frame, its checksum's within it. */
#define NST_ICMP_OFF        (NET_ETH_HLEN + NST_IP_HLEN)
#define NST_ICMP_CSUM_OFF   2

/* The ARP request for @tip from @mac/@sip, broadcast, into @f. */
unsigned int nst_arp_request(uint8_t *f, const uint8_t *mac, uint32_t sip,
                             uint32_t tip);
/*
 * Whether @f (@len bytes) is @tip's ARP reply to @mac/@sip; its MAC into
 * @tmac.
 */
bool nst_arp_reply(const uint8_t *f, uint32_t len, const uint8_t *mac,
                   uint32_t sip, uint32_t tip, uint8_t *tmac);

/*
 * An ICMP echo request with @size bytes of payload (a pattern of @seq)
 * into @f; its ICMP checksum filled if @csum, else left 0 for an offload
 * to fill (the IP header's always filled).  The frame's length.
 */
unsigned int nst_icmp_echo(uint8_t *f, const uint8_t *mac,
                           const uint8_t *dmac, uint32_t sip, uint32_t dip,
                           uint16_t id, uint16_t seq, unsigned int size,
                           bool csum);
/*
 * Whether @f is the reply to that request: addresses, id, sequence, the
 * payload, and both checksums right.
 */
bool nst_icmp_reply(const uint8_t *f, uint32_t len, const uint8_t *mac,
                    uint32_t sip, uint32_t dip, uint16_t id, uint16_t seq,
                    unsigned int size);

#endif /* DRIVERS_NET_SELFTEST_H */
