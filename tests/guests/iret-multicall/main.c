/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_iret inside a multicall, as Xen's mc_exit: the iret takes
 * its struct iret_context from the guest stack of the multicall itself,
 * the batch ends there (the entries after it never run), and the guest
 * lands at the frame's %rip with the frame's %rax, which is also the
 * iret entry's result.  To user mode too.
 */
#include "guest.h"
#include "user.h"

const char test_title[] = "iret in a multicall ends the batch";

#define VGCF_IN_SYSCALL VGCF_in_syscall

unsigned long mc_saved_rsp, mc_rax, mc_rcx;
void mc_landing(void);

#ifdef __x86_64__
/* struct iret_context, and where the multicall leaves us. */
static struct iret_context ctx __attribute__((aligned(16)));

/*
 * The multicall by hand: %rsp must point at ctx when the syscall happens,
 * since that is where the iret reads its frame.
 */
static __attribute__((noinline)) void
multicall_iret(multicall_entry_t *calls, unsigned long n)
{
    asm volatile ( "push %%rbp\n\t"
                   "mov %%rsp, mc_saved_rsp(%%rip)\n\t"
                   "mov %[ctx], %%rsp\n\t"
                   "syscall\n\t"
                   "ud2\n"
                   "mc_landing:\n\t"
                   "mov %%rax, mc_rax(%%rip)\n\t"
                   "mov %%rcx, mc_rcx(%%rip)\n\t"
                   "mov mc_saved_rsp(%%rip), %%rsp\n\t"
                   "pop %%rbp"
                   :: "a" (__HYPERVISOR_multicall), "D" (calls), "S" (n),
                      [ctx] "r" (&ctx)
                   : "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11", "r12",
                     "r13", "r14", "r15", "memory" );
}

static void set_ctx(unsigned long rip, unsigned long cs, uint64_t flags)
{
    static uint8_t stack[4096] __attribute__((aligned(16)));

    memset(&ctx, 0, sizeof(ctx));
    ctx.rax = 0x1234abcd;
    ctx.flags = flags;
    ctx.rip = rip;
    ctx.cs = cs;
    ctx.rflags = 0x202;
    ctx.rsp = (unsigned long)stack + sizeof(stack);
    ctx.ss = FLAT_KERNEL_SS;
}
#else
/*
 * compat_iret's frame (%eax, %eip, %cs, %eflags, and %esp, %ss for ring
 * 3), by the names the 64-bit struct iret_context gives them.
 */
static struct {
    unsigned long rax, rip, cs, rflags, rsp, ss;
} ctx __attribute__((aligned(16)));

/*
 * The multicall by hand: %esp must point at ctx when the int $0x82
 * happens, since that is where the iret reads its frame.  Wherever the
 * iret lands, mc_landing, the data selectors may be null (an iret to
 * ring 3 nulls the ring-1 ones): it loads the kernel's first.
 */
static __attribute__((noinline)) void
multicall_iret(multicall_entry_t *calls, unsigned long n)
{
    unsigned long b = (unsigned long)calls, c = n;

    asm volatile ( "push %%ebp\n\t"
                   "mov %%esp, mc_saved_rsp\n\t"
                   "mov %[ctx], %%esp\n\t"
                   "int $0x82\n\t"
                   "ud2\n"
                   "mc_landing:\n\t"
                   "mov %%ecx, %%ebx\n\t"
                   "mov $%c[ds], %%ecx\n\t"
                   "mov %%ecx, %%ds\n\t"
                   "mov %%ecx, %%es\n\t"
                   "mov %%eax, mc_rax\n\t"
                   "mov %%ebx, mc_rcx\n\t"
                   "mov mc_saved_rsp, %%esp\n\t"
                   "pop %%ebp"
                   : "+b" (b), "+c" (c)
                   : "a" (__HYPERVISOR_multicall), [ctx] "i" (&ctx),
                     [ds] "i" (FLAT_KERNEL_DS)
                   : "edx", "esi", "edi", "memory" );
}

static void set_ctx(unsigned long eip, unsigned long cs)
{
    static uint8_t stack[4096] __attribute__((aligned(16)));

    memset(&ctx, 0, sizeof(ctx));
    ctx.rax = 0x1234abcd;
    ctx.rip = eip;
    ctx.cs = cs;
    ctx.rflags = 0x202;
    ctx.rsp = (unsigned long)stack + sizeof(stack);
    ctx.ss = FLAT_KERNEL_SS;
}
#endif

static void test_kernel(void)
{
    multicall_entry_t calls[3] = {
        { .op = __HYPERVISOR_xen_version, .args = { XENVER_version } },
        { .op = __HYPERVISOR_iret },
        { .op = __HYPERVISOR_set_debugreg, .args = { 0, 0x5000 } },
    };

    check_rc(HYPERCALL(__HYPERVISOR_set_debugreg, 0, 0x1000, 0, 0, 0), 0);
#ifdef __x86_64__
    set_ctx((unsigned long)mc_landing, FLAT_KERNEL_CS & ~3, 0);
#else
    set_ctx((unsigned long)mc_landing, FLAT_KERNEL_CS);
#endif
    multicall_iret(calls, 3);
    check_rc(mc_rax, 0x1234abcd);
    check_rc(calls[0].result >> 16, 4);
    check_rc(calls[1].result, 0x1234abcd);
    /* The entry after the iret never ran. */
    check_rc(HYPERCALL(__HYPERVISOR_get_debugreg, 0, 0, 0, 0, 0), 0x1000);

#ifdef __x86_64__
    /*
     * VGCF_in_syscall: %rcx comes back as the %rip, as after sysret.  The
     * entry again: a debug build poisons all but each entry's result, as
     * a debug Xen does.
     */
    set_ctx((unsigned long)mc_landing, FLAT_KERNEL_CS & ~3, VGCF_IN_SYSCALL);
    calls[1] = (multicall_entry_t){ .op = __HYPERVISOR_iret };
    multicall_iret(&calls[1], 1);
    check_rc(mc_rax, 0x1234abcd);
    check_rc(mc_rcx, (unsigned long)mc_landing);
#endif
}

/*
 * In user mode after the multicall: int $0x22 (DPL 3) comes back to the
 * kernel at mc_landing, %rax intact.
 */
void mc_user_landing(void);
asm ( ".pushsection .text\n"
      "mc_user_landing: int $0x22\n"
      ".popsection" );

static void test_user(void)
{
    multicall_entry_t calls[2] = {
        { .op = __HYPERVISOR_iret },
        { .op = __HYPERVISOR_set_debugreg, .args = { 0, 0x6000 } },
    };
    trap_info_t back[2] = {
        { .vector = 0x22, .flags = 3, .cs = FLAT_KERNEL_CS,
          .address = (unsigned long)mc_landing },
    };

    check_rc(user_init(), 0);
    check_rc(hypercall_set_trap_table(back), 0);
#ifdef __x86_64__
    set_ctx((unsigned long)mc_user_landing, FLAT_USER_CS, 0);
#else
    set_ctx((unsigned long)mc_user_landing, FLAT_USER_CS);
#endif
    ctx.ss = FLAT_USER_SS;
    ctx.rax = 0x5678;
    multicall_iret(calls, 2);
    check_rc(mc_rax, 0x5678);
    check_rc(calls[0].result, 0x5678);
    check_rc(HYPERCALL(__HYPERVISOR_get_debugreg, 0, 0, 0, 0, 0), 0x1000);
}

void test_main(void)
{
    test_kernel();
    test_user();
    test_success();
}
