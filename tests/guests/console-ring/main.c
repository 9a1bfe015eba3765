/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The console ring (xen/io/console.h): the guest writes into out[] and
 * notifies the console port, or spins on SCHEDOP_yield until the backend
 * has consumed it; EVTCHNOP_status shows the start-of-day ports bound.
 */
#include "guest.h"
#include <xen/event_channel.h>
#include <xen/io/console.h>

const char test_title[] = "Console ring, EVTCHNOP_send and EVTCHNOP_status";

static struct xencons_interface *ring(void)
{
    /* virt_base 0: the console page's pfn is its address. */
    const unsigned long *p2m = (const void *)start_info->mfn_list;
    unsigned long pfn;

    for ( pfn = 0; pfn < start_info->nr_pages; pfn++ )
        if ( p2m[pfn] == start_info->console.domU.mfn )
            return (void *)(pfn << 12);
    return NULL;
}

static void ring_write(struct xencons_interface *r, const char *s)
{
    XENCONS_RING_IDX prod = r->out_prod;

    while ( *s )
        r->out[MASK_XENCONS_IDX(prod++, r->out)] = *s++;
    asm volatile ( "" ::: "memory" );
    r->out_prod = prod;
}

static long evtchn(int cmd, void *arg)
{
    return HYPERCALL(__HYPERVISOR_event_channel_op, cmd, arg, 0, 0, 0);
}

void test_main(void)
{
    struct xencons_interface *r = ring();
    evtchn_send_t send = { .port = start_info->console.domU.evtchn };
    evtchn_status_t st = { .dom = DOMID_SELF };
    unsigned int spins;

    if ( !r )
        return test_error("console page not in the p2m");

    ring_write(r, "console-ring: sent with EVTCHNOP_send\n");
    check_rc(evtchn(EVTCHNOP_send, &send), 0);
    if ( r->out_cons != r->out_prod )
        test_fail("EVTCHNOP_send left the ring unconsumed");

    ring_write(r, "console-ring: consumed while yielding\n");
    for ( spins = 0; r->out_cons != r->out_prod && spins < 100; spins++ )
        check_rc(hypercall_sched_op(SCHEDOP_yield, NULL), 0);
    if ( r->out_cons != r->out_prod )
        test_fail("SCHEDOP_yield never let the ring drain");

    /* A producer far ahead of the consumer: bounded, no crash. */
    r->out_prod = r->out_cons + 0x100000;
    check_rc(evtchn(EVTCHNOP_send, &send), 0);
    if ( r->out_cons != r->out_prod )
        test_fail("a bogus producer index was not caught up");

    st.port = start_info->console.domU.evtchn;
    check_rc(evtchn(EVTCHNOP_status, &st), 0);
    if ( st.status != EVTCHNSTAT_interdomain )
        test_fail("console port status %u", st.status);
    st.port = start_info->store_evtchn;
    check_rc(evtchn(EVTCHNOP_status, &st), 0);
    if ( st.status != EVTCHNSTAT_interdomain )
        test_fail("xenstore port status %u", st.status);
    /* Xen's table grows by buckets of 64 ports: 60 is in the first. */
    st.port = 60;
    check_rc(evtchn(EVTCHNOP_status, &st), 0);
    if ( st.status != EVTCHNSTAT_closed )
        test_fail("port 60 status %u, expected closed", st.status);
    st.port = 100;
    check_rc(evtchn(EVTCHNOP_status, &st), -XEN_EINVAL);
    st.port = 1u << 20;
    check_rc(evtchn(EVTCHNOP_status, &st), -XEN_EINVAL);
    st.dom = 7;
    st.port = 1;
    check_rc(evtchn(EVTCHNOP_status, &st), -XEN_ESRCH);

    send.port = 100;
    check_rc(evtchn(EVTCHNOP_send, &send), -XEN_EINVAL);
    check_rc(evtchn(EVTCHNOP_send, BAD_XEN), -XEN_EFAULT);
    check_rc(evtchn(EVTCHNOP_status, BAD_UNMAPPED), -XEN_EFAULT);
    check_rc(evtchn(99, &send), -XEN_ENOSYS);
    test_success();
}
