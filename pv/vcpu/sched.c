/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_sched_op, as xen/common/sched/core.c: one vCPU on one CPU
 * (sched=null), so yielding has nothing to give way to, blocking and
 * polling idle the CPU (hlt) until an event or timer wakes the vCPU,
 * and a shutdown ends the VM with a status that names its reason.
 * No domain lock, as in Xen: blocking and polling touch this vCPU's own
 * state (polled ports under their locks), SCHEDOP_shutdown_code is one
 * cmpxchg, and a shutdown stops the world itself (domain_shutdown()).
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/sched.h>
#include "arch/x86/flush.h"
#include "arch/x86/irq.h"
#include "pv/domain.h"
#include "pv/event/event.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/compat/layout.h"
#include "pv/vcpu/time.h"
#include "pv/compat/xlat.h"
#include "pv/lifecycle.h"
#include "pv/mm/guest-flush.h"
#include "pv/vcpu/smp.h"
#include "shim/console.h"
#include "shim/softirq.h"
#include "shim/perfc.h"

/* do_poll()'s "fairly arbitrary limit" on the port list. */
#define POLL_MAX_PORTS  128

void __hot_text vcpu_unblock(struct vcpu *v)
{
    perfc_incr(vcpu_wakes);
    v->blocked = false;
    vcpu_kick(v);                       /* it may sleep on its own CPU */
}

/*
 * Sleep until something unblocks @v: timers and other softirqs run here
 * (pv_do_softirq()), and the CPU halts between interrupts.  The guest's
 * runstate says "blocked" meanwhile.  SCHEDOP_block holds no lock here:
 * a pause (mm-audit) finds this CPU parked before its halt.  A caller
 * that holds the domain lock (a multicall entry after one that took
 * it) has it dropped around each
 * halt: others may enter the shim meanwhile, and a pause finds this CPU
 * waiting for the lock as it wakes.  A wake-up's IPI waits for the halt.
 * Other CPUs' TLB flushes of this one are owed while it halts, and done
 * as it wakes (flush_idle_enter(), arch/x86/flush.c).
 */
static void vcpu_sleep(struct vcpu *v)
{
    bool locked = pv_domain_locked();

    perfc_incr(vcpu_blocks);
    vcpu_runstate_change(v, RUNSTATE_blocked);
    for ( ;; )
    {
        if ( softirq_pending() )
            pv_do_softirq();
        if ( !ACCESS_ONCE(v->blocked) || ACCESS_ONCE(v->down) )
            break;
        if ( !locked && unlikely(pv_pause_on()) )
        {
            /*
             * Parked with interrupts let in: the next pause's IPI, or a
             * timer's, may have come meanwhile and left only a softirq
             * bit.  Look again before halting.
             */
            pv_pause_park();
            continue;
        }
        if ( locked )
            pv_domain_unlock();
        ASSERT_NO_LOCKS_HELD();         /* a halt with one would stall all */
        flush_idle_enter();
        cpu_wait_for_interrupt();
        flush_idle_exit();
        if ( locked )
            pv_domain_lock();
    }
    vcpu_runstate_change(v, RUNSTATE_running);
}

/*
 * Xen's vcpu_block_enable_events(): unmask, then sleep unless pending.
 * This vCPU's own state, with no lock.
 */
static void vcpu_block_enable_events(struct vcpu *v)
{
    v->vcpu_info->evtchn_upcall_mask = 0;
    v->blocked = true;
    /* A sender (no domain lock) raises the upcall, then unblocks. */
    smp_mb();
    if ( vcpu_event_pending(v) )
    {
        v->blocked = false;
        return;
    }
    vcpu_sleep(v);
}

static void poll_timer_fn(void *data)
{
    struct vcpu *v = data;

    if ( v->polling )
    {
        v->polling = false;
        v->poll_evtchn = 0;
        vcpu_unblock(v);
    }
}

/*
 * Xen's do_poll(): return at once if an upcall is deliverable or a listed
 * port is pending, else sleep until one of the ports (one) or any port
 * (several) goes pending, an upcall is raised, or the timeout (absolute
 * system time; 0: none) passes.
 */
static long do_poll(const struct sched_poll *p)
{
    struct vcpu *v = current_vcpu();
    evtchn_port_t port = 0;
    unsigned int i;
    long rc = 0;

    if ( p->nr_ports > POLL_MAX_PORTS )
        return -XEN_EINVAL;
    if ( !guest_range_ok((unsigned long)p->ports.p,
                         p->nr_ports * sizeof(port)) )
        return -XEN_EFAULT;

    v->blocked = true;
    v->poll_evtchn = -1;
    /* Then the ports: a sender sets one pending, then looks here. */
    __atomic_store_n(&v->polling, true, __ATOMIC_SEQ_CST);
    if ( vcpu_event_pending(v) )
        goto out;
    for ( i = 0; i < p->nr_ports; i++ )
    {
        rc = -XEN_EFAULT;
        if ( copy_from_guest_offset(&port, (unsigned long)p->ports.p, i,
                                    sizeof(port)) )
            goto out;
        rc = pv_evtchn_poll_port(v->domain, port);
        if ( rc )
        {
            if ( rc > 0 )
                rc = 0;                 /* pending: back at once */
            goto out;
        }
    }
    if ( p->nr_ports == 1 )
        v->poll_evtchn = port;
    if ( p->timeout )
        set_timer(&v->poll_timer, pv_guest_expiry(p->timeout));
    vcpu_sleep(v);
    stop_timer(&v->poll_timer);
    /* Woken by an upcall or a timer: no longer a poller (Xen's poll_mask). */
    __atomic_store_n(&v->polling, false, __ATOMIC_SEQ_CST);
    v->poll_evtchn = 0;
    return 0;

 out:
    v->poll_evtchn = 0;
    v->polling = false;
    v->blocked = false;
    return rc;
}

/*
 * SCHEDOP_watchdog, as Xen's domain_watchdog(): id 0 sets up the first
 * free timer to run out @timeout seconds from now and returns its id
 * (its index + 1, -ENOSPC if none is free); a timer's id with a timeout
 * pokes it (from now), with 0 takes it down; an id not set up, or past
 * the last, is -EINVAL.  One that runs out shuts the domain down
 * (SHUTDOWN_watchdog: the VM ends as a crashed guest, as xl's default
 * on_watchdog destroys the domain).  Linux's xen_wdt driver is the
 * guest's /dev/watchdog on it.
 */
static void watchdog_fired(void *data)
{
    if ( ACCESS_ONCE(dom.shutting_down) )
        return;
    printk("Watchdog timer %u fired for d1\n", (unsigned int)(uintptr_t)data);
    domain_shutdown(SHUTDOWN_watchdog);
}

void pv_watchdog_init(struct domain *d)
{
    unsigned int i;

    for ( i = 0; i < NR_DOMAIN_WATCHDOG_TIMERS; i++ )
        init_timer(&d->watchdog_timer[i], watchdog_fired,
                   (void *)(uintptr_t)i, 0);
}

static long domain_watchdog(uint32_t id, uint32_t timeout)
{
    uint64_t expires = NOW() + timeout * 1000000000ULL;
    long rc = 0;

    if ( id > NR_DOMAIN_WATCHDOG_TIMERS )
        return -XEN_EINVAL;
    spin_lock(&dom.watchdog_lock);
    if ( id == 0 )
    {
        for ( ; id < NR_DOMAIN_WATCHDOG_TIMERS; id++ )
            if ( !(dom.watchdog_inuse & (1u << id)) )
                break;
        if ( id == NR_DOMAIN_WATCHDOG_TIMERS )
            rc = -XEN_ENOSPC;
        else
        {
            dom.watchdog_inuse |= 1u << id;
            set_timer(&dom.watchdog_timer[id], expires);
            rc = id + 1;
        }
    }
    else if ( !(dom.watchdog_inuse & (1u << --id)) )
        rc = -XEN_EINVAL;
    else if ( !timeout )
    {
        stop_timer(&dom.watchdog_timer[id]);
        dom.watchdog_inuse &= ~(1u << id);
    }
    else
        set_timer(&dom.watchdog_timer[id], expires);
    spin_unlock(&dom.watchdog_lock);
    return rc;
}

/*
 * A 32-bit guest's arguments are laid out alike but for SCHEDOP_poll's,
 * whose port list is a 32-bit handle (Xen's compat/schedule.c builds the
 * same code on struct compat_sched_poll).
 */
static always_inline long sched_op(unsigned long cmd, unsigned long arg,
                                   bool compat)
{
    uint8_t c[COMPAT_SIZEOF(sched_poll)];
    struct sched_shutdown s;
    struct sched_poll poll;
    struct sched_watchdog w;

    perfc_incra(sched_ops, cmd);
    evtchn_release_batched();       /* the CPU goes back: backends run */
    switch ( cmd )
    {
    case SCHEDOP_yield:
        return 0;

    case SCHEDOP_block:
        vcpu_block_enable_events(current_vcpu());
        return 0;

    case SCHEDOP_poll:
        if ( compat )
        {
            if ( copy_from_guest(c, arg, sizeof(c)) )
                return -XEN_EFAULT;
            xlat_sched_poll_from_compat(&poll, c);
        }
        else if ( copy_from_guest(&poll, arg, sizeof(poll)) )
            return -XEN_EFAULT;
        return do_poll(&poll);

    case SCHEDOP_shutdown:
        if ( copy_from_guest(&s, arg, sizeof(s)) )
            return -XEN_EFAULT;
        /* With no toolstack to save it, a suspend is cancelled at once. */
        if ( s.reason == SHUTDOWN_suspend &&
             ACCESS_ONCE(dom.shutdown_code) == ~0u )
            return 1;
        domain_shutdown((uint8_t)s.reason);

    case SCHEDOP_shutdown_code:
        if ( copy_from_guest(&s, arg, sizeof(s)) )
            return -XEN_EFAULT;
        /* The first one stays (Xen's, under its shutdown_lock). */
        (void)__sync_val_compare_and_swap(&dom.shutdown_code, ~0u,
                                          (uint8_t)s.reason);
        return 0;

    case SCHEDOP_watchdog:
        if ( copy_from_guest(&w, arg, sizeof(w)) )
            return -XEN_EFAULT;
        return domain_watchdog(w.id, w.timeout);

    case SCHEDOP_remote_shutdown:
    case SCHEDOP_pin_override:
        return -XEN_EPERM;              /* not for an unprivileged guest */

    default:
        return -XEN_ENOSYS;
    }
}

long __hot_text do_sched_op(unsigned long cmd, unsigned long arg)
{
    return sched_op(cmd, arg, false);
}

/* Xen's compat_sched_op() takes cmd as an int, as do_sched_op(). */
long compat_sched_op(unsigned long cmd, unsigned long arg)
{
    return sched_op((unsigned int)cmd, arg, true);
}

/* The old form: the shutdown reason is the argument itself. */
long do_sched_op_compat(unsigned long cmd, unsigned long arg)
{
    evtchn_release_batched();
    switch ( cmd )
    {
    case SCHEDOP_yield:
        return 0;

    case SCHEDOP_block:
        vcpu_block_enable_events(current_vcpu());
        return 0;

    case SCHEDOP_shutdown:
        if ( (uint8_t)arg == SHUTDOWN_suspend &&
             ACCESS_ONCE(dom.shutdown_code) == ~0u )
            return 1;
        domain_shutdown((uint8_t)arg);

    default:
        return -XEN_ENOSYS;
    }
}

void pv_sched_init(struct vcpu *v)
{
    init_timer(&v->poll_timer, poll_timer_fn, v, v->id);
}
