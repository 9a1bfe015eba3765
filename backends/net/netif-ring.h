/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The network rings (xen/io/netif.h) with ring.h's barriers for the
 * shim, and the parts of the protocol the backend's pure logic shares
 * with its host tests: the TX slot-chain parser and checksum set-up
 * (tx-parse.c), the RX slot plan and copy (rx-pack.c).  The netif
 * structures have no 8-byte members: one layout for 64- and 32-bit
 * guests.
 */
#ifndef BACKENDS_NET_NETIF_RING_H
#define BACKENDS_NET_NETIF_RING_H

#include "shim/lib.h"
#include "arch/x86/barrier.h"
#include "drivers/net.h"
#include <xen/xen.h>
#include <xen/grant_table.h>

/* ring.h's barriers, for the interface version the shim builds with. */
#define xen_mb()    smp_mb()
#define xen_rmb()   smp_rmb()
#define xen_wmb()   smp_wmb()

#include <xen/io/ring.h>
#include <xen/io/netif.h>

#define NB_PAGE_SIZE        4096u
/*
 * Linux's xen-netback: a packet of more than XEN_NETBK_LEGACY_SLOTS_MAX
 * (XEN_NETIF_NR_SLOTS_MIN) slots after its first is dropped with an
 * error; one of fatal_skb_slots (20) is a malicious frontend.
 */
#define NB_TX_LEGACY_SLOTS  XEN_NETIF_NR_SLOTS_MIN
#define NB_TX_FATAL_SLOTS   20
/* Data slots a packet sent may have: its first and the legacy limit. */
#define NB_TX_MAX_DATA      (1 + NB_TX_LEGACY_SLOTS)
/* A packet's first bytes copied into the shim (XEN_NETBACK_TX_COPY_LEN). */
#define NB_TX_COPY          128u
/* At most this far, for a checksum field past NB_TX_COPY (IPv6 options). */
#define NB_HDR_MAX          256u
/*
 * Grants a vif keeps mapped for the device's TX at most (the shim's
 * maptrack is shared by every backend: one vif can't take it all).
 */
#define NB_TX_MAX_MAPS      256
/* Slots one received packet may take: Linux's netfront takes 18. */
#define NB_RX_MAX_SLOTS     XEN_NETIF_NR_SLOTS_MIN

enum nb_tx_verdict {
    NB_TX_SEND,             /* a packet to send */
    NB_TX_DROP,             /* answer every slot with NETIF_RSP_ERROR */
    NB_TX_MCAST,            /* multicast control alone: OKAY, nothing sent */
    NB_TX_FATAL,            /* the frontend broke the protocol */
};

/* One packet's slots, as the TX ring gave them (copied out). */
struct nb_tx_pkt {
    enum nb_tx_verdict verdict;
    const char *why;                /* a drop's or fatal's reason */
    unsigned int a, b;              /* numbers for the log line */
    unsigned int nr_slots;          /* ring entries taken, extras included */
    unsigned int nr_extras;
    unsigned int nr_data;           /* data slots, the first included */
    uint32_t len;                   /* the packet: the first slot's size */
    uint16_t flags;                 /* the first slot's NETTXF_* */
    /* data[0].size is the first slot's own part (len minus the rest). */
    struct netif_tx_request data[NB_TX_FATAL_SLOTS + 1];
    struct netif_extra_info gso;    /* type 0: none */
};

/*
 * Parse the packet at @r's req_cons, with @prod (no more than a ring
 * ahead) the frontend's producer index, in the order and with the
 * verdicts of Linux's xenvif_tx_build_gops(), xenvif_get_extras() and
 * xenvif_count_requests().  Each slot is copied out of the ring once.
 * Doesn't move req_cons: the caller takes nr_slots.
 */
void nb_tx_parse(struct netif_tx_back_ring *r, RING_IDX prod,
                 struct nb_tx_pkt *p);

/*
 * Linux's skb_checksum_setup() on the first @have bytes of a frame of
 * @len (Ethernet, IPv4 or IPv6 with its extension headers, TCP or UDP):
 * the checksum's start and offset into @off (NET_OFF_CSUM_PARTIAL set).
 * 0; -1 if the frame can't have its sum offloaded (another protocol, a
 * fragment, headers cut short); or the bytes needed (> @have) to reach
 * past the checksum field, to call again with more.  With @pseudo, the
 * field gets the pseudo-header's sum (a GSO packet whose frontend left
 * it out, as Linux's recalculate_partial_csum).
 */
int nb_csum_setup(uint8_t *hdr, uint32_t have, uint32_t len, bool pseudo,
                  struct net_offload *off);

/* One slot of a packet given to the guest: bytes [off, off + len). */
struct nb_rx_slot {
    uint32_t off, len;
    bool extra;                     /* the GSO extra info, no data */
};

/*
 * Which of the guest's posted slots a received frame of @len takes: data
 * slots of up to a page each (one only, unless the frontend has
 * feature-sg), the second one the GSO extra info if @extra.  The number
 * of slots (at most @max), 0 if the frame can't be given (empty, too
 * big for one slot without sg, more than @max slots).
 */
unsigned int nb_rx_plan(uint32_t len, bool sg, bool extra,
                        struct nb_rx_slot *s, unsigned int max);

/* Copy @len bytes of @rx's frame from @off on to @dst. */
void nb_rx_copy(const struct net_rx *rx, uint32_t off, uint32_t len,
                uint8_t *dst);

/*
 * The sum a NET_OFF_CSUM_PARTIAL frame leaves blank (its field holds the
 * pseudo-header's sum), for a frontend that can't take csum_blank; the
 * frame's csum_start and csum_offset lie within it (the caller checks).
 */
uint16_t nb_rx_csum(const struct net_rx *rx);

/* The NETRXF_* of a frame's first response, from the device's offloads. */
uint16_t nb_rx_csum_flags(const struct net_offload *off);

#endif /* BACKENDS_NET_NETIF_RING_H */
