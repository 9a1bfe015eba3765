/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mov to CR4 and xsetbv from a 64-bit PV kernel, as Xen's write_cr(4),
 * pv_fixup_guest_cr4() and handle_xsetbv() answer them: a CR4 write never
 * faults; the guest controls TSD (CPUID offers TSC) and OSXSAVE (XSAVE),
 * everything else reads as before; with TSD set the kernel's rdtsc and
 * rdtscp still work (emulated).  xsetbv is #UD while the guest's OSXSAVE
 * is clear; then it loads XCR0 (starting at x87|SSE, as a Xen vCPU) if it
 * is a consistent subset of what leaf 0xd offers, else #GP(0): an AVX
 * instruction runs or #UDs accordingly.
 */
#include "guest.h"

const char test_title[] = "CR4 writes, TSD and OSXSAVE; xsetbv";

#define X86_CR4_TSD     (1UL << 2)
#define X86_CR4_DE      (1UL << 3)
#define X86_CR4_PAE     (1UL << 5)
#define X86_CR4_PGE     (1UL << 7)
#define X86_CR4_OSFXSR  (1UL << 9)
#define X86_CR4_VMXE    (1UL << 13)
#define X86_CR4_FSGSBASE (1UL << 16)
#define X86_CR4_OSXSAVE (1UL << 18)
#define X86_CR4_SMEP    (1UL << 20)

static unsigned long read_cr4(void)
{
    unsigned long v;

    asm volatile ( "mov %%cr4, %0" : "=r" (v) );
    return v;
}

static void write_cr4(unsigned long v)
{
    exinfo_t ex = TRY("mov %1, %%cr4", "r" (v));

    if ( ex )
        test_fail("mov %#lx to cr4: exinfo %#lx", v, ex);
}

static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    asm volatile ( XEN_CPUID : "=a" (r[0]), "=b" (r[1]), "=c" (r[2]),
                   "=d" (r[3]) : "0" (leaf), "2" (sub) );
}

static exinfo_t xsetbv(uint32_t index, uint64_t val)
{
    exinfo_t ex = (uint32_t)val;

    asm volatile ( "1: xsetbv; xor %%eax, %%eax; 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex) : "c" (index), "d" ((uint32_t)(val >> 32))
                   : "memory" );
    return ex;
}

static uint64_t xgetbv(void)
{
    uint32_t lo, hi;

    asm volatile ( "xgetbv" : "=a" (lo), "=d" (hi) : "c" (0) );
    return ((uint64_t)hi << 32) | lo;
}

static void check_ex(const char *what, exinfo_t ex, unsigned int vec)
{
    if ( ex == EXINFO(vec, 0) )
        printf("  %-30s vector %u\n", what, vec);
    else
        test_fail("%s: exinfo %#lx, expected vector %u", what, ex, vec);
}

static unsigned long cr4;

/* Bits the guest doesn't control: ignored, whichever way they go. */
static void test_fixed_bits(void)
{
    write_cr4(cr4 ^ (X86_CR4_PAE | X86_CR4_PGE | X86_CR4_OSFXSR |
                     X86_CR4_VMXE | X86_CR4_SMEP |
                     (1UL << (sizeof(long) * 8 - 1))));
    check_rc(read_cr4(), cr4);
    /* DE and FSGSBASE: the PV CPUID hides them, so they don't stick. */
    write_cr4(cr4 | X86_CR4_DE | X86_CR4_FSGSBASE);
    check_rc(read_cr4(), cr4);
    write_cr4(0);
    check_rc(read_cr4(), cr4);
}

static void test_tsd(bool has_rdtscp)
{
    uint32_t lo, hi, aux;
    uint64_t t0, t1;

    write_cr4(cr4 | X86_CR4_TSD);
    check_rc(read_cr4(), cr4 | X86_CR4_TSD);
    asm volatile ( "rdtsc" : "=a" (lo), "=d" (hi) );
    t0 = ((uint64_t)hi << 32) | lo;
    asm volatile ( "rdtsc" : "=a" (lo), "=d" (hi) );
    t1 = ((uint64_t)hi << 32) | lo;
    if ( t1 <= t0 )
        test_fail("rdtsc with TSD: %#llx then %#llx", (unsigned long long)t0,
                  (unsigned long long)t1);
    if ( has_rdtscp )
    {
        asm volatile ( "rdtscp" : "=a" (lo), "=d" (hi), "=c" (aux) );
        if ( (((uint64_t)hi << 32) | lo) <= t1 )
            test_fail("rdtscp with TSD went backwards");
    }
    write_cr4(cr4);
    check_rc(read_cr4(), cr4);
}

static void test_xsave(void)
{
    uint32_t r[4];
    uint64_t offered;

    check_ex("xsetbv, guest OSXSAVE clear", xsetbv(0, 3), X86_EXC_UD);
    cpuid(1, 0, r);
    if ( !(r[2] & (1u << 26)) )
    {
        write_cr4(cr4 | X86_CR4_OSXSAVE);
        check_rc(read_cr4(), cr4);      /* no XSAVE: it doesn't stick */
        check_ex("xsetbv, no XSAVE", xsetbv(0, 3), X86_EXC_UD);
        printf("  no XSAVE: XCR0 not checked\n");
        return;
    }
    /* The kernel's CPUID shows the real OSXSAVE (Xen's leak), as ever. */
    check_rc(!!(r[2] & (1u << 27)), 1);

    write_cr4(cr4 | X86_CR4_OSXSAVE);
    check_rc(read_cr4(), cr4 | X86_CR4_OSXSAVE);
    check_rc(xgetbv(), 3);              /* a new vCPU's: x87 and SSE */
    cpuid(0xd, 0, r);
    offered = ((uint64_t)r[3] << 32) | r[0];
    printf("  XCR0 offered %#llx\n", (unsigned long long)offered);

    check_ex("xsetbv 0: no x87", xsetbv(0, 0), X86_EXC_GP);
    check_ex("xsetbv 1: XCR1", xsetbv(1, 3), X86_EXC_GP);
    check_ex("xsetbv: YMM without SSE", xsetbv(0, 5), X86_EXC_GP);
    check_ex("xsetbv: bit 63", xsetbv(0, 3 | (UINT64_C(1) << 63)),
             X86_EXC_GP);
    check_ex("xsetbv: beyond the offer", xsetbv(0, offered | 0x200),
             X86_EXC_GP);
    check_rc(xgetbv(), 3);
    check_rc(xsetbv(0, 1), 0);          /* x87 alone is consistent */
    check_rc(xgetbv(), 1);
    check_rc(xsetbv(0, 3), 0);

    if ( offered & 4 )
    {
        check_ex("vzeroupper, XCR0 without YMM", TRY("vzeroupper", "i" (0)),
                 X86_EXC_UD);
        check_rc(xsetbv(0, 7), 0);
        check_rc(xgetbv(), 7);
        check_rc(TRY("vzeroupper", "i" (0)), 0);
        check_rc(xsetbv(0, 3), 0);
    }
    else
        printf("  no AVX state offered\n");

    write_cr4(cr4);
    check_rc(read_cr4(), cr4);
    check_ex("xsetbv, OSXSAVE cleared", xsetbv(0, 3), X86_EXC_UD);
}

void test_main(void)
{
    uint32_t r[4];

    cr4 = read_cr4();
    printf("  cr4 %#lx\n", cr4);
    if ( cr4 & (X86_CR4_TSD | X86_CR4_OSXSAVE) )
        test_fail("cr4 %#lx: TSD or OSXSAVE set at start", cr4);
    cpuid(0x80000001, 0, r);

    test_fixed_bits();
    test_tsd(r[3] & (1u << 27));
    test_xsave();

    test_success();
}
