/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_sched_op, as xen/common/sched/core.c: one vCPU on one CPU
 * (sched=null), so yielding only gives the console ring a chance, and a
 * shutdown ends the VM with a status that names its reason.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/sched.h>
#include "pv/domain.h"
#include "pv/event-channel.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"

long do_sched_op(unsigned long cmd, unsigned long arg)
{
    struct sched_shutdown s;

    switch ( cmd )
    {
    case SCHEDOP_yield:
        /* A guest spinning until its console ring is consumed moves on. */
        pv_console_ring_drain();
        return 0;

    case SCHEDOP_block:
        /* Xen enables event delivery and sleeps until one is pending;
         * nothing here raises events yet, so the wait is empty. */
        current_vcpu()->vcpu_info->evtchn_upcall_mask = 0;
        pv_console_ring_drain();
        return 0;

    case SCHEDOP_shutdown:
        if ( copy_from_guest(&s, arg, sizeof(s)) )
            return -XEN_EFAULT;
        pv_console_ring_drain();
        /* With no toolstack to save it, a suspend is cancelled at once. */
        if ( s.reason == SHUTDOWN_suspend && dom.shutdown_code == ~0u )
            return 1;
        /* As Xen: an earlier shutdown_code wins over this reason. */
        domain_shutdown(dom.shutdown_code != ~0u ? dom.shutdown_code
                                                 : (uint8_t)s.reason);

    case SCHEDOP_shutdown_code:
        if ( copy_from_guest(&s, arg, sizeof(s)) )
            return -XEN_EFAULT;
        if ( dom.shutdown_code == ~0u )
            dom.shutdown_code = (uint8_t)s.reason;
        return 0;

    case SCHEDOP_remote_shutdown:
    case SCHEDOP_pin_override:
        return -XEN_EPERM;              /* not for an unprivileged guest */

    default:
        return -XEN_ENOSYS;
    }
}

long do_sched_op_compat(unsigned long cmd, unsigned long arg)
{
    return -XEN_ENOSYS;
}
