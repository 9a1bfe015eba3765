/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SCHEDOP_poll as Xen's do_poll(): its checks (at most 128 ports, a
 * readable list, ports below the ABI's limit), an immediate return when
 * a listed port is pending or an upcall is deliverable, a sleep ended by
 * the timeout (absolute system time) or by a polled port going pending
 * (VIRQ_TIMER on a masked port, as Linux's spinlocks poll).
 */
#include "guest.h"
#include "event.h"

const char test_title[] = "SCHEDOP_poll: checks, pending ports, timeouts";

void test_main(void)
{
    evtchn_port_t ports[130] = { 0 };
    long ipi, timer;
    uint64_t t0, t1;

    if ( event_init() )
        return test_error("event_init failed");
    ipi = evtchn_bind_ipi_on(0);
    timer = evtchn_bind_virq_on(VIRQ_TIMER, 0);

    check_rc(sched_poll(ports, 129, 0), -XEN_EINVAL);
    check_rc(sched_poll(ports, ~0u, 0), -XEN_EINVAL);
    check_rc(sched_poll(BAD_XEN, 1, 0), -XEN_EFAULT);
    check_rc(sched_poll(BAD_UNMAPPED, 1, 0), -XEN_EFAULT);
    check_rc(hypercall_sched_op(SCHEDOP_poll, BAD_XEN), -XEN_EFAULT);
    ports[0] = 4096;                            /* beyond 2-level */
    check_rc(sched_poll(ports, 1, 0), -XEN_EINVAL);
    ports[0] = ~0u;
    check_rc(sched_poll(ports, 1, 0), -XEN_EINVAL);

    /* A listed port already pending: back at once. */
    evtchn_mask(ipi);
    check_rc(evtchn_send(ipi), 0);
    ports[0] = 1;
    ports[1] = ipi;
    check_rc(sched_poll(ports, 2, 0), 0);
    /* Ports are checked in order: a bad one after a pending one is fine. */
    ports[0] = ipi;
    ports[1] = 5000;
    check_rc(sched_poll(ports, 2, 0), 0);

    /* A timeout in the past: sleeps, the poll timer wakes it at once. */
    ports[0] = 1;
    t0 = system_time();
    check_rc(sched_poll(ports, 1, 1), 0);
    check_rc(sched_poll(ports, 0, t0), 0);
    /* And one 2^63 ns or more ahead: negative to Xen, past. */
    check_rc(sched_poll(ports, 1, ~0ULL), 0);
    check_rc(sched_poll(ports, 0, 1ULL << 63), 0);

    /* A deliverable upcall also ends it. */
    events_enable();
    event_log_reset();
    evtchn_unmask(ipi);                         /* delivered on return */
    if ( event_seen(ipi) != 1 )
        test_fail("ipi not delivered");
    events_disable();

    /* The timeout, 20 ms ahead. */
    t0 = system_time();
    check_rc(sched_poll(ports, 1, t0 + 20000000), 0);
    t1 = system_time();
    if ( t1 - t0 < 20000000 )
        test_fail("poll with a 20 ms timeout returned after %lu ns",
                  (unsigned long)(t1 - t0));

    /* A masked VIRQ_TIMER port ends the poll long before its timeout. */
    evtchn_mask(timer);
    ports[0] = timer;
    t0 = system_time();
    check_rc(set_timer_op(t0 + 10000000), 0);
    check_rc(sched_poll(ports, 1, t0 + 5000000000ULL), 0);
    t1 = system_time();
    if ( !evtchn_test_pending(timer) )
        test_fail("poll returned without the timer port pending");
    if ( t1 - t0 < 10000000 || t1 - t0 > 4000000000ULL )
        test_fail("woken after %lu ns, expected 10 ms .. 4 s",
                  (unsigned long)(t1 - t0));
    test_success();
}
