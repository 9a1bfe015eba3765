/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The PV clock: vcpu_time_info with an even version, Xen's scale from the
 * TSC, XEN_PVCLOCK_TSC_STABLE_BIT; system time that never goes back over
 * many reads and across updates; the second copy registered with
 * VCPUOP_register_vcpu_time_memory_area; the wallclock in shared_info.
 */
#include "guest.h"
#include "event.h"

/* A guest address as the 64-bit field of a registration takes it. */
#define ADDR64(p)   ((uint64_t)(unsigned long)(p))

const char test_title[] = "PV time: vcpu_time_info, monotonic, wallclock";

static struct vcpu_time_info copy;

void test_main(void)
{
    const volatile struct vcpu_time_info *t;
    uint64_t prev, now, first;
    uint32_t version;
    unsigned int i;

    if ( event_init() )
        return test_error("event_init failed");
    t = &event_vcpu_info->time;
    if ( (t->version & 1) || !t->version || !t->tsc_to_system_mul ||
         t->tsc_shift < -32 || t->tsc_shift > 32 )
        test_fail("time info: version %u mul %u shift %d", t->version,
                  t->tsc_to_system_mul, t->tsc_shift);
    if ( !(t->flags & XEN_PVCLOCK_TSC_STABLE_BIT) )
        test_fail("flags %#x: no TSC_STABLE", t->flags);

    first = prev = system_time();
    for ( i = 0; i < 100000; i++ )
    {
        now = system_time();
        if ( now < prev )
            return test_fail("system time went back: %lu then %lu",
                             (unsigned long)prev, (unsigned long)now);
        prev = now;
        if ( i % 1000 == 0 )                    /* updates in between */
            hypercall_sched_op(SCHEDOP_poll,
                               &(struct sched_poll){ .timeout = 1 });
    }
    if ( prev <= first )
        test_fail("system time stood still");

    /* The second copy, written at once and on each update. */
    check_rc(vcpu_op(VCPUOP_register_vcpu_time_memory_area, 0, BAD_XEN),
             -XEN_EFAULT);
    check_rc(vcpu_op(VCPUOP_register_vcpu_time_memory_area, 0,
                     &(uint64_t){ ADDR64(BAD_XEN) }), -XEN_EFAULT);
    check_rc(vcpu_op(VCPUOP_register_vcpu_time_memory_area, NO_VCPU,
                     &(uint64_t){ ADDR64(&copy) }), -XEN_ENOENT);
    check_rc(vcpu_op(VCPUOP_register_vcpu_time_memory_area, 0,
                     &(uint64_t){ ADDR64(&copy) }), 0);
    if ( (copy.version & 1) || copy.tsc_to_system_mul != t->tsc_to_system_mul ||
         copy.tsc_shift != t->tsc_shift )
        test_fail("copy: version %u mul %u", copy.version,
                  copy.tsc_to_system_mul);
    version = copy.version;
    hypercall_sched_op(SCHEDOP_poll, &(struct sched_poll){ .timeout = 1 });
    if ( copy.version == version || (copy.version & 1) )
        test_fail("copy version %u -> %u", version, copy.version);
    now = pvclock_read(&copy);
    if ( now < prev )
        test_fail("the copy reads %lu, behind %lu", (unsigned long)now,
                  (unsigned long)prev);

    /* Wallclock: UTC at system time 0, after 2020, version even. */
    if ( shared_info->wc_version & 1 )
        test_fail("wc_version %u odd", shared_info->wc_version);
    if ( shared_info->wc_sec + ((uint64_t)shared_info->xen_wc_sec_hi << 32) <
         1577836800ULL || shared_info->wc_nsec >= 1000000000u )
        test_fail("wallclock %u.%09u", shared_info->wc_sec,
                  shared_info->wc_nsec);
    test_success();
}
