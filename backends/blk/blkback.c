/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The block backend's softirq: handshakes to look at again (a drained
 * disconnect), then each connected ring, bounded, re-raised if more
 * waits.  Raised on CPU 0 by the guest's sends and by completions.
 */
#include "backends/blk.h"
#include "backends/blk/blkback.h"
#include "pv/pv.h"
#include "shim/softirq.h"

void blkback_work(void)
{
    bool more = false;
    unsigned int i;

    ASSERT(pv_backend_locked());
    for ( i = 0; i < nr_vbds; i++ )
    {
        struct vbd *v = &vbds[i];

        if ( !v->connected && !v->inflight && (v->have_ring || v->port) )
            vbd_drained(v);
        if ( v->recheck )
        {
            v->recheck = false;
            vbd_frontend_changed(v);
        }
        if ( vbd_ring_work(v) )
            more = true;
    }
    if ( more )
        raise_softirq(BLKBACK_SOFTIRQ);
}
