/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The forced-emulation prefix `ud2; .ascii "xen"; cpuid` (XEN_CPUID) runs
 * the PV CPUID policy: Xen's leaves at 0x40000000, the hypervisor bit,
 * what a PV guest can't use hidden, vendor and family kept.  A ud2 that
 * isn't followed by the whole prefix is a plain #UD, also at the end of
 * the mapped range where the rest of the prefix can't be read.
 */
#include "guest.h"
#include <xen/arch-x86/cpuid.h>

const char test_title[] = "Forced-emulation CPUID: the PV policy";

#define EAX 0
#define EBX 1
#define ECX 2
#define EDX 3
/* Bits as the SDM numbers them (vol. 2A, CPUID). */
#define BIT(n) (1u << (n))
#define STR_(x) #x
#define STR(x) STR_(x)

static void forced_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    asm volatile ( XEN_CPUID
                   : "=a" (r[EAX]), "=b" (r[EBX]), "=c" (r[ECX]),
                     "=d" (r[EDX])
                   : "0" (leaf), "2" (sub) );
}

static void native_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    asm volatile ( "cpuid"
                   : "=a" (r[EAX]), "=b" (r[EBX]), "=c" (r[ECX]),
                     "=d" (r[EDX])
                   : "0" (leaf), "2" (sub) );
}

static void check_fault(const char *what, exinfo_t ex, unsigned int vec)
{
    if ( ex != EXINFO(vec, 0) )
        test_fail("%s: exinfo %#lx, expected vector %u", what, ex, vec);
}

static void test_xen_leaves(void)
{
    uint32_t r[4];
    char sig[13] = "";

    forced_cpuid(XEN_CPUID_FIRST_LEAF, 0, r);
    memcpy(sig, &r[EBX], 4);
    memcpy(sig + 4, &r[ECX], 4);
    memcpy(sig + 8, &r[EDX], 4);
    if ( strcmp(sig, "XenVMMXenVMM") )
        test_fail("leaf 0x40000000: signature \"%s\"", sig);
    check_rc(r[EAX], XEN_CPUID_LEAF(XEN_CPUID_MAX_NUM_LEAVES));
    check_rc(r[EBX], XEN_CPUID_SIGNATURE_EBX);

    forced_cpuid(XEN_CPUID_LEAF(1), 0, r);
    check_rc(r[EAX], hypercall_xen_version(XENVER_version, NULL));
    printf("  Xen version leaf: %u.%u\n", r[EAX] >> 16, r[EAX] & 0xffff);

    forced_cpuid(XEN_CPUID_LEAF(2), 0, r);
    check_rc(r[EAX], 1);                        /* hypercall pages */
    check_rc(r[EBX], XEN_CPUID_FIRST_LEAF);     /* MSR base */
    /* Xen's PV guests' feature: mmu_update keeps Accessed and Dirty. */
    check_rc(r[ECX], XEN_CPUID_FEAT1_MMU_PT_UPDATE_PRESERVE_AD);
    check_rc(r[EDX], 0);

    forced_cpuid(XEN_CPUID_LEAF(4), 0, r);      /* HVM only */
    check_rc(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
    forced_cpuid(XEN_CPUID_LEAF(5), 0, r);
    if ( r[EBX] < 20 || r[EBX] > 52 )
        test_fail("leaf 0x40000005: machine address width %u", r[EBX]);
    forced_cpuid(XEN_CPUID_LEAF(XEN_CPUID_MAX_NUM_LEAVES + 1), 0, r);
    check_rc(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
}

/* @what's hidden @bits must be clear in the guest's @reg of @leaf. */
static void check_hidden(const char *what, uint32_t leaf, unsigned int reg,
                         uint32_t bits)
{
    uint32_t r[4], n[4];

    forced_cpuid(leaf, 0, r);
    native_cpuid(leaf, 0, n);
    if ( r[reg] & bits )
        test_fail("%s: %#x visible (leaf %#x)", what, r[reg] & bits, leaf);
    if ( n[reg] & bits )
        printf("  %-22s hidden: %#x\n", what, n[reg] & bits);
}

static void test_policy(void)
{
    uint32_t r[4], n[4];

    /* Vendor, family, model and stepping are the CPU's. */
    forced_cpuid(0, 0, r);
    native_cpuid(0, 0, n);
    check_rc((r[EBX] ^ n[EBX]) | (r[ECX] ^ n[ECX]) | (r[EDX] ^ n[EDX]), 0);
    if ( r[EAX] > 0xd )
        test_fail("max basic leaf %#x above Xen's 0xd", r[EAX]);
    forced_cpuid(1, 0, r);
    native_cpuid(1, 0, n);
    check_rc(r[EAX], n[EAX] & 0x0fff0fff);
    check_rc(r[EBX] >> 24, 0);                  /* no APIC ID */

    if ( !(r[ECX] & BIT(31)) )
        test_fail("leaf 1: hypervisor bit clear");
    /* XSAVE is only there if the hypervisor enabled it: OSXSAVE leaks. */
    if ( (r[ECX] & BIT(26)) && !(r[ECX] & BIT(27)) )
        test_fail("leaf 1: XSAVE without OSXSAVE");

    /* VMX SMX MONITOR DS-CPL DTES64 EIST TM2 PDCM PCID X2APIC TSC-dl */
    check_hidden("leaf 1 ECX", 1, ECX,
                 BIT(5) | BIT(6) | BIT(3) | BIT(4) | BIT(2) | BIT(7) |
                 BIT(8) | BIT(15) | BIT(17) | BIT(21) | BIT(24));
    /* VME DE PSE MCE APIC MTRR MCA PSE36 DS ACPI TM PBE */
    check_hidden("leaf 1 EDX", 1, EDX,
                 BIT(1) | BIT(2) | BIT(3) | BIT(7) | BIT(9) | BIT(12) |
                 BIT(14) | BIT(17) | BIT(21) | BIT(22) | BIT(29) | BIT(31));
    /* FSGSBASE SMEP INVPCID SMAP */
    check_hidden("leaf 7 EBX", 7, EBX, BIT(0) | BIT(7) | BIT(10) | BIT(20));
    /* UMIP PKU OSPKE LA57 */
    check_hidden("leaf 7 ECX", 7, ECX, BIT(2) | BIT(3) | BIT(4) | BIT(16));
    /* SVM, PAGE1GB */
    check_hidden("leaf 0x80000001 ECX", 0x80000001, ECX, BIT(2));
    check_hidden("leaf 0x80000001 EDX", 0x80000001, EDX, BIT(26));

    /* Still there: what every x86-64 PV guest needs. */
    forced_cpuid(1, 0, r);
    if ( (r[EDX] & (BIT(0) | BIT(24) | BIT(25) | BIT(26))) !=
         (BIT(0) | BIT(24) | BIT(25) | BIT(26)) )
        test_fail("leaf 1 EDX %#x: FPU FXSR SSE SSE2 missing", r[EDX]);
    forced_cpuid(0x80000001, 0, r);
#ifdef __x86_64__
    if ( !(r[EDX] & BIT(29)) )
        test_fail("leaf 0x80000001: no LM");
#else
    /* Long mode is not a 32-bit guest's to use: Xen hides it. */
    if ( r[EDX] & BIT(29) )
        test_fail("leaf 0x80000001: LM shown to a 32-bit guest");
#endif

    /* Topology leaves are empty, beyond-max leaves are zeros. */
    forced_cpuid(0xb, 0, r);
    check_rc(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
    forced_cpuid(0x1f, 0, r);
    check_rc(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
}

static exinfo_t bare_ud2(void)
{
    return TRY("ud2");
}

/* The prefix followed by something other than cpuid. */
static exinfo_t prefix_then_nop(void)
{
    return TRY("ud2; .ascii \"xen\"; nop");
}

static exinfo_t almost_prefix(void)
{
    return TRY("ud2; .ascii \"xem\"; cpuid");
}

/*
 * A #UD handler of its own for code built at run time, where the fix-up
 * table can't reach: it returns the faulting %rip in %rax and resumes at
 * ud_resume.  %rcx and %r11 come back from the frame, as the library's.
 * (32-bit: %eip in %eax, from a frame of %eip, %cs, %eflags.)
 */
void ud_catcher(void);
unsigned long ud_resume;
#ifdef __x86_64__
asm ( ".pushsection .text\n"
      "ud_catcher:\n\t"
      "pop %rcx\n\t"
      "pop %r11\n\t"
      "mov (%rsp), %rax\n\t"
      "push %rcx\n\t"
      "mov ud_resume(%rip), %rcx\n\t"
      "mov %rcx, 8(%rsp)\n\t"
      "pop %rcx\n\t"
      "push $0\n\t"
      "jmp hypercall_page + " STR(__HYPERVISOR_iret) " * 32\n"
      ".popsection" );

static unsigned long run_until_ud(unsigned long code)
{
    unsigned long rip = 0;

    asm volatile ( "lea 1f(%%rip), %%rcx\n\t"
                   "mov %%rcx, ud_resume(%%rip)\n\t"
                   "jmp *%[code]\n"
                   "1:"
                   : "+a" (rip) : [code] "r" (code) : "rcx", "memory" );
    return rip;
}
#else
asm ( ".pushsection .text\n"
      "ud_catcher:\n\t"
      "mov (%esp), %eax\n\t"
      "push %ecx\n\t"
      "mov ud_resume, %ecx\n\t"
      "mov %ecx, 4(%esp)\n\t"
      "pop %ecx\n\t"
      "jmp hypercall_page + " STR(__HYPERVISOR_iret) " * 32\n"
      ".popsection" );

static unsigned long run_until_ud(unsigned long code)
{
    unsigned long eip = 0;

    asm volatile ( "mov $1f, %%ecx\n\t"
                   "mov %%ecx, ud_resume\n\t"
                   "jmp *%[code]\n"
                   "1:"
                   : "+a" (eip) : [code] "r" (code) : "ecx", "memory" );
    return eip;
}
#endif

/*
 * The builder maps [v_start, v_end) and v_end is 4 MiB aligned, after at
 * least 512 KiB of writable padding: find it, and end that page with a
 * truncated prefix.
 */
static void test_truncated(void)
{
    static const uint8_t prefix[] = { 0x0f, 0x0b, 'x', 'e', 'n' };
    trap_info_t table[2] = {
        { .vector = X86_EXC_UD, .cs = FLAT_KERNEL_CS,
          .address = (unsigned long)ud_catcher },
        { 0 },
    };
    unsigned long end = start_info->pt_base +
                        start_info->nr_pt_frames * PAGE_SIZE;
    unsigned int len;

    while ( !probe_read((void *)end) )
        end += PAGE_SIZE;
    if ( probe_write((void *)(end - PAGE_SIZE)) )
    {
        test_error("last mapped page %#lx is not writable", end - PAGE_SIZE);
        return;
    }
    printf("  mapping ends at %#lx\n", end);

    check_rc(hypercall_set_trap_table(table), 0);
    for ( len = 2; len <= sizeof(prefix); len++ )
    {
        unsigned long code = end - len, rip;

        memcpy((void *)code, prefix, len);
        rip = run_until_ud(code);
        if ( rip != code )
            test_fail("%u prefix bytes at the end: #UD at %#lx, not %#lx",
                      len, rip, code);
    }
    check_rc(trap_init(), 0);
}

void test_main(void)
{
    test_xen_leaves();
    test_policy();
    check_fault("ud2", bare_ud2(), X86_EXC_UD);
    check_fault("ud2; \"xen\"; nop", prefix_then_nop(), X86_EXC_UD);
    check_fault("ud2; \"xem\"; cpuid", almost_prefix(), X86_EXC_UD);
    test_truncated();

    test_success();
}
