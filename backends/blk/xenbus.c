/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A vbd's XenbusState handshake, as Linux's xen-blkback (xenbus.c
 * frontend_changed(), connect_ring(), connect()): InitWait until the
 * frontend is Initialised or Connected with its ring-ref,
 * event-channel and protocol; Connected; Closing and Closed after the
 * frontend; InitWait again when a closed frontend starts over
 * (Initialising: a driver reload, kexec).  A disconnect keeps the ring
 * and the port until the device has finished every request in flight.
 */
#include "backends/blk/blkback.h"
#include "backends/blk/xenbus-parse.h"
#include "backends/xenstore.h"
#include <xen/errno.h>
#include <xen/io/xenbus.h>
#include "pv/pv.h"
#include "shim/console.h"
#include "shim/softirq.h"

static void switch_state(struct vbd *v, unsigned int state)
{
    char path[64], val[4];

    if ( v->be_state == state )
        return;
    v->be_state = state;
    snprintf(path, sizeof(path), "%s/state", v->be);
    snprintf(val, sizeof(val), "%u", state);
    xs_shim_write(path, val);
}

/* A frontend node as a number; false if missing or not one. */
static bool read_ulong(const struct vbd *v, const char *name,
                       unsigned long *out)
{
    char path[80], buf[24];

    snprintf(path, sizeof(path), "%s/%s", v->fe, name);
    return !xs_shim_read(path, buf, sizeof(buf)) &&
           vbd_parse_number(buf, out);
}

/* Xen's xenbus_dev_fatal(): the reason in "error", then Closing. */
static void fatal(struct vbd *v, const char *why)
{
    char path[64];

    printk(XENLOG_WARNING "blkback: %s: %s\n", v->name, why);
    snprintf(path, sizeof(path), "%s/error", v->be);
    xs_shim_write(path, why);
    switch_state(v, XenbusStateClosing);
}

/* Release the ring and the port, once nothing is in flight. */
static void release(struct vbd *v)
{
    ASSERT(!v->inflight);
    if ( v->have_ring )
        pv_grant_unmap_dev(v->ring_handle);
    if ( v->port )
        pv_evtchn_unbind_backend(v->port);
    v->have_ring = false;
    v->port = 0;
}

static void disconnect(struct vbd *v)
{
    v->connected = false;
    if ( !v->inflight )
        release(v);
}

void vbd_drained(struct vbd *v)
{
    if ( v->connected )
        return;
    release(v);
    v->recheck = true;                  /* a reconnect may wait for this */
}

/* connect_ring(): the frontend's ring and port, in its protocol. */
static bool connect_ring(struct vbd *v)
{
    unsigned long ref, port, order;
    char path[80], proto[24];
    struct pv_guest_info g;
    enum vbd_abi abi;
    uint64_t maddr;
    int rc;

    if ( read_ulong(v, "ring-page-order", &order) && order )
    {
        fatal(v, "multi-page rings (ring-page-order) are not offered");
        return false;
    }
    if ( !read_ulong(v, "ring-ref", &ref) || ref > ~0u ||
         !read_ulong(v, "event-channel", &port) || port > ~0u )
    {
        fatal(v, "reading ring-ref and event-channel");
        return false;
    }
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

    /* Writable: the shim writes responses; never a page table meanwhile. */
    if ( (rc = pv_grant_map_dev(ref, false, &v->ring_handle, &maddr)) )
    {
        printk(XENLOG_WARNING "blkback: %s: ring-ref %lu: status %d\n",
               v->name, ref, rc);
        fatal(v, "mapping ring");
        return false;
    }
    v->have_ring = true;
    if ( v->x86_32 )
        BACK_RING_INIT(&v->ring.x86_32,
                       (struct blkif_x86_32_sring *)__va(maddr), PAGE_SIZE);
    else
        BACK_RING_INIT(&v->ring.native, (struct blkif_sring *)__va(maddr),
                       PAGE_SIZE);
    if ( (rc = pv_evtchn_bind_backend(port, BLKBACK_SOFTIRQ)) < 0 )
    {
        release(v);
        fatal(v, "binding event channel");
        return false;
    }
    v->port = rc;
    return true;
}

static void connect(struct vbd *v)
{
    if ( v->inflight )
        return;                         /* vbd_drained() comes back here */
    release(v);                         /* idempotent, as Linux's */
    if ( !connect_ring(v) )
        return;
    v->connected = true;
    v->busy = false;
    printk(XENLOG_INFO "blkback: %s: connected, protocol %s, "
           "port %u\n", v->name, v->x86_32 ? "x86_32-abi" : "x86_64-abi",
           v->port);
    switch_state(v, XenbusStateConnected);
    cpu_raise_softirq(0, BLKBACK_SOFTIRQ);
}

void vbd_frontend_changed(struct vbd *v)
{
    unsigned long state;

    if ( !read_ulong(v, "state", &state) )
        state = XenbusStateUnknown;
    switch ( state )
    {
    case XenbusStateInitialising:
        if ( v->be_state == XenbusStateClosed )
        {
            disconnect(v);
            v->broken = false;
            printk(XENLOG_INFO "blkback: %s: frontend reconnecting\n",
                   v->name);
            switch_state(v, XenbusStateInitWait);
        }
        break;
    case XenbusStateInitialised:
    case XenbusStateConnected:
        if ( v->be_state == XenbusStateConnected || v->broken ||
             v->be_state == XenbusStateClosing )
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

/*
 * The frontend broke the ring's protocol: say so once, take no more
 * requests, and close, as Linux halts a ring whose req_prod is bogus.
 */
void vbd_broken(struct vbd *v, const char *why, unsigned int a,
                unsigned int b)
{
    if ( v->broken )
        return;
    v->broken = true;
    printk(XENLOG_WARNING "blkback: %s: %s (%u, %u): disconnecting\n",
           v->name, why, a, b);
    disconnect(v);
    switch_state(v, XenbusStateClosing);
}
