/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The network-device interface between the container's NICs (virtio-net,
 * a further one) and their users (the Xen network backend): a registered
 * device with its MAC, MTU, offloads and queue pairs; packets sent as
 * fragments at physical addresses with offload metadata and a completion;
 * packets received as the device's buffers, handed over and given back.
 */
#ifndef DRIVERS_NET_H
#define DRIVERS_NET_H

#include "shim/lib.h"
#include "arch/x86/layout.h"

struct pci_dev;

#define NET_ETH_ALEN        6
#define NET_ETH_HLEN        14      /* destination, source, type */
#define NET_VLAN_HLEN       4
#define NET_MAX_QUEUES      16      /* queue pairs */
#define NET_MAX_DEVS        8       /* NICs */
#define NET_MAX_PACKET      65550   /* a GSO packet: 64 KiB of IP + Ethernet */

/* Device features (net_dev.features). */
#define NET_F_CSUM_TX       (1u << 0)   /* fills a NET_OFF_CSUM_PARTIAL sum */
#define NET_F_CSUM_RX       (1u << 1)   /* says NET_OFF_CSUM_VALID received */
#define NET_F_TSO4          (1u << 2)   /* sends NET_GSO_TCPV4 packets */
#define NET_F_TSO6          (1u << 3)
/* May receive NET_GSO_TCPV4/6 packets, once asked to (net_rx_gso()). */
#define NET_F_GSO_RX4       (1u << 4)
#define NET_F_GSO_RX6       (1u << 5)
#define NET_F_MRG_RX        (1u << 6)   /* a packet may span several buffers */
#define NET_F_LINK_STATE    (1u << 7)   /* link_up() says more than "up" */

enum net_status {
    NET_OK,
    NET_EINVAL,             /* malformed: fragments, lengths, offsets */
    NET_EBUSY,              /* the queue is full: send again later */
    NET_EIO,                /* the device failed it */
};

enum net_gso {
    NET_GSO_NONE,
    NET_GSO_TCPV4,          /* TCP over IPv4, cut into gso_size segments */
    NET_GSO_TCPV6,
};

/*
 * A packet's offloads, in the sense of virtio_net_hdr (virtio 1.2 5.1.6)
 * and Linux's CHECKSUM_PARTIAL, which Xen's netif flags map onto
 * (NETTXF_csum_blank is NET_OFF_CSUM_PARTIAL, NETRXF_data_validated
 * NET_OFF_CSUM_VALID).
 */
struct net_offload {
    uint8_t flags;
/*
 * The sum of the bytes from csum_start to the end, complemented, belongs
 * at csum_start + csum_offset, where the packet has the pseudo-header's
 * sum (TCP, UDP) or 0 (ICMP).  Sending: the device (or net.c, for one
 * without NET_F_CSUM_TX) fills it.  Receiving: the device left it so.
 */
#define NET_OFF_CSUM_PARTIAL    (1u << 0)
#define NET_OFF_CSUM_VALID      (1u << 1)   /* received: checked good */
    uint8_t gso_type;           /* enum net_gso */
    uint16_t gso_size;          /* bytes of payload per segment */
    uint16_t hdr_len;           /* of the headers, a hint; 0: unknown */
    uint16_t csum_start, csum_offset;
};

/* A piece of a packet to send: physical, not mapped. */
struct net_frag {
    uint64_t addr;
    uint32_t len;
};

struct net_tx {
    /* The frame, Ethernet header first, nr_frags pieces in order. */
    unsigned int nr_frags;
    const struct net_frag *frag;
    struct net_offload off;
    /*
     * Called once the device no longer reads the fragments, on the CPU
     * that takes the queue's interrupt, from NET_SOFTIRQ; the fragments
     * and @tx are the caller's again then.
     */
    void (*done)(struct net_tx *tx, enum net_status status);
    void *data;                 /* the caller's */
    /*
     * More packets follow at once on this pair (Linux's xmit_more): the
     * device need not be told of this one yet.  The caller ends the
     * batch with net_kick_on().
     */
    bool more;
};

/* Most device buffers one received packet spans. */
#define NET_RX_MAX_BUFS     72

/*
 * A received packet: the device's buffers, mapped, Ethernet header first
 * (no device header).  The receiver copies what it wants out, then gives
 * it back with net_rx_return(), at once or later; until then its buffers
 * are not reposted.
 */
struct net_rx {
    unsigned int nr_bufs;
    struct {
        const uint8_t *data;
        uint32_t len;
    } buf[NET_RX_MAX_BUFS];
    uint32_t len;               /* of the whole frame */
    struct net_offload off;
    unsigned int queue;         /* the pair it came in on */
    void *priv;                 /* the driver's */
    struct net_rx *next;        /* the receiver's, while it holds it */
};

struct net_dev;
/*
 * Called for each packet a device receives, from NET_SOFTIRQ on the CPU
 * that takes the queue's interrupt, without the driver's locks.
 */
typedef void net_receive_t(struct net_dev *dev, struct net_rx *rx,
                           void *data);

struct net_dev_ops {
    /* Queue @tx on pair @q; NET_OK once queued, else why not. */
    enum net_status (*transmit)(struct net_dev *dev, unsigned int q,
                                struct net_tx *tx);
    /*
     * Tell the device of what pair @q was given with `more` set: packets
     * to send, and receive buffers given back by net_rx_return_more().
     */
    void (*kick)(struct net_dev *dev, unsigned int q);
    /*
     * How many more packets pair @q can take now (NULL: as many as
     * net_transmit_on() accepts): a software-GSO packet's round size.
     */
    unsigned int (*tx_room)(struct net_dev *dev, unsigned int q);
    /* Run what pair @q has: transmits done, packets received. */
    void (*complete)(struct net_dev *dev, unsigned int q);
    /* Repost @rx's buffers. */
    void (*rx_return)(struct net_dev *dev, struct net_rx *rx, bool more);
    /* Whether the link is up now. */
    bool (*link_up)(struct net_dev *dev);
    /*
     * Receive TCP GSO packets of the kinds @f (NET_F_GSO_RX4/6, of those
     * in features) from now on, and none of the others; false if the
     * device refused.  Its caller waits: it may take a while.
     */
    bool (*rx_gso)(struct net_dev *dev, unsigned int f);
    /* Print each pair's state (a debug key); racy reads, no locks. */
    void (*dump)(struct net_dev *dev);
    /*
     * The NIC given back (net_release(): nothing in flight): no more
     * packets, interrupts or DMA from it.  NULL: nothing to do.
     */
    void (*stop)(struct net_dev *dev);
};

struct net_dev {
    char name[16];              /* "virtio-net0" */
    uint8_t mac[NET_ETH_ALEN];
    unsigned int mtu;           /* largest IP packet, without GSO */
    unsigned int features;      /* NET_F_* */
    unsigned int nr_queues;     /* pairs, 1..NET_MAX_QUEUES */
    unsigned int max_frags;     /* fragments in one net_tx */
    const struct net_dev_ops *ops;
    void *priv;
    struct pci_dev *pci;        /* its function: the host's removal's */
    bool removing;              /* the host takes it: its user gives it back */
    /* Set by the receiver; NULL: each packet is given back at once. */
    net_receive_t *receive;
    void *receive_data;
    /* Per CPU: the pairs whose interrupts came there, not yet run. */
    unsigned long pending[NR_CPUS];
    /* net.c's: software GSO's packets being sent, per pair. */
    void *gso_pool;
};

/* Add @dev to the registry, as the next index; false if full. */
bool net_register(struct net_dev *dev);
unsigned int net_count(void);
struct net_dev *net_get(unsigned int index);

/*
 * The one listener to NICs registered from then on (the network
 * backend, once it has taken those found at boot): @fn(@dev) runs from
 * net_register(), on CPU 0 in the hotplug softirq (drivers/pci-hotplug.c).
 */
void net_set_add_hook(void (*fn)(struct net_dev *dev));
/* As blk_set_remove_hook(), blk_remove_pci() and blk_release(). */
void net_set_remove_hook(void (*fn)(struct net_dev *dev));
void net_remove_pci(struct pci_dev *d);
void net_release(struct net_dev *dev);

/* Receive @dev's packets through @fn(@dev, rx, @data) from now on. */
void net_set_receive(struct net_dev *dev, net_receive_t *fn, void *data);
/*
 * The receiver takes TCP GSO packets of the kinds @f (NET_F_GSO_RX4/6)
 * from now on, no others: the device is told, where its features let it
 * send some (packets it received before may still come).  False if the
 * device refused.  Not from interrupt context: it may wait for the
 * device.  None until asked.
 */
bool net_rx_gso(struct net_dev *dev, unsigned int f);

/*
 * Check @tx against @dev (fragments, length, offsets, offloads), fill a
 * NET_OFF_CSUM_PARTIAL sum in software if the device can't, then queue
 * it on the pair of the submitting CPU (its number modulo the pairs).
 * NET_OK: @tx->done will be called.  Anything else: it won't.
 * The software sum is written into the fragment that holds the field, so
 * that memory must be the caller's to write (a backend copies a guest's
 * headers out, as Linux's netback does, rather than pass a frame the
 * guest granted read-only); the device itself only reads fragments.
 */
enum net_status net_transmit(struct net_dev *dev, struct net_tx *tx);
/* The same on pair @q (modulo the pairs): a backend's queue's own. */
enum net_status net_transmit_on(struct net_dev *dev, unsigned int q,
                                struct net_tx *tx);
/* The end of a batch sent with `more`: the device hears of it now. */
void net_kick_on(struct net_dev *dev, unsigned int q);
/*
 * From the driver, after each run of pair @q's send completions (without
 * its locks): the next round of the pair's software-GSO packets, for the
 * room the run freed.
 */
void net_tx_reaped(struct net_dev *dev, unsigned int q);

/* Give a received packet's buffers back to its device. */
void net_rx_return(struct net_dev *dev, struct net_rx *rx);
/* The same, one of several at once: net_kick_on(@rx->queue) ends them. */
void net_rx_return_more(struct net_dev *dev, struct net_rx *rx);

/* From a pair's interrupt: run it soon, from NET_SOFTIRQ on this CPU. */
void net_queue_interrupt(struct net_dev *dev, unsigned int q);

/* The pure parts (drivers/net-lib.c), host-tested. */
/* Whether @tx suits @dev: NET_OK or NET_EINVAL; its length in *@len. */
enum net_status net_tx_check(const struct net_dev *dev,
                             const struct net_tx *tx, uint32_t *len);
/* The 16-bit one's complement sum (RFC 1071) of @len bytes, onto @sum. */
uint32_t net_csum_add(uint32_t sum, const void *p, uint32_t len, bool odd);
uint16_t net_csum_fold(uint32_t sum);
/*
 * Fill @tx's NET_OFF_CSUM_PARTIAL sum from the bytes @map(frag address)
 * gives (the directmap; the tests' own memory); @tx passed
 * net_tx_check().
 */
void net_tx_csum(const struct net_tx *tx, void *(*map)(uint64_t addr));

/*
 * Software GSO's pure part (Linux's tcp_gso_segment() headers): whether
 * the @avail header bytes at @h begin a TCP GSO packet of @len bytes
 * with offloads @o that net.c can cut (Ethernet II, IPv4 without options
 * or IPv6 without extension headers, TCP, the sum at the TCP header's
 * field, every header within @avail and @max, a payload): the TCP
 * header's offset, all the headers' length and the segments in *@l4,
 * *@hlen and *@nseg.
 */
bool net_gso_check(const uint8_t *h, uint32_t avail, uint32_t max,
                   uint32_t len, const struct net_offload *o, uint32_t *l4,
                   uint32_t *hlen, uint32_t *nseg);
/*
 * Segment @i of @nseg's headers into @out from the packet's @hlen at
 * @tmpl (as net_gso_check() found them), for @seglen bytes of payload:
 * the IP length (and IPv4's ID, the packet's plus @i, and its sum), the
 * TCP sequence number plus @i times @mss, FIN and PSH on the last alone,
 * CWR on the first alone, and the TCP sum field the pseudo-header's, for
 * the checksum offload to fill (NET_OFF_CSUM_PARTIAL).
 */
void net_gso_seg_hdr(uint8_t *out, const uint8_t *tmpl, uint32_t l4,
                     uint32_t hlen, bool v6, uint32_t i, uint32_t nseg,
                     uint32_t mss, uint32_t seglen);

/* A big-endian 16-bit field of a packet's headers. */
static inline uint16_t net_be16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

/* "ok", "invalid packet"... */
const char *net_status_name(enum net_status s);

#endif /* DRIVERS_NET_H */
