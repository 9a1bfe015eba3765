/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Upcalls on the 2-level ABI: a pending event reaches the event callback
 * on the next return to the guest only while evtchn_upcall_mask is clear;
 * the callback runs masked and HYPERVISOR_iret unmasks; a masked port
 * raises nothing until EVTCHNOP_unmask; a timer that expired while the
 * guest spun with events masked is delivered when it unmasks.
 */
#include "guest.h"
#include "event.h"

const char test_title[] = "Event upcalls: masks, callback, iret, timer";

static void kick(void)
{
    hypercall_xen_version(XENVER_version, NULL);
}

void test_main(void)
{
    long ipi, loop_a, timer;
    evtchn_bind_interdomain_t b = { .remote_dom = DOMID_SELF };
    unsigned int i;

    if ( event_init() )
        return test_error("event_init failed");
    ipi = evtchn_bind_ipi_on(0);
    timer = evtchn_bind_virq_on(VIRQ_TIMER, 0);

    /* Masked: pending stays pending, no callback. */
    event_log_reset();
    check_rc(evtchn_send(ipi), 0);
    kick();
    if ( upcall_count || !event_vcpu_info->evtchn_upcall_pending )
        test_fail("masked: %u upcalls, pending %u", upcall_count,
                  event_vcpu_info->evtchn_upcall_pending);

    /* Unmasked: the next return delivers it, masked inside, unmasked after. */
    events_enable();
    kick();
    if ( upcall_count != 1 || event_seen(ipi) != 1 )
        test_fail("unmasked: %u upcalls, port seen %u times", upcall_count,
                  event_seen(ipi));
    if ( upcall_mask_seen != 1 )
        test_fail("the callback ran with evtchn_upcall_mask %u",
                  upcall_mask_seen);
    if ( event_vcpu_info->evtchn_upcall_mask )
        test_fail("iret left events masked");

    /* Delivered straight from the hypercall that raised it. */
    event_log_reset();
    check_rc(evtchn_send(ipi), 0);
    if ( upcall_count != 1 || event_seen(ipi) != 1 )
        test_fail("send: %u upcalls", upcall_count);

    /* A masked port: nothing until EVTCHNOP_unmask. */
    event_log_reset();
    evtchn_mask(ipi);
    check_rc(evtchn_send(ipi), 0);
    kick();
    if ( upcall_count )
        test_fail("a masked port made %u upcalls", upcall_count);
    check_rc(evtchn_unmask(ipi), 0);
    if ( upcall_count != 1 || event_seen(ipi) != 1 )
        test_fail("unmask delivered %u upcalls", upcall_count);

    /* Loopback: a send on one end arrives on the other. */
    loop_a = evtchn_alloc_unbound_self();
    b.remote_port = loop_a;
    check_rc(evtchn_op(EVTCHNOP_bind_interdomain, &b), 0);
    event_log_reset();
    check_rc(evtchn_send(b.local_port), 0);
    if ( event_seen(loop_a) != 1 )
        test_fail("loopback: port %ld seen %u times", loop_a,
                  event_seen(loop_a));

    /* A timer in the past fires at once: VIRQ_TIMER. */
    event_log_reset();
    check_rc(set_timer_op(1), 0);
    kick();
    if ( event_seen(timer) != 1 )
        test_fail("past timer: VIRQ_TIMER seen %u times", event_seen(timer));

    /* Spinning masked, the expired timer waits for the unmask. */
    events_disable();
    event_log_reset();
    check_rc(set_timer_op(system_time() + 1000), 0);
    for ( i = 0; i < 2000; i++ )
        kick();
    if ( upcall_count )
        test_fail("an upcall while masked");
    events_enable();
    kick();
    if ( event_seen(timer) != 1 )
        test_fail("after unmask: VIRQ_TIMER seen %u times", event_seen(timer));

    /* set_timer_op(0) stops it. */
    event_log_reset();
    check_rc(set_timer_op(system_time() + 1000000000ULL), 0);
    check_rc(set_timer_op(0), 0);
    kick();
    if ( event_seen(timer) )
        test_fail("a stopped timer fired");
    test_success();
}
