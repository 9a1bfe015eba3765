/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_set_debugreg/get_debugreg as Xen's set_debugreg() and
 * x86emul_read_dr(): DR0-3 only guest addresses (-EPERM), DR6/DR7 with
 * their reserved bits forced and upper halves refused (-EINVAL), no
 * General Detect and no I/O breakpoints without CR4.DE (-EPERM), DR4/DR5
 * aliases of DR6/DR7, -ENODEV for other registers.  The breakpoints are
 * real: a data and an instruction breakpoint raise #DB in the guest.
 */
#include "guest.h"

const char test_title[] = "set_debugreg/get_debugreg: checks and breakpoints";

#define DR6_DEFAULT     0xffff0ff0UL
#define DR6_RTM         (1UL << 16)
#define DR7_DEFAULT     0x400UL
#define DR7_L(n)        (1UL << ((n) * 2))
#define DR7_RW(n, rw)   ((unsigned long)(rw) << (16 + (n) * 4))
#define DR7_LEN(n, len) ((unsigned long)(len) << (18 + (n) * 4))
#define RW_EXEC         0
#define RW_WRITE        1
#define RW_IO           2
#define RW_RDWR         3
#define LEN_4           3

static volatile uint32_t watch __attribute__((aligned(8)));
static unsigned long dr6_default, dr7_rsvd_zero;

/* An instruction to put a breakpoint on: #DB there resumes at bp_after. */
void bp_target(void);
asm ( ".pushsection .text\n\t"
      "bp_target: nop\n\t"
      "bp_after: ret\n\t"
      ".popsection\n\t"
      ASM_EXTABLE(bp_target, bp_after) );

static long set_dr(unsigned long reg, unsigned long val)
{
    return HYPERCALL(__HYPERVISOR_set_debugreg, reg, val, 0, 0, 0);
}

static unsigned long get_dr(unsigned long reg)
{
    return HYPERCALL(__HYPERVISOR_get_debugreg, reg, 0, 0, 0, 0);
}

static bool cpu_has_rtm(void)
{
    unsigned int a, b, c, d;

    asm volatile ( "cpuid" : "=a" (a), "=b" (b), "=c" (c), "=d" (d)
                   : "0" (0), "2" (0) );
    if ( a < 7 )
        return false;
    asm volatile ( "cpuid" : "=a" (a), "=b" (b), "=c" (c), "=d" (d)
                   : "0" (7), "2" (0) );
    return b & (1u << 11);
}

#ifdef __x86_64__
static const unsigned long good_addr[] = {
    0, 0x1000, (1UL << 47) - 8, (1UL << 47) - 1,
    HYPERVISOR_VIRT_END, ~0UL,
};
static const unsigned long bad_addr[] = {
    1UL << 47, 0x8000000000000000UL, HYPERVISOR_VIRT_START,
    HYPERVISOR_VIRT_START + 0x100000, HYPERVISOR_VIRT_END - 1,
};
#else
/*
 * Xen's access_ok() checks the 64-bit address space: every 32-bit
 * address passes, the compat hypervisor area's too.
 */
static const unsigned long good_addr[] = {
    0, 0x1000, HYPERVISOR_VIRT_START, ~0UL,
};
#endif

static void test_addresses(void)
{
    unsigned int i, reg;

    for ( reg = 0; reg < 4; reg++ )
        check_rc(get_dr(reg), 0);

    for ( i = 0; i < ARRAY_SIZE(good_addr); i++ )
        for ( reg = 0; reg < 4; reg++ )
        {
            check_rc(set_dr(reg, good_addr[i] ^ reg), 0);
            check_rc(get_dr(reg), good_addr[i] ^ reg);
        }

    for ( reg = 0; reg < 4; reg++ )
        check_rc(set_dr(reg, (unsigned long)&watch), 0);
#ifdef __x86_64__
    /* The shim's range, and non-canonical ones: refused, nothing kept. */
    for ( i = 0; i < ARRAY_SIZE(bad_addr); i++ )
        for ( reg = 0; reg < 4; reg++ )
        {
            check_rc(set_dr(reg, bad_addr[i]), -XEN_EPERM);
            check_rc(get_dr(reg), (unsigned long)&watch);
        }
#endif
}

static void test_dr6(void)
{
    check_rc(get_dr(6), dr6_default);
    check_rc(set_dr(6, 0), 0);
    check_rc(get_dr(6), dr6_default);
    check_rc(set_dr(6, 0xf), 0);
    check_rc(get_dr(6), dr6_default | 0xf);
    check_rc(set_dr(6, 0x1000), 0);             /* bit 12 reads as 0 */
    check_rc(get_dr(6), dr6_default);
#ifdef __x86_64__
    check_rc(set_dr(6, 1UL << 32), -XEN_EINVAL);
    check_rc(set_dr(6, ~0UL), -XEN_EINVAL);
    check_rc(get_dr(6), dr6_default);
#endif

    /* DR4 is DR6 while the guest's CR4.DE is clear. */
    check_rc(set_dr(4, 0x2), 0);
    check_rc(get_dr(6), dr6_default | 0x2);
    check_rc(get_dr(4), dr6_default | 0x2);
#ifdef __x86_64__
    check_rc(set_dr(4, 1UL << 32), -XEN_EINVAL);
#endif
    check_rc(set_dr(6, dr6_default), 0);
}

static void test_dr7(void)
{
    check_rc(get_dr(7), DR7_DEFAULT);
    check_rc(set_dr(7, 0), 0);
    check_rc(get_dr(7), DR7_DEFAULT);

    /* Reserved bits 12, 14, 15 (and RTM without RTM) read as 0. */
    check_rc(set_dr(7, 0xd000 | 0x800), 0);
    check_rc(get_dr(7), DR7_DEFAULT | dr7_rsvd_zero);

#ifdef __x86_64__
    check_rc(set_dr(7, 1UL << 32), -XEN_EINVAL);
#endif
    check_rc(set_dr(7, 0x2000), -XEN_EPERM);    /* General Detect */
    check_rc(get_dr(7), DR7_DEFAULT | dr7_rsvd_zero);

    /* I/O breakpoints need CR4.DE, once any breakpoint is enabled. */
    check_rc(set_dr(7, DR7_RW(0, RW_IO) | DR7_L(0)), -XEN_EPERM);
    check_rc(set_dr(7, DR7_RW(3, RW_IO) | DR7_L(1)), -XEN_EPERM);
    check_rc(set_dr(7, DR7_RW(2, RW_IO)), 0);
    check_rc(get_dr(7), DR7_DEFAULT | DR7_RW(2, RW_IO));

    /* DR5 is DR7. */
    check_rc(set_dr(5, 0), 0);
    check_rc(get_dr(7), DR7_DEFAULT);
    check_rc(get_dr(5), DR7_DEFAULT);
    check_rc(set_dr(5, 0x2000), -XEN_EPERM);
}

static void test_bad_registers(void)
{
    static const unsigned long bad[] = { 8, 15, 0x7fffffff, ~0UL };
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(bad); i++ )
    {
        check_rc(set_dr(bad[i], 0), -XEN_ENODEV);
        check_rc(get_dr(bad[i]), -XEN_ENODEV);
    }
}

static exinfo_t write_watch(void)
{
    exinfo_t ex = 0;

    /* A data breakpoint traps: the frame's RIP is past the write. */
    asm volatile ( "movl $1, %[w]; 2:\n\t"
                   ASM_EXTABLE(2b, 2b)
                   : "+a" (ex), [w] "=m" (watch) :: "memory" );
    return ex;
}

static exinfo_t read_watch(void)
{
    exinfo_t ex = 0;
    uint32_t v;

    asm volatile ( "movl %[w], %[v]; 2:\n\t"
                   ASM_EXTABLE(2b, 2b)
                   : "+a" (ex), [v] "=r" (v) : [w] "m" (watch) : "memory" );
    return ex;
}

static exinfo_t exec_target(void)
{
    exinfo_t ex = 0;

    asm volatile ( "call bp_target" : "+a" (ex) :: "memory" );
    return ex;
}

static void check_db(const char *what, exinfo_t ex, bool want,
                     unsigned long dr6_bit)
{
    unsigned long dr6 = get_dr(6);

    if ( ex != (want ? EXINFO(X86_EXC_DB, 0) : 0) )
        test_fail("%s: exinfo %#lx, expected %s", what, ex,
                  want ? "#DB" : "none");
    else if ( want && !(dr6 & dr6_bit) )
        test_fail("%s: DR6 %#lx lacks %#lx", what, dr6, dr6_bit);
    else
        printf("  %-28s %s, DR6 %#lx\n", what, want ? "#DB" : "no #DB", dr6);
    check_rc(set_dr(6, dr6_default), 0);
}

static void test_breakpoints(void)
{
    check_rc(set_dr(0, (unsigned long)&watch), 0);
    check_rc(set_dr(1, (unsigned long)bp_target), 0);
    check_rc(set_dr(6, dr6_default), 0);

    check_rc(set_dr(7, DR7_L(0) | DR7_RW(0, RW_WRITE) | DR7_LEN(0, LEN_4)),
             0);
    check_db("write, write breakpoint", write_watch(), true, 1);
    check_db("read, write breakpoint", read_watch(), false, 0);

    check_rc(set_dr(7, DR7_L(0) | DR7_RW(0, RW_RDWR) | DR7_LEN(0, LEN_4)),
             0);
    check_db("read, access breakpoint", read_watch(), true, 1);
    check_db("not executed", exec_target(), false, 0);

    check_rc(set_dr(7, DR7_L(1) | DR7_RW(1, RW_EXEC)), 0);
    check_db("executed, insn breakpoint", exec_target(), true, 2);
    check_db("write, insn breakpoint", write_watch(), false, 0);

    check_rc(set_dr(7, 0), 0);
    check_db("write, none enabled", write_watch(), false, 0);
    check_db("executed, none enabled", exec_target(), false, 0);
}

/*
 * The guest's own single step: its #DB shows BS in DR6 (taken out of the
 * real DR6 as the #DB is delivered, as Xen's do_debug()), and stays
 * until the guest writes DR6.
 */
static void test_single_step(void)
{
    check_rc(set_dr(6, dr6_default), 0);
    asm volatile ( "pushf; orl $0x100, (%" ASM_SP "); popf\n"
                   "1: nop\n"
                   "2: pushf\n"
                   "3: andl $~0x100, (%" ASM_SP ")\n"
                   "4: popf\n"
                   "5:\n\t"
                   ASM_EXTABLE(2b, 2b) ASM_EXTABLE(3b, 3b)
                   ASM_EXTABLE(4b, 4b) ASM_EXTABLE(5b, 5b)
                   ::: "eax", "memory", "cc" );
    if ( get_dr(6) != (dr6_default | (1UL << 14)) )
        test_fail("DR6 after single steps: %#lx, wanted BS", get_dr(6));
    /* A hypercall in between doesn't lose it. */
    check_rc(get_dr(7) & ~0xffUL, 0x400);
    if ( !(get_dr(6) & (1UL << 14)) )
        test_fail("DR6.BS lost: %#lx", get_dr(6));
    check_rc(set_dr(6, dr6_default), 0);
    check_rc(get_dr(6), dr6_default);
}

void test_main(void)
{
    bool rtm = cpu_has_rtm();

    dr6_default = rtm ? DR6_DEFAULT & ~DR6_RTM : DR6_DEFAULT;
    dr7_rsvd_zero = rtm ? 0x800 : 0;

    test_addresses();
    test_dr6();
    test_dr7();
    test_bad_registers();
    test_breakpoints();
    test_single_step();

    test_success();
}
