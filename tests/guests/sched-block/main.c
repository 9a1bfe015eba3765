/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SCHEDOP_block as Xen's vcpu_block_enable_events(): it unmasks events,
 * returns at once if one is pending (delivering it on the way out), and
 * otherwise sleeps until an event arrives: here the guest's timer,
 * singleshot and set_timer_op, each waking it no earlier than its
 * deadline.
 */
#include "guest.h"
#include "event.h"

const char test_title[] = "SCHEDOP_block: unmask, pending, timer wake-up";

/*
 * Before a timer is set: masked, so that its tick stays pending until
 * block_until()'s SCHEDOP_block, however long the host keeps this vCPU
 * off its CPU in between; and the log reset.
 */
static void arm(void)
{
    events_disable();
    event_log_reset();
}

static void block_until(long timer, uint64_t deadline, const char *what)
{
    uint64_t t1;

    check_rc(hypercall_sched_op(SCHEDOP_block, NULL), 0);
    t1 = system_time();
    if ( event_seen(timer) != 1 )
        test_fail("%s: VIRQ_TIMER seen %u times", what, event_seen(timer));
    if ( t1 < deadline )
        test_fail("%s: woken %lu ns early", what,
                  (unsigned long)(deadline - t1));
    if ( t1 > deadline + 5000000000ULL )
        test_fail("%s: woken %lu ms late", what,
                  (unsigned long)((t1 - deadline) / 1000000));
}

void test_main(void)
{
    struct vcpu_set_singleshot_timer ss = { 0 };
    long ipi, timer;
    uint64_t t;

    if ( event_init() )
        return test_error("event_init failed");
    ipi = evtchn_bind_ipi_on(0);
    timer = evtchn_bind_virq_on(VIRQ_TIMER, 0);

    /* Pending already: no sleep, delivered on the way out. */
    evtchn_send(ipi);
    event_log_reset();
    check_rc(hypercall_sched_op(SCHEDOP_block, NULL), 0);
    if ( event_vcpu_info->evtchn_upcall_mask || event_seen(ipi) != 1 )
        test_fail("pending: mask %u, seen %u",
                  event_vcpu_info->evtchn_upcall_mask, event_seen(ipi));

    /* A past timer: it fires at once. */
    arm();
    check_rc(set_timer_op(1), 0);
    block_until(timer, 0, "past timer");

    arm();
    t = system_time() + 20000000;
    check_rc(set_timer_op(t), 0);
    block_until(timer, t, "set_timer_op 20 ms");

    arm();
    ss.timeout_abs_ns = system_time() + 30000000;
    ss.flags = VCPU_SSHOTTMR_future;
    check_rc(vcpu_op(VCPUOP_set_singleshot_timer, 0, &ss), 0);
    block_until(timer, ss.timeout_abs_ns, "singleshot 30 ms");
    test_success();
}
