/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * VCPUOP_initialise's context, checked as Xen's arch_set_info_guest()
 * (xen/arch/x86/domain.c) checks a 64-bit or a 32-bit PV vCPU's.  See
 * vcpu-context.h.
 */
#include "pv/vcpu/vcpu-context.h"
#include <xen/errno.h>
#include "arch/x86/cr.h"
#include "arch/x86/eflags.h"
#include "arch/x86/fpu.h"
#include "shim/frame.h"
#include "pv/guest-addr.h"
#include "pv/descriptor-tables.h"

#define LDT_MAX_ENTS        8192


/* Xen's fixup_guest_{stack,code}_selector(): RPL at least the kernel's. */
static uint16_t guest_selector(uint16_t sel)
{
    return (sel & 3) == 3 ? sel : (sel & ~3) | 3;
}

/* What both kinds of guest have checked and normalised alike. */
static void context_common(struct vcpu_guest_context *c, unsigned int *iopl)
{
    /* IOPL is virtual; real interrupts stay on in the guest. */
    *iopl = c->user_regs.rflags & X86_EFLAGS_IOPL;
    c->user_regs.rflags = (c->user_regs.rflags & ~X86_EFLAGS_IOPL) |
                          X86_EFLAGS_IF;
    /* Only CR0.TS is the guest's to set. */
    c->ctrlreg[0] &= X86_CR0_TS;
    pv_vcpu_context_fpu(c);
}

int pv_vcpu_context_check(struct vcpu_guest_context *c, unsigned int *iopl)
{
    unsigned int i;

    if ( !is_canonical(c->user_regs.rip) || !is_canonical(c->user_regs.rsp) ||
         !is_canonical(c->kernel_sp) ||
         (c->ldt_ents && !is_canonical(c->ldt_base)) ||
         !is_canonical(c->fs_base) || !is_canonical(c->gs_base_kernel) ||
         !is_canonical(c->gs_base_user) ||
         !is_canonical(c->event_callback_eip) ||
         !is_canonical(c->syscall_callback_eip) ||
         !is_canonical(c->failsafe_callback_eip) )
        return -XEN_EINVAL;
    for ( i = 0; i < ARRAY_SIZE(c->trap_ctxt); i++ )
        if ( !is_canonical(c->trap_ctxt[i].address) )
            return -XEN_EINVAL;
    if ( !guest_addr_ok(c->ldt_base) || (c->ldt_base & (PAGE_SIZE - 1)) ||
         c->ldt_ents > LDT_MAX_ENTS )
        return -XEN_EINVAL;
    /* A vCPU that starts in user mode needs its user page tables. */
    if ( !(c->flags & VGCF_in_kernel) && !c->ctrlreg[1] )
        return -XEN_EINVAL;

    c->user_regs.ss = guest_selector(c->user_regs.ss);
    c->kernel_ss = guest_selector(c->kernel_ss);
    c->user_regs.cs = guest_selector(c->user_regs.cs);
    for ( i = 0; i < ARRAY_SIZE(c->trap_ctxt); i++ )
        c->trap_ctxt[i].cs = guest_selector(c->trap_ctxt[i].cs);

    context_common(c, iopl);
    return 0;
}

uint16_t pv_compat_selector(uint16_t sel)
{
    return (sel & 3) ? sel : sel | 1;
}

/*
 * Xen's compat branch: no address to check (each is 32 bits, and the
 * LDT is mapped from the guest's page tables on demand), selectors
 * raised to ring 1, and no user page table (ring 1 and 3 share one).
 */
int pv_compat_vcpu_context_check(struct vcpu_guest_context *c,
                                 unsigned int *iopl)
{
    unsigned int i;

    if ( (c->ldt_base & (PAGE_SIZE - 1)) || c->ldt_ents > LDT_MAX_ENTS )
        return -XEN_EINVAL;

    c->user_regs.ss = pv_compat_selector(c->user_regs.ss);
    c->kernel_ss = pv_compat_selector(c->kernel_ss);
    c->user_regs.cs = pv_compat_selector(c->user_regs.cs);
    for ( i = 0; i < ARRAY_SIZE(c->trap_ctxt); i++ )
        c->trap_ctxt[i].cs = pv_compat_selector(c->trap_ctxt[i].cs);

    context_common(c, iopl);
    return 0;
}

/*
 * The rules of a data segment register load (SDM vol. 3A, 5.7 and the
 * MOV instruction's faults), from ring 0: no #GP, #NP or #SS possible.
 */
bool pv_data_selector_loadable(uint16_t sel, uint64_t desc)
{
    uint32_t b = desc >> 32;
    unsigned int dpl = (b & _SEGMENT_DPL) >> 13;
    bool code = b & (8u << 8), conforming = b & (4u << 8);

    if ( !(sel & ~3) )
        return true;                    /* null: always */
    if ( sel & 4 )
        return false;                   /* LDT: mapped on demand only */
    if ( !(b & _SEGMENT_P) || !(b & _SEGMENT_S) )
        return false;
    if ( code && !(b & (2u << 8)) )
        return false;                   /* execute-only code */
    return (code && conforming) || dpl >= (sel & 3u);
}

/*
 * The FPU image the vCPU starts with: the guest's with VGCF_i387_valid,
 * else Xen's vcpu_init_fpu() default.  An image FXRSTOR would refuse
 * (MXCSR bits outside mxcsr_mask: the one #GP a 16-byte-aligned image
 * can raise in 64-bit mode) is cleared to zeros, as Xen's fpu_fxrstor()
 * "silently clears" a corrupted block and loads that.
 */
void pv_vcpu_context_fpu(struct vcpu_guest_context *c)
{
    uint8_t *fx = (uint8_t *)&c->fpu_ctxt;
    uint32_t mxcsr;
    uint16_t fcw = FCW_DEFAULT;

    if ( !(c->flags & VGCF_i387_valid) )
    {
        memset(fx, 0, sizeof(c->fpu_ctxt));
        memcpy(&fx[FXSAVE_FCW], &fcw, sizeof(fcw));
        mxcsr = MXCSR_DEFAULT;
        memcpy(&fx[FXSAVE_MXCSR], &mxcsr, sizeof(mxcsr));
        return;
    }
    memcpy(&mxcsr, &fx[FXSAVE_MXCSR], sizeof(mxcsr));
    if ( mxcsr & ~mxcsr_mask )
        memset(fx, 0, sizeof(c->fpu_ctxt));
}
