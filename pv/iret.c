/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_iret: return from a bounced exception, as Xen's pv/iret.c.
 * The guest jumped to the hypercall page's iret stub with struct
 * iret_context on its stack (xen/arch-x86/xen-x86_64.h).
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include "arch/x86/eflags.h"
#include "pv/domain.h"
#include "pv/entry.h"
#include "pv/event/event.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/traps.h"
#include "pv/guest-mode.h"
#include "pv/lifecycle.h"

/*
 * Xen's do_iret(): to user mode (CS RPL 3) through a switch of page
 * tables and %gs bases, or back into the kernel.  Nothing else is checked
 * here: a frame the CPU won't take (a non-canonical %rip, an unusable
 * selector) faults our iretq, and the guest gets that fault at the
 * frame's %rip (pv_iret_fault()).  With VGCF_in_syscall the guest leaves
 * as Xen's sysret would, %rcx and %r11 becoming %rip and %rflags.
 */
long __hot_text do_iret(struct cpu_regs *regs)
{
    struct vcpu *v = current_vcpu();
    struct iret_context ctx;

    evtchn_release_batched();
    if ( copy_from_guest(&ctx, regs->rsp, sizeof(ctx)) )
        domain_crash("iret: frame at %#lx unreadable", regs->rsp);

    /* RPL 3 means guest user mode; anything else its kernel. */
    if ( (ctx.cs & 3) == 3 )
    {
        if ( !v->guest_table_user )
            domain_crash("iret: switching to user mode with no user page "
                         "tables");
        pv_toggle_guest_mode(v);
    }

    if ( dom.vm_assist & (1UL << VMASST_TYPE_architectural_iopl) )
        v->iopl = ctx.rflags & X86_EFLAGS_IOPL;

    regs->rip = ctx.rip;
    regs->cs = ctx.cs | 3;              /* force guest privilege */
    regs->rflags = (ctx.rflags & ~(X86_EFLAGS_IOPL | X86_EFLAGS_VM)) |
                   X86_EFLAGS_IF;
    regs->rsp = ctx.rsp;
    regs->ss = ctx.ss | 3;
    if ( !(ctx.flags & VGCF_in_syscall) )
    {
        regs->entry_vector &= ~ENTRY_SYSCALL;
        regs->r11 = ctx.r11;
        regs->rcx = ctx.rcx;
    }
    else
        pv_sysret_regs(regs);

    /* The upcall mask follows the IF the guest returns with. */
    v->vcpu_info->evtchn_upcall_mask = !(ctx.rflags & X86_EFLAGS_IF);

    /* Any iret ends the NMI callback, as Xen's (it can't tell them apart). */
    pv_async_exception_cleanup(v);

    /* The caller writes this to %rax. */
    return ctx.rax;
}

/*
 * Xen's compat_iret(): the hypercall page's iret stub pushed %eax on the
 * frame a 32-bit kernel builds for iret, so the guest's stack holds
 *
 *   EAX, EIP, CS, EFLAGS, [ESP, SS]     (4 bytes each)
 *
 * the last two only when returning to ring 2 or 3.  A return to ring 0
 * (or a frame that can't be read) crashes the guest, as on Xen; VM86 is
 * refused.  The upcall mask follows EFLAGS.IF.
 */
long compat_iret(struct cpu_regs *regs)
{
    struct vcpu *v = current_vcpu();
    uint32_t f[6], sp = regs->rsp;

    evtchn_release_batched();
    if ( copy_from_guest(f, sp, 4 * sizeof(f[0])) )
        domain_crash("iret: frame at %#x unreadable", sp);
    if ( f[3] & X86_EFLAGS_VM )
        domain_crash("iret: to VM86 mode");
    if ( !(f[2] & 3) )
        domain_crash("iret: to ring 0 (cs %#x)", f[2]);
    if ( (f[2] & 3) == 1 )
        sp += 16;                       /* to the kernel: its own stack */
    else if ( copy_from_guest(&f[4], sp + 16, 2 * sizeof(f[0])) )
        domain_crash("iret: frame at %#x unreadable", sp);
    else
    {
        sp = f[4];
        regs->ss = f[5] & 0xffff;
    }

    if ( dom.vm_assist & (1UL << VMASST_TYPE_architectural_iopl) )
        v->iopl = f[3] & X86_EFLAGS_IOPL;
    regs->rip = f[1];
    regs->cs = f[2] & 0xffff;
    regs->rflags = (f[3] & ~X86_EFLAGS_IOPL) | X86_EFLAGS_IF;
    regs->rsp = sp;
    v->kernel_mode = pv_compat_kernel_cs(f[2]);
    v->vcpu_info->evtchn_upcall_mask = !(f[3] & X86_EFLAGS_IF);
    pv_async_exception_cleanup(v);
    return f[0];                        /* EAX, as the guest had it */
}
