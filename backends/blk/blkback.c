/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The block backend's softirq: handshakes to look at again (a drained
 * disconnect, a frontend's state, a device's new size), then each
 * connected ring, bounded,
 * re-raised if more waits; each vbd under its lock.  Raised on CPU 0 by
 * the guest's sends, xenstore watches and completions.
 */
#include "backends/blk.h"
#include "backends/backends.h"
#include "backends/blk/blkback.h"
#include "pv/pv.h"
#include "shim/softirq.h"
#include "shim/timer.h"

void blkback_work(void)
{
    bool more = false;
    unsigned int i;

    ASSERT(pv_backend_locked());
    for ( i = 0; i < nr_vbds; i++ )
    {
        struct vbd *v = &vbds[i];
        unsigned int r;
        bool gone;

        if ( v->gone )
            continue;
        spin_lock_irq_on_wait(&v->lock);
        if ( !v->connected && !v->inflight && v->nr_rings )
            vbd_drained(v);
        if ( __atomic_exchange_n(&v->recheck, false, __ATOMIC_ACQ_REL) )
            vbd_frontend_changed(v);
        if ( __atomic_exchange_n(&v->resized, false, __ATOMIC_ACQ_REL) )
            vbd_resize(v);
        for ( r = 0; r < v->nr_rings; r++ )
            if ( vbd_ring_work(&v->rings[r]) )
                more = true;
        if ( v->removing && !v->forced && !vbd_let_go(v) &&
             backend_remove_due(v->remove_by) )
            vbd_force_close(v);
        gone = v->removing && vbd_let_go(v);
        spin_unlock(&v->lock);
        if ( gone )
            vbd_remove_finish(v);       /* not under its lock: the device's */
    }
    if ( more )
        raise_softirq(BLKBACK_SOFTIRQ);
}
