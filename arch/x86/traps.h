/* SPDX-License-Identifier: GPL-2.0-only */
/* The shim's own exceptions: register dumps, stack traces, test faults. */
#ifndef ARCH_X86_TRAPS_H
#define ARCH_X86_TRAPS_H

#include "arch/x86/percpu.h"
#include "arch/x86/regs.h"

void do_trap(struct cpu_regs *regs);

/* The NMI's softirq (nmi=, arch/x86/traps.c). */
void traps_init(void);

/*
 * A page fault in the shim's own code that the layer above may resolve
 * (@fn maps what was missing: true to retry the instruction) before the
 * instruction's fix-up or the panic: the guest's LDT, mapped on first use
 * for loads the shim makes on the guest's behalf.
 */
void trap_set_pf_fixup(bool (*fn)(const struct cpu_regs *regs,
                                  unsigned long addr));

/*
 * The platform's NMI (the boot CPU's), with nmi=guest (the default): @fn
 * is called from a softirq on the boot CPU with what it was
 * (XEN_NMIREASON_* bits), to hand it to the guest as Xen hands one to
 * dom0 (nmi=dom0).  @stats prints the guest's side for the 'n' key.
 */
void trap_set_nmi_forward(void (*fn)(unsigned int reasons),
                          void (*stats)(void));

/* The general-purpose registers of a frame, in Xen's dump layout. */
void show_gprs(const struct cpu_regs *r);

/*
 * Xen's register dump of a frame (RIP, flags, GPRs, control registers,
 * segment bases), and show_execution_state(): the same and, for a frame
 * of the shim's, its call trace.  For fatal traps and the 'd' debug key.
 */
void show_registers(const struct cpu_regs *r);
void show_execution_state(const struct cpu_regs *regs);

/* Walk the frame-pointer chain from @fp, printing symbol names. */
void show_stack_trace(const void *fp);

/*
 * Take a deliberate fault in the shim ("pf", "gp", "ud", "de", "bp", "df");
 * false if the name is unknown.  For test-fault=, to prove the dump path.
 */
bool arch_test_fault(const char *kind);

/* arch/x86/symbols.c: name of the function containing @addr, or NULL. */
const char *symbol_lookup(unsigned long addr, unsigned long *offset,
                          unsigned long *size);

#endif /* ARCH_X86_TRAPS_H */
