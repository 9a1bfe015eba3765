/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The network backend's part of the 'b' debug key: each vif's
 * connection, its queues' TX and RX ring indexes as both sides see
 * them, what is in flight or held, the counts since connect, then its
 * device's queues.  A vif whose lock is held elsewhere is printed
 * anyway, marked.
 */
#include "backends/net.h"
#include "backends/net/netback.h"
#include "shim/console.h"

/* One ring's indexes: "  queue 0 TX: CPU 0, port 4; req_prod ...; ". */
#define RING_LINE(q, dir, r, port)                                        \
    printk("  queue %u " dir ": CPU %u, port %u; req_prod %u req_cons %u " \
           "req_event %u; rsp_prod %u (pvt %u); ", (q)->index, (q)->cpu,  \
           port,                                                          \
           ACCESS_ONCE((r)->sring->req_prod), (r)->req_cons,              \
           ACCESS_ONCE((r)->sring->req_event),                            \
           ACCESS_ONCE((r)->sring->rsp_prod), (r)->rsp_prod_pvt)

static void dump_queue(const struct nb_queue *q)
{
    if ( q->have_tx )
    {
        RING_LINE(q, "TX", &q->tx, q->tx_port);
        printk("%u in flight%s%s; %lu packets (%lu GSO), %lu errors, %lu "
               "events sent\n", q->inflight,
               q->stalled ? ", one waiting for the device" : "",
               q->tx_wait ? ", waiting for room" : "",
               q->tx_packets, q->tx_gso, q->tx_errors, q->tx_events);
    }
    if ( q->have_rx )
    {
        RING_LINE(q, "RX", &q->rx, q->rx_port);
        printk("%u held; %lu packets (%lu GSO, %lu to sum), %lu dropped, "
               "%lu events sent\n", q->held_nr, q->rx_packets, q->rx_gso,
               q->rx_blank, q->rx_dropped, q->rx_events);
    }
}

void netback_dump(void)
{
    unsigned int i, n;

    for ( i = 0; i < nr_vifs; i++ )
    {
        struct vif *v = vifs[i];
        bool locked;

        if ( v->gone )
        {
            printk("netback: %s: removed\n", v->name);
            continue;
        }
        locked = spin_trylock(&v->lock);

        printk("netback: %s on %s: state %u, %s%s, %u queue%s, %u TX "
               "grants mapped%s\n", v->name, v->dev->name, v->be_state,
               v->connected ? "connected" : "not connected",
               v->broken ? ", broken" : "", v->nr_queues,
               v->nr_queues == 1 ? "" : "s", v->tx_maps,
               locked ? "" : " (lock held)");
        if ( v->connected )
            for ( n = 0; n < v->nr_queues; n++ )
                dump_queue(&v->q[n]);
        if ( v->dev->ops->dump )
            v->dev->ops->dump(v->dev);
        if ( locked )
            spin_unlock(&v->lock);
    }
}
