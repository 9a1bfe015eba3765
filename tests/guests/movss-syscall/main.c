/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * XSA-260: a data breakpoint on the operand of `mov ..., %ss` is held
 * back to the end of the next instruction; when that is `syscall`, the
 * #DB arrives in the hypervisor at its syscall entry, before it has a
 * stack of its own, with the guest's %rsp still loaded (from user mode
 * a non-canonical one, as XTF's PoC makes it).  The hypervisor must take
 * it on a stack of its own and carry on: the hypercall (from the kernel)
 * or the syscall callback (from user mode) happens as if nothing was.
 * QEMU's TCG delivers the #DB before the syscall instead, to the guest:
 * either is fine, a dead hypervisor is not.  The guest's own breakpoints
 * still reach it.
 */
#include "guest.h"
#include "user.h"
#include <xen/callback.h>

const char test_title[] = "mov %ss + syscall with a data breakpoint (XSA-260)";

static unsigned int ss_var;

static long set_dr(unsigned int reg, unsigned long v)
{
    return HYPERCALL(__HYPERVISOR_set_debugreg, reg, v, 0, 0, 0);
}

#ifdef __x86_64__
/*
 * Kernel mode: the hypercall runs.  (Its %rsp stays good: a CPU that
 * delivers the #DB before the syscall instead, as QEMU's TCG does, gives
 * it to the guest kernel on that stack; the syscall is then skipped.)
 */
static long movss_hypercall(void)
{
    long rax = __HYPERVISOR_xen_version;

    asm volatile ( "mov %[ss], %%ss\n"
                   "1: syscall\n"
                   "2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (rax)
                   : "D" (XENVER_version), "S" (0), [ss] "m" (ss_var)
                   : "rcx", "rdx", "r11", "memory" );
    return rax;
}

/* User mode: to the syscall callback, with a non-canonical %rsp. */
static unsigned long movss_user(unsigned long u)
{
    unsigned long rax = 0;

    asm volatile ( "mov %%rsp, %%rbx\n\t"
                   "btc $63, %%rsp\n\t"
                   "mov %[ss], %%ss\n"
                   "1: syscall\n"
                   "2: mov %%rbx, %%rsp\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (rax) : [ss] "m" (ss_var)
                   : "rbx", "rcx", "rdx", "r11", "memory" );
    return rax;
}

#define USER_SS     0                   /* the kernel's ss is the user's */

static long set_syscall_entry(void)
{
    return user_register_callback(CALLBACKTYPE_syscall,
                                  (unsigned long)user_syscall_entry, 0);
}
#else
/*
 * The same for a 32-bit guest, whose system calls are int $0x82 (the
 * hypercall, ring 1 only) and int $0x80 through the trap table.  Ring 1
 * and ring 3 stack selectors differ: user mode loads its own.
 */
static long movss_hypercall(void)
{
    long eax = __HYPERVISOR_xen_version;
    unsigned long ebx = XENVER_version, ecx = 0;

    asm volatile ( "mov %[ss], %%ss\n"
                   "1: int $0x82\n"
                   "2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (eax), "+b" (ebx), "+c" (ecx)
                   : [ss] "m" (ss_var)
                   : "edx", "esi", "edi", "memory" );
    return eax;
}

static unsigned long movss_user(unsigned long u)
{
    unsigned long eax = 0;

    asm volatile ( "mov %[ss], %%ss\n"
                   "1: int $0x80\n"
                   "2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (eax) : [ss] "m" (ss_var) : "memory" );
    return eax;
}

#define USER_SS     FLAT_USER_SS

static long set_syscall_entry(void)
{
    trap_info_t t[2] = {
        { .vector = 0x80, .flags = 3, .cs = FLAT_KERNEL_CS,
          .address = (unsigned long)user_syscall_entry },
    };

    return hypercall_set_trap_table(t);
}
#endif

/* The breakpoint itself, where nothing defers it: the guest's #DB. */
static unsigned long read_var(unsigned long u)
{
    exinfo_t ex = 0;

    asm volatile ( "mov %[v], %%edx; 1:\n\t"
                   ASM_EXTABLE(1b, 1b)
                   : "+a" (ex) : [v] "m" (ss_var) : "edx", "memory" );
    return ex;
}

void test_main(void)
{
    unsigned int ss;
    unsigned long rc;

    asm volatile ( "mov %%ss, %0" : "=r" (ss) );
    ss_var = ss;
    check_rc(user_init(), 0);
    check_rc(set_syscall_entry(), 0);

    /* DR0 on ss_var, read/write, 4 bytes, L0 G0 LE GE. */
    check_rc(set_dr(0, (unsigned long)&ss_var), 0);
    check_rc(set_dr(7, 0x000f0303UL), 0);

    check_rc(read_var(0), EXINFO(X86_EXC_DB, 0));
    check_rc(exec_user(read_var, 0), EXINFO(X86_EXC_DB, 0));

    rc = movss_hypercall();
    printf("kernel: mov %%ss; syscall: %#lx\n", rc);
    if ( rc >> 16 != 4 && rc != EXINFO(X86_EXC_DB, 0) )
        test_fail("kernel: %#lx, neither the hypercall's nor a #DB", rc);

    if ( USER_SS )
    {
        check_rc(set_dr(7, 0), 0);      /* a write would hit it */
        ss_var = USER_SS;
        check_rc(set_dr(7, 0x000f0303UL), 0);
    }
    user_syscall_result = 0x260;
    rc = exec_user(movss_user, 0);
    printf("user: mov %%ss; syscall: %#lx\n", rc);
    if ( rc != 0x260 && rc != EXINFO(X86_EXC_DB, 0) )
        test_fail("user: %#lx, neither the callback's nor a #DB", rc);

    check_rc(set_dr(7, 0), 0);
    test_success();
}
