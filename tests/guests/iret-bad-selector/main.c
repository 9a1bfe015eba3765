/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_iret to frames the CPU refuses: a code selector whose GDT
 * entry is empty, a non-canonical %rip.  The hypervisor's own iretq
 * faults on them, and as on Xen (its pre-exception table) the guest takes
 * that fault as if raised at the frame's %rip: #GP(selector), #GP(0).
 * Never a crash of the hypervisor.
 */
#include "guest.h"
#include "user.h"

const char test_title[] = "iret to an unusable frame: the guest's #GP";

/* The #GP handler: note the frame, go back to iret_to()'s caller. */
unsigned long gp_frame[6], gp_resume_rsp;
void gp_entry(void);
#ifdef __x86_64__
asm ( ".pushsection .text\n"
      "gp_entry:\n\t"
      "mov 16(%rsp), %rax; mov %rax, gp_frame + 0(%rip)\n\t"   /* ec */
      "mov 24(%rsp), %rax; mov %rax, gp_frame + 8(%rip)\n\t"   /* rip */
      "mov 32(%rsp), %rax; mov %rax, gp_frame + 16(%rip)\n\t"  /* cs */
      "mov 48(%rsp), %rax; mov %rax, gp_frame + 24(%rip)\n\t"  /* rsp */
      "mov 56(%rsp), %rax; mov %rax, gp_frame + 32(%rip)\n\t"  /* ss */
      "mov gp_resume_rsp(%rip), %rsp\n\t"
      "ret\n"
      ".popsection" );
#else
/* A compat frame: ec, eip, cs, eflags, and esp, ss from ring 3. */
asm ( ".pushsection .text\n"
      "gp_entry:\n\t"
      "mov 0(%esp), %eax; mov %eax, gp_frame + 0\n\t"         /* ec */
      "mov 4(%esp), %eax; mov %eax, gp_frame + 4\n\t"         /* eip */
      "movzwl 8(%esp), %eax; mov %eax, gp_frame + 8\n\t"      /* cs */
      "mov 16(%esp), %eax; mov %eax, gp_frame + 12\n\t"       /* esp */
      "mov 20(%esp), %eax; mov %eax, gp_frame + 16\n\t"       /* ss */
      "mov gp_resume_rsp, %esp\n\t"
      "ret\n"
      ".popsection" );
#endif

#ifdef __x86_64__
/* HYPERVISOR_iret to @rip, @cs in kernel mode; back through gp_entry. */
static void iret_to(unsigned long rip, unsigned long cs, unsigned long sp,
                    unsigned long ss)
{
    /* struct iret_context from its flags word up. */
    static unsigned long frame[6] __attribute__((aligned(16)));

    frame[0] = 0;                       /* flags */
    frame[1] = rip;
    frame[2] = cs;
    frame[3] = 0x202;                   /* rflags */
    frame[4] = sp;
    frame[5] = ss;
    asm volatile ( "push %%rbp\n\t"
                   "lea 1f(%%rip), %%rax; push %%rax\n\t"
                   "mov %%rsp, gp_resume_rsp(%%rip)\n\t"
                   "mov %0, %%rsp\n\t"
                   "jmp hypercall_page + %c1\n"
                   "1: pop %%rbp"
                   :: "r" (frame), "i" (__HYPERVISOR_iret * 32)
                   : "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9",
                     "r10", "r11", "r12", "r13", "r14", "r15", "memory" );
}
#else
/*
 * HYPERVISOR_iret (compat_iret) to @eip, @cs; back through gp_entry.
 * The frame: eip, cs, eflags, and esp, ss for ring 3 (for ring 1 the
 * stack after the frame is the one returned to).
 */
static void iret_to(unsigned long eip, unsigned long cs, unsigned long sp,
                    unsigned long ss)
{
    static unsigned long frame[5];

    frame[0] = eip;
    frame[1] = cs;
    frame[2] = 0x202;                   /* eflags */
    frame[3] = sp;
    frame[4] = ss;
    asm volatile ( "push %%ebp\n\t"
                   "push $1f\n\t"
                   "mov %%esp, gp_resume_rsp\n\t"
                   "mov %0, %%esp\n\t"
                   "jmp hypercall_page + %c1\n"
                   "1: pop %%ebp"
                   :: "i" (frame), "i" (__HYPERVISOR_iret * 32)
                   : "eax", "ebx", "ecx", "edx", "esi", "edi", "memory" );
}
#endif

#ifdef __x86_64__
void test_main(void)
{
    trap_info_t gp[2] = {
        { .vector = X86_EXC_GP, .flags = 4, .cs = FLAT_KERNEL_CS,
          .address = (unsigned long)gp_entry },
    };
    static uint8_t stack[4096] __attribute__((aligned(16)));
    unsigned long sp = (unsigned long)stack + sizeof(stack);

    check_rc(hypercall_set_trap_table(gp), 0);

    printf("iret with cs 0x10 (loaded as 0x13): GDT entry 2 is empty\n");
    iret_to((unsigned long)test_main, 0x10, sp, FLAT_KERNEL_SS);
    if ( gp_frame[0] != 0x10 || gp_frame[1] != (unsigned long)test_main ||
         gp_frame[2] != 0x10 || gp_frame[3] != sp ||
         gp_frame[4] != FLAT_KERNEL_SS )
        test_fail("bad cs: #GP frame ec %#lx rip %#lx cs %#lx rsp %#lx "
                  "ss %#lx", gp_frame[0], gp_frame[1], gp_frame[2],
                  gp_frame[3], gp_frame[4]);

    printf("iret to a non-canonical rip\n");
    memset(gp_frame, 0xff, sizeof(gp_frame));
    iret_to(0x8000000000001000UL, FLAT_KERNEL_CS & ~3, sp, FLAT_KERNEL_SS);
    if ( gp_frame[0] != 0 || gp_frame[1] != 0x8000000000001000UL ||
         gp_frame[2] != (FLAT_KERNEL_CS & ~3) )
        test_fail("non-canonical rip: #GP frame ec %#lx rip %#lx cs %#lx",
                  gp_frame[0], gp_frame[1], gp_frame[2]);

    /* From user mode's point of view: the fault comes from user mode,
     * onto the kernel stack stack_switch named. */
    check_rc(user_init(), 0);
    check_rc(hypercall_set_trap_table(gp), 0);
    printf("iret to user mode, non-canonical rip\n");
    memset(gp_frame, 0xff, sizeof(gp_frame));
    iret_to(0x8000000000002000UL, FLAT_USER_CS, sp, FLAT_USER_SS);
    if ( gp_frame[0] != 0 || gp_frame[1] != 0x8000000000002000UL ||
         gp_frame[2] != FLAT_USER_CS || gp_frame[3] != sp )
        test_fail("user, non-canonical rip: #GP frame ec %#lx rip %#lx "
                  "cs %#lx rsp %#lx", gp_frame[0], gp_frame[1],
                  gp_frame[2], gp_frame[3]);
    printf("iret to user mode, ss 0x10 (loaded as 0x13)\n");
    iret_to((unsigned long)test_main, FLAT_USER_CS, sp, 0x10);
    if ( gp_frame[0] != 0x10 || gp_frame[2] != FLAT_USER_CS ||
         gp_frame[4] != 0x13 )
        test_fail("user, bad ss: #GP frame ec %#lx cs %#lx ss %#lx",
                  gp_frame[0], gp_frame[2], gp_frame[4]);

    check_rc(trap_init(), 0);
    check_rc(user_init(), 0);
    test_success();
}
#else
/*
 * compat_iret takes the frame as it is (no RPL forced, a ring-0 %cs
 * crashes the guest); the CPU then refuses the selectors on the way out
 * and Xen gives the guest that #GP, with the frame it was returning to.
 * (A 32-bit %eip can't be non-canonical.)
 */
void test_main(void)
{
    trap_info_t gp[2] = {
        { .vector = X86_EXC_GP, .flags = 4, .cs = FLAT_KERNEL_CS,
          .address = (unsigned long)gp_entry },
    };
    static uint8_t stack[4096] __attribute__((aligned(16)));
    unsigned long sp = (unsigned long)stack + sizeof(stack);

    check_rc(hypercall_set_trap_table(gp), 0);

    printf("iret with cs 0x11: GDT entry 2 is empty\n");
    iret_to((unsigned long)test_main, 0x11, sp, FLAT_KERNEL_SS);
    if ( gp_frame[0] != 0x10 || gp_frame[1] != (unsigned long)test_main ||
         gp_frame[2] != 0x11 )
        test_fail("bad cs: #GP frame ec %#lx eip %#lx cs %#lx", gp_frame[0],
                  gp_frame[1], gp_frame[2]);

    /* From user mode's point of view: the fault comes from user mode,
     * onto the kernel stack stack_switch named. */
    check_rc(user_init(), 0);
    check_rc(hypercall_set_trap_table(gp), 0);
    printf("iret to user mode, ss 0x10\n");
    memset(gp_frame, 0xff, sizeof(gp_frame));
    iret_to((unsigned long)test_main, FLAT_USER_CS, sp, 0x10);
    if ( gp_frame[0] != 0x10 || gp_frame[2] != FLAT_USER_CS ||
         gp_frame[3] != sp || gp_frame[4] != 0x10 )
        test_fail("user, bad ss: #GP frame ec %#lx cs %#lx esp %#lx "
                  "ss %#lx", gp_frame[0], gp_frame[2], gp_frame[3],
                  gp_frame[4]);

    check_rc(trap_init(), 0);
    check_rc(user_init(), 0);
    test_success();
}
#endif
