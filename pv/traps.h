/* SPDX-License-Identifier: GPL-2.0-only */
/* Delivering exceptions and events to the guest kernel (pv/traps.c). */
#ifndef PV_TRAPS_H
#define PV_TRAPS_H

#include "arch/x86/exception.h"
#include "arch/x86/regs.h"
#include "pv/compat/layout.h"
#include "pv/domain.h"

/*
 * Bounce the guest to its kernel at @eip on Xen's frame
 * (create_bounce_frame); from guest user mode it switches to kernel mode
 * first.  Flags as Xen's struct trap_bounce: TBF_EXCEPTION_ERRCODE puts
 * @error_code in the frame, TBF_INTERRUPT masks events for the handler.
 */
#define TBF_EXCEPTION           1
#define TBF_EXCEPTION_ERRCODE   2
#define TBF_INTERRUPT           8
/*
 * Not Xen's flag, its failsafe frame (load_segments()): the vCPU's data
 * selectors (ds, es, fs, gs: v->data_sel) under the return frame.
 */
#define TBF_FAILSAFE            0x100
void pv_create_bounce_frame(struct cpu_regs *regs, unsigned long eip,
                            unsigned int flags, uint32_t error_code);
/* The same, to @cs:@eip for a 32-bit guest (a 64-bit one ignores @cs). */
void pv_bounce_to(struct cpu_regs *regs, unsigned int cs, unsigned long eip,
                  unsigned int flags, uint32_t error_code);

/*
 * Does a frame a bounce (or HYPERVISOR_iret) wrote need the exit to make
 * it safe (pv_exit_work())?  Not a 64-bit guest's: the bounce writes the
 * kernel's flat selectors (RPL 3) and keeps the flags the CPU saved (IF
 * set, IOPL 0: ring 3 changes neither), and do_iret() forces RPL 3, IF
 * and IOPL 0 itself, as Xen's does.  A 32-bit guest's takes selectors
 * from the guest (its trap table, callbacks, iret frame), which the exit
 * keeps out of ring 0.  Anything pending is the exit's looks' to find.
 */
static inline bool pv_bounce_exit_work(void)
{
    return dom.compat;
}

/*
 * A 32-bit guest changes rings by itself (iret, lret between ring 1 and
 * ring 3 need no hypervisor): on every entry its mode is its CS's RPL.
 * Its kernel is ring 1 only, as Xen's guest_kernel_mode() (ring_1()):
 * ring 2 code the kernel may set up is user code, with no privileged
 * operation, CPL-1 I/O or page-table write emulated for it.
 */
static inline bool pv_compat_kernel_cs(unsigned int cs)
{
    return (cs & 3) == 1;
}

static inline void pv_compat_entry_mode(struct vcpu *v,
                                        const struct cpu_regs *regs)
{
    if ( dom.compat )
        v->kernel_mode = pv_compat_kernel_cs(regs->cs);
}

/* vcpu_info's arch.cr2, where the guest's layout has it. */
static inline void pv_set_guest_cr2(struct vcpu *v, unsigned long cr2)
{
    if ( dom.compat )
        compat_put(v->vcpu_info, vcpu_info, arch__cr2, cr2);
    else
        v->vcpu_info->arch.cr2 = cr2;
}

static inline unsigned long pv_guest_cr2(const struct vcpu *v)
{
    return dom.compat ? compat_get(v->vcpu_info, vcpu_info, arch__cr2)
                      : v->vcpu_info->arch.cr2;
}

/*
 * Make the guest take exception @vector (with @error_code where the
 * vector has one) at its registered handler; no handler crashes it.
 */
void pv_inject_exception(struct cpu_regs *regs, unsigned int vector,
                         uint32_t error_code);

/* The software interrupt `int $vector` (no error code), at rip already past
 * the instruction.  Returns false if the trap table forbids it. */
bool pv_inject_swint(struct cpu_regs *regs, unsigned int vector);

/* pv/misc-hypercalls.c: a #DB for the guest takes its status out of DR6. */
void pv_debug_trap_dr6(struct vcpu *v);

/* %rcx and %r11 as Xen's sysret back to the guest leaves them. */
void pv_sysret_regs(struct cpu_regs *regs);

/* A syscall from guest user mode, to the kernel's syscall callback. */
void pv_bounce_syscall(struct cpu_regs *regs);

/* pv/mm/ro-page-fault.c: a write to one of the guest's own L1 tables, done
 * for it (writable page tables); true if emulated. */
bool pv_ptwr_fault(struct cpu_regs *regs, unsigned long addr, uint32_t ec);

/* pv/emul/emul-priv-op.c: emulate a #GP-ing privileged instruction; true if
 * handled (including by injecting a different fault). */
bool pv_emulate_privileged_op(struct cpu_regs *regs);
/* ... and the forced-emulation prefix `ud2; .ascii "xen"; cpuid`. */
bool pv_emulate_forced_cpuid(struct cpu_regs *regs);

#endif /* PV_TRAPS_H */
