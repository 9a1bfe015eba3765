/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The block backend's softirq, on each CPU that serves a ring.  On CPU
 * 0, handshakes to look at again (a broken ring's Closing, a drained
 * disconnect, a frontend's state, a device's new size) and removals;
 * on every CPU, the connected rings it serves (vbd_ring.cpu: ring n on
 * CPU n, so a vCPU's requests on blk-mq's queue of its CPU, and with a
 * device queue per CPU its completions and responses, stay there), each
 * bounded, re-raised if more waits: the handshake under the vbd's lock,
 * each ring under its own.  Raised by the guest's sends on a ring's
 * CPU, xenstore watches and completions.
 */
#include "backends/blk.h"
#include "backends/backends.h"
#include "backends/blk/blkback.h"
#include "arch/x86/percpu.h"
#include "pv/pv.h"
#include "shim/softirq.h"
#include "shim/timer.h"

/*
 * Does @v have a ring CPU @cpu serves?  A look without its lock, to
 * pass the vbds of other CPUs by; the caller looks again under it.
 */
static bool serves_on(const struct vbd *v, unsigned int cpu)
{
    unsigned int r, n = MIN(ACCESS_ONCE(v->nr_rings), VBD_MAX_QUEUES);

    for ( r = 0; r < n; r++ )
        if ( ACCESS_ONCE(v->rings[r].cpu) == cpu )
            return true;
    return false;
}

void blkback_work(void)
{
    unsigned int i, cpu = smp_processor_id();
    bool more = false;

    ASSERT(pv_backend_locked());
    for ( i = 0; i < nr_vbds; i++ )
    {
        struct vbd *v = &vbds[i];
        unsigned int r;
        bool gone = false;

        if ( v->gone || (cpu && !serves_on(v, cpu)) )
            continue;
        if ( !cpu )
        {
            spin_lock_irq_on_wait(&v->lock);
            if ( v->close_owed )
                vbd_close_owed(v);
            if ( !v->connected && !ACCESS_ONCE(v->inflight) && v->nr_rings )
                vbd_drained(v);
            if ( __atomic_exchange_n(&v->recheck, false, __ATOMIC_ACQ_REL) )
                vbd_frontend_changed(v);
            if ( __atomic_exchange_n(&v->resized, false, __ATOMIC_ACQ_REL) )
                vbd_resize(v);
            spin_unlock(&v->lock);
        }
        for ( r = 0; r < MIN(ACCESS_ONCE(v->nr_rings), VBD_MAX_QUEUES); r++ )
        {
            struct vbd_ring *ring = &v->rings[r];

            if ( ACCESS_ONCE(ring->cpu) != cpu )
                continue;
            /*
             * By the slot's own lock: a disk removed and another set up
             * in the slot since the look above has its rings cleared
             * (setup.c), ring->vbd too for a moment.
             */
            spin_lock_irq_on_wait(&v->ring_lock[r]);
            if ( ACCESS_ONCE(ring->vbd) == v && vbd_ring_work(ring) )
                more = true;
            spin_unlock(&v->ring_lock[r]);
        }
        if ( !cpu )
        {
            spin_lock_irq_on_wait(&v->lock);
            if ( v->removing && !v->forced && !vbd_let_go(v) &&
                 backend_remove_due(v->remove_by) )
                vbd_force_close(v);
            gone = v->removing && vbd_let_go(v);
            spin_unlock(&v->lock);
        }
        if ( gone )
            vbd_remove_finish(v);       /* not under its lock: the device's */
    }
    if ( more )
        raise_softirq(BLKBACK_SOFTIRQ);
}
