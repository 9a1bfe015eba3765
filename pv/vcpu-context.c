/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * VCPUOP_initialise's context, checked as Xen's arch_set_info_guest()
 * (xen/arch/x86/domain.c) checks a 64-bit PV vCPU's.  See vcpu-context.h.
 */
#include "pv/vcpu-context.h"
#include <xen/errno.h>
#include "shim/frame.h"
#include "pv/guest-addr.h"

#define X86_EFLAGS_IF       0x00000200UL
#define X86_EFLAGS_IOPL     0x00003000UL
#define X86_CR0_TS          0x00000008UL
#define LDT_MAX_ENTS        8192
#define FCW_DEFAULT         0x037f      /* Xen's, fninit's */
#define MXCSR_DEFAULT       0x1f80


/* Xen's fixup_guest_{stack,code}_selector(): RPL at least the kernel's. */
static uint16_t guest_selector(uint16_t sel)
{
    return (sel & 3) == 3 ? sel : (sel & ~3) | 3;
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

    /* IOPL is virtual; real interrupts stay on in the guest. */
    *iopl = c->user_regs.rflags & X86_EFLAGS_IOPL;
    c->user_regs.rflags = (c->user_regs.rflags & ~X86_EFLAGS_IOPL) |
                          X86_EFLAGS_IF;
    /* Only CR0.TS is the guest's to set. */
    c->ctrlreg[0] &= X86_CR0_TS;
    pv_vcpu_context_fpu(c);
    return 0;
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
        memcpy(&fx[0], &fcw, sizeof(fcw));
        mxcsr = MXCSR_DEFAULT;
        memcpy(&fx[24], &mxcsr, sizeof(mxcsr));
        return;
    }
    memcpy(&mxcsr, &fx[24], sizeof(mxcsr));
    if ( mxcsr & ~mxcsr_mask )
        memset(fx, 0, sizeof(c->fpu_ctxt));
}
