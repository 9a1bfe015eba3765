/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_iret: return from a bounced exception, as Xen's pv/iret.c.
 * The guest jumped to the hypercall page's iret stub with struct
 * iret_context on its stack (xen/arch-x86/xen-x86_64.h).
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include "pv/domain.h"
#include "pv/entry.h"
#include "pv/event.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/traps.h"

#define X86_EFLAGS_IF   0x00000200
#define X86_EFLAGS_IOPL 0x00003000
#define X86_EFLAGS_VM   0x00020000

/*
 * Xen's do_iret(): to user mode (CS RPL 3) through a switch of page
 * tables and %gs bases, or back into the kernel.  Nothing else is checked
 * here: a frame the CPU won't take (a non-canonical %rip, an unusable
 * selector) faults our iretq, and the guest gets that fault at the
 * frame's %rip (pv_iret_fault()).  With VGCF_in_syscall the guest leaves
 * as Xen's sysret would, %rcx and %r11 becoming %rip and %rflags.
 */
long do_iret(struct cpu_regs *regs)
{
    struct vcpu *v = current_vcpu();
    struct iret_context ctx;

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
