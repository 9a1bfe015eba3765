/* SPDX-License-Identifier: GPL-2.0-only */
/* Contexts for VCPUOP_initialise: see vcpu.h. */
#include "vcpu.h"
#include "mm.h"

void vcpu_ctx_init(struct vcpu_guest_context *c, unsigned long entry,
                   unsigned long arg, void *stack_top, bool traps)
{
    unsigned int vec;

    memset(c, 0, sizeof(*c));
    c->flags = VGCF_in_kernel;
#ifdef __x86_64__
    c->user_regs.rip = entry;
    c->user_regs.rdi = arg;
    c->user_regs.rsp = (unsigned long)stack_top - 8;
    c->user_regs.rflags = 0x2;
    c->kernel_sp = c->user_regs.rsp;
#else
    /*
     * cdecl: @arg on the stack above a return address that is never used,
     * placed so that the entry sees the ABI's 16-byte alignment.  The
     * data selectors too: null ones would fault at the first access.
     */
    {
        unsigned long *sp = (unsigned long *)((unsigned long)stack_top &
                                              ~15UL);

        sp[-4] = arg;
        sp[-5] = 0;
        c->user_regs.esp = (unsigned long)&sp[-5];
    }
    c->user_regs.eip = entry;
    c->user_regs.eflags = 0x2;
    c->user_regs.ds = c->user_regs.es = FLAT_KERNEL_DS;
    c->user_regs.fs = c->user_regs.gs = FLAT_KERNEL_DS;
    c->kernel_sp = c->user_regs.esp;
#endif
    c->user_regs.cs = FLAT_KERNEL_CS;
    c->user_regs.ss = FLAT_KERNEL_SS;
    c->kernel_ss = FLAT_KERNEL_SS;
    c->ctrlreg[3] = xen_pfn_to_cr3(pt_base_mfn());
    for ( vec = 0; traps && vec < X86_NR_EXC; vec++ )
    {
        trap_info_t *ti = &c->trap_ctxt[vec];

        ti->vector = vec;
        ti->cs = FLAT_KERNEL_CS;
        ti->address = exception_entry[vec];
        TI_SET_DPL(ti, (vec == X86_EXC_BP || vec == X86_EXC_OF) ? 3 : 0);
        TI_SET_IF(ti, 1);
    }
}
