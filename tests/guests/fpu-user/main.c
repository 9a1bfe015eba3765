/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * FPU/SSE state is the vCPU's and survives every switch between guest
 * kernel and user mode: iret into user mode, exceptions and system calls
 * out of it.  The guest's CR0.TS (mov to %cr0, clts, fpu_taskswitch)
 * gives user code the #NM Linux's lazy FPU switching expects, and the
 * guest's CR4.TSD makes user rdtsc fault while the kernel's still works.
 */
#include "guest.h"
#include "user.h"
#include <xen/callback.h>

const char test_title[] = "FPU and SSE state across user/kernel switches";

#define X86_EXC_NM  7
#define X86_CR0_TS  (1UL << 3)
#define X86_CR4_TSD (1UL << 2)

/*
 * The XMM registers (16; 8 in 32-bit mode, the rest left zero) and the
 * x87 top of stack, as bytes.
 */
struct fpu_regs {
    uint8_t xmm[16][16];
    uint8_t st0[10];
};

#ifdef __x86_64__
#define NR_XMM      16
#define SAVE_XMM8_15                                                        \
    "movdqu %%xmm8, 0x80(%0); movdqu %%xmm9, 0x90(%0)\n\t"                  \
    "movdqu %%xmm10, 0xa0(%0); movdqu %%xmm11, 0xb0(%0)\n\t"                \
    "movdqu %%xmm12, 0xc0(%0); movdqu %%xmm13, 0xd0(%0)\n\t"                \
    "movdqu %%xmm14, 0xe0(%0); movdqu %%xmm15, 0xf0(%0)\n\t"
#define LOAD_XMM8_15                                                        \
    "movdqu 0x80(%0), %%xmm8; movdqu 0x90(%0), %%xmm9\n\t"                  \
    "movdqu 0xa0(%0), %%xmm10; movdqu 0xb0(%0), %%xmm11\n\t"                \
    "movdqu 0xc0(%0), %%xmm12; movdqu 0xd0(%0), %%xmm13\n\t"                \
    "movdqu 0xe0(%0), %%xmm14; movdqu 0xf0(%0), %%xmm15\n\t"
#else
#define NR_XMM      8
#define SAVE_XMM8_15
#define LOAD_XMM8_15
#endif

static void save_fpu(struct fpu_regs *r)
{
    asm volatile ( "movdqu %%xmm0, 0x00(%0); movdqu %%xmm1, 0x10(%0)\n\t"
                   "movdqu %%xmm2, 0x20(%0); movdqu %%xmm3, 0x30(%0)\n\t"
                   "movdqu %%xmm4, 0x40(%0); movdqu %%xmm5, 0x50(%0)\n\t"
                   "movdqu %%xmm6, 0x60(%0); movdqu %%xmm7, 0x70(%0)\n\t"
                   SAVE_XMM8_15
                   "fld %%st(0); fstpt 0x100(%0)"
                   :: "r" (r) : "memory" );
}

static void load_fpu(const struct fpu_regs *r)
{
    asm volatile ( "movdqu 0x00(%0), %%xmm0; movdqu 0x10(%0), %%xmm1\n\t"
                   "movdqu 0x20(%0), %%xmm2; movdqu 0x30(%0), %%xmm3\n\t"
                   "movdqu 0x40(%0), %%xmm4; movdqu 0x50(%0), %%xmm5\n\t"
                   "movdqu 0x60(%0), %%xmm6; movdqu 0x70(%0), %%xmm7\n\t"
                   LOAD_XMM8_15
                   "fninit; fldt 0x100(%0)"
                   :: "r" (r) : "memory" );
}

static void pattern(struct fpu_regs *r, uint8_t seed)
{
    unsigned int i;

    memset(r->xmm, 0, sizeof(r->xmm));
    for ( i = 0; i < NR_XMM * 16; i++ )
        r->xmm[i / 16][i % 16] = seed + i * 7;
    memset(r->st0, 0, sizeof(r->st0));
    r->st0[7] = 0x80 | seed;            /* a normal long double */
    r->st0[8] = 0xff;
    r->st0[9] = 0x3f;
}

static struct fpu_regs want_k, want_u, got;

static bool same(const char *what, const struct fpu_regs *a,
                 const struct fpu_regs *b)
{
    if ( !memcmp(a, b, sizeof(*a)) )
        return true;
    test_fail("%s: FPU/SSE state changed", what);
    return false;
}

/* User side: find the kernel's state, leave its own. */
static unsigned long user_swap(unsigned long u)
{
    save_fpu(&got);
    load_fpu(&want_u);
    return 0;
}

/*
 * User side: its own state, through a fault and a system call (syscall,
 * or for a 32-bit guest int $0x80 through the trap table: `syscall` and
 * `sysenter` in compatibility mode are each one vendor's only).
 */
static unsigned long user_keep(unsigned long u)
{
    exinfo_t ex;

    load_fpu(&want_u);
    ex = TRY("ud2", "i" (0));
#ifdef __x86_64__
    asm volatile ( "syscall" ::: "rax", "rcx", "r11", "memory" );
#else
    asm volatile ( "int $0x80" ::: "eax", "memory" );
#endif
    save_fpu(&got);
    return ex;
}

static unsigned long user_fpu_insn(unsigned long u)
{
    return TRY("fnop", "i" (0));
}

static unsigned long user_rdtsc(unsigned long u)
{
    exinfo_t ex = 0;

    asm volatile ( "1: rdtsc; xor %%eax, %%eax; 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex) :: "edx", "memory" );
    return ex;
}

static unsigned long read_cr0(void)
{
    unsigned long v;

    asm volatile ( "mov %%cr0, %0" : "=r" (v) );
    return v;
}

static void write_cr0(unsigned long v)
{
    asm volatile ( "mov %0, %%cr0" :: "r" (v) );
}

static unsigned long read_cr4(void)
{
    unsigned long v;

    asm volatile ( "mov %%cr4, %0" : "=r" (v) );
    return v;
}

static void write_cr4(unsigned long v)
{
    asm volatile ( "mov %0, %%cr4" :: "r" (v) );
}

static void test_state(void)
{
    pattern(&want_k, 0x11);
    pattern(&want_u, 0x5a);

    load_fpu(&want_k);
    check_rc(exec_user(user_swap, 0), 0);
    same("kernel -> user", &want_k, &got);
    save_fpu(&got);
    same("user -> kernel", &want_u, &got);

#ifdef __x86_64__
    check_rc(user_register_callback(CALLBACKTYPE_syscall,
                                    (unsigned long)user_syscall_entry, 0),
             0);
#else
    {
        trap_info_t t[2] = {
            { .vector = 0x80, .flags = 3, .cs = FLAT_KERNEL_CS,
              .address = (unsigned long)user_syscall_entry },
        };

        check_rc(hypercall_set_trap_table(t), 0);
    }
#endif
    load_fpu(&want_k);
    check_rc(exec_user(user_keep, 0), EXINFO(X86_EXC_UD, 0));
    same("user, across #UD and syscall", &want_u, &got);
}

static void test_ts(void)
{
    /* mov to %cr0 sets the guest's TS; user FPU use is #NM, once. */
    write_cr0(read_cr0() | X86_CR0_TS);
    if ( !(read_cr0() & X86_CR0_TS) )
        test_fail("mov to %%cr0: TS not set");
    check_rc(exec_user(user_fpu_insn, 0), EXINFO(X86_EXC_NM, 0));
    if ( read_cr0() & X86_CR0_TS )
        test_fail("after #NM: TS still set");
    check_rc(exec_user(user_fpu_insn, 0), 0);

    /* clts clears it; so does fpu_taskswitch(0). */
    write_cr0(read_cr0() | X86_CR0_TS);
    asm volatile ( "clts" );
    check_rc(exec_user(user_fpu_insn, 0), 0);
    check_rc(HYPERCALL(__HYPERVISOR_fpu_taskswitch, 1, 0, 0, 0, 0), 0);
    check_rc(HYPERCALL(__HYPERVISOR_fpu_taskswitch, 0, 0, 0, 0, 0), 0);
    check_rc(exec_user(user_fpu_insn, 0), 0);
}

static void test_tsd(void)
{
    unsigned long lo, hi;

    check_rc(exec_user(user_rdtsc, 0), 0);
    write_cr4(read_cr4() | X86_CR4_TSD);
    if ( !(read_cr4() & X86_CR4_TSD) )
        return test_skip("CR4.TSD not offered");
    check_rc(exec_user(user_rdtsc, 0), EXINFO(X86_EXC_GP, 0));
    asm volatile ( "rdtsc" : "=a" (lo), "=d" (hi) );   /* emulated */
    write_cr4(read_cr4() & ~X86_CR4_TSD);
    check_rc(exec_user(user_rdtsc, 0), 0);
}

void test_main(void)
{
    check_rc(user_init(), 0);
    test_state();
    test_ts();
    test_tsd();
    test_success();
}
