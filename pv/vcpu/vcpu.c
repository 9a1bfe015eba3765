/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_vcpu_op (xen/common/domain.c's do_vcpu_op and x86's
 * arch_do_vcpu_op): moving vcpu_info into a guest frame, the runstate
 * and its guest copy, the vCPU's timers (pv/vcpu/time.c), and bringing
 * a vCPU up and down (it then runs on its own CPU, pv/vcpu/smp.c; its
 * context is vcpu-context.c's).  A 32-bit guest's arguments are its own
 * layout where it differs, as Xen's compat_vcpu_op() takes them.
 */
#include "shim/lib.h"
#include <xen/errno.h>
#include <xen/sched.h>
#include "arch/x86/barrier.h"
#include "arch/x86/layout.h"
#include "pv/domain.h"
#include "pv/event/event.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/mm/mm.h"
#include "pv/vcpu/time.h"
#include "pv/vcpu/vcpu-context.h"
#include "pv/compat/handle.h"
#include "pv/compat/xlat.h"
#include "pv/lifecycle.h"
#include "pv/vcpu/smp.h"
#include "arch/x86/nospec.h"
#include "arch/x86/page.h"
#include "arch/x86/apic.h"
#include "arch/x86/smp.h"


/*
 * Xen's dummy_vcpu_info: where a vCPU beyond the legacy 32 points before
 * register_vcpu_info, events masked; what lands here is lost, as in Xen.
 */
vcpu_info_t dummy_vcpu_info = { .evtchn_upcall_mask = 1 };

/*
 * Xen's VCPUOP_register_vcpu_info and map_guest_area() (4.19 on): once
 * only, within one page, aligned as the guest's unsigned long (XSA-327:
 * the shim's atomic updates of evtchn_pending_sel must not split a
 * cache line), in a frame the guest owns and may write (a writable type
 * reference is held from now on).  The contents move along, and every
 * selector bit is raised so that nothing pending is lost: the guest
 * takes one spurious upcall.  A 32-bit guest's vcpu_info is as big, its
 * selector 32 bits elsewhere.  (Another vCPU's is taken while it runs;
 * Xen pauses it first, so its own writes to the old copy can't be lost.)
 */
static always_inline long map_vcpu_info(struct vcpu *v, uint64_t mfn,
                                        uint32_t offset, bool compat)
{
    const unsigned int align = compat ? 4 : sizeof(unsigned long);
    struct page_info *pg;
    vcpu_info_t *new_info;
    uint32_t *sel32;

    /* Xen forms the guest address mfn << 12 | offset and checks it. */
    if ( offset >= PAGE_SIZE || mfn >= (1UL << (64 - PAGE_SHIFT)) ||
         ((mfn << PAGE_SHIFT) | offset) == ~0UL )
        return -XEN_EINVAL;
    if ( v->vcpu_info_mfn )
        return -XEN_EBUSY;
    if ( offset > PAGE_SIZE - sizeof(vcpu_info_t) || (offset & (align - 1)) )
        return -XEN_ENXIO;
    pg = mfn_to_page(mfn);
    if ( !pg || !page_get(pg, PGO_GUEST) )
        return -XEN_EINVAL;
    if ( page_get_type_flush(pg, PGT_WRITABLE) != PGT_OK )
    {
        page_put(pg);
        return -XEN_EACCES;
    }

    new_info = (vcpu_info_t *)((uint8_t *)__va(mfn << PAGE_SHIFT) + offset);
    memcpy(new_info, v->vcpu_info, sizeof(*new_info));
    v->vcpu_info = new_info;
    v->vcpu_info_mfn = mfn;
    smp_wmb();
    if ( compat )
    {
        BUILD_BUG_ON(COMPAT_MSIZE(vcpu_info, evtchn_pending_sel) !=
                     sizeof(*sel32));
        sel32 = compat_ptr(new_info, vcpu_info, evtchn_pending_sel);
        __atomic_store_n(sel32, ~0u, __ATOMIC_SEQ_CST);
    }
    else
        __atomic_store_n(&new_info->evtchn_pending_sel, ~0UL,
                         __ATOMIC_SEQ_CST);
    if ( !__atomic_exchange_n(&new_info->evtchn_upcall_pending, 1,
                              __ATOMIC_SEQ_CST) )
        vcpu_unblock(v);
    return 0;
}

/*
 * Xen's update_runstate_area(): with VMASST_TYPE_runstate_update_flag,
 * XEN_RUNSTATE_UPDATE is set in the guest's state_entry_time (its top
 * byte) around the copy, so a reader can tell a torn one.  A 32-bit
 * guest's copy is its layout (44 bytes, state_entry_time 4-aligned).
 */
static bool write_runstate_area(struct vcpu *v)
{
    struct vcpu_runstate_info r = v->runstate;
    uint8_t c[COMPAT_SIZEOF(vcpu_runstate_info)];
    bool compat = v->domain->compat;
    unsigned long va = v->runstate_guest;
    unsigned long top = va + 7 +
        (compat ? COMPAT_OFFSET(vcpu_runstate_info, state_entry_time)
                : offsetof(struct vcpu_runstate_info, state_entry_time));
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
    if ( compat )
    {
        xlat_vcpu_runstate_info_to_compat(c, &r);
        rc = copy_to_guest(va, c, sizeof(c));
    }
    else
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

/*
 * The runstate is its own vCPU's to change, on that vCPU's CPU, with no
 * lock; another CPU reads it (VCPUOP_get_runstate_info of another vCPU)
 * under a sequence count, where Xen takes the vCPU's scheduler lock, so
 * never half of a change.  The change's time is taken inside it: a reader
 * that copied the state before can't have read a later clock.
 */
void vcpu_runstate_change(struct vcpu *v, int new_state)
{
    uint64_t now;

    ACCESS_ONCE(v->runstate_seq) = v->runstate_seq + 1;     /* odd */
    smp_wmb();
    now = NOW();
    v->runstate.time[v->runstate.state] += now - v->runstate.state_entry_time;
    v->runstate.state = new_state;
    v->runstate.state_entry_time = now;
    smp_wmb();
    ACCESS_ONCE(v->runstate_seq) = v->runstate_seq + 1;     /* even */

    /* Waking is a context switch in Xen: the guest's time is refreshed. */
    if ( new_state == RUNSTATE_running )
        pv_update_vcpu_system_time(v);
    /* From user mode the kernel's mapping may be absent: retry later. */
    if ( v->runstate_guest && !write_runstate_area(v) && !v->kernel_mode )
        v->runstate_update_pending = true;
}

/*
 * Xen's vcpu_runstate_get(): the current state's time up to now (never
 * less: another CPU's clock may read a little behind the one that
 * stamped the state).
 */
static void runstate_get(const struct vcpu *v, struct vcpu_runstate_info *r)
{
    unsigned int seq;
    uint64_t now;

    do {
        while ( (seq = ACCESS_ONCE(v->runstate_seq)) & 1 )
            cpu_relax();
        smp_rmb();
        *r = v->runstate;
        now = NOW();
        smp_rmb();
    } while ( ACCESS_ONCE(v->runstate_seq) != seq );
    if ( (int64_t)(now - r->state_entry_time) > 0 )
        r->time[r->state] += now - r->state_entry_time;
}

/*
 * The guest pointer in a register_*_memory_area argument, checked: all
 * 8 bytes of the union, or a 32-bit guest's handle alone (Xen's compat
 * path reads that, never the union's upper half, and checks the area
 * with compat_handle_okay()).
 */
static always_inline long area_address(unsigned long arg, unsigned long *va,
                                       size_t size, bool compat)
{
    const size_t hsize = compat ? COMPAT_MSIZE(vcpu_register_time_memory_area,
                                               addr__h)
                                : sizeof(uint64_t);
    uint8_t b[sizeof(uint64_t)];
    uint64_t p;

    BUILD_BUG_ON(COMPAT_MSIZE(vcpu_register_runstate_memory_area, addr__h) !=
                 COMPAT_MSIZE(vcpu_register_time_memory_area, addr__h));
    BUILD_BUG_ON(COMPAT_OFFSET(vcpu_register_runstate_memory_area, addr__h) ||
                 COMPAT_OFFSET(vcpu_register_time_memory_area, addr__h));
    if ( copy_from_guest(b, arg, hsize) )
        return -XEN_EFAULT;
    p = compat_load(b, hsize);
    if ( compat ? !compat_handle_okay(p, 1, size) : !guest_range_ok(p, size) )
        return -XEN_EFAULT;
    *va = p;
    return 0;
}

/* The idle loop of @v's CPU looks again: @v is up. */
static void vcpu_kick_idle(struct vcpu *v)
{
    if ( v->id != smp_processor_id() )
        send_IPI_mask(1UL << v->id, EVENT_CHECK_VECTOR);
}

/*
 * VCPUOP_down, as Xen's do_vcpu_op(): the last vCPU up going down powers
 * the domain off; otherwise @v is marked down and leaves its CPU at its
 * next exit to the guest (this one, if it is the caller's; after an IPI
 * if it runs elsewhere).
 */
static long vcpu_down(struct vcpu *v)
{
    unsigned int i;

    for ( i = 0; i < dom.max_vcpus; i++ )
        if ( i != v->id && !dom.vcpu[i].down )
            break;
    if ( i == dom.max_vcpus )
        domain_shutdown(SHUTDOWN_poweroff);
    if ( !v->down )
    {
        v->down = true;
        vcpu_kick(v);
    }
    return 0;
}

/* A 32-bit guest's singleshot timer is 12 bytes, not 16. */
static always_inline long vcpu_timer_op(unsigned int cmd, struct vcpu *v,
                                        unsigned long arg, bool compat)
{
    uint8_t c[COMPAT_SIZEOF(vcpu_set_singleshot_timer)];
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
        if ( compat )
        {
            if ( copy_from_guest(c, arg, sizeof(c)) )
                return -XEN_EFAULT;
            xlat_vcpu_set_singleshot_timer_from_compat(&ss, c);
        }
        else if ( copy_from_guest(&ss, arg, sizeof(ss)) )
            return -XEN_EFAULT;
        return pv_set_singleshot_timer(v, ss.timeout_abs_ns,
                                       ss.flags & VCPU_SSHOTTMR_future);
    default: /* VCPUOP_stop_singleshot_timer */
        pv_stop_singleshot_timer(v);
        return 0;
    }
}

/* The runstate in the guest's layout (44 bytes for a 32-bit guest). */
static always_inline long get_runstate_info(struct vcpu *v,
                                            unsigned long arg, bool compat)
{
    uint8_t c[COMPAT_SIZEOF(vcpu_runstate_info)];
    struct vcpu_runstate_info r;

    runstate_get(v, &r);
    if ( !compat )
        return copy_to_guest(arg, &r, sizeof(r));
    xlat_vcpu_runstate_info_to_compat(c, &r);
    return copy_to_guest(arg, c, sizeof(c));
}

static always_inline long vcpu_op(unsigned long cmd, unsigned long vcpuid,
                                  unsigned long arg, bool compat)
{
    const size_t runstate_size = compat ? COMPAT_SIZEOF(vcpu_runstate_info)
                                        : sizeof(struct vcpu_runstate_info);
    struct vcpu *v;
    struct vcpu_register_vcpu_info info;
    unsigned long va;
    bool paused;
    long rc;

    ASSERT(spin_is_locked_by_me(&dom.domain_lock) ||
           pv_vcpu_op_lock_free(cmd, vcpuid));
    if ( vcpuid >= dom.max_vcpus )
        return -XEN_ENOENT;
    v = &dom.vcpu[array_index_nospec(vcpuid, dom.max_vcpus)];

    switch ( cmd )
    {
    case VCPUOP_initialise:
        if ( (rc = pv_vcpu_initialise(v, arg, compat)) )
            return rc;
        if ( !v->down )
            vcpu_kick_idle(v);
        return 0;
    case VCPUOP_up:
        if ( !v->is_initialised )
            return -XEN_EINVAL;
        if ( v->down )
        {
            v->down = false;
            vcpu_kick_idle(v);
        }
        return 0;
    case VCPUOP_down:
        return vcpu_down(v);
    case VCPUOP_is_up:
        return !ACCESS_ONCE(v->down);   /* no lock: as Xen, a snapshot */
    case VCPUOP_get_runstate_info:
        return get_runstate_info(v, arg, compat);

    case VCPUOP_set_singleshot_timer:
    case VCPUOP_stop_singleshot_timer:
        if ( v != current_vcpu() )
            return -XEN_EINVAL;         /* as Xen: only one's own */
        /* fall through */
    case VCPUOP_set_periodic_timer:
    case VCPUOP_stop_periodic_timer:
        return vcpu_timer_op(cmd, v, arg, compat);

    /*
     * Another vCPU's areas, which it writes itself with no lock (its
     * time and runstate as it wakes, its runstate as it enters its
     * kernel): it is paused meanwhile, as Xen's map_guest_area() does.
     */
    case VCPUOP_register_vcpu_info:
        if ( copy_from_guest(&info, arg, sizeof(info)) )
            return -XEN_EFAULT;
        paused = pv_pause_vcpu(v);
        rc = map_vcpu_info(v, info.mfn, info.offset, compat);
        pv_unpause_vcpu(paused);
        return rc;

    case VCPUOP_register_runstate_memory_area:
        if ( (rc = area_address(arg, &va, runstate_size, compat)) )
            return rc;
        paused = pv_pause_vcpu(v);
        v->runstate_guest = va;
        write_runstate_area(v);
        pv_unpause_vcpu(paused);
        return 0;

    case VCPUOP_register_vcpu_time_memory_area:
        if ( (rc = area_address(arg, &va, sizeof(struct vcpu_time_info),
                                compat)) )
            return rc;
        paused = pv_pause_vcpu(v);
        pv_register_time_area(v, va);
        pv_unpause_vcpu(paused);
        return 0;

    case VCPUOP_send_nmi:
        if ( arg )
            return -XEN_EINVAL;
        /* The target takes it without the domain lock: atomics. */
        if ( !__atomic_exchange_n(&v->nmi_pending, true, __ATOMIC_SEQ_CST) )
            vcpu_unblock(v);            /* Xen's vcpu_kick() */
        return 0;

    case VCPUOP_get_physid:
        return -XEN_EINVAL;             /* only for dom0's pinned vCPUs */

    default:
        return -XEN_ENOSYS;
    }
}

long __hot_text do_vcpu_op(unsigned long cmd, unsigned long vcpuid,
                           unsigned long arg)
{
    return vcpu_op(cmd, vcpuid, arg, false);
}

/* Xen's compat_vcpu_op() takes cmd and vcpuid as ints, as do_vcpu_op(). */
long compat_vcpu_op(unsigned long cmd, unsigned long vcpuid,
                    unsigned long arg)
{
    return vcpu_op((unsigned int)cmd, (unsigned int)vcpuid, arg, true);
}
