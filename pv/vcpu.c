/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_vcpu_op for a domain of one vCPU (xen/common/domain.c's
 * do_vcpu_op and x86's arch_do_vcpu_op): moving vcpu_info into a guest
 * frame, the runstate and its guest copy, the vCPU's timers (pv/time.c),
 * and what Xen answers about bringing the one vCPU up or down.
 */
#include "shim/lib.h"
#include <xen/errno.h>
#include <xen/sched.h>
#include "arch/x86/layout.h"
#include "pv/domain.h"
#include "pv/event.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/mm/mm.h"
#include "pv/time.h"

#define smp_wmb()   asm volatile ( "" ::: "memory" )

/*
 * Xen's map_vcpu_info(): once only, within one page, in a frame the guest
 * owns and may write (a writable type reference is held from now on).
 * The contents move along, and every selector bit is raised so that
 * nothing pending is lost: the guest takes one spurious upcall.
 */
static long map_vcpu_info(struct vcpu *v, uint64_t mfn, uint32_t offset)
{
    vcpu_info_t *new_info;

    if ( offset > PAGE_SIZE - sizeof(vcpu_info_t) )
        return -XEN_EINVAL;
    if ( v->vcpu_info_mfn )
        return -XEN_EINVAL;
    if ( mfn >= frame_table_nr || get_page_and_type(mfn, PGT_WRITABLE) )
        return -XEN_EINVAL;

    new_info = (vcpu_info_t *)((uint8_t *)__va(mfn << PAGE_SHIFT) + offset);
    memcpy(new_info, v->vcpu_info, sizeof(*new_info));
    v->vcpu_info = new_info;
    v->vcpu_info_mfn = mfn;
    smp_wmb();
    __atomic_store_n(&new_info->evtchn_pending_sel, ~0UL, __ATOMIC_SEQ_CST);
    if ( !__atomic_exchange_n(&new_info->evtchn_upcall_pending, 1,
                              __ATOMIC_SEQ_CST) )
        vcpu_unblock(v);
    return 0;
}

/*
 * Xen's update_runstate_area(): with VMASST_TYPE_runstate_update_flag,
 * XEN_RUNSTATE_UPDATE is set in the guest's state_entry_time (its top
 * byte) around the copy, so a reader can tell a torn one.
 */
static bool write_runstate_area(struct vcpu *v)
{
    struct vcpu_runstate_info r = v->runstate;
    unsigned long va = v->runstate_guest;
    unsigned long top = va + offsetof(struct vcpu_runstate_info,
                                      state_entry_time) + 7;
    bool flag = dom.vm_assist & (1UL << VMASST_TYPE_runstate_update_flag);
    uint8_t byte;
    int rc;

    if ( flag )
    {
        r.state_entry_time |= XEN_RUNSTATE_UPDATE;
        byte = r.state_entry_time >> 56;
        if ( copy_to_guest(top, &byte, 1) )
            return false;
        smp_wmb();
    }
    rc = copy_to_guest(va, &r, sizeof(r));
    if ( flag )
    {
        r.state_entry_time &= ~XEN_RUNSTATE_UPDATE;
        byte = r.state_entry_time >> 56;
        smp_wmb();
        copy_to_guest(top, &byte, 1);
    }
    return !rc;
}

/*
 * A copy that failed in user mode (the area mapped in the kernel's page
 * tables only), retried as the guest enters its kernel: Xen's
 * toggle_guest_mode() and need_update_runstate_area, kept until a retry
 * works.
 */
void pv_update_runstate_area(struct vcpu *v)
{
    if ( !v->runstate_guest || write_runstate_area(v) )
        v->runstate_update_pending = false;
}

void vcpu_runstate_change(struct vcpu *v, int new_state)
{
    uint64_t now = NOW();

    v->runstate.time[v->runstate.state] += now - v->runstate.state_entry_time;
    v->runstate.state = new_state;
    v->runstate.state_entry_time = now;
    /* Waking is a context switch in Xen: the guest's time is refreshed. */
    if ( new_state == RUNSTATE_running )
        pv_update_vcpu_system_time(v);
    /* From user mode the kernel's mapping may be absent: retry later. */
    if ( v->runstate_guest && !write_runstate_area(v) && !v->kernel_mode )
        v->runstate_update_pending = true;
}

/* Xen's vcpu_runstate_get(): the current state's time up to now. */
static void runstate_get(const struct vcpu *v, struct vcpu_runstate_info *r)
{
    *r = v->runstate;
    r->time[r->state] += NOW() - r->state_entry_time;
}

/* The guest pointer in a register_*_memory_area argument, checked. */
static long area_address(unsigned long arg, unsigned long *va, size_t size)
{
    uint64_t p;

    if ( copy_from_guest(&p, arg, sizeof(p)) )
        return -XEN_EFAULT;
    if ( !guest_range_ok(p, size) )
        return -XEN_EFAULT;
    *va = p;
    return 0;
}

/*
 * VCPUOP_initialise on the vCPU that is running: the context is read
 * (-EFAULT if it can't be), then refused, as vCPU 0 is initialised.
 */
static long vcpu_initialise(unsigned long arg)
{
    uint8_t buf[256];
    size_t off, n;

    for ( off = 0; off < sizeof(struct vcpu_guest_context); off += n )
    {
        n = MIN(sizeof(buf), sizeof(struct vcpu_guest_context) - off);
        if ( copy_from_guest(buf, arg + off, n) )
            return -XEN_EFAULT;
    }
    return -XEN_EEXIST;
}

static long vcpu_timer_op(unsigned int cmd, struct vcpu *v,
                          unsigned long arg)
{
    struct vcpu_set_singleshot_timer ss;
    struct vcpu_set_periodic_timer per;

    switch ( cmd )
    {
    case VCPUOP_set_periodic_timer:
        if ( copy_from_guest(&per, arg, sizeof(per)) )
            return -XEN_EFAULT;
        return pv_set_periodic_timer(v, per.period_ns);
    case VCPUOP_stop_periodic_timer:
        pv_stop_periodic_timer(v);
        return 0;
    case VCPUOP_set_singleshot_timer:
        if ( copy_from_guest(&ss, arg, sizeof(ss)) )
            return -XEN_EFAULT;
        return pv_set_singleshot_timer(v, ss.timeout_abs_ns,
                                       ss.flags & VCPU_SSHOTTMR_future);
    default: /* VCPUOP_stop_singleshot_timer */
        pv_stop_singleshot_timer(v);
        return 0;
    }
}

long do_vcpu_op(unsigned long cmd, unsigned long vcpuid, unsigned long arg)
{
    struct vcpu *v;
    struct vcpu_register_vcpu_info info;
    struct vcpu_runstate_info r;
    unsigned long va;
    long rc;

    if ( vcpuid >= dom.max_vcpus )
        return -XEN_ENOENT;
    v = &dom.vcpu[vcpuid];

    switch ( cmd )
    {
    case VCPUOP_initialise:
        return vcpu_initialise(arg);
    case VCPUOP_up:
        return 0;                       /* initialised and up already */
    case VCPUOP_down:
        /* The last vCPU going down: Xen powers the domain off. */
        domain_shutdown(SHUTDOWN_poweroff);
    case VCPUOP_is_up:
        return 1;
    case VCPUOP_get_runstate_info:
        runstate_get(v, &r);
        return copy_to_guest(arg, &r, sizeof(r));

    case VCPUOP_set_periodic_timer:
    case VCPUOP_stop_periodic_timer:
    case VCPUOP_set_singleshot_timer:
    case VCPUOP_stop_singleshot_timer:
        return vcpu_timer_op(cmd, v, arg);

    case VCPUOP_register_vcpu_info:
        if ( copy_from_guest(&info, arg, sizeof(info)) )
            return -XEN_EFAULT;
        return map_vcpu_info(v, info.mfn, info.offset);

    case VCPUOP_register_runstate_memory_area:
        if ( (rc = area_address(arg, &va,
                                sizeof(struct vcpu_runstate_info))) )
            return rc;
        v->runstate_guest = va;
        write_runstate_area(v);
        return 0;

    case VCPUOP_register_vcpu_time_memory_area:
        if ( (rc = area_address(arg, &va, sizeof(struct vcpu_time_info))) )
            return rc;
        pv_register_time_area(v, va);
        return 0;

    case VCPUOP_send_nmi:
        if ( arg )
            return -XEN_EINVAL;
        if ( !v->nmi_pending )
        {
            v->nmi_pending = true;
            vcpu_unblock(v);            /* Xen's vcpu_kick() */
        }
        return 0;

    case VCPUOP_get_physid:
        return -XEN_EINVAL;             /* only for dom0's pinned vCPUs */

    default:
        return -XEN_ENOSYS;
    }
}
