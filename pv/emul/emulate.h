/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the emulators of guest instructions share (pv/emul/emul-priv-op.c,
 * pv/emul/emul-inv-op.c, pv/emul/emul-io.c), as Xen's pv/emul/emulate.h.
 */
#ifndef PV_EMULATE_H
#define PV_EMULATE_H

#include "arch/x86/debugreg.h"
#include "arch/x86/eflags.h"
#include "arch/x86/regs.h"
#include "pv/descriptor-tables.h"
#include "pv/domain.h"
#include "pv/hypercall.h"
#include "pv/traps.h"

/*
 * Past an emulated instruction of @len bytes, as Xen's
 * pv_emul_instruction_done(): a single-stepping guest gets its #DB.
 * Returns true, the emulators' "handled".
 */
static inline bool pv_emul_instruction_done(struct cpu_regs *regs,
                                            unsigned int len)
{
    regs->rip += len;
    regs->rflags &= ~X86_EFLAGS_RF;
    if ( regs->rflags & X86_EFLAGS_TF )
    {
        do_set_debugreg(6, do_get_debugreg(6) | X86_DR6_BS);
        pv_inject_exception(regs, X86_EXC_DB, 0);
    }
    return true;
}

/*
 * Is 32-bit code segment @cs based at 0, so that the instruction at
 * %eip is at linear %eip, where the emulators read it?  One based
 * elsewhere (a 32-bit process's LDT segment, say) isn't emulated: the
 * fault is the guest's, as it came, rather than the shim decoding bytes
 * the CPU never ran (kernel memory, for a user process that picks its
 * base so), as Xen would by adding the base (no PV kernel's code
 * segments have one).
 */
static inline bool pv_code_seg_flat(unsigned int cs)
{
    uint32_t base;

    return pv_seg_base(cs, &base) && !base;
}

/* pv/emul/emul-io.c: may @v use in/out, cli/sti (Xen's iopl_ok())? */
bool pv_iopl_ok(const struct vcpu *v);
/* ... and in/out of @bytes at @port: the IOPL or the guest's I/O bitmap. */
bool pv_io_ok(struct vcpu *v, unsigned int port, unsigned int bytes);
/* ... and what a port access does for a domain that owns no ports. */
uint32_t pv_io_read(unsigned int port, unsigned int size);
void pv_io_write(unsigned int port, unsigned int size, uint32_t data);

#endif /* PV_EMULATE_H */
