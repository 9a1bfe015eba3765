/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside the network backend (backends/net/): a guest vif over one of
 * drivers/' network devices, its xenstore directories and handshake
 * (setup.c, xenbus.c), and per queue its TX ring and the packets the
 * device is sending (tx.c) and its RX ring, filled as packets arrive
 * (rx.c).  A vif's handshake is under its lock, each queue under its
 * own (docs/architecture.md, "Locks"), inside the backends' lock that
 * the softirqs and the pv/ calls need (pv_backend_locked()).  The
 * handshake runs on CPU 0 (xenstore's), each queue on its own CPU
 * (nb_queue.cpu), with its completions and packets.
 */
#ifndef BACKENDS_NET_NETBACK_H
#define BACKENDS_NET_NETBACK_H

#include "backends/net/netif-ring.h"
#include "drivers/net.h"
#include "shim/log-budget.h"
#include "shim/spinlock.h"

#define VIF_MAX             NET_MAX_DEVS
#define VIF_MAX_QUEUES      4       /* multi-queue-max-queues, at most */
#define NB_TX_INFLIGHT      64      /* packets a queue has with the device */

/* A packet the device is sending: its grants mapped read-only. */
struct nb_tx_req {
    struct net_tx tx;
    struct nb_queue *q;
    bool in_use;
    unsigned int nr_data, nr_extras;    /* responses: data, then NULLs */
    unsigned int nr_maps;
    uint16_t id[NB_TX_MAX_DATA];
    unsigned int handle[NB_TX_MAX_DATA];
    struct net_frag frag[NB_TX_MAX_DATA + 1];
    uint8_t *hdr;                       /* NB_HDR_MAX bytes the device reads */
};

/* A queue, under its lock (vif_queue_lock()) but where said. */
struct nb_queue {
    struct vif *vif;
    unsigned int index;
    bool open;                          /* taking packets (connected) */
    struct netif_tx_back_ring tx;
    struct netif_rx_back_ring rx;
    bool have_tx, have_rx;
    unsigned int tx_handle, rx_handle;  /* pv_grant_map_dev()'s */
    unsigned int tx_port, rx_port;      /* the shim's ends: equal if shared */
    /*
     * The CPU that serves it, where its ports raise the softirq:
     * smp_queue_cpu() of its index, the CPU whose guest vCPU netfront
     * picks it on, and whose device queue pair (if the device has as
     * many) it transmits on and receives from.
     */
    unsigned int cpu;
    unsigned int inflight;
    /*
     * TX requests wait for room: slots, the vif's grants, or a device
     * queue (a stalled packet).  Read by other queues without our lock.
     */
    bool tx_wait;
    struct nb_tx_req *stalled;          /* ready; the device queue was full */
    struct nb_tx_req req[NB_TX_INFLIGHT];
    /* The device's packets waiting for room, oldest first (->next). */
    struct net_rx *held_head, *held_tail;
    unsigned int held_nr;
    unsigned long tx_packets, tx_errors, rx_packets, rx_dropped;
    unsigned long tx_gso;               /* of tx_packets: GSO ones */
    unsigned long tx_taken, tx_away;    /* TX packets taken, on another CPU */
    unsigned long rx_gso, rx_blank;     /* of rx_packets: GSO, csum_blank */
    unsigned long tx_events, rx_events;     /* sent the frontend */
};

struct vif {
    /*
     * The locks first: a removed vif's slot is reset from devid on, its
     * locks kept (another CPU may be looking at them).  lock: the
     * handshake, removal, everything below but the queues' own; a
     * queue's rings, ports and opening change under both.
     */
    spinlock_t lock;
    spinlock_t queue_lock[VIF_MAX_QUEUES];
    unsigned int devid;                 /* 0, 1, ... */
    char name[12];                      /* "vif1.0", as Linux's netback */
    struct log_budget log;              /* its frontend's doings, said */
    struct net_dev *dev;
    char be[48], fe[48];                /* the two xenstore directories */
    unsigned int be_state;              /* XenbusState last written */
    bool recheck;                       /* look at the frontend's state */

    bool connected;                     /* taking requests */
    /*
     * The frontend broke a ring (set by the queue, atomically): no queue
     * takes more; close: CPU 0 is to disconnect and write Closing.
     */
    bool broken, close;
    /*
     * The host takes the NIC back (xl network-detach), as a vbd's: by
     * remove_by the frontend has closed, or it is forced.
     */
    bool removing, forced, gone;
    uint64_t remove_by;
    /* The frontend's features, read at connect. */
    bool sg, gso4, gso6, ip_csum, ipv6_csum;
    unsigned int tx_maps;               /* TX grants held, all queues: atomic */
    unsigned int max_queues;            /* multi-queue-max-queues */
    unsigned int nr_queues;             /* the frontend's, connected */
    struct nb_queue q[VIF_MAX_QUEUES];
    bool rx_warned;                     /* atomic */
};

/* A line about @v its frontend caused: "netback: vif1.0: ...", budgeted. */
#define vif_printk(v, level, fmt, ...)                                      \
    budget_printk(&(v)->log, level, "netback", (v)->name,                  \
                  "netback: %s: " fmt, (v)->name, ##__VA_ARGS__)

static inline spinlock_t *vif_queue_lock(struct nb_queue *q)
{
    return &q->vif->queue_lock[q->index];
}

extern struct vif *vifs[VIF_MAX];     /* nr_vifs of them */
extern unsigned int nr_vifs;

/*
 * A removal (xenbus.c): Closing now; whether the frontend has let go
 * (nothing mapped or in flight, its state Closed or never started).
 * setup.c: @v's directories removed, its NIC given back.
 */
void vif_remove_start(struct vif *v);
bool vif_let_go(const struct vif *v);
void vif_remove_finish(struct vif *v);
/*
 * A frontend that has not closed by @v->remove_by: disconnected all the
 * same (what the NIC still holds comes back first), then gone whatever
 * its state.
 */
void vif_force_close(struct vif *v);

/* xenbus.c */
void vif_frontend_changed(struct vif *v);
void vif_broken(struct vif *v, const char *why, unsigned int a,
                unsigned int b);
void vif_close_broken(struct vif *v);
bool vif_inflight(const struct vif *v);
void vif_drained(struct vif *v);
void vif_notify(struct nb_queue *q, bool tx);

/* tx.c: serve a queue's TX ring (bounded: true if more is left). */
bool nb_tx_work(struct nb_queue *q);
void nb_tx_abort_stalled(struct nb_queue *q);

/* rx.c: drivers/' receive hook for a vif's device; held packets. */
void nb_receive(struct net_dev *dev, struct net_rx *rx, void *data);
void nb_rx_flush(struct nb_queue *q);
void nb_rx_give_back(struct nb_queue *q);

#endif /* BACKENDS_NET_NETBACK_H */
