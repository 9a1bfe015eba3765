/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Translations of xen.h's structures for compat guests: start_info, the
 * vCPU context with its registers and trap table, mmuext_op and
 * multicall entries.  See pv/compat/xlat.h.
 */
#include "pv/compat/xlat.h"
#include <xen/errno.h>

int xlat_start_info_to_compat(void *c, const struct start_info *n)
{
    bool ok = true;

    memset(c, 0, COMPAT_SIZEOF(start_info));
    BUILD_BUG_ON(COMPAT_MSIZE(start_info, magic) != sizeof(n->magic));
    memcpy(compat_ptr(c, start_info, magic), n->magic, sizeof(n->magic));
    ok &= compat_put_fit(c, start_info, nr_pages, n->nr_pages);
    ok &= compat_put_fit(c, start_info, shared_info, n->shared_info);
    compat_put(c, start_info, flags, n->flags);
    ok &= compat_put_fit(c, start_info, store_mfn, n->store_mfn);
    compat_put(c, start_info, store_evtchn, n->store_evtchn);
    if ( n->flags & SIF_INITDOMAIN )
    {
        compat_put(c, start_info, console__dom0__info_off,
                   n->console.dom0.info_off);
        compat_put(c, start_info, console__dom0__info_size,
                   n->console.dom0.info_size);
    }
    else
    {
        ok &= compat_put_fit(c, start_info, console__domU__mfn,
                             n->console.domU.mfn);
        compat_put(c, start_info, console__domU__evtchn,
                   n->console.domU.evtchn);
    }
    ok &= compat_put_fit(c, start_info, pt_base, n->pt_base);
    ok &= compat_put_fit(c, start_info, nr_pt_frames, n->nr_pt_frames);
    ok &= compat_put_fit(c, start_info, mfn_list, n->mfn_list);
    ok &= compat_put_fit(c, start_info, mod_start, n->mod_start);
    ok &= compat_put_fit(c, start_info, mod_len, n->mod_len);
    BUILD_BUG_ON(COMPAT_MSIZE(start_info, cmd_line) != sizeof(n->cmd_line));
    memcpy(compat_ptr(c, start_info, cmd_line), n->cmd_line,
           sizeof(n->cmd_line));
    ok &= compat_put_fit(c, start_info, first_p2m_pfn, n->first_p2m_pfn);
    ok &= compat_put_fit(c, start_info, nr_p2m_frames, n->nr_p2m_frames);

    return ok ? 0 : -XEN_ERANGE;
}

void xlat_cpu_user_regs_from_compat(struct cpu_user_regs *n, const void *c)
{
    memset(n, 0, sizeof(*n));
    n->rbx = compat_get(c, cpu_user_regs, ebx);
    n->rcx = compat_get(c, cpu_user_regs, ecx);
    n->rdx = compat_get(c, cpu_user_regs, edx);
    n->rsi = compat_get(c, cpu_user_regs, esi);
    n->rdi = compat_get(c, cpu_user_regs, edi);
    n->rbp = compat_get(c, cpu_user_regs, ebp);
    n->rax = compat_get(c, cpu_user_regs, eax);
    n->error_code = compat_get(c, cpu_user_regs, error_code);
    n->entry_vector = compat_get(c, cpu_user_regs, entry_vector);
    n->rip = compat_get(c, cpu_user_regs, eip);
    n->cs = compat_get(c, cpu_user_regs, cs);
    n->saved_upcall_mask = compat_get(c, cpu_user_regs, saved_upcall_mask);
    n->rflags = compat_get(c, cpu_user_regs, eflags);
    n->rsp = compat_get(c, cpu_user_regs, esp);
    n->ss = compat_get(c, cpu_user_regs, ss);
    n->es = compat_get(c, cpu_user_regs, es);
    n->ds = compat_get(c, cpu_user_regs, ds);
    n->fs = compat_get(c, cpu_user_regs, fs);
    n->gs = compat_get(c, cpu_user_regs, gs);
}

void xlat_trap_info_from_compat(struct trap_info *n, const void *c)
{
    memset(n, 0, sizeof(*n));
    n->vector = compat_get(c, trap_info, vector);
    n->flags = compat_get(c, trap_info, flags);
    n->cs = compat_get(c, trap_info, cs);
    n->address = compat_get(c, trap_info, address);
}

void xlat_vcpu_guest_context_from_compat(struct vcpu_guest_context *n,
                                         struct compat_callback_cs *cs,
                                         const void *c)
{
    unsigned int i;

    BUILD_BUG_ON(COMPAT_NR(vcpu_guest_context, trap_ctxt) !=
                 ARRAY_SIZE(n->trap_ctxt));
    BUILD_BUG_ON(COMPAT_NR(vcpu_guest_context, gdt_frames) !=
                 ARRAY_SIZE(n->gdt_frames));
    BUILD_BUG_ON(COMPAT_NR(vcpu_guest_context, ctrlreg) !=
                 ARRAY_SIZE(n->ctrlreg));
    BUILD_BUG_ON(COMPAT_NR(vcpu_guest_context, debugreg) !=
                 ARRAY_SIZE(n->debugreg));
    BUILD_BUG_ON(COMPAT_MSIZE(vcpu_guest_context, fpu_ctxt) !=
                 sizeof(n->fpu_ctxt));

    memset(n, 0, sizeof(*n));
    memcpy(&n->fpu_ctxt, compat_ptr(c, vcpu_guest_context, fpu_ctxt),
           sizeof(n->fpu_ctxt));
    n->flags = compat_get(c, vcpu_guest_context, flags);
    xlat_cpu_user_regs_from_compat(&n->user_regs,
        compat_ptr(c, vcpu_guest_context, user_regs));
    for ( i = 0; i < ARRAY_SIZE(n->trap_ctxt); i++ )
        xlat_trap_info_from_compat(&n->trap_ctxt[i],
            compat_ptr_idx(c, vcpu_guest_context, trap_ctxt, i));
    n->ldt_base = compat_get(c, vcpu_guest_context, ldt_base);
    n->ldt_ents = compat_get(c, vcpu_guest_context, ldt_ents);
    for ( i = 0; i < ARRAY_SIZE(n->gdt_frames); i++ )
        n->gdt_frames[i] = compat_get_idx(c, vcpu_guest_context,
                                          gdt_frames, i);
    n->gdt_ents = compat_get(c, vcpu_guest_context, gdt_ents);
    n->kernel_ss = compat_get(c, vcpu_guest_context, kernel_ss);
    n->kernel_sp = compat_get(c, vcpu_guest_context, kernel_sp);
    for ( i = 0; i < ARRAY_SIZE(n->ctrlreg); i++ )
        n->ctrlreg[i] = compat_get_idx(c, vcpu_guest_context, ctrlreg, i);
    for ( i = 0; i < ARRAY_SIZE(n->debugreg); i++ )
        n->debugreg[i] = compat_get_idx(c, vcpu_guest_context, debugreg, i);
    cs->event = compat_get(c, vcpu_guest_context, event_callback_cs);
    n->event_callback_eip = compat_get(c, vcpu_guest_context,
                                       event_callback_eip);
    cs->failsafe = compat_get(c, vcpu_guest_context, failsafe_callback_cs);
    n->failsafe_callback_eip = compat_get(c, vcpu_guest_context,
                                          failsafe_callback_eip);
    n->vm_assist = compat_get(c, vcpu_guest_context, vm_assist);
}

void xlat_mmuext_op_from_compat(struct mmuext_op *n, const void *c)
{
    memset(n, 0, sizeof(*n));
    n->cmd = compat_get(c, mmuext_op, cmd);
    n->arg1.linear_addr = compat_get(c, mmuext_op, arg1);
    /* The union's widest arm, so every arm reads the zero-extension. */
    n->arg2.src_mfn = compat_get(c, mmuext_op, arg2);
    BUILD_BUG_ON(sizeof(n->arg2.src_mfn) != sizeof(n->arg2));
    BUILD_BUG_ON(sizeof(n->arg1.linear_addr) != sizeof(n->arg1));
}

void xlat_multicall_entry_from_compat(struct multicall_entry *n,
                                      const void *c)
{
    unsigned int i;

    BUILD_BUG_ON(COMPAT_NR(multicall_entry, args) != ARRAY_SIZE(n->args));
    memset(n, 0, sizeof(*n));
    n->op = compat_get(c, multicall_entry, op);
    n->result = compat_get(c, multicall_entry, result);
    for ( i = 0; i < ARRAY_SIZE(n->args); i++ )
        n->args[i] = compat_get_idx(c, multicall_entry, args, i);
}

void xlat_multicall_entry_to_compat(void *c, const struct multicall_entry *n)
{
    unsigned int i;

    memset(c, 0, COMPAT_SIZEOF(multicall_entry));
    compat_put(c, multicall_entry, op, n->op);
    compat_put(c, multicall_entry, result, n->result);
    for ( i = 0; i < ARRAY_SIZE(n->args); i++ )
        compat_put_idx(c, multicall_entry, args, i, n->args[i]);
}
