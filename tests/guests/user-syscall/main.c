/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * System calls from guest user mode, as Xen delivers them to a 64-bit PV
 * kernel: syscall to CALLBACKTYPE_syscall (from 32-bit code to
 * CALLBACKTYPE_syscall32) on Xen's frame, events masked if registered so,
 * back with HYPERVISOR_iret and VGCF_in_syscall; no callback: #UD at the
 * syscall.  A user syscall is never a hypercall, whatever %rax holds.
 * sysenter goes to CALLBACKTYPE_sysenter, or is #GP(0) without one (on
 * Intel; on AMD the CPU's #UD).
 */
#include "guest.h"
#include <xen/callback.h>
#include "user.h"

const char test_title[] = "Guest user mode: syscall, syscall32, sysenter";

#define X86_EFLAGS_IF   0x200UL
#define X86_EFLAGS_DF   0x400UL

#ifdef __x86_64__
/* What the user side saw: %rcx, %r11 after the syscall, and its rip. */
static unsigned long u_rcx, u_r11, u_ret, u_rsp;

static unsigned long user_syscall(unsigned long nr)
{
    unsigned long rax = nr, rcx, r11, ret, sp;

    asm volatile ( "mov %%rsp, %[sp]\n\t"
                   "lea 1f(%%rip), %[ret]\n\t"
                   "std\n\t"
                   "syscall\n"
                   "1: cld"
                   : "+a" (rax), "=c" (rcx), "=r" (r11), [ret] "=&r" (ret),
                     [sp] "=&r" (sp)
                   :: "memory" );
    asm volatile ( "" :: "r" (r11) );
    u_rcx = rcx;
    u_ret = ret;
    u_rsp = sp;
    asm volatile ( "mov %%r11, %0" : "=r" (u_r11) );
    return rax;
}

/* syscall with no callback: the #UD it raises, from user mode. */
static unsigned long user_syscall_ud(unsigned long unused)
{
    exinfo_t ex = 0;

    asm volatile ( "1: syscall; 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex) :: "rcx", "r11", "memory" );
    return ex;
}

/* Far to FLAT_USER_CS32, syscall there, and far back. */
void sys32_code(void);
unsigned long sys32_syscall_at;
asm ( ".pushsection .text\n"
      "sys32_code:\n\t"
      "push %rbx\n\t"
      "lea 1f(%rip), %rax\n\t"
      "movl %eax, sys32_far(%rip)\n\t"
      "movw $" "0xe023" ", sys32_far + 4(%rip)\n\t"
      "mov $7, %eax\n\t"
      "ljmpl *sys32_far(%rip)\n"
      ".code32\n"
      "1:\n"
      "sys32_syscall_insn:\n\t"
      "syscall\n"
      "3: mov %eax, %ebx\n\t"
      ".pushsection .ex_table, \"a\"; .balign 8\n\t"
      ".quad sys32_syscall_insn, 3b\n\t"
      ".popsection\n\t"
      "ljmpl $0xe033, $2f\n"
      ".code64\n"
      "2: mov %ebx, %eax\n\t"
      "pop %rbx\n\t"
      "ret\n"
      ".popsection\n"
      ".pushsection .data\n"
      "sys32_far: .long 0; .word 0\n"
      ".popsection" );
extern const char sys32_syscall_insn[];

static unsigned long user_sys32(unsigned long unused)
{
    unsigned long rax;

    asm volatile ( "call sys32_code" : "=a" (rax) :: "rbx", "rcx", "rdx",
                   "rsi", "rdi", "r8", "r9", "r10", "r11", "memory" );
    return rax;
}

static unsigned long user_sysenter(unsigned long unused)
{
    unsigned long rax = 9;

    asm volatile ( "lea 1f(%%rip), %%rdx\n\t"
                   "mov %%rsp, %%rcx\n"
                   "2: sysenter\n"
                   "1:\n\t"
                   ASM_EXTABLE(2b, 1b)
                   : "+a" (rax) :: "rcx", "rdx", "r11", "memory" );
    return rax;
}

/* sysenter with TF, NT and AC set: none may stay in the hypervisor's own
 * flags (TF would single-step it, NT fault its iretq, AC open SMAP). */
static unsigned long user_sysenter_nt_ac(unsigned long unused)
{
    unsigned long rax = 9;

    asm volatile ( "lea 1f(%%rip), %%rdx\n\t"
                   "mov %%rsp, %%rcx\n\t"
                   "pushf; orl $0x44100, (%%rsp); popf\n\t"
                   "sysenter\n"
                   "1: pushf; andl $~0x44000, (%%rsp); popf"
                   : "+a" (rax) :: "rcx", "rdx", "r11", "memory" );
    return rax;
}

/* sysenter with TF: the shim's own entry path runs single-stepped. */
static unsigned long user_sysenter_tf(unsigned long unused)
{
    asm volatile ( "pushf; orl $0x100, (%%rsp); popf\n\t"
                   "sysenter" ::: "rcx", "rdx", "r11", "memory" );
    return 0;
}

#endif

static void check_frame(const char *what, unsigned long rip,
                        unsigned long cs, unsigned long rsp, unsigned long ss)
{
    struct bounce_frame f = user_last_frame(false);

    if ( f.rip != rip || f.cs != cs || f.rsp != rsp || f.ss != ss ||
         !(f.rflags & X86_EFLAGS_IF) )
        test_fail("%s: frame rip %#lx cs %#lx rflags %#lx rsp %#lx ss %#lx,"
                  " wanted %#lx %#lx IF %#lx %#lx", what, f.rip, f.cs,
                  f.rflags, f.rsp, f.ss, rip, cs, rsp, ss);
}

static bool cpu_is_intel(void)
{
    unsigned int a = 0, b, c, d;

    asm volatile ( "cpuid" : "+a" (a), "=b" (b), "=c" (c), "=d" (d) );
    return b == 0x756e6547 && d == 0x49656e69 && c == 0x6c65746e;
}

#ifdef __x86_64__
/*
 * Hypercalls come only from the kernel: a user `syscall` that names one
 * (SCHEDOP_block, which would sleep here for good; iret, which would
 * take a frame off the user stack) is the kernel's system call.
 */
static unsigned long user_hypercall(unsigned long nr)
{
    unsigned long rax = nr, rdi = SCHEDOP_block;

    asm volatile ( "syscall"
                   : "+a" (rax), "+D" (rdi) :: "rcx", "r11", "memory" );
    return rax;
}

static void test_syscall64(void)
{
    struct bounce_frame f;

    check_rc(exec_user(user_syscall_ud, 0), EXINFO(X86_EXC_UD, 0));

    check_rc(user_register_callback(CALLBACKTYPE_syscall,
                                    (unsigned long)user_syscall_entry, 0),
             0);
    user_syscall_result = 0x600d;
    check_rc(exec_user(user_syscall, __HYPERVISOR_xen_version), 0x600d);
    if ( user_syscall_rax != __HYPERVISOR_xen_version ||
         user_syscall_count != 1 )
        test_fail("syscall callback: rax %#lx, %u calls", user_syscall_rax,
                  user_syscall_count);
    check_frame("syscall", u_ret, FLAT_USER_CS64, u_rsp, FLAT_USER_SS64);
    f = user_last_frame(false);
    if ( f.rcx != u_ret || !(f.r11 & X86_EFLAGS_DF) || !(f.rflags &
                                                        X86_EFLAGS_DF) )
        test_fail("syscall frame: rcx %#lx r11 %#lx rflags %#lx", f.rcx,
                  f.r11, f.rflags);
    if ( user_syscall_mask != 0 )
        test_fail("syscall callback ran with events masked");
    /* VGCF_in_syscall: the user finds %rcx, %r11 = %rip, %rflags. */
    if ( u_rcx != u_ret || !(u_r11 & X86_EFLAGS_IF) ||
         !(u_r11 & X86_EFLAGS_DF) )
        test_fail("after sysret-like return: rcx %#lx (rip %#lx) r11 %#lx",
                  u_rcx, u_ret, u_r11);

    /* CALLBACKF_mask_events: the callback runs with events masked. */
    check_rc(user_register_callback(CALLBACKTYPE_syscall,
                                    (unsigned long)user_syscall_entry,
                                    CALLBACKF_mask_events), 0);
    check_rc(exec_user(user_syscall, 1), 0x600d);
    if ( user_syscall_mask != 1 )
        test_fail("CALLBACKF_mask_events: mask %u in the callback",
                  user_syscall_mask);
    /* Only the user's syscall: the kernel's is still the hypercall. */
    check_rc(hypercall_xen_version(XENVER_version, NULL) >> 16, 4);
    check_rc(user_syscall_count, 2);

    check_rc(exec_user(user_hypercall, __HYPERVISOR_sched_op), 0x600d);
    check_rc(user_syscall_rax, __HYPERVISOR_sched_op);
    check_rc(exec_user(user_hypercall, __HYPERVISOR_iret), 0x600d);
    check_rc(user_syscall_rax, __HYPERVISOR_iret);
    check_rc(user_syscall_count, 4);

    /*
     * set_callbacks registers each of its three on its own and returns
     * 0, as Xen's do_set_callbacks(): the syscall callback (now without
     * CALLBACKF_mask_events) past non-canonical event and failsafe
     * addresses, then left as it is by a non-canonical one of its own.
     */
    check_rc(HYPERCALL(__HYPERVISOR_set_callbacks,
                       (unsigned long)BAD_NONCANONICAL,
                       (unsigned long)BAD_NONCANONICAL,
                       (unsigned long)user_syscall_entry, 0, 0), 0);
    check_rc(exec_user(user_syscall, 5), 0x600d);
    check_rc(user_syscall_mask, 0);
    check_rc(HYPERCALL(__HYPERVISOR_set_callbacks,
                       (unsigned long)BAD_NONCANONICAL,
                       (unsigned long)BAD_NONCANONICAL,
                       (unsigned long)BAD_NONCANONICAL, 0, 0), 0);
    check_rc(exec_user(user_syscall, 6), 0x600d);
    check_rc(user_syscall_rax, 6);
    check_rc(user_syscall_count, 6);
}

static void test_syscall32(void)
{
    check_rc(user_trap_record(), 0);
    exec_user(user_sys32, 0);
    check_rc(user_frame_vector, X86_EXC_UD);
    check_frame("syscall32 without callback", (unsigned long)
                sys32_syscall_insn, FLAT_USER_CS32, user_last_frame(false).rsp,
                FLAT_USER_SS32);
    check_rc(trap_init(), 0);
    check_rc(user_init(), 0);

    check_rc(user_register_callback(CALLBACKTYPE_syscall32,
                                    (unsigned long)user_syscall_entry, 0),
             0);
    user_syscall_result = 0x32;
    check_rc(exec_user(user_sys32, 0), 0x32);
    check_rc(user_syscall_rax, 7);
    check_frame("syscall32", (unsigned long)sys32_syscall_insn + 2,
                FLAT_USER_CS32, user_last_frame(false).rsp, FLAT_USER_SS32);
}

#else
/*
 * A 32-bit guest's user code is 32-bit: `syscall` there goes to the
 * syscall32 callback on AMD (Intel's CPUs raise #UD for it outside
 * 64-bit mode; an emulator may let it through), and `sysenter` to the
 * sysenter callback on Intel (#UD on AMD, outside legacy mode).  Xen's
 * frame for either is an exception's from ring 3, with the user
 * selectors; `syscall` leaves its return address in %ecx.
 */
static unsigned long u_ret, u_rsp;

static unsigned long user_syscall(unsigned long nr)
{
    unsigned long eax = nr, ret, sp;

    asm volatile ( "mov %%esp, %[sp]\n\t"
                   "mov $1f, %[ret]\n\t"
                   "std\n\t"
                   "syscall\n"
                   "1: cld"
                   : "+a" (eax), [ret] "=&r" (ret), [sp] "=&r" (sp)
                   :: "ecx", "memory" );
    u_ret = ret;
    u_rsp = sp;
    return eax;
}

static unsigned long user_syscall_fault(unsigned long unused)
{
    exinfo_t ex = 0;

    asm volatile ( "1: syscall; 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex) :: "ecx", "memory" );
    return ex;
}

/* A user `syscall` naming a hypercall is still the kernel's system call. */
static unsigned long user_hypercall(unsigned long nr)
{
    unsigned long eax = nr, ebx = SCHEDOP_block;

    asm volatile ( "syscall"
                   : "+a" (eax), "+b" (ebx) :: "ecx", "memory" );
    return eax;
}

static unsigned long user_sysenter(unsigned long unused)
{
    unsigned long eax = 9;

    asm volatile ( "mov $1f, %%edx\n\t"
                   "mov %%esp, %%ecx\n"
                   "2: sysenter\n"
                   "1:\n\t"
                   ASM_EXTABLE(2b, 1b)
                   : "+a" (eax) :: "ecx", "edx", "memory" );
    return eax;
}

static unsigned long user_sysenter_nt_ac(unsigned long unused)
{
    unsigned long eax = 9;

    asm volatile ( "mov $1f, %%edx\n\t"
                   "mov %%esp, %%ecx\n\t"
                   "pushf; orl $0x44100, (%%esp); popf\n\t"
                   "sysenter\n"
                   "1: pushf; andl $~0x44000, (%%esp); popf"
                   : "+a" (eax) :: "ecx", "edx", "memory" );
    return eax;
}

static unsigned long user_sysenter_tf(unsigned long unused)
{
    asm volatile ( "pushf; orl $0x100, (%%esp); popf\n\t"
                   "sysenter" ::: "ecx", "edx", "memory" );
    return 0;
}

static void test_syscall32(void)
{
    exinfo_t ex = exec_user(user_syscall_fault, 0);
    struct bounce_frame f;

    /* No callback: Xen's #GP(0) on the syscall itself. */
    if ( cpu_is_intel() && ex == EXINFO(X86_EXC_UD, 0) )
    {
        printf("syscall: #UD (Intel, not in 64-bit mode)\n");
        return;
    }
    check_rc(ex, EXINFO(X86_EXC_GP, 0));

    check_rc(user_register_callback(CALLBACKTYPE_syscall32,
                                    (unsigned long)user_syscall_entry, 0),
             0);
    user_syscall_result = 0x600d;
    check_rc(exec_user(user_syscall, __HYPERVISOR_xen_version), 0x600d);
    if ( user_syscall_rax != __HYPERVISOR_xen_version ||
         user_syscall_count != 1 )
        test_fail("syscall callback: eax %#lx, %u calls", user_syscall_rax,
                  user_syscall_count);
    check_frame("syscall", u_ret, FLAT_USER_CS, u_rsp, FLAT_USER_SS);
    f = user_last_frame(false);
    if ( !(f.rflags & X86_EFLAGS_DF) )
        test_fail("syscall frame: eflags %#lx", f.rflags);
    if ( user_syscall_mask != 0 )
        test_fail("syscall callback ran with events masked");

    check_rc(user_register_callback(CALLBACKTYPE_syscall32,
                                    (unsigned long)user_syscall_entry,
                                    CALLBACKF_mask_events), 0);
    check_rc(exec_user(user_syscall, 1), 0x600d);
    if ( user_syscall_mask != 1 )
        test_fail("CALLBACKF_mask_events: mask %u in the callback",
                  user_syscall_mask);
    check_rc(hypercall_xen_version(XENVER_version, NULL) >> 16, 4);
    check_rc(user_syscall_count, 2);

    check_rc(exec_user(user_hypercall, __HYPERVISOR_sched_op), 0x600d);
    check_rc(user_syscall_rax, __HYPERVISOR_sched_op);
    check_rc(exec_user(user_hypercall, __HYPERVISOR_iret), 0x600d);
    check_rc(user_syscall_rax, __HYPERVISOR_iret);
    check_rc(user_syscall_count, 4);
}

#endif

static void test_sysenter(void)
{
    trap_info_t gp[2] = {
        { .vector = X86_EXC_GP, .flags = 4, .cs = FLAT_KERNEL_CS,
          .address = (unsigned long)user_fault_ret_entry },
    };
    struct bounce_frame f;

    if ( !cpu_is_intel() )
    {
#ifdef __x86_64__
        /* AMD: sysenter is #UD outside legacy mode, raised by the CPU. */
        check_rc(exec_user(user_sysenter, 0), EXINFO(X86_EXC_UD, 0));
        printf("sysenter: #UD (not Intel)\n");
        return;
#else
        /*
         * AMD's #UD holds in compatibility mode too, but an emulator may
         * check for 64-bit code only (QEMU TCG does) and let it through:
         * then the hypervisor sees a sysenter, and the rest applies.
         */
        exinfo_t ex;

        check_rc(hypercall_set_trap_table(gp), 0);
        ex = exec_user(user_sysenter, 0);
        check_rc(trap_init(), 0);
        check_rc(user_init(), 0);
        if ( ex == EXINFO(X86_EXC_UD, 0) )
        {
            printf("sysenter: #UD (not Intel)\n");
            return;
        }
        printf("sysenter: not Intel, yet the CPU let it through\n");
#endif
    }

    /* No callback: #GP(0) on Xen's frame (rip 0, cs 3, rsp 0). */
    check_rc(hypercall_set_trap_table(gp), 0);
    exec_user(user_sysenter, 0);
    f = user_last_frame(true);
    if ( user_frame_vector != 0xff || f.error_code || f.rip || f.cs != 3 ||
         f.rsp || f.ss != FLAT_USER_SS )
        test_fail("sysenter without callback: ec %#lx rip %#lx cs %#lx "
                  "rsp %#lx ss %#lx", f.error_code, f.rip, f.cs, f.rsp,
                  f.ss);

    /*
     * With TF, sysenter single-steps the hypervisor's entry path until it
     * saves and clears the flags; Xen's do_debug() resets DR6 on each of
     * those #DBs, so the guest's DR6 shows none of it (no BS), and the
     * #GP frame has the guest's TF.
     */
    check_rc(HYPERCALL(__HYPERVISOR_set_debugreg, 6, 0xffff0ff0UL, 0, 0, 0),
             0);
    exec_user(user_sysenter_tf, 0);
    f = user_last_frame(true);
    if ( user_frame_vector != 0xff || f.rip || !(f.rflags & 0x100) )
        test_fail("sysenter with TF: vector %u rip %#lx rflags %#lx",
                  user_frame_vector, f.rip, f.rflags);
    if ( HYPERCALL(__HYPERVISOR_get_debugreg, 6, 0, 0, 0, 0) & (1UL << 14) )
        test_fail("sysenter with TF: DR6 %#lx shows the hypervisor's "
                  "single steps (BS)",
                  HYPERCALL(__HYPERVISOR_get_debugreg, 6, 0, 0, 0, 0));
    check_rc(trap_init(), 0);
    check_rc(user_init(), 0);

    check_rc(user_register_callback(CALLBACKTYPE_sysenter,
                                    (unsigned long)user_sysenter_entry,
                                    CALLBACKF_mask_events), 0);
    user_syscall_result = 0x5e;
    check_rc(exec_user(user_sysenter, 0), 0x5e);
    check_rc(user_syscall_rax, 9);
    check_rc(user_syscall_mask, 1);
    check_frame("sysenter", 0, 3, 0, FLAT_USER_SS);
    check_rc(exec_user(user_sysenter_nt_ac, 0), 0x5e);
    f = user_last_frame(false);
    if ( (f.rflags & 0x44100) != 0x44100 )
        test_fail("sysenter with TF, NT, AC: frame rflags %#lx", f.rflags);
}

void test_main(void)
{
    if ( map_shared_info() )
        return test_error("can't map shared_info");
    user_mask_ptr = &shared_info->vcpu_info[0].evtchn_upcall_mask;
    check_rc(user_init(), 0);
#ifdef __x86_64__
    test_syscall64();
#endif
    test_syscall32();
    test_sysenter();
    test_success();
}
