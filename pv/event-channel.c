/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Event channels, as far as the start-of-day ports go: the console and
 * xenstore ports are bound to us (the "backend domain 0"), as a toolstack
 * would leave them; sending on the console port drains the ring.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/event_channel.h>
#include "pv/domain.h"
#include "pv/event-channel.h"
#include "pv/event.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"

/* 2-level ABI: as many ports as bits in the shared_info pending array. */
#define NR_EVTCHN_PORTS (sizeof(xen_ulong_t) * 8 * sizeof(xen_ulong_t) * 8)

static long evtchn_send(unsigned long arg)
{
    evtchn_send_t s;

    if ( copy_from_guest(&s, arg, sizeof(s)) )
        return -XEN_EFAULT;
    switch ( s.port )
    {
    case EVTCHN_CONSOLE_PORT:
        pv_console_ring_drain();
        return 0;
    case EVTCHN_STORE_PORT:
        return 0;                       /* no xenstore yet: nobody answers */
    default:
        return -XEN_EINVAL;             /* not bound */
    }
}

static long evtchn_status(unsigned long arg)
{
    evtchn_status_t st;

    if ( copy_from_guest(&st, arg, sizeof(st)) )
        return -XEN_EFAULT;
    if ( st.dom != DOMID_SELF )
        return -XEN_ESRCH;
    if ( st.port >= NR_EVTCHN_PORTS )
        return -XEN_EINVAL;

    memset(&st.u, 0, sizeof(st.u));
    st.vcpu = 0;
    switch ( st.port )
    {
    case EVTCHN_STORE_PORT:
    case EVTCHN_CONSOLE_PORT:
        st.status = EVTCHNSTAT_interdomain;
        st.u.interdomain.dom = 0;
        st.u.interdomain.port = st.port;
        break;
    default:
        st.status = EVTCHNSTAT_closed;
        break;
    }
    return copy_to_guest(arg, &st, sizeof(st));
}

long do_event_channel_op(unsigned long cmd, unsigned long arg)
{
    switch ( cmd )
    {
    case EVTCHNOP_send:
        return evtchn_send(arg);
    case EVTCHNOP_status:
        return evtchn_status(arg);
    default:
        return -XEN_ENOSYS;
    }
}

long do_event_channel_op_compat(unsigned long arg)
{
    return -XEN_ENOSYS;
}

void send_guest_vcpu_virq(struct vcpu *v, unsigned int virq)
{
}

void send_guest_global_virq(struct domain *d, unsigned int virq)
{
}

bool vcpu_event_pending(const struct vcpu *v)
{
    return false;
}

void pv_deliver_events(struct cpu_regs *regs)
{
}
