/* SPDX-License-Identifier: GPL-2.0-only */
/* The PV CPUID policy: Xen's leaves, what is hidden, what is passed. */
#include "unit.h"
#include "../../pv/emul/cpuid-policy.c"

struct cpuinfo boot_cpu;

#define EAX 0
#define EBX 1
#define ECX 2
#define EDX 3
#define BIT(n) (1u << (XEN_X86_FEATURE_##n & 31))

static struct pv_cpuid_host intel_host(void)
{
    return (struct pv_cpuid_host){
        .vendor = VENDOR_INTEL, .max_leaf = 0x20, .max_ext_leaf = 0x80000008,
        .xcr0 = 0x7, .global_pages = true, .osxsave = true,
        .xen_version = 0x40011, .tsc_khz = 2500000, .tsc_reliable = true,
        .rdtscp = true, .maddr_bits = 39,
    };
}

/* Leaf @leaf, @sub as the guest sees it, from a real CPUID of all ones. */
static void ones(uint32_t leaf, uint32_t sub, uint32_t r[4],
                 const struct pv_cpuid_host *h)
{
    r[0] = r[1] = r[2] = r[3] = ~0u;
    pv_cpuid_policy(leaf, sub, r, h);
}

static void hypervisor_leaves(void)
{
    struct pv_cpuid_host h = intel_host();
    uint32_t r[4];
    char sig[13] = "";

    ones(0x40000000, 0, r, &h);
    CHECK_EQ(r[EAX], 0x40000005);
    memcpy(sig, &r[EBX], 4);
    memcpy(sig + 4, &r[ECX], 4);
    memcpy(sig + 8, &r[EDX], 4);
    CHECK_STR(sig, "XenVMMXenVMM");

    ones(0x40000001, 0, r, &h);
    CHECK_EQ(r[EAX], 0x40011);
    CHECK_EQ(r[EBX] | r[ECX] | r[EDX], 0);

    ones(0x40000002, 0, r, &h);
    CHECK_EQ(r[EAX], 1);
    CHECK_EQ(r[EBX], 0x40000000);
    CHECK_EQ(r[ECX], XEN_CPUID_FEAT1_MMU_PT_UPDATE_PRESERVE_AD);
    CHECK_EQ(r[EDX], 0);

    ones(0x40000003, 0, r, &h);
    CHECK_EQ(r[EAX], 6);                /* reliable TSC, RDTSCP, native */
    CHECK_EQ(r[EBX], 0);
    CHECK_EQ(r[ECX], 2500000);
    CHECK_EQ(r[EDX], 0);
    ones(0x40000003, 1, r, &h);
    CHECK_EQ(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
    ones(0x40000003, 2, r, &h);
    CHECK_EQ(r[EAX], 2500000);

    ones(0x40000004, 0, r, &h);         /* HVM's */
    CHECK_EQ(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
    ones(0x40000005, 0, r, &h);
    CHECK_EQ(r[EBX], 39);
    CHECK_EQ(r[EAX] | r[ECX] | r[EDX], 0);

    ones(0x40000006, 0, r, &h);         /* beyond the max leaf */
    CHECK_EQ(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
    ones(0x40000100, 0, r, &h);
    CHECK_EQ(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
}

static void leaf1_hidden(void)
{
    struct pv_cpuid_host h = intel_host();
    uint32_t r[4];

    ones(1, 0, r, &h);
    CHECK_EQ(r[EAX], 0x0fff0fff);
    CHECK_EQ(r[EBX], 0x00ffffff);       /* no APIC ID */
    CHECK(r[ECX] & BIT(HYPERVISOR));
    CHECK(r[ECX] & BIT(OSXSAVE));
    CHECK(r[ECX] & BIT(XSAVE));
    CHECK(r[ECX] & BIT(AVX));
    CHECK(r[ECX] & BIT(SSE4_2));
    CHECK_EQ(r[ECX] & (BIT(VMX) | BIT(SMX) | BIT(MONITOR) | BIT(X2APIC) |
                       BIT(TSC_DEADLINE) | BIT(PCID) | BIT(PDCM) |
                       BIT(DTES64) | BIT(DSCPL) | BIT(EIST) | BIT(TM2) |
                       BIT(XTPR) | BIT(DCA)), 0);
    CHECK_EQ(r[EDX] & (BIT(VME) | BIT(DE) | BIT(PSE) | BIT(MCE) |
                       BIT(APIC) | BIT(MTRR) | BIT(MCA) | BIT(PSE36) |
                       BIT(DS) | BIT(ACPI) | BIT(TM1) | BIT(PBE) |
                       BIT(SEP)), 0);
    CHECK(r[EDX] & BIT(PGE));
    CHECK(r[EDX] & BIT(FPU));
    CHECK(r[EDX] & BIT(SSE2));

    h.global_pages = false;
    h.osxsave = false;
    ones(1, 0, r, &h);
    CHECK_EQ(r[EDX] & BIT(PGE), 0);
    CHECK_EQ(r[ECX] & BIT(OSXSAVE), 0);
    CHECK(r[ECX] & BIT(HYPERVISOR));
}

static void leaf7_hidden(void)
{
    struct pv_cpuid_host h = intel_host();
    uint32_t r[4];

    ones(7, 0, r, &h);
    CHECK_EQ(r[EAX], 2);
    CHECK_EQ(r[EBX] & (BIT(SMEP) | BIT(SMAP) | BIT(INVPCID) |
                       BIT(FSGSBASE) | BIT(TSC_ADJUST) | BIT(MPX) |
                       BIT(HLE) | BIT(PROC_TRACE)), 0);
    CHECK_EQ(r[ECX] & (BIT(UMIP) | BIT(PKU) | BIT(OSPKE) | (1u << 16)), 0);
    CHECK_EQ(r[EDX] & (BIT(IBRSB) | BIT(STIBP) | BIT(SSBD) |
                       BIT(ARCH_CAPS) | BIT(L1D_FLUSH)), 0);
    CHECK(r[EBX] & BIT(AVX2));
    CHECK(r[EBX] & BIT(BMI2));
    CHECK(r[ECX] & BIT(RDPID));
    CHECK(r[EDX] & BIT(MD_CLEAR));
    /* XCR0 has no AVX-512 state: its features would only #UD. */
    CHECK_EQ(r[EBX] & BIT(AVX512F), 0);

    h.xcr0 = 0xe7;
    ones(7, 0, r, &h);
    CHECK(r[EBX] & BIT(AVX512F));
    CHECK(r[ECX] & BIT(AVX512_VBMI));

    ones(7, 3, r, &h);
    CHECK_EQ(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
}

static void no_xsave(void)
{
    struct pv_cpuid_host h = intel_host();
    uint32_t r[4];

    h.xcr0 = 0;
    ones(1, 0, r, &h);
    CHECK_EQ(r[ECX] & (BIT(XSAVE) | BIT(OSXSAVE) | BIT(AVX) | BIT(FMA) |
                       BIT(F16C)), 0);
    ones(7, 0, r, &h);
    CHECK_EQ(r[EBX] & BIT(AVX2), 0);
    ones(0xd, 0, r, &h);
    CHECK_EQ(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
}

static void xstate(void)
{
    struct pv_cpuid_host h = intel_host();
    uint32_t r[4];

    h.xcr0 = 0x207;                     /* with PKRU: not the guest's */
    h.xstate_end[2] = 0x240 + 0x100;    /* AVX: 256 bytes at 576 */
    r[EAX] = 0x2ff; r[EBX] = 0x340; r[ECX] = 0x988; r[EDX] = 0;
    pv_cpuid_policy(0xd, 0, r, &h);
    CHECK_EQ(r[EAX], 0x7);
    CHECK_EQ(r[EBX], 0x340);
    CHECK_EQ(r[ECX], 0x340);
    /*
     * XCR0 x87 and SSE (a new vCPU's): EBX that size, ECX still room
     * for AVX, which the guest may enable later.
     */
    r[EAX] = 0x2ff; r[EBX] = 0x240; r[ECX] = 0x988; r[EDX] = 0;
    pv_cpuid_policy(0xd, 0, r, &h);
    CHECK_EQ(r[EBX], 0x240);
    CHECK_EQ(r[ECX], 0x340);
    ones(0xd, 1, r, &h);
    CHECK_EQ(r[EAX], BIT(XSAVEOPT) | BIT(XSAVEC) | BIT(XGETBV1));
    CHECK_EQ(r[ECX] | r[EDX], 0);
    ones(0xd, 2, r, &h);
    CHECK_EQ(r[ECX], 2);
    ones(0xd, 9, r, &h);
    CHECK_EQ(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
    ones(0xd, 63, r, &h);
    CHECK_EQ(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
}

static void basic_range_and_topology(void)
{
    struct pv_cpuid_host h = intel_host();
    uint32_t r[4];
    static const uint32_t empty[] = { 3, 5, 6, 8, 9, 0xa, 0xb, 0xc, 0xe,
                                      0x1f, 0x3fffffff };
    unsigned int i;

    ones(0, 0, r, &h);
    CHECK_EQ(r[EAX], 0xd);
    for ( i = 0; i < ARRAY_SIZE(empty); i++ )
    {
        ones(empty[i], 0, r, &h);
        CHECK_EQ(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
    }

    /* Intel's caches pass, reserved bits cleared; AMD has none. */
    r[EAX] = 0xfc004121; r[EBX] = 0x1c0003f; r[ECX] = 0x3f; r[EDX] = 0xff;
    pv_cpuid_policy(4, 0, r, &h);
    CHECK_EQ(r[EAX], 0xfc004121 & 0xffffc3ff);
    CHECK_EQ(r[EDX], 7);
    r[EAX] = 0;                         /* no more caches */
    pv_cpuid_policy(4, 4, r, &h);
    CHECK_EQ(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
    ones(4, 6, r, &h);
    CHECK_EQ(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);

    h.vendor = VENDOR_AMD;
    ones(4, 0, r, &h);
    CHECK_EQ(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
    ones(2, 0, r, &h);
    CHECK_EQ(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);

    h.max_leaf = 7;
    ones(0, 0, r, &h);
    CHECK_EQ(r[EAX], 7);
    ones(0xd, 0, r, &h);
    CHECK_EQ(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
}

static void extended_intel(void)
{
    struct pv_cpuid_host h = intel_host();
    uint32_t r[4];

    h.max_ext_leaf = 0x80000021;
    ones(0x80000000, 0, r, &h);
    CHECK_EQ(r[EAX], 0x80000008);
    CHECK_EQ(r[EBX] | r[ECX] | r[EDX], 0);
    ones(0x80000001, 0, r, &h);
    CHECK_EQ(r[EAX] | r[EBX], 0);
    CHECK(r[EDX] & BIT(LM));
    CHECK(r[EDX] & BIT(NX));
    CHECK(r[EDX] & BIT(RDTSCP));
    CHECK_EQ(r[EDX] & (BIT(PAGE1GB) | 0x3ff), 0);
    CHECK_EQ(r[ECX] & (BIT(SVM) | BIT(CR8_LEGACY) | BIT(MONITORX) |
                       BIT(TOPOEXT) | BIT(DBEXT)), 0);
    ones(0x80000008, 0, r, &h);
    CHECK_EQ(r[EAX], 0x30ff);           /* 48-bit linear: no LA57 */
    CHECK_EQ(r[ECX] | r[EDX], 0);
    ones(0x80000009, 0, r, &h);
    CHECK_EQ(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
}

static void extended_amd(void)
{
    struct pv_cpuid_host h = intel_host();
    uint32_t r[4];

    h.vendor = VENDOR_AMD;
    h.max_ext_leaf = 0x80000028;
    ones(0x80000000, 0, r, &h);
    CHECK_EQ(r[EAX], 0x80000021);
    CHECK_EQ(r[EBX], ~0u);              /* the vendor, repeated */

    /* AMD's copies of leaf 1's bits follow leaf 1's policy. */
    ones(0x80000001, 0, r, &h);
    CHECK_EQ(r[EDX] & (BIT(VME) | BIT(DE) | BIT(PSE) | BIT(MCE) |
                       BIT(APIC) | BIT(MTRR) | BIT(MCA) | BIT(PSE36)), 0);
    CHECK(r[EDX] & BIT(PGE));
    CHECK(r[EDX] & BIT(FPU));
    CHECK(r[EDX] & BIT(LM));
    CHECK_EQ(r[EBX], 0xff00ffff);

    ones(0x8000000a, 0, r, &h);         /* SVM */
    CHECK_EQ(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
    ones(0x80000019, 0, r, &h);
    CHECK_EQ(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
    ones(0x80000021, 0, r, &h);
    CHECK(r[EAX] & BIT(LFENCE_DISPATCH));
    CHECK_EQ(r[EAX] & (BIT(AUTO_IBRS) | BIT(SBPB)), 0);
    CHECK_EQ(r[EBX] | r[EDX], 0);
    ones(0x80000022, 0, r, &h);
    CHECK_EQ(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
    ones(0xc0000000, 0, r, &h);
    CHECK_EQ(r[EAX] | r[EBX] | r[ECX] | r[EDX], 0);
}

/* A 32-bit guest: no LM; SYSCALL only on AMD (Xen's PV32 policy). */
static void extended_compat(void)
{
    struct pv_cpuid_host h = intel_host();
    uint32_t r[4];

    h.compat = true;
    ones(0x80000001, 0, r, &h);
    CHECK_EQ(r[EDX] & (BIT(LM) | BIT(SYSCALL)), 0);
    CHECK(r[EDX] & BIT(NX));
    h.vendor = VENDOR_AMD;
    ones(0x80000001, 0, r, &h);
    CHECK_EQ(r[EDX] & BIT(LM), 0);
    CHECK(r[EDX] & BIT(SYSCALL));
}

int main(void)
{
    RUN(hypervisor_leaves);
    RUN(leaf1_hidden);
    RUN(leaf7_hidden);
    RUN(no_xsave);
    RUN(xstate);
    RUN(basic_range_and_topology);
    RUN(extended_intel);
    RUN(extended_amd);
    RUN(extended_compat);
    UNIT_EXIT();
}
