/* SPDX-License-Identifier: GPL-2.0-only */
/* iret_to() and back_entry (iret-to.h). */
#include "guest.h"
#include "iret-to.h"

unsigned long back_frame[8], back_rsp;

#ifdef __x86_64__
asm ( ".pushsection .text\n"
      ".globl back_entry\n"
      "back_entry:\n\t"
      ".irp w, 0, 1, 2, 3, 4, 5, 6, 7\n\t"
      "mov \\w * 8(%rsp), %rax; mov %rax, back_frame + \\w * 8(%rip)\n\t"
      ".endr\n\t"
      "mov back_rsp(%rip), %rsp\n\t"
      "ret\n"
      ".popsection" );

void iret_to(unsigned long rip, unsigned long cs)
{
    static unsigned long frame[6] __attribute__((aligned(16)));
    static uint8_t stack[4096] __attribute__((aligned(16)));

    frame[0] = 0;
    frame[1] = rip;
    frame[2] = cs;
    frame[3] = 0x202;
    frame[4] = (unsigned long)stack + sizeof(stack);
    frame[5] = FLAT_KERNEL_SS;
    asm volatile ( "push %%rbp\n\t"
                   "lea 1f(%%rip), %%rax; push %%rax\n\t"
                   "mov %%rsp, back_rsp(%%rip)\n\t"
                   "mov %0, %%rsp\n\t"
                   "jmp hypercall_page + %c1\n"
                   "1: pop %%rbp"
                   :: "r" (frame), "i" (__HYPERVISOR_iret * 32)
                   : "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9",
                     "r10", "r11", "r12", "r13", "r14", "r15", "memory" );
}
#else
asm ( ".pushsection .text\n"
      ".globl back_entry\n"
      "back_entry:\n\t"
      ".irp w, 0, 1, 2, 3, 4, 5, 6, 7\n\t"
      "mov \\w * 4(%esp), %eax; mov %eax, back_frame + \\w * 4\n\t"
      ".endr\n\t"
      "mov back_rsp, %esp\n\t"
      "ret\n"
      ".popsection" );

/*
 * compat_iret to ring 1 takes %eip, %cs and %eflags and goes on with the
 * stack after them: the code at @eip runs on the rest of stack[], and
 * bounce frames land below the iret frame, in stack[] too.
 */
void iret_to(unsigned long eip, unsigned long cs)
{
    static unsigned long stack[1024];
    unsigned long *frame = &stack[512];

    frame[0] = eip;
    frame[1] = cs;
    frame[2] = 0x202;
    asm volatile ( "push %%ebp\n\t"
                   "push $1f\n\t"
                   "mov %%esp, back_rsp\n\t"
                   "mov %0, %%esp\n\t"
                   "jmp hypercall_page + %c1\n"
                   "1: pop %%ebp"
                   :: "i" (&stack[512]), "i" (__HYPERVISOR_iret * 32)
                   : "eax", "ebx", "ecx", "edx", "esi", "edi", "memory" );
}
#endif
