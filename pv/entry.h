/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by pv/entry.S and the C it calls. */
#ifndef PV_ENTRY_H
#define PV_ENTRY_H

/* entry_vector of a frame built by the syscall entry (as Xen's). */
#define ENTRY_SYSCALL 0x100

#ifndef __ASSEMBLER__
#include "arch/x86/regs.h"
#include "arch/x86/layout.h"

extern const char lstar_stubs[];
extern const char cstar_stubs[];
extern const char sysenter_entry[];
extern unsigned long lstar_stack[NR_CPUS];

void pv_syscall(struct cpu_regs *regs);
void pv_exception(struct cpu_regs *regs);
void pv_sysenter(struct cpu_regs *regs);
void pv_exit_to_guest(struct cpu_regs *regs);
void pv_iret_fault(struct cpu_regs *regs);
#endif

#endif /* PV_ENTRY_H */
