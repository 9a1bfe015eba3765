/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The block backend's part of the 'b' debug key: each vbd's connection,
 * its rings' indexes as both sides see them, what is in flight and
 * waiting, the counts since boot, then its device's queues.  For a
 * stalled disk this says which side holds the next move: requests the
 * backend has not taken (req_prod past req_cons), responses the guest
 * has not seen (an event it was not sent), or the device's.
 *
 * A vbd whose lock is held elsewhere is printed anyway, marked: a key
 * must answer while something hangs.
 */
#include "backends/blk.h"
#include "backends/blk/blkback.h"
#include "shim/console.h"

static void dump_ring(const struct vbd_ring *r)
{
    const struct blkif_back_ring *br = &r->ring.br;
    const struct vbd_req *q;
    unsigned int stalled = 0;

    for ( q = r->stalled; q && stalled <= VBD_REQS; q = q->next_stalled )
        stalled++;
    printk("  ring %u: CPU %u, port %u, %u page%s; req_prod %u req_cons %u "
           "req_event %u; rsp_prod %u (pvt %u) rsp_event %u\n", r->index,
           r->cpu, r->port, r->nr_pages, r->nr_pages == 1 ? "" : "s",
           ACCESS_ONCE(br->sring->req_prod), br->req_cons,
           ACCESS_ONCE(br->sring->req_event),
           ACCESS_ONCE(br->sring->rsp_prod), br->rsp_prod_pvt,
           ACCESS_ONCE(br->sring->rsp_event));
    printk("  ring %u: %u in flight, %u waiting for the device%s; %lu "
           "requests, %lu segments, %lu device requests, %lu events sent, "
           "%lu runs, %lu stalls, %lu without a slot, %lu over the "
           "maps, %lu requests on other CPUs\n", r->index, r->inflight,
           stalled, r->busy ? ", busy" : "", r->reqs, r->segs, r->subs,
           r->notifies, r->runs, r->stalls, r->no_slot, r->no_maps,
           r->away);
}

void blkback_dump(void)
{
    unsigned int i, n;

    for ( i = 0; i < nr_vbds; i++ )
    {
        struct vbd *v = &vbds[i];
        bool locked;
        char part[48] = "";

        if ( v->gone )
        {
            printk("blkback: %s: removed\n", v->name);
            continue;
        }
        locked = spin_trylock(&v->lock);

        if ( v->part )
            snprintf(part, sizeof(part), " partition %u (from sector %lu)",
                     v->part, (unsigned long)v->start);
        printk("blkback: %s (%u) on %s%s%s: %lu sectors, state %u, %s%s%s, "
               "%u in flight, %lu answered%s\n", v->name, v->devid,
               v->dev->name, part,
               v->cdrom ? " (cdrom)" : v->ro ? " (ro)" : "",
               (unsigned long)v->nr_sectors, v->be_state,
               v->connected ? "connected" : "not connected",
               v->broken ? ", broken" : v->removing ? ", removing" : "",
               v->connected ? (v->x86_32 ? ", x86_32-abi" : ", x86_64-abi")
                            : "",
               v->inflight, v->completed, locked ? "" : " (lock held)");
        if ( v->nr_rings )
            for ( n = 0; n < v->nr_rings; n++ )
                dump_ring(&v->rings[n]);
        if ( v->dev->ops->dump )
            v->dev->ops->dump(v->dev);
        if ( locked )
            spin_unlock(&v->lock);
    }
}
