/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Guest user mode: the switch between the guest kernel and its user space
 * (both in ring 3, as Xen's toggle_guest_mode()), and the ways user code
 * enters its kernel without an exception: syscall (64-bit and from a
 * 32-bit code segment) and sysenter (x86_64/entry.S switch_to_kernel,
 * cstar_enter, sysenter_entry).
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include "arch/x86/flush.h"
#include "arch/x86/cr.h"
#include "arch/x86/desc.h"
#include "arch/x86/eflags.h"
#include "arch/x86/msr.h"
#include "arch/x86/page.h"
#include "arch/x86/segment.h"
#include "shim/frame.h"
#include "arch/x86/percpu.h"
#include "pv/domain.h"
#include "pv/entry.h"
#include "pv/event/event.h"
#include "pv/vcpu/time.h"
#include "pv/traps.h"
#include "pv/compat/layout.h"
#include "pv/guest-mode.h"
#include "pv/lifecycle.h"
#include "pv/vcpu/smp.h"
#include "shim/perfc.h"

/*
 * syscall from a 32-bit code segment (MSR_CSTAR) and sysenter land on
 * this CPU's stack like the 64-bit syscall (pv_cpu_init()); sysenter
 * finds it in MSR_SYSENTER_ESP.  On AMD, sysenter in long mode is #UD
 * whatever the MSRs say, and the guest gets that #UD, as on Xen.
 */
void pv_user_cpu_init(void)
{
    unsigned int cpu = smp_processor_id();

    wrmsr(MSR_CSTAR, (unsigned long)cstar_stubs + cpu * 32);
    wrmsr(MSR_SYSENTER_CS, SHIM_CS);
    wrmsr(MSR_SYSENTER_ESP, lstar_stack[cpu]);
    wrmsr(MSR_SYSENTER_EIP, (unsigned long)sysenter_entry);
}

/*
 * Xen's toggle_guest_mode(): the other mode's page tables and %gs base.
 * The guest's GS bases live in the MSRs (GS_BASE the running mode's,
 * SHADOW_GS_BASE the other's), so swapgs exchanges them.  The vCPU's
 * copies are right only until the guest loads a selector (which sets a
 * base without the shim seeing): load_segments() reads them after
 * save_segments() took them from the MSRs.  The CR3 write is a plain
 * one: user mappings are global with
 * global pages on, and survive it as on Xen, which doesn't tick the TLB
 * flush clock here either; with global pages off it flushes everything,
 * and load_cr3() notes it so (arch/x86/tlbflush.h).
 */
void __hot_text pv_toggle_guest_mode(struct vcpu *v)
{
    perfc_incr(guest_mode_switches);
    swapgs();
    v->kernel_mode = !v->kernel_mode;
    load_cr3((v->kernel_mode ? v->guest_table : v->guest_table_user)
              << PAGE_SHIFT);
    if ( !v->kernel_mode )
        return;

    /* Areas the user page tables don't map: written now, as Xen. */
    if ( unlikely(v->runstate_update_pending) )
        pv_update_runstate_area(v);
    if ( unlikely(v->time_update_pending) )
        pv_update_secondary_time(v);
}

/*
 * Xen's compat_syscall: a 32-bit guest's syscall (ring 3 or ring 1, both
 * in compatibility mode) reports its user selectors and goes to the
 * syscall32 callback at its selector, or is #GP(0) without one.
 */
static void compat_syscall(struct vcpu *v, struct cpu_regs *regs)
{
    regs->cs = COMPAT_FLAT_USER_CS;
    regs->ss = COMPAT_FLAT_USER_SS;
    v->kernel_mode = false;
    if ( !v->syscall32_callback_eip )
    {
        regs->rip -= 2;
        pv_inject_exception(regs, X86_EXC_GP, 0);
        return;
    }
    pv_bounce_to(regs, v->syscall32_callback_cs, v->syscall32_callback_eip,
                 v->syscall32_disables_events ? TBF_INTERRUPT : 0, 0);
}

/*
 * Xen's switch_to_kernel: a syscall the guest kernel must handle goes to
 * its syscall callback, or its syscall32 one from a 32-bit code segment,
 * with events masked if it registered it so.  With no callback the
 * syscall instruction raises #UD.  The callback runs with DF clear.
 */
void __hot_text pv_bounce_syscall(struct cpu_regs *regs)
{
    struct vcpu *v = current_vcpu();
    unsigned long eip = regs->cs == FLAT_USER_CS32 ?
                        v->syscall32_callback_eip : v->syscall_callback_eip;

    perfc_incr(guest_syscalls);
    if ( dom.compat )
    {
        compat_syscall(v, regs);
        return;
    }
    if ( !eip )
    {
        regs->rip -= 2;
        pv_inject_exception(regs, X86_EXC_UD, 0);
        return;
    }
    /* Each callback has its own CALLBACKF_mask_events, as in Xen. */
    pv_create_bounce_frame(regs, eip,
                           (regs->cs == FLAT_USER_CS32 ?
                            v->syscall32_disables_events :
                            v->syscall_disables_events) ? TBF_INTERRUPT : 0,
                           0);
    regs->rflags &= ~X86_EFLAGS_DF;
    pv_sysret_regs(regs);
}

/*
 * cstar, from pv/entry.S: a syscall from 32-bit code is always the
 * guest's own system call (Xen's cstar_enter): a bounce, this vCPU's
 * alone, with no lock; the exit's checks follow, as pv_syscall()'s.
 */
void pv_cstar_syscall(struct cpu_regs *regs)
{
    pv_bounce_syscall(regs);
    __pv_exit_to_guest(regs, pv_bounce_exit_work());
}

/*
 * sysenter, from pv/entry.S with Xen's frame: RIP and RSP 0, CS 3, SS
 * FLAT_USER_SS, the guest's flags (the guest's stack and return address
 * are in registers, by its own convention).  To the sysenter callback,
 * or #GP(0) if there is none: a bounce with no lock, as the syscall's.
 */
static void sysenter(struct vcpu *v, struct cpu_regs *regs)
{
    /* sysenter cleared IF; the guest ran with it set. */
    regs->rflags |= X86_EFLAGS_IF;
    if ( dom.compat )
    {
        /* Xen's compat_sysenter: the compat user SS, mode from CS 3. */
        regs->ss = COMPAT_FLAT_USER_SS;
        v->kernel_mode = false;
    }
    if ( !v->sysenter_callback_eip )
    {
        pv_inject_exception(regs, X86_EXC_GP, 0);
        return;
    }
    pv_bounce_to(regs, v->sysenter_callback_cs, v->sysenter_callback_eip,
                 v->sysenter_disables_events ? TBF_INTERRUPT : 0, 0);
}

void pv_sysenter(struct cpu_regs *regs)
{
    sysenter(current_vcpu(), regs);
    __pv_exit_to_guest(regs, pv_bounce_exit_work());
}
