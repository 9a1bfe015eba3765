/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The network backend's softirq, on each CPU that serves a queue.  On
 * CPU 0, per vif under its lock: a drained disconnect's rings and ports
 * let go, a broken ring's Closing, the handshake looked at again, a
 * removal; on every CPU, the queues it serves (nb_queue.cpu: queue n on
 * CPU n), each under its own lock: its held RX packets and its TX ring,
 * bounded, re-raised if more waits.  Raised by the guest's sends on a
 * queue's CPU, the frontend's state, and completions.
 */
#include "backends/backends.h"
#include "backends/net.h"
#include "backends/net/netback.h"
#include "arch/x86/percpu.h"
#include "pv/pv.h"
#include "shim/softirq.h"
#include "shim/timer.h"

/*
 * Does @v have a queue CPU @cpu serves?  A look without its lock, to
 * pass the vifs of other CPUs by; the caller looks again under it.
 */
static bool serves_on(const struct vif *v, unsigned int cpu)
{
    unsigned int n, nr = MIN(ACCESS_ONCE(v->nr_queues), VIF_MAX_QUEUES);

    for ( n = 0; n < nr; n++ )
        if ( ACCESS_ONCE(v->q[n].cpu) == cpu )
            return true;
    return false;
}

void netback_work(void)
{
    unsigned int i, n, cpu = smp_processor_id();
    bool more = false;

    ASSERT(pv_backend_locked());
    for ( i = 0; i < nr_vifs; i++ )
    {
        struct vif *v = vifs[i];
        bool gone = false;

        if ( v->gone || (cpu && !serves_on(v, cpu)) )
            continue;
        if ( !cpu )
        {
            spin_lock_irq_on_wait(&v->lock);
            vif_drained(v);
            if ( v->close )
                vif_close_broken(v);
            if ( v->recheck )
            {
                v->recheck = false;
                vif_frontend_changed(v);
            }
            spin_unlock(&v->lock);
        }
        for ( n = 0; n < MIN(ACCESS_ONCE(v->nr_queues), VIF_MAX_QUEUES); n++ )
        {
            struct nb_queue *q = &v->q[n];

            if ( ACCESS_ONCE(q->cpu) != cpu )
                continue;
            /* By the slot's lock, as blkback_work()'s rings. */
            spin_lock_irq_on_wait(&v->queue_lock[n]);
            if ( ACCESS_ONCE(q->vif) == v )
            {
                nb_rx_flush(q);
                if ( nb_tx_work(q) )
                    more = true;
            }
            spin_unlock(&v->queue_lock[n]);
        }
        if ( !cpu )
        {
            spin_lock_irq_on_wait(&v->lock);
            if ( v->removing && !v->forced && !vif_let_go(v) &&
                 backend_remove_due(v->remove_by) )
                vif_force_close(v);
            gone = v->removing && vif_let_go(v);
            spin_unlock(&v->lock);
        }
        if ( gone )
            vif_remove_finish(v);       /* not under its lock: the NIC's */
    }
    if ( more )
        raise_softirq(NETBACK_SOFTIRQ);
}
