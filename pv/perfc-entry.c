/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * In a build with performance counters (shim/perfc.h), what kind of entry
 * from the guest each one is, for the shim's time by entry: pv/entry.S
 * calls pv_perfc_entry() on every entry, with the frame.
 */
#ifdef CONFIG_PERF_COUNTERS

#include "shim/lib.h"
#include <xen/xen.h>
#include "arch/x86/desc.h"
#include "arch/x86/regs.h"
#include "pv/domain.h"
#include "pv/entry.h"
#include "shim/perfc.h"

void pv_perfc_entry(const struct cpu_regs *regs);
void pv_perfc_start(const struct cpu_regs *regs);

void pv_perfc_entry(const struct cpu_regs *regs)
{
    unsigned int vec = regs->entry_vector, kind;
    const struct vcpu *v = current_vcpu();

    if ( vec == HYPERCALL_VECTOR ||
         (vec == ENTRY_SYSCALL && v && v->kernel_mode &&
          regs->cs == FLAT_KERNEL_CS64) )
        /* A number past the counters' is counted as "other". */
        kind = regs->rax < PERFC_NR_HYPERCALLS ? regs->rax : PERFC_ENTRY_OTHER;
    else if ( vec == ENTRY_SYSCALL || vec == 0x80 )
        kind = PERFC_ENTRY_SYSCALL;     /* syscall, sysenter, int $0x80 */
    else if ( vec < 32 )
        kind = PERFC_ENTRY_EXCEPTION + vec;
    else if ( vec < 256 )
        kind = PERFC_ENTRY_INTERRUPT;
    else
        kind = PERFC_ENTRY_OTHER;
    perfc_guest_entry(kind);
}

/* pv_enter_guest(): the vCPU's start, counted as "other". */
void pv_perfc_start(const struct cpu_regs *regs)
{
    perfc_guest_entry(PERFC_ENTRY_OTHER);
}

#endif /* CONFIG_PERF_COUNTERS */
