/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * virtio-net's device state, shared by its data path (virtio-net.c:
 * send, receive, completions) and its bring-up (virtio-net-probe.c:
 * features, queues, interrupts).  Private to the driver.
 */
#ifndef DRIVERS_VIRTIO_VIRTIO_NET_DEV_H
#define DRIVERS_VIRTIO_VIRTIO_NET_DEV_H

#include "drivers/virtio/virtio-net.h"
#include "drivers/virtio/virtio-pci.h"
#include "shim/spinlock.h"
#include "shim/timer.h"

#define VNET_QUEUE_SIZE     256         /* at most, per queue */
#define VNET_POLL_NS        1000000ULL  /* no interrupt: 1 ms */
#define VNET_CTRL_NS        1000000000ULL   /* a control command: 1 s */
/*
 * Receive buffers: 2 KiB with MRG_RXBUF by default (a full 1514-byte frame
 * and its header take one, as in Linux's virtio-net; a 64 KiB one 33),
 * 1 to 4 KiB by virtio-net-rxbuf=; without, one buffer holds a whole frame.
 */
#define VNET_BUF_MRG        2048
#define VNET_BUF_MRG_MIN    1024
#define VNET_BUF_MRG_MAX    4096
#define VNET_BUF_BIG        2048
#define VNET_MTU_DEFAULT    1500

/* What the driver owns of one packet sent: the header the device reads. */
struct vnet_tx_slot {
    struct virtio_net_hdr hdr;
    uint16_t next_free;
    struct net_tx *tx;
};

/* A received packet's buffers, handed to the receiver until returned. */
struct vnet_rx_pkt {
    struct net_rx rx;
    struct vnet_rx_pkt *next_free;
};

struct vnet_queue {
    struct vnet *vn;
    unsigned int index;                 /* the pair's number */
    spinlock_t rx_lock;                 /* rxq, the packets, asm, cur */
    struct virtqueue rxq;
    uint8_t *rx_bufs;                   /* rxq.size buffers of buf_size */
    struct vnet_rx_pkt *pkts, *free_pkt;
    struct vnet_rx_asm asm_;            /* the packet being put together */
    struct vnet_rx_pkt *cur;
    bool rx_running;                    /* rx_complete() kicks at its end */
    spinlock_t tx_lock;                 /* txq, the slots */
    struct virtqueue txq;
    struct vnet_tx_slot *slots;
    uint16_t free_slot;                 /* a list through next_free */
    unsigned int tx_used;               /* slots the device has */
    struct vq_buf bufs[VQ_INDIRECT_MAX];
    unsigned long irqs, rx_packets, rx_dropped, tx_packets;
    bool rx_warned, tx_warned;          /* under rx_lock, tx_lock */
};

struct vnet {
    struct net_dev net;
    struct virtio_dev vd;
    uint32_t buf_size;
    struct vnet_queue q[NET_MAX_QUEUES];
    /* The control queue: one command at a time, polled. */
    spinlock_t ctrl_lock;               /* ctrlq, ctrl, ctrl_stuck */
    bool ctrl_stuck;                    /* a command never came back */
    struct virtqueue ctrlq;
    struct {
        uint8_t class, cmd;
        uint8_t pad[6];
        uint8_t data[8];                /* the command's, vnet_ctrl()'s */
        uint8_t ack;
    } *ctrl;
    struct timer poll;                  /* without interrupts */
};

/* The data path's operations (virtio-net.c). */
extern const struct net_dev_ops vnet_ops;
/* Buffer @b of @q posted for the device to write; under rx_lock. */
void vnet_rx_post(struct vnet *vn, struct vnet_queue *q, unsigned int b);
bool vnet_ctrl(struct vnet *vn, uint8_t class, uint8_t cmd,
               const void *data, unsigned int len);
bool vnet_rx_gso(struct net_dev *dev, unsigned int f);
bool vnet_link_up(struct net_dev *dev);

#endif /* DRIVERS_VIRTIO_VIRTIO_NET_DEV_H */
