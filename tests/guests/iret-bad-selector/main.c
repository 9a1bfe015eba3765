/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_iret to frames the CPU refuses: a code selector whose GDT
 * entry is empty, a non-canonical %rip.  The hypervisor's own iretq
 * faults on them, and as on Xen (its pre-exception table) the guest takes
 * that fault as if raised at the frame's %rip: #GP(selector), #GP(0).
 * Never a crash of the hypervisor.
 *
 * A 64-bit guest's way back may be sysretq, as Xen's (pv/entry.S: after a
 * syscall, a bounce, an iret with VGCF_in_syscall), and never to a
 * non-canonical %rip (XSA-7: Intel's sysretq raises that #GP in ring 0,
 * on the guest's stack).  So the same with VGCF_in_syscall, and XTF's
 * test-xsa-7: a hypercall whose `syscall` ends at the top of the lower
 * canonical half returns to 0x0000800000000000, where the guest takes
 * #GP(0), the hypercall done.  (QEMU's TCG takes a non-canonical
 * sysretq's fault in ring 3, as AMD does: there the guest sees the same
 * either way, and only hardware shows the check.)  An ordinary hypercall
 * leaves %rcx and %r11 as sysretq does: the next %rip, the flags.
 */
#include "guest.h"
#include "mm.h"
#include "user.h"

const char test_title[] = "iret or sysret to an unusable frame: the guest's #GP";

/* The #GP handler: note the frame, go back to iret_to()'s caller. */
unsigned long gp_frame[6], gp_resume_rsp;
void gp_entry(void);
#ifdef __x86_64__
asm ( ".pushsection .text\n"
      "gp_entry:\n\t"
      "mov %rax, gp_frame + 40(%rip)\n\t"                       /* rax */
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
/*
 * HYPERVISOR_iret to @rip, @cs in kernel mode, with @flags (0 or
 * VGCF_in_syscall); back through gp_entry.
 */
static void iret_to_flags(unsigned long rip, unsigned long cs,
                          unsigned long sp, unsigned long ss,
                          unsigned long flags)
{
    /* struct iret_context from its flags word up. */
    static unsigned long frame[6] __attribute__((aligned(16)));

    frame[0] = flags;
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

static void iret_to(unsigned long rip, unsigned long cs, unsigned long sp,
                    unsigned long ss)
{
    iret_to_flags(rip, cs, sp, ss, 0);
}

/* The last page of the lower canonical half, and its last two bytes. */
#define TOP_PAGE        0x00007ffffffff000UL
#define TOP_SYSCALL     (TOP_PAGE + PAGE_SIZE - 2)
#define PAST_TOP        0x0000800000000000UL

unsigned long syscall_at;          /* hypercall_at()'s jump target */

/*
 * xen_version(XENVER_version) by a `syscall` at @va, as the hypercall
 * page makes it (the number in %rax); back through gp_entry.
 */
static void hypercall_at(unsigned long va)
{
    syscall_at = va;
    asm volatile ( "push %%rbp\n\t"
                   "lea 1f(%%rip), %%rax; push %%rax\n\t"
                   "mov %%rsp, gp_resume_rsp(%%rip)\n\t"
                   "mov $%c0, %%eax\n\t"
                   "xor %%edi, %%edi\n\t"
                   "xor %%esi, %%esi\n\t"
                   "jmp *syscall_at(%%rip)\n"
                   "1: pop %%rbp"
                   :: "i" (__HYPERVISOR_xen_version)
                   : "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9",
                     "r10", "r11", "r12", "r13", "r14", "r15", "memory" );
}

/*
 * XSA-7: TOP_PAGE mapped (new L3, L2 and L1 under L4 slot 255), its last
 * two bytes a `syscall`; the hypercall runs and the guest faults at
 * PAST_TOP.
 */
static void test_syscall_at_top(void)
{
    uint64_t l4e = ((uint64_t)pt_base_mfn() << PAGE_SHIFT) +
                   pt_slot(TOP_PAGE, 4) * 8;
    unsigned long code = alloc_frame(), l1 = alloc_frame(),
                  l2 = alloc_frame(), l3 = alloc_frame();
    static const uint8_t insn[2] = { 0x0f, 0x05 };
    long version = HYPERCALL(__HYPERVISOR_xen_version, XENVER_version, 0,
                             0, 0, 0);

    if ( *pt_entry(TOP_PAGE, 4) & _PAGE_PRESENT )
        test_error("L4 slot %u in use", pt_slot(TOP_PAGE, 4));
    frame_write(code, PAGE_SIZE - sizeof(insn), insn, sizeof(insn));
    frame_set_pte(l1, pt_slot(TOP_PAGE, 1), pte_make(code, PTE_RO));
    frame_set_pte(l2, pt_slot(TOP_PAGE, 2), pte_make(l1, PTE_TABLE));
    frame_set_pte(l3, pt_slot(TOP_PAGE, 3), pte_make(l2, PTE_TABLE));
    check_rc(mmu_update1(l4e, pte_make(l3, PTE_TABLE)), 0);

    printf("hypercall by a syscall ending at %#lx\n", PAST_TOP);
    memset(gp_frame, 0xff, sizeof(gp_frame));
    hypercall_at(TOP_SYSCALL);
    /* (CS's upper half is the saved upcall mask: events are masked.) */
    if ( gp_frame[0] != 0 || gp_frame[1] != PAST_TOP ||
         (uint16_t)gp_frame[2] != (FLAT_KERNEL_CS & ~3) ||
         gp_frame[5] != (unsigned long)version )
        test_fail("syscall at the top: #GP frame ec %#lx rip %#lx cs %#lx, "
                  "%%rax %#lx (the version is %#lx)", gp_frame[0],
                  gp_frame[1], gp_frame[2], gp_frame[5], version);
    check_rc(mmu_update1(l4e, 0), 0);
}

/* After a hypercall %rcx is the next %rip, %r11 the flags (IF, 0x200, on). */
static void test_hypercall_regs(void)
{
    register unsigned long r11 asm ("r11");
    unsigned long rax = __HYPERVISOR_xen_version, rcx, next;

    printf("hypercall: %%rcx and %%r11 after it\n");
    asm volatile ( "lea 1f(%%rip), %[next]\n\t"
                   "syscall\n"
                   "1:"
                   : [next] "=&r" (next), "+a" (rax), "=c" (rcx), "=r" (r11)
                   : "D" (XENVER_version), "S" (0)
                   : "rdx", "r8", "r9", "r10", "memory" );
    if ( (long)rax <= 0 || rcx != next || !(r11 & 0x200) )
        test_fail("hypercall: %%rax %#lx %%rcx %#lx (next %#lx) %%r11 %#lx",
                  rax, rcx, next, r11);
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
    printf("iret with VGCF_in_syscall to a non-canonical rip\n");
    memset(gp_frame, 0xff, sizeof(gp_frame));
    iret_to_flags(PAST_TOP, FLAT_KERNEL_CS & ~3, sp, FLAT_KERNEL_SS,
                  VGCF_in_syscall);
    if ( gp_frame[0] != 0 || gp_frame[1] != PAST_TOP ||
         gp_frame[2] != (FLAT_KERNEL_CS & ~3) )
        test_fail("in_syscall, non-canonical rip: #GP frame ec %#lx rip %#lx "
                  "cs %#lx", gp_frame[0], gp_frame[1], gp_frame[2]);
    test_syscall_at_top();
    test_hypercall_regs();

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
    printf("iret with VGCF_in_syscall to user mode, non-canonical rip\n");
    memset(gp_frame, 0xff, sizeof(gp_frame));
    iret_to_flags(PAST_TOP, FLAT_USER_CS, sp, FLAT_USER_SS, VGCF_in_syscall);
    if ( gp_frame[0] != 0 || gp_frame[1] != PAST_TOP ||
         gp_frame[2] != FLAT_USER_CS || gp_frame[3] != sp )
        test_fail("user, in_syscall, non-canonical rip: #GP frame ec %#lx "
                  "rip %#lx cs %#lx rsp %#lx", gp_frame[0], gp_frame[1],
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
