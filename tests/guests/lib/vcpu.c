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
    c->user_regs.rip = entry;
    c->user_regs.rdi = arg;
    c->user_regs.rsp = (unsigned long)stack_top - 8;
    c->user_regs.cs = FLAT_KERNEL_CS;
    c->user_regs.ss = FLAT_KERNEL_SS;
    c->user_regs.rflags = 0x2;
    c->kernel_ss = FLAT_KERNEL_SS;
    c->kernel_sp = c->user_regs.rsp;
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
