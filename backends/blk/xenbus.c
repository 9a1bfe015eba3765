/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A vbd's XenbusState handshake, as Linux's xen-blkback (xenbus.c
 * frontend_changed(), connect_ring(), connect()): InitWait until the
 * frontend is Initialised or Connected with its ring-ref,
 * event-channel and protocol; Connected; Closing and Closed after the
 * frontend; InitWait again when a closed frontend starts over
 * (Initialising: a driver reload, kexec).  A disconnect keeps the ring
 * and the port until the device has finished every request in flight.
 * Multi-page rings (ring-page-order) and multiple queues (queue-N/) as
 * Linux's read_per_ring_refs().  Under the vbd's lock.
 */
#include "backends/backends.h"
#include "backends/blk/blkback.h"
#include "backends/blk/xenbus-parse.h"
#include "backends/xenstore.h"
#include <xen/errno.h>
#include <xen/io/xenbus.h>
#include "arch/x86/percpu.h"
#include "arch/x86/smp.h"
#include "pv/pv.h"
#include "shim/console.h"
#include "shim/softirq.h"
#include "shim/timer.h"

static void switch_state(struct vbd *v, unsigned int state)
{
    if ( v->be_state == state )
        return;
    v->be_state = state;
    vbd_node(v, false, "state", "%lu", state);
}

/*
 * Linux's xen_vbd_resize(): the device's new size as the disk's sectors,
 * then, for a connected frontend, its state written again, so that the
 * frontend's watch on it fires and it reads them (blkfront_connect():
 * "Setting capacity to N").  A partition's size is its table's, not the
 * device's: it stays (requests past a device that shrank under it fail
 * there).
 */
void vbd_resize(struct vbd *v)
{
    uint64_t nr = __atomic_load_n(&v->dev->nr_sectors, __ATOMIC_ACQUIRE);

    if ( v->part )
    {
        printk(XENLOG_WARNING "blkback: %s: %s resized to %lu sectors; "
               "partition %u stays as it is\n", v->name, v->dev->name,
               (unsigned long)nr, v->part);
        return;
    }
    /* Whole logical blocks, as at boot. */
    nr &= ~(uint64_t)(v->lbs - 1);
    if ( nr == v->nr_sectors )
        return;
    printk(XENLOG_INFO "blkback: %s: resized to %lu sectors (were %lu)\n",
           v->name, (unsigned long)nr, (unsigned long)v->nr_sectors);
    v->nr_sectors = nr;
    vbd_node(v, false, "sectors", "%lu", nr);
    if ( v->be_state == XenbusStateConnected )  /* written again */
        vbd_node(v, false, "state", "%lu", XenbusStateConnected);
}

/* A frontend node as a number; false if missing or not one. */
static bool read_ulong(const struct vbd *v, const char *name,
                       unsigned long *out)
{
    return !xs_shim_read_ulong(v->fe, name, out);
}

/* Xen's xenbus_dev_fatal(): the reason in "error", then Closing. */
static void fatal(struct vbd *v, const char *why)
{
    /* Logged once a closing, as netback's (net/xenbus.c). */
    if ( v->be_state != XenbusStateClosing )
        vbd_printk(v, XENLOG_WARNING, "%s\n", why);
    vbd_nodes(v, false, "error", why);
    switch_state(v, XenbusStateClosing);
}

/*
 * Each ring opened or closed under its lock, with no work or
 * completion of its in the middle: it takes requests while open.
 */
static void open_rings(struct vbd *v, bool open)
{
    unsigned int i;

    ASSERT(spin_is_locked_by_me(&v->lock));
    for ( i = 0; i < v->nr_rings; i++ )
    {
        spin_lock_irq_on_wait(vbd_ring_lock(&v->rings[i]));
        v->rings[i].open = open;
        spin_unlock(vbd_ring_lock(&v->rings[i]));
    }
}

/* Release the rings and the ports, once nothing is in flight. */
static void release(struct vbd *v)
{
    unsigned int i, p;

    ASSERT(spin_is_locked_by_me(&v->lock));
    ASSERT(!ACCESS_ONCE(v->inflight));
    for ( i = 0; i < v->nr_rings; i++ )
    {
        struct vbd_ring *r = &v->rings[i];

        spin_lock_irq_on_wait(vbd_ring_lock(r));
        ASSERT(!r->open);

        /* Where each queue's requests were served, for one connection. */
        if ( v->nr_rings > 1 && r->reqs )
            vbd_printk(v, XENLOG_INFO, "queue %u on CPU %u: %lu request%s, "
                       "%lu of them on other CPUs; %lu waits for a slot\n",
                       r->index, r->cpu, r->reqs, r->reqs == 1 ? "" : "s",
                       r->away, r->no_slot);
        for ( p = 0; p < r->nr_pages; p++ )
            pv_grant_unmap_dev(r->ring_handle[p]);
        if ( r->port )
            pv_evtchn_unbind_backend(r->port);
        r->nr_pages = 0;
        r->port = 0;
        r->busy = false;
        r->stalled = r->stalled_tail = NULL;
        spin_unlock(vbd_ring_lock(r));
    }
    v->nr_rings = 0;
}

/*
 * No ring takes requests from here on; each ring's CPU is raised to
 * finish what waits on it, and the rings go once nothing is in flight.
 */
static void disconnect(struct vbd *v)
{
    unsigned int i;

    v->connected = false;
    open_rings(v, false);
    if ( !__atomic_load_n(&v->inflight, __ATOMIC_SEQ_CST) )
        release(v);
    else
        for ( i = 0; i < v->nr_rings; i++ )
            cpu_raise_softirq(v->rings[i].cpu, BLKBACK_SOFTIRQ);
}

void vbd_drained(struct vbd *v)
{
    ASSERT(spin_is_locked_by_me(&v->lock));
    if ( v->connected )
        return;
    release(v);
    v->recheck = true;                  /* a reconnect may wait for this */
}

/*
 * read_per_ring_refs(): ring @r's pages (ring-page-order, at the top of
 * the frontend's directory, and ring-ref0..N; without it ring-ref) and
 * port, from @dir ("" or "queue-N/").  Each page mapped writable: the
 * shim writes responses into it, so it can't become a page table.
 */
static bool connect_queue(struct vbd *v, struct vbd_ring *r, const char *dir,
                          bool paged, unsigned long order)
{
    uint8_t *page[BLKIF_RING_PAGES_MAX];
    unsigned long ref, port;
    char name[40];
    uint64_t maddr;
    unsigned int i;
    int rc;

    r->reqs = r->segs = r->subs = r->stalls = r->no_slot = r->no_maps = 0;
    r->runs = r->away = r->notifies = 0;
    snprintf(name, sizeof(name), "%sevent-channel", dir);
    if ( !read_ulong(v, name, &port) || port > ~0u )
    {
        fatal(v, "reading event-channel");
        return false;
    }
    for ( i = 0; i < (1u << order); i++ )
    {
        if ( paged )
            snprintf(name, sizeof(name), "%sring-ref%u", dir, i);
        else
            snprintf(name, sizeof(name), "%sring-ref", dir);
        if ( !read_ulong(v, name, &ref) || ref > ~0u )
        {
            fatal(v, "reading ring-ref");
            return false;
        }
        if ( (rc = pv_grant_map_dev(ref, false, &r->ring_handle[i],
                                    &maddr)) )
        {
            vbd_printk(v, XENLOG_WARNING, "%s %lu: status %d\n", name, ref,
                       rc);
            fatal(v, "mapping ring");
            return false;
        }
        r->nr_pages = i + 1;
        page[i] = __va(maddr);
    }
    blkif_ring_attach(&r->ring, page, 1u << order, v->x86_32);
    r->cpu = smp_queue_cpu(r->index);
    if ( (rc = pv_evtchn_bind_backend(port, BLKBACK_SOFTIRQ, r->cpu)) < 0 )
    {
        fatal(v, "binding event channel");
        return false;
    }
    r->port = rc;
    return true;
}

/* connect_ring(): the frontend's protocol, queues, rings and ports. */
static bool connect_ring(struct vbd *v)
{
    unsigned long order = 0, nq = 1;
    char path[80], proto[24], dir[16];
    struct pv_guest_info g;
    enum vbd_abi abi;
    bool paged;
    unsigned int i;

    pv_guest_info(&g);
    snprintf(path, sizeof(path), "%s/protocol", v->fe);
    abi = vbd_parse_protocol(xs_shim_read(path, proto, sizeof(proto)),
                             proto, g.compat);
    if ( abi == VBD_ABI_UNKNOWN )
    {
        fatal(v, "unknown protocol");
        return false;
    }
    v->x86_32 = abi == VBD_ABI_X86_32;

    paged = read_ulong(v, "ring-page-order", &order);
    if ( order > BLKIF_RING_ORDER_MAX )
    {
        fatal(v, "ring-page-order above max-ring-page-order");
        return false;
    }
    if ( read_ulong(v, "multi-queue-num-queues", &nq) &&
         (!nq || nq > MIN(v->dev->nr_queues, VBD_MAX_QUEUES)) )
    {
        fatal(v, "multi-queue-num-queues above multi-queue-max-queues");
        return false;
    }
    for ( i = 0; i < nq; i++ )
    {
        if ( nq > 1 )
            snprintf(dir, sizeof(dir), "queue-%u/", i);
        else
            dir[0] = '\0';
        v->nr_rings = i + 1;
        if ( !connect_queue(v, &v->rings[i], dir, paged, order) )
        {
            release(v);
            return false;
        }
    }
    return true;
}

static void connect(struct vbd *v)
{
    unsigned int i;

    if ( ACCESS_ONCE(v->inflight) )
        return;                         /* vbd_drained() comes back here */
    release(v);                         /* idempotent, as Linux's */
    if ( !connect_ring(v) )
        return;
    v->connected = true;
    open_rings(v, true);                /* each set up, seen whole */
    vbd_printk(v, XENLOG_INFO, "connected, protocol %s, %u queue%s, "
               "%u-page ring%s, port %u\n",
               v->x86_32 ? "x86_32-abi" : "x86_64-abi", v->nr_rings,
               v->nr_rings > 1 ? "s" : "", v->rings[0].nr_pages,
               v->nr_rings > 1 ? "s" : "", v->rings[0].port);
    switch_state(v, XenbusStateConnected);
    /* What the frontend queued before: each ring looked at on its CPU. */
    for ( i = 0; i < v->nr_rings; i++ )
        cpu_raise_softirq(v->rings[i].cpu, BLKBACK_SOFTIRQ);
}

void vbd_frontend_changed(struct vbd *v)
{
    unsigned long state;

    ASSERT(spin_is_locked_by_me(&v->lock));
    if ( !read_ulong(v, "state", &state) )
        state = XenbusStateUnknown;
    switch ( state )
    {
    case XenbusStateInitialising:
        if ( v->be_state == XenbusStateClosed && !v->removing )
        {
            disconnect(v);
            v->broken = false;
            vbd_printk(v, XENLOG_INFO, "frontend reconnecting\n");
            switch_state(v, XenbusStateInitWait);
        }
        break;
    case XenbusStateInitialised:
    case XenbusStateConnected:
        if ( v->be_state == XenbusStateConnected || v->broken ||
             v->be_state == XenbusStateClosing || v->removing )
            break;
        connect(v);
        break;
    case XenbusStateClosing:
        disconnect(v);
        switch_state(v, XenbusStateClosing);
        break;
    case XenbusStateClosed:
    case XenbusStateUnknown:
        disconnect(v);
        v->broken = false;
        switch_state(v, XenbusStateClosed);
        break;
    default:
        break;
    }
}

void vbd_remove_start(struct vbd *v)
{
    ASSERT(spin_is_locked_by_me(&v->lock));
    v->removing = true;
    v->remove_by = backend_remove_by();
    vbd_nodes(v, false, "online", "0");
    if ( v->be_state != XenbusStateClosed )
        switch_state(v, XenbusStateClosing);
}

bool vbd_let_go(struct vbd *v)
{
    unsigned long state;

    ASSERT(spin_is_locked_by_me(&v->lock));
    if ( v->connected || ACCESS_ONCE(v->inflight) || v->nr_rings )
        return false;
    if ( v->forced )
        return true;
    if ( !read_ulong(v, "state", &state) )
        state = XenbusStateUnknown;
    return state == XenbusStateClosed || state == XenbusStateUnknown ||
           state == XenbusStateInitialising;
}

void vbd_force_close(struct vbd *v)
{
    ASSERT(spin_is_locked_by_me(&v->lock));
    printk(XENLOG_WARNING "blkback: %s: its frontend did not close in %u "
           "s: taken anyway\n", v->name, backend_remove_secs());
    v->forced = true;
    disconnect(v);
    switch_state(v, XenbusStateClosed);
}

/*
 * The frontend broke the ring's protocol: say so once, take no more
 * requests, and close, as Linux halts a ring whose req_prod is bogus.
 * From the ring's work, under its lock alone: no ring takes requests
 * from here on (vbd.broken), and CPU 0 disconnects and writes Closing
 * (vbd_close_owed(): the vbd's lock, xenstore).
 */
void vbd_broken(struct vbd_ring *r, const char *why, unsigned int a,
                unsigned int b)
{
    struct vbd *v = r->vbd;
    char queue[16] = "";

    ASSERT(spin_is_locked_by_me(vbd_ring_lock(r)));
    if ( __atomic_exchange_n(&v->broken, true, __ATOMIC_SEQ_CST) )
        return;
    if ( v->nr_rings > 1 )
        snprintf(queue, sizeof(queue), " on queue %u", r->index);
    vbd_printk(v, XENLOG_WARNING, "%s (%u, %u)%s: disconnecting\n", why, a,
               b, queue);
    __atomic_store_n(&v->close_owed, true, __ATOMIC_SEQ_CST);
    cpu_raise_softirq(0, BLKBACK_SOFTIRQ);
}

void vbd_close_owed(struct vbd *v)
{
    ASSERT(spin_is_locked_by_me(&v->lock));
    ASSERT(!smp_processor_id());
    v->close_owed = false;
    if ( !v->broken )
        return;                         /* the frontend started over since */
    disconnect(v);
    switch_state(v, XenbusStateClosing);
}
