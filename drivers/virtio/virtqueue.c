/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Split virtqueue rings (virtio 1.2, 2.7; virtqueue.h).  The device reads
 * what we publish from other host threads: the entries are written before
 * the index that makes them visible (2.7.13), and the index before we
 * read whether the device wants a notification (2.7.13.3.1).  What the
 * device writes is checked before use: its ids against the ring.
 */
#include "arch/x86/barrier.h"
#include "drivers/dma.h"
#include "drivers/virtio/virtqueue.h"

static inline uint16_t *used_event(struct virtqueue *vq)
{
    return &vq->avail->ring[vq->size];
}

static inline uint16_t *avail_event(struct virtqueue *vq)
{
    return (uint16_t *)&vq->used->ring[vq->size];
}

void vq_init(struct virtqueue *vq, uint16_t index, uint16_t size,
             void *desc, void *avail, void *used, void *ind,
             uint64_t ind_addr, bool event_idx)
{
    unsigned int i;

    ASSERT(size && !(size & (size - 1)) && size <= VQ_SIZE_MAX);
    memset(vq, 0, sizeof(*vq));
    vq->index = index;
    vq->size = size;
    vq->desc = desc;
    vq->avail = avail;
    vq->used = used;
    vq->ind = ind;
    vq->ind_addr = ind_addr;
    vq->indirect = ind;
    vq->event_idx = event_idx;
    /* The free descriptors as one list through their next fields. */
    for ( i = 0; i < size; i++ )
        vq->desc[i].next = (i + 1) & (size - 1);
    vq->free_head = 0;
    vq->num_free = size;
}

static void fill(struct vring_desc *d, const struct vq_buf *b)
{
    d->addr = b->addr;
    d->len = b->len;
    d->flags = b->write ? VRING_DESC_F_WRITE : 0;
}

int vq_add(struct virtqueue *vq, const struct vq_buf *bufs, unsigned int n,
           void *cookie)
{
    bool indirect = vq->indirect && n > 1;
    unsigned int i, need = indirect ? 1 : n;
    uint16_t head = vq->free_head, idx = head;

    ASSERT(cookie);
    if ( !n || n > vq_max_bufs(vq) )
        return VQ_TOO_BIG;
    if ( need > vq->num_free )
        return VQ_FULL;

    if ( indirect )
    {
        /* The table that belongs to this head (2.7.5.3.1). */
        struct vring_desc *t = &vq->ind[head * VQ_INDIRECT_MAX];

        for ( i = 0; i < n; i++ )
        {
            fill(&t[i], &bufs[i]);
            if ( i + 1 < n )
            {
                t[i].flags |= VRING_DESC_F_NEXT;
                t[i].next = i + 1;
            }
            else
                t[i].next = 0;
        }
        vq->desc[head].addr = vq->ind_addr +
                              head * (uint64_t)VQ_INDIRECT_BYTES;
        vq->desc[head].len = n * sizeof(struct vring_desc);
        vq->desc[head].flags = VRING_DESC_F_INDIRECT;
        idx = vq->desc[head].next;
    }
    else
        for ( i = 0; i < n; i++ )
        {
            /* next already names the following free descriptor. */
            fill(&vq->desc[idx], &bufs[i]);
            if ( i + 1 < n )
                vq->desc[idx].flags |= VRING_DESC_F_NEXT;
            idx = vq->desc[idx].next;
        }

    vq->free_head = idx;
    vq->num_free -= need;
    vq->nr_desc[head] = need;
    vq->cookie[head] = cookie;
    vq->avail->ring[vq->avail_idx & (vq->size - 1)] = head;
    vq->avail_idx++;
    return 0;
}

bool vq_kick_prepare(struct virtqueue *vq)
{
    uint16_t old = vq->kicked_idx, new_idx = vq->avail_idx;

    /* Descriptors and ring entries before the index (2.7.13.2). */
    smp_wmb();
    ACCESS_ONCE(vq->avail->idx) = new_idx;
    vq->kicked_idx = new_idx;
    /* The index before reading what the device asked (2.7.13.3.1). */
    dma_mb();
    if ( vq->event_idx )
        return vring_need_event(ACCESS_ONCE(*avail_event(vq)), new_idx,
                                old);
    return !(ACCESS_ONCE(vq->used->flags) & VRING_USED_F_NO_NOTIFY);
}

void *vq_get_used(struct virtqueue *vq, uint32_t *len, bool *bad)
{
    struct vring_used_elem e;
    uint16_t head, nr, i, idx;
    void *cookie;

    *bad = false;
    for ( ;; )
    {
        uint16_t used_idx = ACCESS_ONCE(vq->used->idx);

        if ( vq->broken || vq->last_used == used_idx )
            return NULL;
        /* More than the ring holds: the device is broken; look no more. */
        if ( (uint16_t)(used_idx - vq->last_used) > vq->size )
        {
            vq->broken = true;
            *bad = true;
            return NULL;
        }
        /* The index before the entry it covers (2.7.14). */
        smp_rmb();
        e = vq->used->ring[vq->last_used & (vq->size - 1)];
        vq->last_used++;
        /* Only a head we gave and have not had back names a request. */
        if ( e.id < vq->size && vq->cookie[e.id] )
            break;
        *bad = true;
    }

    head = e.id;
    cookie = vq->cookie[head];
    nr = vq->nr_desc[head];
    vq->cookie[head] = NULL;
    /* Walk the chain we built, by our own count, not the device's. */
    for ( idx = head, i = 1; i < nr; i++ )
        idx = vq->desc[idx].next & (vq->size - 1);
    vq->desc[idx].next = vq->free_head;
    vq->free_head = head;
    vq->num_free += nr;
    *len = e.len;

    if ( vq->event_idx && !vq->cb_off )
        ACCESS_ONCE(*used_event(vq)) = vq->last_used;
    return cookie;
}

void vq_disable_cb(struct virtqueue *vq)
{
    vq->cb_off = true;
    /*
     * With event index: the entry before the next one we look at.  The
     * device interrupts when used_event lies between its old and new
     * used index (vring_need_event()), and its old index is never
     * behind last_used, so not until we move it again.
     */
    if ( vq->event_idx )
        ACCESS_ONCE(*used_event(vq)) = vq->last_used - 1;
    else
        ACCESS_ONCE(vq->avail->flags) = VRING_AVAIL_F_NO_INTERRUPT;
}

bool vq_enable_cb(struct virtqueue *vq)
{
    vq->cb_off = false;
    if ( vq->event_idx )
        ACCESS_ONCE(*used_event(vq)) = vq->last_used;
    else
        ACCESS_ONCE(vq->avail->flags) = 0;
    /* The request for an interrupt before looking for more work. */
    dma_mb();
    return !vq->broken && vq->last_used != ACCESS_ONCE(vq->used->idx);
}
