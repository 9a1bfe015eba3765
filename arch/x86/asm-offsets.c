/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Offsets and sizes for assembly, generated into asm-offsets.h at build
 * time so entry code never hand-numbers a frame.
 */
#include "arch/x86/percpu.h"
#include "arch/x86/regs.h"

#define DEFINE(sym, val) \
    asm volatile ( "\n.ascii \"->" #sym " %0\"" :: "i" (val) )
#define OFFSET(sym, str, mem) DEFINE(sym, offsetof(struct str, mem))

void asm_offsets(void);
void asm_offsets(void)
{
    OFFSET(REGS_r15, cpu_regs, r15);
    OFFSET(REGS_rax, cpu_regs, rax);
    OFFSET(REGS_error_code, cpu_regs, error_code);
    OFFSET(REGS_entry_vector, cpu_regs, entry_vector);
    OFFSET(REGS_rip, cpu_regs, rip);
    DEFINE(REGS_sizeof, sizeof(struct cpu_regs));
    OFFSET(REGS_rsp, cpu_regs, rsp);
    OFFSET(REGS_cs, cpu_regs, cs);
    OFFSET(REGS_ss, cpu_regs, ss);
    OFFSET(REGS_rflags, cpu_regs, rflags);
    OFFSET(REGS_rcx, cpu_regs, rcx);
    OFFSET(REGS_r11, cpu_regs, r11);
    DEFINE(CPU_INFO_sizeof, sizeof(struct cpu_info));
    OFFSET(CPU_INFO_guest_regs, cpu_info, guest_regs);
    DEFINE(CPU_INFO_rsp0, offsetof(struct cpu_info, guest_regs) +
                          sizeof(struct cpu_regs));
}
