/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A vif's XenbusState handshake, as Linux's xen-netback (xenbus.c
 * frontend_changed(), set_backend_state(), connect(),
 * connect_data_rings(), read_xenbus_vif_flags()): InitWait until the
 * frontend is Connected, then its queues (multi-queue-num-queues, each
 * in queue-N/ when more than one) with their TX and RX rings and one
 * event channel or a split pair, and its features; Closing and Closed
 * after the frontend, and InitWait again when it starts over.  A
 * disconnect keeps the rings and ports until the device has finished
 * every packet in flight.  Runs from NETBACK_SOFTIRQ under the vif's lock.
 */
#include "backends/backends.h"
#include "backends/net/netback.h"
#include "backends/xenstore.h"
#include <xen/io/xenbus.h>
#include "arch/x86/smp.h"
#include "pv/pv.h"
#include "shim/console.h"
#include "shim/softirq.h"
#include "shim/timer.h"

static void switch_state(struct vif *v, unsigned int state)
{
    if ( v->be_state == state )
        return;
    v->be_state = state;
    xs_shim_writef(v->be, "state", "%u", state);
}

/* A node below @dir as a number; false if missing or not one. */
static bool read_ulong(const char *dir, const char *name, unsigned long *out)
{
    return !xs_shim_read_ulong(dir, name, out);
}

/* xenbus_read_unsigned(): @def when missing or not a number. */
static unsigned long read_default(const char *dir, const char *name,
                                  unsigned long def)
{
    unsigned long n;

    return read_ulong(dir, name, &n) ? n : def;
}

/* Xen's xenbus_dev_fatal(): the reason in "error", then Closing. */
static void __attribute__((format(printf, 2, 3)))
fatal(struct vif *v, const char *fmt, ...)
{
    char msg[128];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    /*
     * Logged once a closing: a frontend writing a bad state in a loop
     * gets one line, not one per write (each synchronous on the serial
     * line, under the vif's lock); the next needs it to close and start
     * again.  "error" says each.
     */
    if ( v->be_state != XenbusStateClosing )
        vif_printk(v, XENLOG_WARNING, "%s\n", msg);
    xs_shim_writef(v->be, "error", "%s", msg);
    switch_state(v, XenbusStateClosing);
}

bool vif_inflight(const struct vif *v)
{
    unsigned int i;

    for ( i = 0; i < VIF_MAX_QUEUES; i++ )
        if ( v->q[i].inflight )
            return true;
    return false;
}

void vif_notify(struct nb_queue *q, bool tx)
{
    if ( tx )
        q->tx_events++;
    else
        q->rx_events++;
    pv_evtchn_notify_guest(tx ? q->tx_port : q->rx_port);
}

/*
 * Release every queue's rings and ports, once nothing is in flight:
 * each under its lock, a completion of its in the middle finishing
 * first.
 */
static void release(struct vif *v)
{
    unsigned int i;

    ASSERT(spin_is_locked_by_me(&v->lock));
    ASSERT(!vif_inflight(v) && !ACCESS_ONCE(v->tx_maps));
    for ( i = 0; i < VIF_MAX_QUEUES; i++ )
    {
        struct nb_queue *q = &v->q[i];

        spin_lock_irq_on_wait(vif_queue_lock(q));
        ASSERT(!q->open);
        if ( q->have_tx )
            pv_grant_unmap_dev(q->tx_handle);
        if ( q->have_rx )
            pv_grant_unmap_dev(q->rx_handle);
        if ( q->rx_port && q->rx_port != q->tx_port )
            pv_evtchn_unbind_backend(q->rx_port);
        if ( q->tx_port )
            pv_evtchn_unbind_backend(q->tx_port);
        q->have_tx = q->have_rx = false;
        q->tx_port = q->rx_port = 0;
        spin_unlock(vif_queue_lock(q));
    }
    v->nr_queues = 0;
}

static bool holds_any(const struct vif *v)
{
    unsigned int i;

    for ( i = 0; i < VIF_MAX_QUEUES; i++ )
        if ( v->q[i].have_tx || v->q[i].have_rx || v->q[i].tx_port )
            return true;
    return false;
}

static void disconnect(struct vif *v)
{
    unsigned long n[7] = { 0 };
    unsigned int i;

    /*
     * Each queue closed under its lock: no packet taken from here on,
     * the stalled one answered, the held ones back to the device.
     */
    for ( i = 0; i < VIF_MAX_QUEUES; i++ )
    {
        struct nb_queue *q = &v->q[i];

        spin_lock_irq_on_wait(vif_queue_lock(q));
        q->open = false;
        nb_tx_abort_stalled(q);
        nb_rx_give_back(q);
        spin_unlock(vif_queue_lock(q));
    }
    for ( i = 0; i < v->nr_queues; i++ )
    {
        n[0] += v->q[i].tx_packets;
        n[1] += v->q[i].tx_gso;
        n[2] += v->q[i].tx_errors;
        n[3] += v->q[i].rx_packets;
        n[4] += v->q[i].rx_gso;
        n[5] += v->q[i].rx_blank;
        n[6] += v->q[i].rx_dropped;
    }
    /* Where each queue's TX was served, for one connection. */
    for ( i = 0; v->connected && v->nr_queues > 1 && i < v->nr_queues; i++ )
        vif_printk(v, XENLOG_INFO, "queue %u on CPU %u: %lu TX packet%s, "
                   "%lu of them on other CPUs\n", i, v->q[i].cpu,
                   v->q[i].tx_taken,
               v->q[i].tx_taken == 1 ? "" : "s", v->q[i].tx_away);
    if ( v->connected )
    {
        vif_printk(v, XENLOG_INFO, "disconnected (sent %lu packets, %lu "
                   "GSO, %lu refused; received %lu, %lu GSO, %lu to sum, "
                   "%lu dropped)\n", n[0], n[1], n[2], n[3], n[4], n[5],
                   n[6]);
        /* The next frontend may take none. */
        net_rx_gso(v->dev, 0);
    }
    v->connected = false;
    if ( !vif_inflight(v) )
        release(v);
}

void vif_drained(struct vif *v)
{
    if ( v->connected || vif_inflight(v) || !holds_any(v) )
        return;
    release(v);
    v->recheck = true;                  /* a reconnect may wait for this */
}

/* A ring page, mapped writable: the shim writes responses into it. */
static void *map_ring(struct vif *v, unsigned long ref, unsigned int *h)
{
    uint64_t maddr;
    int rc;

    if ( ref > ~0u )
        return NULL;
    if ( (rc = pv_grant_map_dev(ref, false, h, &maddr)) )
    {
        vif_printk(v, XENLOG_WARNING, "ring-ref %lu: status %d\n", ref,
                   rc);
        return NULL;
    }
    return __va(maddr);
}

/* connect_data_rings(): queue @q's rings and port(s) from @dir. */
static bool connect_queue(struct vif *v, struct nb_queue *q, const char *dir)
{
    unsigned long tx_ref, rx_ref, tx_ev, rx_ev;
    void *ring;
    int rc;

    if ( !read_ulong(dir, "tx-ring-ref", &tx_ref) ||
         !read_ulong(dir, "rx-ring-ref", &rx_ref) )
    {
        fatal(v, "reading the ring references of queue %u", q->index);
        return false;
    }
    if ( !read_ulong(dir, "event-channel-tx", &tx_ev) ||
         !read_ulong(dir, "event-channel-rx", &rx_ev) )
    {
        if ( !read_ulong(dir, "event-channel", &tx_ev) )
        {
            fatal(v, "reading event-channel(-tx/rx) of queue %u", q->index);
            return false;
        }
        rx_ev = tx_ev;
    }
    if ( !(ring = map_ring(v, tx_ref, &q->tx_handle)) )
        goto bad_ring;
    q->have_tx = true;
    BACK_RING_INIT(&q->tx, (struct netif_tx_sring *)ring, NB_PAGE_SIZE);
    if ( !(ring = map_ring(v, rx_ref, &q->rx_handle)) )
        goto bad_ring;
    q->have_rx = true;
    BACK_RING_INIT(&q->rx, (struct netif_rx_sring *)ring, NB_PAGE_SIZE);

    q->cpu = smp_queue_cpu(q->index);
    if ( tx_ev > ~0u || rx_ev > ~0u ||
         (rc = pv_evtchn_bind_backend(tx_ev, NETBACK_SOFTIRQ, q->cpu)) < 0 )
        goto bad_port;
    q->tx_port = q->rx_port = rc;
    if ( rx_ev != tx_ev )
    {
        if ( (rc = pv_evtchn_bind_backend(rx_ev, NETBACK_SOFTIRQ,
                                          q->cpu)) < 0 )
            goto bad_port;
        q->rx_port = rc;
    }
    q->inflight = 0;
    q->stalled = NULL;
    q->tx_wait = false;
    return true;

 bad_ring:
    fatal(v, "mapping the rings of queue %u", q->index);
    return false;
 bad_port:
    fatal(v, "binding the event channels of queue %u", q->index);
    return false;
}

/* read_xenbus_vif_flags(): what the frontend takes. */
static bool read_flags(struct vif *v)
{
    if ( !read_default(v->fe, "request-rx-copy", 0) )
    {
        fatal(v, "the frontend wants rx-flip (no request-rx-copy): only "
              "rx-copy is offered");
        return false;
    }
    v->sg = read_default(v->fe, "feature-sg", 0);
    v->gso4 = read_default(v->fe, "feature-gso-tcpv4", 0);
    v->gso6 = read_default(v->fe, "feature-gso-tcpv6", 0);
    v->ip_csum = !read_default(v->fe, "feature-no-csum-offload", 0);
    v->ipv6_csum = read_default(v->fe, "feature-ipv6-csum-offload", 0);
    return true;
}

/* connect(): false if it failed (fatal) or waits for a drain. */
static bool connect(struct vif *v)
{
    unsigned long nq = read_default(v->fe, "multi-queue-num-queues", 1);
    char dir[64];
    unsigned int i;

    if ( vif_inflight(v) )
        return false;                   /* vif_drained() comes back here */
    release(v);
    if ( !nq || nq > v->max_queues )
    {
        fatal(v, "the frontend asked for %lu queues, at most %u offered", nq,
              v->max_queues);
        return false;
    }
    if ( !read_flags(v) )
        return false;
    for ( i = 0; i < nq; i++ )
    {
        if ( nq == 1 )
            snprintf(dir, sizeof(dir), "%s", v->fe);
        else
            snprintf(dir, sizeof(dir), "%s/queue-%u", v->fe, i);
        v->q[i].tx_packets = v->q[i].tx_errors = v->q[i].tx_gso = 0;
        v->q[i].tx_taken = v->q[i].tx_away = 0;
        v->q[i].rx_packets = v->q[i].rx_dropped = 0;
        v->q[i].rx_gso = v->q[i].rx_blank = 0;
        v->q[i].tx_events = v->q[i].rx_events = 0;
        if ( !connect_queue(v, &v->q[i], dir) )
        {
            release(v);
            return false;
        }
    }
    v->nr_queues = nq;
    v->connected = true;
    v->rx_warned = false;
    for ( i = 0; i < nq; i++ )
    {
        spin_lock_irq_on_wait(vif_queue_lock(&v->q[i]));
        v->q[i].open = true;            /* set up, seen whole */
        spin_unlock(vif_queue_lock(&v->q[i]));
    }
    /*
     * The device's GSO what the frontend takes, as Linux's netback
     * offers its stack TSO by the frontend's feature-gso-tcpv4/6 (with
     * scatter-gather and the checksum offload, which GSO needs).
     */
    if ( !net_rx_gso(v->dev, (v->sg && v->gso4 && v->ip_csum
                              ? NET_F_GSO_RX4 : 0) |
                             (v->sg && v->gso6 && v->ipv6_csum
                              ? NET_F_GSO_RX6 : 0)) )
        vif_printk(v, XENLOG_WARNING, "%s refuses to change its GSO to "
                   "us\n", v->dev->name);
    vif_printk(v, XENLOG_INFO, "connected, %lu queue%s, %s event "
               "channels%s%s\n", nq, nq > 1 ? "s" : "",
               v->q[0].tx_port != v->q[0].rx_port ? "split" : "shared",
               v->sg ? ", sg" : "", v->gso4 || v->gso6 ? ", gso" : "");
    /* What the frontend queued before: each queue looked at on its CPU. */
    for ( i = 0; i < nq; i++ )
        cpu_raise_softirq(v->q[i].cpu, NETBACK_SOFTIRQ);
    return true;
}

/* set_backend_state(): to @state by the shortest path Linux allows. */
static void set_state(struct vif *v, unsigned int state)
{
    while ( v->be_state != state )
    {
        switch ( v->be_state )
        {
        case XenbusStateInitialising:
            switch_state(v, state == XenbusStateClosed ? XenbusStateClosed
                                                       : XenbusStateInitWait);
            break;
        case XenbusStateClosed:
            switch_state(v, state == XenbusStateClosing ? XenbusStateClosing
                                                        : XenbusStateInitWait);
            break;
        case XenbusStateInitWait:
            if ( state != XenbusStateConnected )
                switch_state(v, XenbusStateClosing);
            else if ( connect(v) )
                switch_state(v, XenbusStateConnected);
            else
                return;                 /* failed, or after a drain */
            break;
        case XenbusStateConnected:
            disconnect(v);
            switch_state(v, XenbusStateClosing);
            break;
        case XenbusStateClosing:
            switch_state(v, XenbusStateClosed);
            break;
        default:
            return;
        }
    }
}

void vif_frontend_changed(struct vif *v)
{
    unsigned long state;

    ASSERT(spin_is_locked_by_me(&v->lock));
    if ( !read_ulong(v->fe, "state", &state) )
        state = XenbusStateUnknown;
    switch ( state )
    {
    case XenbusStateInitialising:
        if ( !v->removing )
            set_state(v, XenbusStateInitWait);
        /* After the disconnect: until then a queue may still break. */
        v->broken = false;
        break;
    case XenbusStateInitialised:
        break;
    case XenbusStateConnected:
        if ( !v->broken && !v->removing )
            set_state(v, XenbusStateConnected);
        break;
    case XenbusStateClosing:
        set_state(v, XenbusStateClosing);
        break;
    case XenbusStateClosed:
    case XenbusStateUnknown:
        set_state(v, XenbusStateClosed);
        v->broken = false;
        break;
    default:
        /* Connected, closing as set_state() does: the queues go first. */
        if ( v->be_state == XenbusStateConnected )
            disconnect(v);
        fatal(v, "saw state %lu at the frontend", state);
        break;
    }
}

void vif_remove_start(struct vif *v)
{
    ASSERT(spin_is_locked_by_me(&v->lock));
    v->removing = true;
    v->remove_by = backend_remove_by();
    xs_shim_writef(v->be, "online", "0");
    if ( v->be_state != XenbusStateClosed )
        set_state(v, XenbusStateClosing);
}

bool vif_let_go(const struct vif *v)
{
    unsigned long state;

    if ( v->connected || vif_inflight(v) || holds_any(v) )
        return false;
    if ( v->forced )
        return true;
    if ( !read_ulong(v->fe, "state", &state) )
        state = XenbusStateUnknown;
    return state == XenbusStateClosed || state == XenbusStateUnknown ||
           state == XenbusStateInitialising;
}

void vif_force_close(struct vif *v)
{
    ASSERT(spin_is_locked_by_me(&v->lock));
    printk(XENLOG_WARNING "netback: %s: its frontend did not close in %u "
           "s: taken anyway\n", v->name, backend_remove_secs());
    v->forced = true;
    disconnect(v);
    set_state(v, XenbusStateClosed);
}

/*
 * The frontend broke a ring's protocol: say so once, take no more
 * requests, and close (Linux's xenvif_fatal_tx_err() stops the vif).
 * A queue's work and the receive hook find these, under the queue's
 * lock alone: no queue takes more from here on (vif.broken), and CPU 0
 * disconnects and writes Closing (vif_close_broken(): the vif's lock,
 * xenstore).
 */
void vif_broken(struct vif *v, const char *why, unsigned int a,
                unsigned int b)
{
    if ( __atomic_exchange_n(&v->broken, true, __ATOMIC_SEQ_CST) )
        return;
    vif_printk(v, XENLOG_WARNING, "%s (%u, %u): disconnecting\n", why, a,
               b);
    __atomic_store_n(&v->close, true, __ATOMIC_SEQ_CST);
    cpu_raise_softirq(0, NETBACK_SOFTIRQ);
}

void vif_close_broken(struct vif *v)
{
    ASSERT(spin_is_locked_by_me(&v->lock));
    v->close = false;
    if ( !v->broken )
        return;                         /* the frontend started over since */
    if ( v->connected )
        disconnect(v);
    if ( v->be_state == XenbusStateConnected )
        switch_state(v, XenbusStateClosing);
}
