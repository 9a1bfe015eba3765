/* SPDX-License-Identifier: GPL-2.0-only */
/* The 64-bit exception frame: its layout check and its dump (lib.h). */
#include "guest.h"
#include "lib.h"

/* entry.S builds this frame by pushing registers: the header must agree. */
#define REGS_AT(field, slot) \
    _Static_assert(offsetof(struct cpu_user_regs, field) == (slot) * 8, \
                   #field " is not at slot " #slot " of the entry frame")
REGS_AT(r15, 0);
REGS_AT(rbx, 5);
REGS_AT(r11, 6);
REGS_AT(r8, 9);
REGS_AT(rax, 10);
REGS_AT(rcx, 11);
REGS_AT(rdi, 14);
REGS_AT(error_code, 15);
REGS_AT(rip, 16);
REGS_AT(cs, 17);
REGS_AT(rflags, 18);
REGS_AT(rsp, 19);
REGS_AT(ss, 20);
_Static_assert(offsetof(struct cpu_user_regs, entry_vector) == 15 * 8 + 4,
               "entry_vector is not the upper half of the error-code slot");

void dump_regs(const struct cpu_user_regs *regs)
{
    unsigned int vec = regs->entry_vector;

    printf("Unhandled exception: vector %u (%s), error code 0x%x\n",
           vec, exc_name(vec), regs->error_code);
    printf("RIP: %04x:%016lx  RFLAGS: %016lx  upcall mask: %u\n",
           regs->cs, regs->rip, regs->rflags, regs->saved_upcall_mask);
    printf("RSP: %04x:%016lx", regs->ss, regs->rsp);
    if ( vec == X86_EXC_PF && shared_info )
        printf("  CR2: %016lx", shared_info->vcpu_info[0].arch.cr2);
    printf("\n");
    printf("RAX: %016lx  RBX: %016lx  RCX: %016lx\n",
           regs->rax, regs->rbx, regs->rcx);
    printf("RDX: %016lx  RSI: %016lx  RDI: %016lx\n",
           regs->rdx, regs->rsi, regs->rdi);
    printf("RBP: %016lx  R8:  %016lx  R9:  %016lx\n",
           regs->rbp, regs->r8, regs->r9);
    printf("R10: %016lx  R11: %016lx  R12: %016lx\n",
           regs->r10, regs->r11, regs->r12);
    printf("R13: %016lx  R14: %016lx  R15: %016lx\n",
           regs->r13, regs->r14, regs->r15);
}
