/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The VM's clean end (the guest's SCHEDOP_shutdown, after the power
 * button or its own poweroff): before the shim ends QEMU, every request
 * the guest put on a ring is served, every device request in flight
 * completes (its queues polled here: their CPUs take no softirq now),
 * and each writable disk is flushed, so what the guest wrote is in the
 * image even if it never asked for a flush.  Bounded: a device that
 * doesn't answer in 10 s is reported, not waited for.
 */
#include "backends/blk/blkback.h"
#include "pv/pv.h"
#include "shim/console.h"
#include "shim/timer.h"

#define DRAIN_NS    10000000000ULL

static struct drain_flush {
    struct blk_request req;
    enum blk_status status;
    bool done;
} flushes[VBD_MAX];

static void flush_done(struct blk_request *req, enum blk_status s)
{
    struct drain_flush *f = req->data;

    f->status = s;
    __atomic_store_n(&f->done, true, __ATOMIC_RELEASE);
}

/*
 * Serve what is on the rings and start what waited; the requests still
 * in flight over every disk (a ring whose lock another CPU holds counts
 * as one).  A ring whose lock this CPU already holds (a crash in the
 * middle of its work) is left alone.
 */
static unsigned int serve(void)
{
    unsigned int i, r, n = 0, rounds;

    for ( i = 0; i < nr_vbds; i++ )
    {
        struct vbd *v = &vbds[i];

        for ( r = 0; r < v->nr_rings; r++ )
        {
            spinlock_t *l = vbd_ring_lock(&v->rings[r]);

            if ( spin_is_locked_by_me(l) )
                continue;
            if ( !spin_trylock(l) )
            {
                n++;                    /* busy elsewhere: look again */
                continue;
            }
            for ( rounds = 0; rounds < 64 && vbd_ring_work(&v->rings[r]);
                  rounds++ )
                continue;
            spin_unlock(l);
        }
        n += ACCESS_ONCE(v->inflight);
    }
    for ( i = 0; i < nr_vbds; i++ )
        if ( !vbds[i].gone )
            blk_poll(vbds[i].dev);
    return n;
}

/* Flush each writable disk that flushes, all at once; wait for them. */
static void flush_all(uint64_t end)
{
    unsigned int i, left;

    for ( i = 0; i < nr_vbds; i++ )
    {
        flushes[i].done = true;
        if ( vbds[i].ro || !(vbds[i].dev->features & BLK_F_FLUSH) )
            continue;
        flushes[i].req = (struct blk_request){ .op = BLK_OP_FLUSH,
                                               .done = flush_done,
                                               .data = &flushes[i] };
        flushes[i].done = false;
        if ( (flushes[i].status = blk_submit(vbds[i].dev, &flushes[i].req)) )
            flushes[i].done = true;
    }
    do {
        for ( i = left = 0; i < nr_vbds; i++ )
            if ( !__atomic_load_n(&flushes[i].done, __ATOMIC_ACQUIRE) )
            {
                blk_poll(vbds[i].dev);
                left++;
            }
    } while ( left && NOW() < end );
}

void blkback_drain(void)
{
    uint64_t end = NOW() + DRAIN_NS;
    unsigned long before[VBD_MAX];
    unsigned int i, left;

    if ( !pv_backend_locked() )
    {
        printk(XENLOG_WARNING "blkback: the VM ends outside the guest's "
               "own work: writes in flight are not waited for\n");
        return;
    }
    for ( i = 0; i < nr_vbds; i++ )
        before[i] = vbds[i].completed;
    while ( (left = serve()) && NOW() < end )
        cpu_relax();
    flush_all(end);
    for ( i = 0; i < nr_vbds; i++ )
    {
        const struct vbd *v = &vbds[i];

        if ( v->gone )
            continue;
        if ( v->ro || !(v->dev->features & BLK_F_FLUSH) )
            printk("blkback: %s: drained, %lu requests completed at the "
                   "end\n", v->name, v->completed - before[i]);
        else if ( flushes[i].done && flushes[i].status == BLK_OK )
            printk("blkback: %s: drained, %lu requests completed at the "
                   "end, flushed\n", v->name, v->completed - before[i]);
        else
            printk(XENLOG_WARNING "blkback: %s: the last flush: %s\n",
                   v->name, flushes[i].done
                   ? blk_status_name(flushes[i].status) : "no completion");
    }
    if ( left )
        printk(XENLOG_WARNING "blkback: %u requests still in flight at the "
               "end\n", left);
}
