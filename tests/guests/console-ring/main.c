/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The console ring (xen/io/console.h) as xenconsoled serves it: output is
 * consumed when the guest notifies the console port (not when it merely
 * yields), and the backend notifies back once it has consumed; a guest's
 * "\r\n" prints as one line end; a bogus producer is caught up; what is
 * left in the ring at shutdown still reaches the console.  EVTCHNOP_status
 * shows the start-of-day ports bound.
 */
#include "guest.h"
#include "event.h"
#include "cons-ring.h"

const char test_title[] = "Console ring, EVTCHNOP_send and EVTCHNOP_status";

static void test_notify(struct xencons_interface *r, uint32_t port)
{
    unsigned int i;

    event_log_reset();
    cons_ring_put(r, "console-ring: a CRLF line\r\n");
    check_rc(cons_ring_notify(), 0);
    if ( r->out_cons != r->out_prod )
        test_fail("EVTCHNOP_send left the ring unconsumed");
    if ( event_seen(port) != 1 )
        test_fail("not notified after consumption (seen %u)",
                  event_seen(port));

    /* Unnotified output waits: Xen's backend is woken by the event only. */
    cons_ring_put(r, "console-ring: sent later\n");
    for ( i = 0; i < 3; i++ )
        check_rc(hypercall_sched_op(SCHEDOP_yield, NULL), 0);
    if ( r->out_cons == r->out_prod )
        test_fail("consumed without a notification");
    event_log_reset();
    check_rc(cons_ring_notify(), 0);
    if ( r->out_cons != r->out_prod || event_seen(port) != 1 )
        test_fail("late notification: cons %u prod %u seen %u",
                  r->out_cons, r->out_prod, event_seen(port));

    /* Nothing to consume: no notification back. */
    event_log_reset();
    check_rc(cons_ring_notify(), 0);
    if ( event_seen(port) )
        test_fail("notified with nothing consumed");

    /* A producer far ahead of the consumer: bounded, no crash. */
    r->out_prod = r->out_cons + 0x100000;
    check_rc(cons_ring_notify(), 0);
    if ( r->out_cons != r->out_prod )
        test_fail("a bogus producer index was not caught up");
    cons_ring_put(r, "\nconsole-ring: after the bogus producer\n");
    check_rc(cons_ring_notify(), 0);
}

static void test_status(void)
{
    evtchn_send_t send = { .port = start_info->console.domU.evtchn };
    evtchn_status_t st = { .dom = DOMID_SELF };

    st.port = start_info->console.domU.evtchn;
    check_rc(evtchn_op(EVTCHNOP_status, &st), 0);
    if ( st.status != EVTCHNSTAT_interdomain )
        test_fail("console port status %u", st.status);
    st.port = start_info->store_evtchn;
    check_rc(evtchn_op(EVTCHNOP_status, &st), 0);
    if ( st.status != EVTCHNSTAT_interdomain )
        test_fail("xenstore port status %u", st.status);
    /* Xen's table grows by buckets of 64 ports: 60 is in the first. */
    st.port = 60;
    check_rc(evtchn_op(EVTCHNOP_status, &st), 0);
    if ( st.status != EVTCHNSTAT_closed )
        test_fail("port 60 status %u, expected closed", st.status);
    st.port = 100;
    check_rc(evtchn_op(EVTCHNOP_status, &st), -XEN_EINVAL);
    st.port = 1u << 20;
    check_rc(evtchn_op(EVTCHNOP_status, &st), -XEN_EINVAL);
    st.dom = 7;
    st.port = 1;
    check_rc(evtchn_op(EVTCHNOP_status, &st), -XEN_ESRCH);

    send.port = 100;
    check_rc(evtchn_op(EVTCHNOP_send, &send), -XEN_EINVAL);
    check_rc(evtchn_op(EVTCHNOP_send, BAD_XEN), -XEN_EFAULT);
    check_rc(evtchn_op(EVTCHNOP_status, BAD_UNMAPPED), -XEN_EFAULT);
    check_rc(evtchn_op(99, &send), -XEN_ENOSYS);
}

void test_main(void)
{
    static const char crlf[] = "console_io: a CRLF line\r\n";
    struct xencons_interface *r = cons_ring();

    if ( !r )
        return test_error("console page not in the p2m");
    if ( event_init() )
        return test_error("event_init failed");
    events_enable();

    test_notify(r, start_info->console.domU.evtchn);
    test_status();
    check_rc(hypercall_console_io(CONSOLEIO_write, sizeof(crlf) - 1, crlf),
             0);

    /* Never notified: the shim writes it out as the VM ends. */
    cons_ring_put(r, "console-ring: left in the ring at shutdown\n");
    test_success();
}
