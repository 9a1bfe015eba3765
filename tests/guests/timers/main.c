/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest's timers, raising VIRQ_TIMER: VCPUOP singleshot (with and
 * without VCPU_SSHOTTMR_future), stop, periodic (Xen's 1 ms minimum and
 * STIME_DELTA_MAX), set_timer_op's far-future rule (100 ms), ticks in
 * order and not early, and an expiry that happens while the guest spins
 * with events masked, delivered when it unmasks.  Bounds are generous:
 * TCG is slow, so only "not early" and "within seconds" are checked.
 */
#include "guest.h"
#include "event.h"

const char test_title[] = "Timers: singleshot, periodic, set_timer_op";

#define MS  1000000ULL

static long timer;

/*
 * Ticks are counted from arm(), before the timer is set, not from
 * wait_tick(): on a loaded host the vCPU may be off its CPU long enough
 * for the tick to come first.  (The event log is never reset: a reset
 * would drop such a tick, and the wait then sleep for good.)
 */
static unsigned int ticks;      /* VIRQ_TIMER upcalls already counted */

/* Masked: what comes from here on comes after the timer is set. */
static void arm(void)
{
    events_disable();
    ticks = event_seen(timer);
}

/*
 * Block until a VIRQ_TIMER not yet counted; its arrival time.  Masked
 * from the check to the block (SCHEDOP_block unmasks, and returns at
 * once if an event is pending), so a tick between the two is not taken
 * and then slept through.  Returns unmasked.
 */
static uint64_t wait_tick(void)
{
    events_disable();
    while ( event_seen(timer) == ticks )
    {
        hypercall_sched_op(SCHEDOP_block, NULL);
        events_disable();
    }
    ticks = event_seen(timer);
    events_enable();
    return system_time();
}

static long singleshot(uint64_t when, uint32_t flags)
{
    struct vcpu_set_singleshot_timer ss = {
        .timeout_abs_ns = when, .flags = flags,
    };

    return vcpu_op(VCPUOP_set_singleshot_timer, 0, &ss);
}

static long periodic(uint64_t period)
{
    struct vcpu_set_periodic_timer p = { .period_ns = period };

    return vcpu_op(VCPUOP_set_periodic_timer, 0, &p);
}

static void errors(void)
{
    check_rc(singleshot(1, VCPU_SSHOTTMR_future), -XEN_ETIME);
    check_rc(singleshot(system_time() - MS, VCPU_SSHOTTMR_future), -XEN_ETIME);
    check_rc(vcpu_op(VCPUOP_set_singleshot_timer, 0, BAD_XEN), -XEN_EFAULT);
    check_rc(vcpu_op(VCPUOP_set_singleshot_timer, NO_VCPU, NULL), -XEN_ENOENT);
    check_rc(vcpu_op(VCPUOP_stop_singleshot_timer, NO_VCPU, NULL), -XEN_ENOENT);
    check_rc(periodic(MS - 1), -XEN_EINVAL);
    check_rc(periodic(0), -XEN_EINVAL);
    check_rc(periodic(1ULL << 62), -XEN_EINVAL);
    check_rc(periodic(~0ULL), -XEN_EINVAL);
    check_rc(vcpu_op(VCPUOP_set_periodic_timer, 0, BAD_UNMAPPED), -XEN_EFAULT);
    check_rc(vcpu_op(VCPUOP_stop_periodic_timer, NO_VCPU, NULL), -XEN_ENOENT);
}

static void check_window(const char *what, uint64_t t, uint64_t lo,
                         uint64_t hi)
{
    if ( t < lo )
        test_fail("%s: %lu ns early", what, (unsigned long)(lo - t));
    else if ( t > hi )
        test_fail("%s: %lu ms late", what, (unsigned long)((t - hi) / MS));
}

void test_main(void)
{
    uint64_t t0;
    unsigned int i;
    bool late;

    if ( event_init() )
        return test_error("event_init failed");
    timer = evtchn_bind_virq_on(VIRQ_TIMER, 0);
    errors();

    /* A past singleshot without "future" fires at once. */
    arm();
    check_rc(singleshot(1, 0), 0);
    wait_tick();
    /*
     * So does one 2^63 ns or more ahead, negative to Xen's signed time,
     * with "future" too (Xen compares it unsigned): never a deadline
     * that wraps (in TSC-deadline mode, an interrupt at every re-arm).
     */
    arm();
    check_rc(singleshot(~0ULL, 0), 0);
    wait_tick();
    arm();
    check_rc(singleshot(1ULL << 63, VCPU_SSHOTTMR_future), 0);
    wait_tick();

    /*
     * Stopped before it expires: the later one comes instead.  Unless
     * the host kept the vCPU off its CPU until after the first one's
     * deadline, which then proves nothing: both may come.
     */
    arm();
    t0 = system_time();
    check_rc(singleshot(t0 + 40 * MS, VCPU_SSHOTTMR_future), 0);
    check_rc(vcpu_op(VCPUOP_stop_singleshot_timer, 0, NULL), 0);
    late = system_time() >= t0 + 40 * MS;
    check_rc(set_timer_op(t0 + 80 * MS), 0);
    if ( !late )
        check_window("set_timer_op 80 ms", wait_tick(), t0 + 80 * MS,
                     t0 + 5000 * MS);
    else
        while ( wait_tick() < t0 + 80 * MS )
            ;

    /* set_timer_op far ahead (> 2^50 ns) or negative: 100 ms. */
    arm();
    t0 = system_time();
    check_rc(set_timer_op(t0 + (1ULL << 51)), 0);
    check_window("huge timeout", wait_tick(), t0 + 100 * MS, t0 + 5000 * MS);
    arm();
    t0 = system_time();
    check_rc(set_timer_op(1ULL << 63), 0);
    check_window("negative timeout", wait_tick(), t0 + 100 * MS,
                 t0 + 5000 * MS);

    /*
     * Periodic, 15 ms: the first at once (the upcall on the way back from
     * the hypercall), then ticks in order, spaced.  Tick n is sent at
     * least n periods after the first, which was sent after t0; when each
     * is seen is up to the host (a tick seen late is followed by one seen
     * less than a period later), so "not early" is measured from t0, not
     * from the tick before.
     */
    t0 = system_time();
    ticks = event_seen(timer);          /* unmasked: the upcall comes */
    check_rc(periodic(15 * MS), 0);
    if ( event_seen(timer) == ticks )
        test_fail("periodic: no tick at once");
    ticks = event_seen(timer);
    for ( i = 1; i <= 5; i++ )
        check_window("periodic tick", wait_tick(), t0 + i * 15 * MS,
                     t0 + i * 15 * MS + 5000 * MS);
    check_rc(vcpu_op(VCPUOP_stop_periodic_timer, 0, NULL), 0);
    arm();
    t0 = system_time();
    check_rc(singleshot(t0 + 60 * MS, 0), 0);
    check_window("after stopping periodic", wait_tick(), t0 + 60 * MS,
                 t0 + 5000 * MS);

    /* Spinning masked past the deadline: delivered only on unmask. */
    events_disable();
    event_log_reset();
    t0 = system_time();
    check_rc(singleshot(t0 + 5 * MS, 0), 0);
    while ( system_time() < t0 + 30 * MS )
        hypercall_xen_version(XENVER_version, NULL);
    if ( upcall_count || !evtchn_test_pending(timer) )
        test_fail("masked spin: %u upcalls, timer pending %d", upcall_count,
                  evtchn_test_pending(timer));
    events_enable();
    hypercall_xen_version(XENVER_version, NULL);
    if ( event_seen(timer) != 1 )
        test_fail("after unmask: VIRQ_TIMER seen %u times", event_seen(timer));
    test_success();
}
