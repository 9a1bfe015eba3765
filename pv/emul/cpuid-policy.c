/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CPUID policy of a 64-bit PV guest, as Xen 4.17 computes its default
 * PV policy (xen/arch/x86/cpu-policy.c: calculate_pv_def_policy(),
 * recalculate_misc(); cpuid.c: guest_cpuid(), cpuid_hypervisor_leaves()).
 * Pure: the caller supplies the real CPUID values and the host facts.
 */
#include "shim/lib.h"
#include <xen/arch-x86/cpuid.h>
#include <xen/arch-x86/cpufeatureset.h>
#include "pv/emul/cpuid.h"

/* Xen's featureset words (cpufeatureset.h): the leaf and register of each. */
enum {
    FS_1d, FS_1c, FS_e1d, FS_e1c, FS_Da1, FS_7b0, FS_7c0, FS_e7d, FS_e8b,
    FS_7d0, FS_7a1, FS_e21a, FS_7b1, FS_7d2, FS_7c1, FS_7d1, FS_caps_a,
    FS_caps_d, FS_e21c, NR_FS,
};

/* Feature @n's bit in word FS_@w, checked at compile time to be there. */
#define F(w, n)                                                         \
    ((1u << (XEN_X86_FEATURE_##n & 31)) +                               \
     0 * sizeof(char [XEN_X86_FEATURE_##n / 32 == FS_##w ? 1 : -1]))

/* XSAVE state components (SDM vol. 1, 13.1). */
#define XSTATE_FP_SSE   0x3ULL
#define XSTATE_YMM      0x4ULL
#define XSTATE_AVX512   0xe0ULL         /* opmask, ZMM_Hi256, Hi16_ZMM */
#define XSTATE_ALIGN64  (1u << 1)       /* CPUID.0xd:n.ECX */

/*
 * What a PV guest may see: the features cpufeatureset.h marks 'A' (all
 * guests, by default), less those this shim can't back yet:
 * - DE: the guest would control CR4.DE, and I/O breakpoints aren't
 *   emulated; FSGSBASE: the guest bases aren't switched with it;
 * - MCE, MCA: no vMCE MSRs; ACPI: no thermal MSRs; APIC: no virtual
 *   APIC for PV (Xen shows the host's bit, but a PV guest can't use it);
 * - SEP: no SYSENTER entry; DBEXT: no DR address-mask MSRs;
 * - IBRSB, STIBP, SSBD, PSFD: MSR_SPEC_CTRL isn't virtualised (Xen hides
 *   them too without SC_MSR_PV); ARCH_CAPS: the MSR isn't emulated;
 * - SBPB, SRSO_US_NO: PRED_CMD takes IBPB only; no BP_SPEC_REDUCE.
 * 'S', 'H', lower-case and unmarked features stay hidden: VME, PSE, PSE36,
 * MTRR, DS, TM, PBE, VMX, SVM, SMX, MONITOR, EIST, PDCM, PCID, X2APIC,
 * TSC-deadline, SMEP, SMAP, UMIP, PKU, INVPCID, PAGE1GB, LA57, ...
 * PGE is 'S' in Xen; here it follows global-pages (see leaf1_edx()).
 */
static const uint32_t pv_features[NR_FS] = {
    [FS_1d] = F(1d, FPU) | F(1d, TSC) | F(1d, MSR) | F(1d, PAE) |
              F(1d, CX8) | F(1d, CMOV) | F(1d, PAT) | F(1d, CLFLUSH) |
              F(1d, MMX) | F(1d, FXSR) | F(1d, SSE) | F(1d, SSE2) |
              F(1d, SS) | F(1d, HTT),
    [FS_1c] = F(1c, SSE3) | F(1c, PCLMULQDQ) | F(1c, SSSE3) | F(1c, FMA) |
              F(1c, CX16) | F(1c, SSE4_1) | F(1c, SSE4_2) | F(1c, MOVBE) |
              F(1c, POPCNT) | F(1c, AESNI) | F(1c, XSAVE) | F(1c, AVX) |
              F(1c, F16C) | F(1c, RDRAND),
    [FS_e1d] = F(e1d, SYSCALL) | F(e1d, NX) | F(e1d, MMXEXT) |
               F(e1d, FFXSR) | F(e1d, RDTSCP) | F(e1d, LM) |
               F(e1d, 3DNOWEXT) | F(e1d, 3DNOW),
    [FS_e1c] = F(e1c, LAHF_LM) | F(e1c, CMP_LEGACY) | F(e1c, ABM) |
               F(e1c, SSE4A) | F(e1c, MISALIGNSSE) | F(e1c, 3DNOWPREFETCH) |
               F(e1c, XOP) | F(e1c, FMA4) | F(e1c, TBM),
    [FS_Da1] = F(Da1, XSAVEOPT) | F(Da1, XSAVEC) | F(Da1, XGETBV1),
    [FS_7b0] = F(7b0, BMI1) | F(7b0, AVX2) | F(7b0, FDP_EXCP_ONLY) |
               F(7b0, BMI2) | F(7b0, ERMS) | F(7b0, RTM) |
               F(7b0, NO_FPU_SEL) | F(7b0, AVX512F) | F(7b0, AVX512DQ) |
               F(7b0, RDSEED) | F(7b0, ADX) | F(7b0, AVX512_IFMA) |
               F(7b0, CLFLUSHOPT) | F(7b0, CLWB) | F(7b0, AVX512PF) |
               F(7b0, AVX512ER) | F(7b0, AVX512CD) | F(7b0, SHA) |
               F(7b0, AVX512BW) | F(7b0, AVX512VL),
    [FS_7c0] = F(7c0, PREFETCHWT1) | F(7c0, AVX512_VBMI) |
               F(7c0, AVX512_VBMI2) | F(7c0, GFNI) | F(7c0, VAES) |
               F(7c0, VPCLMULQDQ) | F(7c0, AVX512_VNNI) |
               F(7c0, AVX512_BITALG) | F(7c0, AVX512_VPOPCNTDQ) |
               F(7c0, RDPID) | F(7c0, CLDEMOTE),
    /* ITSC is 'a', but Xen gives it to the domain it builds at boot. */
    [FS_e7d] = F(e7d, ITSC),
    [FS_e8b] = F(e8b, CLZERO) | F(e8b, RSTR_FP_ERR_PTRS) | F(e8b, IBPB) |
               F(e8b, SSB_NO) | F(e8b, BTC_NO) | F(e8b, IBPB_RET),
    [FS_7d0] = F(7d0, AVX512_4VNNIW) | F(7d0, AVX512_4FMAPS) |
               F(7d0, FSRM) | F(7d0, MD_CLEAR) | F(7d0, SERIALIZE),
    [FS_7a1] = F(7a1, AVX_VNNI) | F(7a1, AVX512_BF16) | F(7a1, FZRM) |
               F(7a1, FSRS) | F(7a1, FSRCS),
    [FS_e21a] = F(e21a, LFENCE_DISPATCH) | F(e21a, VERW_CLEAR) |
                F(e21a, NSCB) | F(e21a, IBPB_BRTYPE) | F(e21a, SRSO_NO),
    [FS_7d2] = F(7d2, MCDT_NO),
    [FS_e21c] = F(e21c, TSA_SQ_NO) | F(e21c, TSA_L1_NO),
};

/*
 * Xen's deep dependencies (gen-cpuid.py), cut to the state the shim
 * enabled in XCR0 (xfeature_mask): the guest's XSETBV can't go beyond
 * it, so a feature whose state is off there could only #UD.
 */
static const uint32_t needs_xsave[NR_FS] = {
    [FS_1c] = F(1c, XSAVE),
    [FS_Da1] = F(Da1, XSAVEOPT) | F(Da1, XSAVEC) | F(Da1, XGETBV1),
};

static const uint32_t needs_ymm[NR_FS] = {
    [FS_1c] = F(1c, AVX) | F(1c, FMA) | F(1c, F16C),
    [FS_e1c] = F(e1c, XOP) | F(e1c, FMA4),
    [FS_7b0] = F(7b0, AVX2),
    [FS_7c0] = F(7c0, VAES) | F(7c0, VPCLMULQDQ),
    [FS_7a1] = F(7a1, AVX_VNNI),
};

static const uint32_t needs_avx512[NR_FS] = {
    [FS_7b0] = F(7b0, AVX512F) | F(7b0, AVX512DQ) | F(7b0, AVX512_IFMA) |
               F(7b0, AVX512PF) | F(7b0, AVX512ER) | F(7b0, AVX512CD) |
               F(7b0, AVX512BW) | F(7b0, AVX512VL),
    [FS_7c0] = F(7c0, AVX512_VBMI) | F(7c0, AVX512_VBMI2) |
               F(7c0, AVX512_VNNI) | F(7c0, AVX512_BITALG) |
               F(7c0, AVX512_VPOPCNTDQ),
    [FS_7d0] = F(7d0, AVX512_4VNNIW) | F(7d0, AVX512_4FMAPS),
    [FS_7a1] = F(7a1, AVX512_BF16),
};

/* Xen's CPUID_COMMON_1D_FEATURES: AMD repeats these in leaf 0x80000001. */
#define COMMON_1D (F(1d, FPU) | F(1d, VME) | F(1d, DE) | F(1d, PSE) |   \
                   F(1d, TSC) | F(1d, MSR) | F(1d, PAE) | F(1d, MCE) |  \
                   F(1d, CX8) | F(1d, APIC) | F(1d, MTRR) | F(1d, PGE) | \
                   F(1d, MCA) | F(1d, CMOV) | F(1d, PAT) |              \
                   F(1d, PSE36) | F(1d, MMX) | F(1d, FXSR))

/*
 * Xen 4.17's policy sizes: basic leaves to 0xd, leaf 7 subleaves to 2,
 * leaf 4 subleaves to 5; extended leaves to 0x21 (AMD) or 8 (Intel).
 */
#define MAX_BASIC       0xdu
#define MAX_FEAT_SUB    2u
#define MAX_CACHE_SUB   5u

static bool amd_like(const struct pv_cpuid_host *h)
{
    return h->vendor == VENDOR_AMD || h->vendor == VENDOR_HYGON;
}

static uint32_t feat(unsigned int w, uint32_t raw,
                     const struct pv_cpuid_host *h)
{
    uint32_t m = pv_features[w];

    if ( !h->xcr0 )
        m &= ~needs_xsave[w];
    if ( !(h->xcr0 & XSTATE_YMM) )
        m &= ~(needs_ymm[w] | needs_avx512[w]);
    if ( (h->xcr0 & XSTATE_AVX512) != XSTATE_AVX512 )
        m &= ~needs_avx512[w];
    return raw & m;
}

static uint32_t leaf1_edx(uint32_t raw, const struct pv_cpuid_host *h)
{
    /* The guest's _PAGE_GLOBAL takes effect exactly when the shim's do. */
    return feat(FS_1d, raw, h) | (h->global_pages ? raw & F(1d, PGE) : 0);
}

static void zero(uint32_t r[4])
{
    r[0] = r[1] = r[2] = r[3] = 0;
}

static void leaf1(uint32_t r[4], const struct pv_cpuid_host *h)
{
    r[0] &= 0x0fff0fff;                 /* processor type (Intel) */
    r[1] &= 0x00ffffff;                 /* APIC ID: none for PV */
    r[2] = feat(FS_1c, r[2], h) | F(1c, HYPERVISOR);
    /*
     * Xen's non-architectural OSXSAVE: a PV kernel's emulated CPUID shows
     * the real CR4.OSXSAVE (Linux relies on it), whatever its own CR4.
     */
    if ( h->osxsave && (r[2] & F(1c, XSAVE)) )
        r[2] |= F(1c, OSXSAVE);
    r[3] = leaf1_edx(r[3], h);
}

static void leaf7(uint32_t sub, uint32_t r[4], const struct pv_cpuid_host *h)
{
    switch ( sub )
    {
    case 0:
        r[0] = MIN(r[0], MAX_FEAT_SUB);
        r[1] = feat(FS_7b0, r[1], h);
        r[2] = feat(FS_7c0, r[2], h);
        r[3] = feat(FS_7d0, r[3], h);
        break;
    case 1:
        r[0] = feat(FS_7a1, r[0], h);
        r[1] = feat(FS_7b1, r[1], h);
        r[2] = feat(FS_7c1, r[2], h);
        r[3] = feat(FS_7d1, r[3], h);
        break;
    case 2:
        r[0] = r[1] = r[2] = 0;
        r[3] = feat(FS_7d2, r[3], h);
        break;
    default:
        zero(r);
        break;
    }
}

/*
 * XSAVE: only the states the shim enabled, since XCR0 is the shim's
 * (Xen's recalculate_xstate() with MPX and PKRU hidden).  EBX of subleaf
 * 0 is the hardware's size for the XCR0 loaded, the guest's (a new vCPU's
 * is x87 and SSE only); ECX the size for every state offered, where the
 * last of them ends, as Xen's: a guest sizing its save area by ECX and
 * enabling AVX later must have room for it.
 */
static void leaf_d(uint32_t sub, uint32_t r[4], const struct pv_cpuid_host *h)
{
    uint64_t states = h->xcr0 & (XSTATE_FP_SSE | XSTATE_YMM | XSTATE_AVX512);
    uint32_t da1;
    unsigned int i;

    if ( (states & XSTATE_AVX512) != XSTATE_AVX512 )
        states &= ~XSTATE_AVX512;
    if ( !h->xcr0 )
    {
        zero(r);
        return;
    }
    switch ( sub )
    {
    case 0:
        r[0] = states;
        r[2] = 512 + 64;                /* the legacy area and the header */
        for ( i = 2; i < ARRAY_SIZE(h->xstate_end); i++ )
            if ( states & (1ULL << i) )
                r[2] = MAX(r[2], h->xstate_end[i]);
        r[3] = states >> 32;
        break;
    case 1:
        r[0] = feat(FS_Da1, r[0], h);
        if ( !(r[0] & F(Da1, XSAVEC)) )
            r[1] = 0;
        r[2] = r[3] = 0;                /* no XSS states (no XSAVES) */
        break;
    default:
        if ( sub >= 63 || !(states & (1ULL << sub)) )
        {
            zero(r);
            break;
        }
        da1 = feat(FS_Da1, ~0u, h);
        r[2] &= (da1 & F(Da1, XSAVEC)) ? XSTATE_ALIGN64 : 0;
        r[3] = 0;
        break;
    }
}

static void basic_leaf(uint32_t leaf, uint32_t sub, uint32_t r[4],
                       const struct pv_cpuid_host *h)
{
    switch ( leaf )
    {
    case 0x0:
        r[0] = MIN(h->max_leaf, MAX_BASIC);
        break;
    case 0x1:
        leaf1(r, h);
        break;
    case 0x2:                           /* Intel's cache descriptors */
        if ( amd_like(h) )
            zero(r);
        else
            r[0] = (r[0] & ~0xffu) | 1; /* one query is enough */
        break;
    case 0x4:                           /* Intel's caches: passed through */
        if ( amd_like(h) || sub > MAX_CACHE_SUB || !(r[0] & 0x1f) ||
             (r[0] & 0x1f) > 3 )
            zero(r);
        else
        {
            r[0] &= 0xffffc3ff;         /* reserved bits */
            r[3] &= 0x7;
        }
        break;
    case 0x7:
        leaf7(sub, r, h);
        break;
    case 0xd:
        leaf_d(sub, r, h);
        break;
    default:
        /*
         * 3 (serial number), 5 (MONITOR), 6 (power), 8, 9 (DCA), 0xa
         * (vPMU off), 0xb (topology: Xen's "TODO: Rework topology
         * logic" leaves it empty), 0xc.
         */
        zero(r);
        break;
    }
}

/* Xen's leaves at 0x40000000 (public/arch-x86/cpuid.h), as for a PV domU. */
static void hypervisor_leaf(uint32_t idx, uint32_t sub, uint32_t r[4],
                            const struct pv_cpuid_host *h)
{
    zero(r);
    switch ( idx )
    {
    case 0:
        r[0] = XEN_CPUID_LEAF(XEN_CPUID_MAX_NUM_LEAVES);
        r[1] = XEN_CPUID_SIGNATURE_EBX;
        r[2] = XEN_CPUID_SIGNATURE_ECX;
        r[3] = XEN_CPUID_SIGNATURE_EDX;
        break;
    case 1:
        r[0] = h->xen_version;
        break;
    case 2:
        r[0] = 1;                       /* hypercall pages */
        r[1] = XEN_CPUID_FIRST_LEAF;    /* MSR base */
        /* As Xen's PV guests: mmu_update keeps A/D (mm-update.c). */
        r[2] = XEN_CPUID_FEAT1_MMU_PT_UPDATE_PRESERVE_AD;
        break;
    case 3:
        /*
         * Time: native TSC (never emulated: Xen's "default" mode on a safe
         * TSC), its frequency, no migrations.  Subleaf 1's offset and
         * tsc->ns scale belong to an emulated TSC's time base, which we
         * don't have: zeros (vcpu_time_info has the real scale).
         */
        if ( sub == 0 )
        {
            r[0] = (h->tsc_reliable << 1) | (h->rdtscp << 2);
            r[2] = h->tsc_khz;
        }
        else if ( sub == 2 )
            r[0] = h->tsc_khz;
        break;
    case 5:                             /* PV parameters (4 is HVM's) */
        if ( sub == 0 )
            r[1] = h->maddr_bits & XEN_CPUID_MACHINE_ADDRESS_WIDTH_MASK;
        break;
    }
}

static uint32_t ext_max(const struct pv_cpuid_host *h)
{
    uint32_t limit = amd_like(h) ? 0x21 : 0x8;

    return 0x80000000u | MIN(h->max_ext_leaf & 0xffff, limit);
}

static void ext_leaf(uint32_t leaf, uint32_t r[4],
                     const struct pv_cpuid_host *h)
{
    bool amd = amd_like(h);

    switch ( leaf & 0xffff )
    {
    case 0x0:
        r[0] = ext_max(h);
        if ( !amd )
            r[1] = r[2] = r[3] = 0;     /* AMD repeats the vendor here */
        break;
    case 0x1:
        if ( amd )
        {
            r[0] &= 0x0fff0fff;
            r[1] &= 0xff00ffff;
            r[3] = feat(FS_e1d, r[3] & ~COMMON_1D, h) |
                   (leaf1_edx(r[3], h) & COMMON_1D);
        }
        else
        {
            r[0] = r[1] = 0;
            r[3] = feat(FS_e1d, r[3], h);
        }
        r[2] = feat(FS_e1c, r[2], h);
        /*
         * Xen's recalculate_cpuid_policy(): a 32-bit PV guest can't use
         * long mode, nor SYSCALL on a CPU other than AMD's (or Hygon's).
         */
        if ( h->compat )
            r[3] &= ~(CPUID_BIT(LM) | (amd ? 0 : CPUID_BIT(SYSCALL)));
        break;
    case 0x2 ... 0x4:                   /* brand string */
        break;
    case 0x5:                           /* L1 caches (AMD) */
        if ( !amd )
            zero(r);
        break;
    case 0x6:                           /* L2/L3 caches */
        if ( !amd )
            r[0] = r[1] = r[3] = 0;
        break;
    case 0x7:                           /* power management: RAS hidden */
        r[0] = r[1] = r[2] = 0;
        r[3] = feat(FS_e7d, r[3], h);
        break;
    case 0x8:
        /* Physical address bits as the host's; linear: 48, no LA57. */
        r[0] = (r[0] & 0xff) | (48 << 8);
        r[1] = feat(FS_e8b, r[1], h);
        r[2] = amd ? r[2] & 0x0003f0ff : 0;
        r[3] = 0;
        break;
    case 0x1a:                          /* performance hints (AMD) */
        break;
    case 0x21:
        r[0] = feat(FS_e21a, r[0], h);
        r[2] = feat(FS_e21c, r[2], h);
        r[1] = r[3] = 0;
        break;
    default:
        /* 9, SVM (0xa), 0xb-0x18, 1G TLBs (0x19: no PAGE1GB), 0x1b-0x20 */
        zero(r);
        break;
    }
}

void pv_cpuid_policy(uint32_t leaf, uint32_t subleaf, uint32_t res[4],
                     const struct pv_cpuid_host *h)
{
    /* Out-of-range leaves read as zeros: Xen follows AMD here. */
    if ( leaf <= MIN(h->max_leaf, MAX_BASIC) )
        basic_leaf(leaf, subleaf, res, h);
    else if ( leaf >= XEN_CPUID_FIRST_LEAF &&
              leaf - XEN_CPUID_FIRST_LEAF < 0x200 )
        hypervisor_leaf(leaf - XEN_CPUID_FIRST_LEAF, subleaf, res, h);
    else if ( leaf >= 0x80000000u && leaf <= ext_max(h) )
        ext_leaf(leaf, res, h);
    else
        zero(res);
}
