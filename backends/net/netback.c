/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The network backend's softirq: per vif, under its lock, a drained
 * disconnect's rings and ports let go, the handshake looked at again,
 * then each queue's held RX packets and its TX ring, bounded, re-raised
 * if more waits.  Raised
 * on CPU 0 by the guest's sends, the frontend's state, and completions.
 */
#include "backends/backends.h"
#include "backends/net.h"
#include "backends/net/netback.h"
#include "pv/pv.h"
#include "shim/softirq.h"
#include "shim/timer.h"

void netback_work(void)
{
    bool more = false;
    unsigned int i, n;

    ASSERT(pv_backend_locked());
    for ( i = 0; i < nr_vifs; i++ )
    {
        struct vif *v = vifs[i];
        bool gone;

        if ( v->gone )
            continue;
        spin_lock(&v->lock);
        vif_drained(v);
        if ( v->close )
            vif_close_broken(v);
        if ( v->recheck )
        {
            v->recheck = false;
            vif_frontend_changed(v);
        }
        for ( n = 0; n < v->nr_queues; n++ )
        {
            nb_rx_flush(&v->q[n]);
            if ( nb_tx_work(&v->q[n]) )
                more = true;
        }
        if ( v->removing && !v->forced && !vif_let_go(v) &&
             backend_remove_due(v->remove_by) )
            vif_force_close(v);
        gone = v->removing && vif_let_go(v);
        spin_unlock(&v->lock);
        if ( gone )
            vif_remove_finish(v);       /* not under its lock: the NIC's */
    }
    if ( more )
        raise_softirq(NETBACK_SOFTIRQ);
}
