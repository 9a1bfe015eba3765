/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Port limits: a domU gets ports up to max_evtchn_port 1023 (xl's
 * default), allocated lowest first in buckets of 64 (ports beyond the
 * last bucket are -EINVAL, not closed), then -ENOSPC for every way of
 * asking for one; a closed port is reused; reset empties the table.
 */
#include "guest.h"
#include "event.h"

const char test_title[] = "Event channel port limits and -ENOSPC";

void test_main(void)
{
    evtchn_status_t st;
    evtchn_reset_t r = { .dom = DOMID_SELF };
    evtchn_bind_interdomain_t b = { .remote_dom = DOMID_SELF };
    unsigned int n = 0;
    long port, last = 0;

    if ( event_init() )
        return test_error("event_init failed");
    check_rc(evtchn_status_of(63, &st), 0);
    check_rc(evtchn_status_of(64, &st), -XEN_EINVAL);

    while ( (port = evtchn_alloc_unbound_self()) > 0 )
    {
        if ( port != last + 1 && last )
            test_fail("port %ld after %ld: not lowest first", port, last);
        last = port;
        if ( ++n > 5000 )
            break;
    }
    check_rc(port, -XEN_ENOSPC);
    check_rc(last, 1023);
    check_rc(n, 1021);                          /* 3 .. 1023 */
    check_rc(evtchn_status_of(1023, &st), 0);
    check_rc(st.status, EVTCHNSTAT_unbound);
    check_rc(evtchn_status_of(1024, &st), -XEN_EINVAL);
    check_rc(evtchn_status_of(4095, &st), -XEN_EINVAL);

    check_rc(evtchn_bind_virq_on(VIRQ_TIMER, 0), -XEN_ENOSPC);
    check_rc(evtchn_bind_ipi_on(0), -XEN_ENOSPC);
    b.remote_port = 500;
    check_rc(evtchn_op(EVTCHNOP_bind_interdomain, &b), -XEN_ENOSPC);

    check_rc(evtchn_close(700), 0);
    check_rc(evtchn_bind_ipi_on(0), 700);
    check_rc(evtchn_alloc_unbound_self(), -XEN_ENOSPC);

    check_rc(evtchn_op(EVTCHNOP_reset, &r), 0);
    check_rc(evtchn_alloc_unbound_self(), 1);
    test_success();
}
