/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The register frame arch/x86/entry.S saves on every exception and
 * interrupt.  Its layout is the prefix of Xen's struct cpu_user_regs
 * (xen/arch-x86/xen-x86_64.h), so a guest frame can use the same stubs.
 */
#ifndef ARCH_X86_REGS_H
#define ARCH_X86_REGS_H

#include "shim/lib.h"

struct cpu_regs {
    uint64_t r15, r14, r13, r12, rbp, rbx, r11, r10, r9, r8;
    uint64_t rax, rcx, rdx, rsi, rdi;
    uint32_t error_code;        /* 0 for vectors without one */
    uint32_t entry_vector;
    /* Pushed by the CPU. */
    uint64_t rip, cs, rflags, rsp, ss;
};

BUILD_BUG_ON(sizeof(struct cpu_regs) % 16 != 8);

static inline bool regs_from_guest(const struct cpu_regs *r)
{
    return r->cs & 3;
}

#endif /* ARCH_X86_REGS_H */
