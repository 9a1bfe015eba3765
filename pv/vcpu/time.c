/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest's time, as xen/arch/x86/time.c and common/sched/core.c give
 * it to a PV guest:
 *  - system time: ns since boot, read by the guest as system_time +
 *    scale(rdtsc - tsc_timestamp) from its vcpu_time_info, with Xen's
 *    mul/shift from the TSC frequency measured at boot (set_time_scale())
 *    and the version protocol (odd while we write);
 *  - the wallclock in shared_info: the UTC time at system time 0;
 *  - the guest's timers: set_timer_op and VCPUOP singleshot/periodic,
 *    raising VIRQ_TIMER, on the shim's timers (shim/timer.h).
 * The guest clock is one function of the TSC (origin time_tsc0/ns0 and
 * one scale), so every copy the guest reads agrees and it never goes
 * back: hence XEN_PVCLOCK_TSC_STABLE_BIT.
 */
#include "shim/lib.h"
#include <xen/errno.h>
#include "arch/x86/barrier.h"
#include "arch/x86/rtc.h"
#include "pv/domain.h"
#include "pv/event/event.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/vcpu/smp.h"
#include "pv/vcpu/time.h"
#include "pv/compat/layout.h"
#include "pv/vcpu/time-scale.h"

#define NS_PER_SEC      1000000000ULL
#define MILLISECS(ms)   ((uint64_t)(ms) * 1000000ULL)
/* Xen's STIME_DELTA_MAX: periods beyond it are refused. */
#define STIME_DELTA_MAX ((int64_t)((uint64_t)~0ULL >> 2))
/* How often the guest's copy is refreshed, as Xen's calibration. */
#define TIME_UPDATE_PERIOD  MILLISECS(1000)

static uint64_t scale_delta(const struct domain *d, uint64_t delta)
{
    struct time_scale ts = {
        .shift = d->time_shift, .mul_frac = d->time_mul,
    };

    return time_scale_delta(ts, delta);
}

/* The guest's system time at TSC value @tsc. */
static uint64_t guest_time_at(const struct domain *d, uint64_t tsc)
{
    return d->time_ns0 + scale_delta(d, tsc - d->time_tsc0);
}

/*
 * The version protocol toward a guest copy (Xen's
 * update_secondary_system_time()): false if not even the version could
 * be written.
 */
static bool publish_copy(unsigned long va, const struct vcpu_time_info *t)
{
    struct vcpu_time_info u = *t;

    u.version |= 1;
    if ( copy_to_guest(va, &u.version, sizeof(u.version)) )
        return false;
    smp_wmb();
    copy_to_guest(va, &u, sizeof(u));
    smp_wmb();
    u.version = t->version;
    copy_to_guest(va, &u.version, sizeof(u.version));
    return true;
}

/*
 * Xen keeps the copy it failed to write and writes that; the latest one
 * (v->time) is written here instead, which is the same unless a later
 * kernel-mode update also failed, where Xen's would go back in time.
 */
void pv_update_secondary_time(struct vcpu *v)
{
    if ( !v->time_info_guest || publish_copy(v->time_info_guest, &v->time) )
        v->time_update_pending = false;
}

void pv_update_vcpu_system_time(struct vcpu *v)
{
    struct domain *d = v->domain;
    volatile struct vcpu_time_info *u = &v->vcpu_info->time;
    struct vcpu_time_info t = v->time;
    uint64_t tsc = rdtsc(), st = guest_time_at(d, tsc);

    /* Never behind what the last copy extrapolates to (rounding). */
    if ( t.tsc_timestamp && t.system_time +
         scale_delta(d, tsc - t.tsc_timestamp) > st )
        st = t.system_time + scale_delta(d, tsc - t.tsc_timestamp);

    t.tsc_timestamp = tsc;
    t.system_time = st;
    t.tsc_to_system_mul = d->time_mul;
    t.tsc_shift = d->time_shift;
    t.flags = XEN_PVCLOCK_TSC_STABLE_BIT;
    /* The guest may have written the version: go on from what is there. */
    t.version = (u->version + 1) | 1;

    u->version = t.version;
    smp_wmb();
    u->tsc_timestamp = t.tsc_timestamp;
    u->system_time = t.system_time;
    u->tsc_to_system_mul = t.tsc_to_system_mul;
    u->tsc_shift = t.tsc_shift;
    u->flags = t.flags;
    smp_wmb();
    t.version++;
    u->version = t.version;
    v->time = t;

    /* From user mode the kernel's mapping may be absent: on entry, then. */
    if ( v->time_info_guest && !publish_copy(v->time_info_guest, &t) &&
         !v->kernel_mode )
        v->time_update_pending = true;
}

/* Xen's update_domain_wallclock_time(): wc_* is UTC at system time 0. */
static void set_wallclock(struct domain *d, uint64_t utc_secs)
{
    shared_info_t *s = d->shared_info;
    uint64_t now = NOW(), wc;

    wc = utc_secs * NS_PER_SEC > now ? utc_secs * NS_PER_SEC - now : 0;
    if ( d->compat )
    {
        /* A 32-bit guest's: elsewhere, and wc_sec_hi in its arch part. */
        uint32_t ver = compat_get(s, shared_info, wc_version);

        compat_put(s, shared_info, wc_version, (ver + 1) | 1);
        smp_wmb();
        compat_put(s, shared_info, wc_sec, wc / NS_PER_SEC);
        compat_put(s, shared_info, arch__wc_sec_hi, (wc / NS_PER_SEC) >> 32);
        compat_put(s, shared_info, wc_nsec, wc % NS_PER_SEC);
        smp_wmb();
        compat_put(s, shared_info, wc_version, ((ver + 1) | 1) + 1);
        return;
    }
    s->wc_version = (s->wc_version + 1) | 1;
    smp_wmb();
    s->wc_sec = (uint32_t)(wc / NS_PER_SEC);
    s->wc_sec_hi = (wc / NS_PER_SEC) >> 32;
    s->wc_nsec = wc % NS_PER_SEC;
    smp_wmb();
    s->wc_version++;
}

static void __hot_text timer_event(void *data)
{
    send_guest_vcpu_virq(data, VIRQ_TIMER);
}

/*
 * Xen's vcpu_periodic_timer_work(): an event per period, at most.  From
 * the timer on @v's CPU, and from any vCPU's VCPUOP (no domain lock):
 * the period is read once; two running at once may each send an event,
 * as a stop meanwhile may let one more through (Xen's race likewise).
 */
static void periodic_work(struct vcpu *v)
{
    uint64_t now = NOW(), next, period = ACCESS_ONCE(v->periodic_period);

    if ( !period )
        return;
    next = ACCESS_ONCE(v->periodic_last_event) + period;
    if ( now >= next )
    {
        send_guest_vcpu_virq(v, VIRQ_TIMER);
        ACCESS_ONCE(v->periodic_last_event) = now;
        next = now + period;
    }
    set_timer(&v->periodic_timer, next);
}

static void periodic_timer_fn(void *data)
{
    periodic_work(data);
}

/*
 * Once a second, under the domain lock (timers run without it): another
 * vCPU's VCPUOPs may move this vCPU's vcpu_info and time area meanwhile.
 */
static void time_update_fn(void *data)
{
    struct vcpu *v = data;
    bool taken = pv_domain_lock_unless_held();

    pv_update_vcpu_system_time(v);
    pv_domain_unlock_taken(taken);
    set_timer(&v->time_update_timer, NOW() + TIME_UPDATE_PERIOD);
}

void pv_time_init(struct domain *d)
{
    struct time_scale ts = time_scale_of(cpu_khz() * 1000);
    unsigned int i;

    d->time_mul = ts.mul_frac;
    d->time_shift = ts.shift;
    d->time_tsc0 = rdtsc();
    d->time_ns0 = NOW();
    set_wallclock(d, rtc_read_seconds());
    /* vCPU n's timers live on CPU n, where it runs. */
    for ( i = 0; i < d->max_vcpus; i++ )
    {
        struct vcpu *v = &d->vcpu[i];

        init_timer(&v->singleshot_timer, timer_event, v, i);
        init_timer(&v->periodic_timer, periodic_timer_fn, v, i);
        init_timer(&v->time_update_timer, time_update_fn, v, i);
    }
    pv_time_vcpu_start(&d->vcpu[0]);
}

/* @v starts running on its CPU: its time, refreshed from now on. */
void pv_time_vcpu_start(struct vcpu *v)
{
    if ( !v->time_update_timer.active )
        set_timer(&v->time_update_timer, NOW() + TIME_UPDATE_PERIOD);
    pv_update_vcpu_system_time(v);
}

/*
 * A guest's absolute expiry as the shim's timers take it: Xen's are a
 * signed s_time_t, so one of 2^63 ns or more is in the past there and
 * fires at once; here too.
 */
uint64_t pv_guest_expiry(uint64_t t)
{
    return (int64_t)t < 0 ? NOW() : t;
}

long __hot_text pv_set_singleshot_timer(struct vcpu *v, uint64_t timeout,
                                        bool future)
{
    if ( future && timeout < NOW() )
        return -XEN_ETIME;
    set_timer(&v->singleshot_timer, pv_guest_expiry(timeout));
    return 0;
}

void pv_stop_singleshot_timer(struct vcpu *v)
{
    stop_timer(&v->singleshot_timer);
}

long pv_set_periodic_timer(struct vcpu *v, uint64_t period_ns)
{
    if ( period_ns < MILLISECS(1) || period_ns > (uint64_t)STIME_DELTA_MAX )
        return -XEN_EINVAL;
    ACCESS_ONCE(v->periodic_period) = period_ns;
    periodic_work(v);
    return 0;
}

void pv_stop_periodic_timer(struct vcpu *v)
{
    ACCESS_ONCE(v->periodic_period) = 0;
    stop_timer(&v->periodic_timer);
}

/*
 * Another vCPU's area (@v paused) gets @v's latest copy, not one taken
 * here: this CPU's TSC is not @v's to stamp it with (a TSC behind this
 * one's would make @v's next copy's delta wrap, its clock centuries on).
 */
void pv_register_time_area(struct vcpu *v, unsigned long va)
{
    v->time_info_guest = va;
    if ( v == current_vcpu() )
        pv_update_vcpu_system_time(v);
    else
        pv_update_secondary_time(v);
}

/*
 * set_timer_op (lock-free: this vCPU's singleshot timer, under its
 * CPU's timer lock): 0 stops the singleshot timer; a time that wrapped
 * negative or lies more than 2^50 ns (13 days) ahead is taken as Linux's
 * jiffies wrap and fires in 100 ms, as Xen does; the rest as given.
 */
long __hot_text do_set_timer_op(uint64_t timeout)
{
    struct vcpu *v = current_vcpu();
    int64_t offset = timeout - NOW();

    if ( !timeout )
        stop_timer(&v->singleshot_timer);
    else if ( (int64_t)timeout < 0 ||
              (offset > 0 && (uint32_t)(offset >> 50) != 0) )
        set_timer(&v->singleshot_timer, NOW() + MILLISECS(100));
    else
        set_timer(&v->singleshot_timer, timeout);
    return 0;
}
