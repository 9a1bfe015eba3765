/* SPDX-License-Identifier: GPL-2.0-only */
/* The 32-bit (compat) exception frame: its layout check and its dump. */
#include "guest.h"
#include "lib.h"

/*
 * entry.S builds struct cpu_user_regs (xen-x86_32.h) up to %ss by
 * pushing registers below Xen's bounce frame: the header must agree.
 */
#define REGS_AT(field, off) \
    _Static_assert(offsetof(struct cpu_user_regs, field) == (off), \
                   #field " is not at offset " #off " of the entry frame")
REGS_AT(ebx, 0);
REGS_AT(ecx, 4);
REGS_AT(edx, 8);
REGS_AT(esi, 12);
REGS_AT(edi, 16);
REGS_AT(ebp, 20);
REGS_AT(eax, 24);
REGS_AT(error_code, 28);
REGS_AT(entry_vector, 30);
REGS_AT(eip, 32);
REGS_AT(cs, 36);
REGS_AT(saved_upcall_mask, 38);
REGS_AT(eflags, 40);
REGS_AT(esp, 44);
REGS_AT(ss, 48);

void dump_regs(const struct cpu_user_regs *regs)
{
    unsigned int vec = regs->entry_vector;
    /* From ring 1 Xen pushed no %esp/%ss: the frame ended at &regs->esp. */
    bool same_ring = (regs->cs & 3) == 1;
    unsigned long esp = same_ring ? (unsigned long)&regs->esp : regs->esp;
    unsigned int ss = same_ring ? FLAT_KERNEL_SS : regs->ss;

    printf("Unhandled exception: vector %u (%s), error code 0x%x\n",
           vec, exc_name(vec), regs->error_code);
    printf("EIP: %04x:%08x  EFLAGS: %08x  upcall mask: %u\n",
           regs->cs, regs->eip, regs->eflags, regs->saved_upcall_mask);
    printf("ESP: %04x:%08lx", ss, esp);
    if ( vec == X86_EXC_PF && shared_info )
        printf("  CR2: %08lx", shared_info->vcpu_info[0].arch.cr2);
    printf("\n");
    printf("EAX: %08x  EBX: %08x  ECX: %08x  EDX: %08x\n",
           regs->eax, regs->ebx, regs->ecx, regs->edx);
    printf("ESI: %08x  EDI: %08x  EBP: %08x\n",
           regs->esi, regs->edi, regs->ebp);
}
