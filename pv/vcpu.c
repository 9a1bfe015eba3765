/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_vcpu_op (xen/common/domain.c's do_vcpu_op and x86's
 * arch_do_vcpu_op): moving vcpu_info into a guest frame, the runstate
 * and its guest copy, the vCPU's timers (pv/time.c), and initialising a
 * vCPU and bringing it up and down (it then runs on its own CPU,
 * pv/smp.c).
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
#include "pv/vcpu-context.h"
#include "pv/emul/cr.h"
#include "pv/descriptor-tables.h"
#include "arch/x86/apic.h"
#include "arch/x86/smp.h"

#define smp_wmb()   asm volatile ( "" ::: "memory" )
#define X86_CR0_TS  0x8UL

/* VCPUOP_initialise's copy (4.5 KiB: not on the stack), domain lock held. */
static struct vcpu_guest_context initialise_ctxt;

static void vcpu_kick_idle(struct vcpu *v);

/*
 * Xen's dummy_vcpu_info: where a vCPU beyond the legacy 32 points before
 * register_vcpu_info, events masked; what lands here is lost, as in Xen.
 */
vcpu_info_t dummy_vcpu_info = { .evtchn_upcall_mask = 1 };

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

/* The context's L4s (ctrlreg[3], and [1] for user mode): cr3 to mfn. */
static unsigned long cr3_mfn(unsigned long cr3)
{
    return xen_cr3_to_pfn(cr3);
}

/*
 * Xen's arch_set_info_guest() for a vCPU not yet initialised, with @c
 * checked by pv_vcpu_context_check(): the GDT frames through set_gdt's
 * checks, then the kernel L4 (and the user one) each with an L4 type
 * reference as new_guest_cr3() takes it, nothing loaded (the vCPU's CPU
 * does that when it starts), then the rest, which can't fail.  VGCF_online
 * brings it up at once.  On any
 * failure every reference taken is dropped and @v stays uninitialised.
 */
static long set_info_guest(struct vcpu *v, struct vcpu_guest_context *c,
                           unsigned int iopl)
{
    unsigned long l4 = cr3_mfn(c->ctrlreg[3]), ul4 = 0;
    unsigned int i;
    long rc;

    if ( c->gdt_ents > FIRST_RESERVED_GDT_ENTRY )
        return -XEN_EINVAL;
    if ( (rc = pv_set_gdt(v, c->gdt_frames, c->gdt_ents)) )
        return rc;

    if ( (rc = get_page_and_type(l4, PGT_L4)) )
        goto bad_gdt;
    if ( !(dom.vm_assist & (1UL << VMASST_TYPE_m2p_strict)) )
        pv_fill_ro_mpt(l4);
    if ( c->ctrlreg[1] )
    {
        ul4 = cr3_mfn(c->ctrlreg[1]);
        if ( (rc = get_page_and_type(ul4, PGT_L4)) )
            goto bad_l4;
        if ( dom.vm_assist & (1UL << VMASST_TYPE_m2p_strict) )
            pv_zap_ro_mpt(ul4);
    }

    v->guest_table = l4;
    v->guest_table_user = ul4;
    v->kernel_mode = c->flags & VGCF_in_kernel;
    v->iopl = iopl;
    memcpy(v->trap_ctxt, c->trap_ctxt, sizeof(v->trap_ctxt));
    v->event_callback_eip = c->event_callback_eip;
    v->failsafe_callback_eip = c->failsafe_callback_eip;
    v->syscall_callback_eip = c->syscall_callback_eip;
    v->failsafe_disables_events = c->flags & VGCF_failsafe_disables_events;
    v->syscall_disables_events = c->flags & VGCF_syscall_disables_events;
    v->kernel_ss = c->kernel_ss;
    v->kernel_sp = c->kernel_sp;
    /* A non-null selector kills the base, as Xen. */
    v->fs_base = !(c->user_regs.fs & ~3) ? c->fs_base : 0;
    v->gs_base_kernel = c->gs_base_kernel;
    v->gs_base_user = !(c->user_regs.gs & ~3) ? c->gs_base_user : 0;
    v->ldt_base = c->ldt_base;
    v->ldt_ents = c->ldt_ents;
    v->ctrlreg0_ts = c->ctrlreg[0] & X86_CR0_TS;
    v->cr4_guest = pv_fixup_guest_cr4(c->ctrlreg[4]);
    memcpy(v->fpu_start, &c->fpu_ctxt, sizeof(v->fpu_start));
    /*
     * Through set_debugreg's rules, its refusals ignored as Xen ignores
     * them here: a value it refuses leaves the register at its default.
     */
    memset(v->debugreg, 0, sizeof(v->debugreg));
    for ( i = 0; i < 4; i++ )
        pv_set_debugreg(v, i, c->debugreg[i]);
    pv_set_debugreg(v, 6, c->debugreg[6]);
    pv_set_debugreg(v, 7, c->debugreg[7]);

    memset(&v->start_regs, 0, sizeof(v->start_regs));
    v->start_regs.r15 = c->user_regs.r15;
    v->start_regs.r14 = c->user_regs.r14;
    v->start_regs.r13 = c->user_regs.r13;
    v->start_regs.r12 = c->user_regs.r12;
    v->start_regs.rbp = c->user_regs.rbp;
    v->start_regs.rbx = c->user_regs.rbx;
    v->start_regs.r11 = c->user_regs.r11;
    v->start_regs.r10 = c->user_regs.r10;
    v->start_regs.r9 = c->user_regs.r9;
    v->start_regs.r8 = c->user_regs.r8;
    v->start_regs.rax = c->user_regs.rax;
    v->start_regs.rcx = c->user_regs.rcx;
    v->start_regs.rdx = c->user_regs.rdx;
    v->start_regs.rsi = c->user_regs.rsi;
    v->start_regs.rdi = c->user_regs.rdi;
    v->start_regs.rip = c->user_regs.rip;
    v->start_regs.cs = c->user_regs.cs;
    v->start_regs.rflags = c->user_regs.rflags;
    v->start_regs.rsp = c->user_regs.rsp;
    v->start_regs.ss = c->user_regs.ss;

    v->is_initialised = true;
    v->down = !(c->flags & VGCF_online);
    return 0;

 bad_l4:
    put_page_and_type(l4);
 bad_gdt:
    pv_destroy_gdt(v);
    return rc;
}

/*
 * VCPUOP_initialise (Xen's default_initialise_vcpu()): the context is
 * read (-EFAULT if it can't be), checked, and applied to a vCPU that has
 * never been initialised (-EEXIST otherwise); a vCPU with no vcpu_info
 * (beyond the legacy 32, before register_vcpu_info) is -EINVAL, as Xen.
 */
static long vcpu_initialise(struct vcpu *v, unsigned long arg)
{
    struct vcpu_guest_context *c = &initialise_ctxt;
    unsigned int iopl;
    long rc;

    if ( v->vcpu_info == &dummy_vcpu_info )
        return -XEN_EINVAL;
    if ( copy_from_guest(c, arg, sizeof(*c)) )
        return -XEN_EFAULT;
    if ( v->is_initialised )
        return -XEN_EEXIST;
    if ( (rc = pv_vcpu_context_check(c, &iopl)) )
        return rc;
    if ( (rc = set_info_guest(v, c, iopl)) )
        return rc;
    if ( !v->down )
        vcpu_kick_idle(v);
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
        return vcpu_initialise(v, arg);
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
        return !v->down;
    case VCPUOP_get_runstate_info:
        runstate_get(v, &r);
        return copy_to_guest(arg, &r, sizeof(r));

    case VCPUOP_set_singleshot_timer:
    case VCPUOP_stop_singleshot_timer:
        if ( v != current_vcpu() )
            return -XEN_EINVAL;         /* as Xen: only one's own */
        /* fall through */
    case VCPUOP_set_periodic_timer:
    case VCPUOP_stop_periodic_timer:
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
