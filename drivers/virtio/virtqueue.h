/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Split virtqueues (virtio 1.2, 2.7): the descriptor table, the available
 * ring the driver fills and the used ring the device returns, with
 * indirect descriptor tables (2.7.5.3) and event-index notification
 * suppression (2.7.7, 2.7.10).  Pure ring logic: no registers, no locks
 * (the caller holds the queue's), so the host tests compile it as it is.
 */
#ifndef DRIVERS_VIRTIO_VIRTQUEUE_H
#define DRIVERS_VIRTIO_VIRTQUEUE_H

#include "shim/lib.h"

/* virtio 1.2, 2.7.5: little-endian, as the CPU. */
struct vring_desc {
    uint64_t addr;
    uint32_t len;
    uint16_t flags;
    uint16_t next;
};
#define VRING_DESC_F_NEXT       1
#define VRING_DESC_F_WRITE      2       /* the device writes the buffer */
#define VRING_DESC_F_INDIRECT   4

struct vring_avail {
    uint16_t flags;
    uint16_t idx;
    uint16_t ring[];                    /* then used_event */
};
#define VRING_AVAIL_F_NO_INTERRUPT 1

struct vring_used_elem {
    uint32_t id;
    uint32_t len;
};
struct vring_used {
    uint16_t flags;
    uint16_t idx;
    struct vring_used_elem ring[];      /* then avail_event */
};
#define VRING_USED_F_NO_NOTIFY  1

/* Largest queue and indirect table the shim sets up. */
#define VQ_SIZE_MAX             256
#define VQ_INDIRECT_MAX         64      /* descriptors in one table */

/* Bytes of each part for a queue of @size, each part's alignment. */
#define VQ_DESC_BYTES(size)     (16u * (size))
#define VQ_AVAIL_BYTES(size)    (6u + 2u * (size))
#define VQ_USED_BYTES(size)     (6u + 8u * (size))
#define VQ_INDIRECT_BYTES       (16u * VQ_INDIRECT_MAX)

/*
 * Event index (2.7.7.2): whether moving an index from @old to @new_idx
 * passed @event_idx, i.e. the other side asked to hear of it.
 */
static inline bool vring_need_event(uint16_t event_idx, uint16_t new_idx,
                                    uint16_t old)
{
    return (uint16_t)(new_idx - event_idx - 1) < (uint16_t)(new_idx - old);
}

/* One buffer of a request: where the device reads or writes it. */
struct vq_buf {
    uint64_t addr;
    uint32_t len;
    bool write;                         /* the device writes it */
};

struct virtqueue {
    uint16_t size;                      /* a power of two */
    uint16_t index;                     /* the queue's number */
    uint16_t notify_off;                /* the transport's (virtio-pci) */
    bool polled;                        /* no interrupt: the driver polls */
    bool broken;                        /* its used index ran off: ignored */
    bool event_idx, indirect;           /* features negotiated */
    bool cb_off;                        /* vq_disable_cb(): draining */
    struct vring_desc *desc;
    struct vring_avail *avail;
    struct vring_used *used;
    /* An indirect table for each head descriptor, and its address. */
    struct vring_desc *ind;
    uint64_t ind_addr;

    uint16_t free_head, num_free;
    uint16_t avail_idx;                 /* ours: what vq_add() queued */
    uint16_t kicked_idx;                /* avail_idx at the last kick */
    uint16_t last_used;                 /* next used entry to look at */
    unsigned long kicks;                /* notifications sent the device */
    uint16_t nr_desc[VQ_SIZE_MAX];      /* chain length of each head */
    void *cookie[VQ_SIZE_MAX];          /* the caller's, per head */
};

/*
 * Set up @vq of @size entries over zeroed memory: @desc, @avail and @used
 * as the shim sees them, @ind (size * VQ_INDIRECT_BYTES, at device
 * address @ind_addr) or NULL for no indirect tables.
 */
void vq_init(struct virtqueue *vq, uint16_t index, uint16_t size,
             void *desc, void *avail, void *used, void *ind,
             uint64_t ind_addr, bool event_idx);

/*
 * Queue one request of @n buffers (those the device reads first): an
 * indirect table when there is one and n > 1, else a chain.  Visible to
 * the device only once vq_kick_prepare() publishes it.  @cookie (not
 * NULL) comes back from vq_get_used().  VQ_FULL when the ring has too few
 * free descriptors, VQ_TOO_BIG when @n is 0 or over vq_max_bufs().
 */
#define VQ_FULL         (-1)
#define VQ_TOO_BIG      (-2)
int vq_add(struct virtqueue *vq, const struct vq_buf *bufs, unsigned int n,
           void *cookie);

/*
 * Publish what vq_add() queued (the ring entries before the index); true
 * if the device wants a notification for them.
 */
bool vq_kick_prepare(struct virtqueue *vq);

/* Has vq_add() queued anything vq_kick_prepare() has not published? */
static inline bool vq_unpublished(const struct virtqueue *vq)
{
    return vq->avail_idx != vq->kicked_idx;
}

/*
 * The next completed request's cookie and the bytes the device wrote
 * (*@len), its descriptors freed; NULL when none.  A used entry naming a
 * descriptor that is no request's head is skipped (logged by the
 * caller through *@bad).  A used index more than a ring ahead breaks the
 * queue for good (*@bad once): nothing more is taken from it, and
 * vq_enable_cb() no longer asks for another look.
 */
void *vq_get_used(struct virtqueue *vq, uint32_t *len, bool *bad);

/*
 * Interrupts for completions: off while draining, back on after; on
 * returns true if more completed meanwhile (drain again).  With event
 * index, "off" is a used_event the device has already passed, and
 * vq_get_used() leaves it there until vq_enable_cb(), as Linux's
 * virtio_ring does: otherwise every completion the device adds during a
 * drain is an interrupt (under QEMU's TCG also a wait for its global
 * lock at each exit to its loop while the interrupt is held off).
 */
void vq_disable_cb(struct virtqueue *vq);
bool vq_enable_cb(struct virtqueue *vq);

/* The largest request vq_add() takes. */
static inline unsigned int vq_max_bufs(const struct virtqueue *vq)
{
    return vq->ind ? VQ_INDIRECT_MAX : vq->size;
}

/* One line on @vq for a debug key: indexes, room, what each side asked
 * (virtio-pci.c: the shim only, not the host tests). */
void vq_dump(const struct virtqueue *vq, const char *name);

#endif /* DRIVERS_VIRTIO_VIRTQUEUE_H */
