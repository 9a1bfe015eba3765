/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmsr/wrmsr from the guest kernel, emulated from their #GP as Xen 4.17
 * does for a PV domU: the FS/GS bases are the real ones (loads through
 * %fs and %gs use them, set_segment_base agrees), a non-canonical base is
 * #GP(0), EFER reads without SVME, PAT reads Xen's fixed value, the
 * microcode revision is forwarded, the hypercall-page MSR reads as zero
 * and fills a writable frame of the guest's with working stubs (anything
 * else is #GP(0)), and MSRs Xen doesn't handle are #GP(0) both ways.
 */
#include "guest.h"
#include "mm.h"
#include <xen/arch-x86/cpuid.h>

const char test_title[] = "rdmsr/wrmsr: segment bases, EFER, unknown MSRs";

#define MSR_EFER            0xc0000080
#define MSR_FS_BASE         0xc0000100
#define MSR_GS_BASE         0xc0000101
#define MSR_SHADOW_GS_BASE  0xc0000102
#define MSR_TSC_AUX         0xc0000103
#define MSR_APIC_BASE       0x0000001b
#define MSR_PLATFORM_INFO   0x000000ce
#define MSR_UCODE_REV       0x0000008b
#define MSR_CR_PAT          0x00000277
/* Xen's PAT: WB WT UC- UC WC WP UC UC. */
#define XEN_MSR_PAT         UINT64_C(0x0000050100070406)
#define EFER_SCE            (1UL << 0)
#define EFER_LME            (1UL << 8)
#define EFER_LMA            (1UL << 10)
#define EFER_SVME           (1UL << 12)

static exinfo_t wrmsr_ex(uint32_t msr, uint64_t val)
{
    exinfo_t ex = (uint32_t)val;

    asm volatile ( "1: wrmsr; xor %%eax, %%eax; 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex) : "c" (msr), "d" ((uint32_t)(val >> 32))
                   : "memory" );
    return ex;
}

static uint64_t rdmsr(uint32_t msr)
{
    uint64_t val;
    exinfo_t ex = rdmsr_safe(msr, &val);

    if ( ex )
        test_fail("rdmsr %#x: exinfo %#lx", msr, ex);
    return val;
}

static void wrmsr(uint32_t msr, uint64_t val)
{
    exinfo_t ex = wrmsr_ex(msr, val);

    if ( ex )
        test_fail("wrmsr %#x <- %#llx: exinfo %#lx", msr,
                  (unsigned long long)val, ex);
}

static void check_gp(const char *what, exinfo_t ex)
{
    if ( ex != EXINFO(X86_EXC_GP, 0) )
        test_fail("%s: exinfo %#lx, expected #GP(0)", what, ex);
}

#ifdef __x86_64__
static uint64_t via_fs(void)
{
    uint64_t v;

    asm volatile ( "mov %%fs:0, %0" : "=r" (v) :: "memory" );
    return v;
}

static uint64_t via_gs(void)
{
    uint64_t v;

    asm volatile ( "mov %%gs:8, %0" : "=r" (v) :: "memory" );
    return v;
}

static const uint32_t bases[] = { MSR_FS_BASE, MSR_GS_BASE,
                                  MSR_SHADOW_GS_BASE };

static void test_bases(void)
{
    static uint64_t data[2] = { 0x1111222233334444UL, 0x5555666677778888UL };
    unsigned int i;
    uint64_t v;

    for ( i = 0; i < ARRAY_SIZE(bases); i++ )
    {
        wrmsr(bases[i], 0x00007fffdeadb000UL + i);
        check_rc(rdmsr(bases[i]), 0x00007fffdeadb000UL + i);
        /* Any canonical address goes, the upper half too (as Xen). */
        wrmsr(bases[i], 0xffff888812345000UL);
        check_rc(rdmsr(bases[i]), 0xffff888812345000UL);
        check_gp("non-canonical base",
                 wrmsr_ex(bases[i], 0x0000800000000000UL));
        check_gp("non-canonical base",
                 wrmsr_ex(bases[i], 0x8000000000000000UL));
        check_rc(rdmsr(bases[i]), 0xffff888812345000UL);
    }

    /* Loads through %fs and %gs use what wrmsr wrote. */
    wrmsr(MSR_FS_BASE, (unsigned long)&data[0]);
    check_rc(via_fs(), data[0]);
    wrmsr(MSR_GS_BASE, (unsigned long)&data[0]);
    check_rc(via_gs(), data[1]);
    wrmsr(MSR_FS_BASE, (unsigned long)&data[1]);
    check_rc(via_fs(), data[1]);

    /* set_segment_base and the MSRs are the same registers. */
    check_rc(HYPERCALL(__HYPERVISOR_set_segment_base, SEGBASE_GS_USER,
                       0x4000, 0, 0, 0), 0);
    check_rc(rdmsr(MSR_SHADOW_GS_BASE), 0x4000);
    check_rc(HYPERCALL(__HYPERVISOR_set_segment_base, SEGBASE_GS_KERNEL,
                       0x5000, 0, 0, 0), 0);
    check_rc(rdmsr(MSR_GS_BASE), 0x5000);
    check_rc(HYPERCALL(__HYPERVISOR_set_segment_base, SEGBASE_FS,
                       0x6000, 0, 0, 0), 0);
    check_rc(rdmsr(MSR_FS_BASE), 0x6000);
    v = rdmsr(MSR_GS_BASE);
    wrmsr(MSR_SHADOW_GS_BASE, 0x7000);
    check_rc(rdmsr(MSR_GS_BASE), v);            /* untouched */

    for ( i = 0; i < ARRAY_SIZE(bases); i++ )
        wrmsr(bases[i], 0);
}
#else
/* The base MSRs are long mode's: a 32-bit guest has none (#GP, as Xen). */
static void test_bases(void)
{
    static const uint32_t bases[] = { MSR_FS_BASE, MSR_GS_BASE,
                                      MSR_SHADOW_GS_BASE };
    unsigned int i;
    uint64_t v;

    for ( i = 0; i < ARRAY_SIZE(bases); i++ )
    {
        check_gp("rdmsr of a segment base", rdmsr_safe(bases[i], &v));
        check_gp("wrmsr of a segment base", wrmsr_ex(bases[i], 0x4000));
    }
}
#endif

/* CPUID 0's vendor: 1 Intel, 2 AMD, 0 other. */
static int vendor(void)
{
    uint32_t a, b, c, d;

    asm volatile ( XEN_CPUID : "=a" (a), "=b" (b), "=c" (c), "=d" (d)
                   : "0" (0), "2" (0) );
    if ( b == 0x756e6547 && d == 0x49656e69 && c == 0x6c65746e )
        return 1;                       /* GenuineIntel */
    if ( b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163 )
        return 2;                       /* AuthenticAMD */
    return 0;
}

static void test_others(void)
{
    static const uint32_t unknown[] = {
        MSR_APIC_BASE, 0x12345678, 0x40000001, 0x400002ff, 0xc0001000,
        0xffffffff,
        /*
         * SYSENTER_CS/ESP/EIP: Xen's own sysenter entry is there, and the
         * PV guest names its CALLBACKTYPE_sysenter instead: neither
         * read_msr() nor write_msr() knows them, #GP(0) both ways.
         */
        0x174, 0x175, 0x176,
    };
    unsigned int i;
    uint64_t v;

    v = rdmsr(MSR_EFER);
    printf("  EFER %#llx\n", (unsigned long long)v);
#ifdef __x86_64__
    if ( (v & (EFER_LME | EFER_LMA | EFER_SCE)) !=
         (EFER_LME | EFER_LMA | EFER_SCE) || (v & EFER_SVME) )
        test_fail("EFER %#lx: want LME LMA SCE, no SVME", v);
#else
    /*
     * Long mode hidden from a 32-bit guest, and SCE where its syscall
     * doesn't work (Intel: not outside 64-bit mode), as Xen's guest_efer().
     */
    if ( (v & (EFER_LME | EFER_LMA | EFER_SVME)) ||
         !(v & EFER_SCE) != (vendor() == 1) )
        test_fail("EFER %#llx: want no LME LMA SVME, SCE but on Intel",
                  (unsigned long long)v);
#endif
    check_gp("wrmsr EFER", wrmsr_ex(MSR_EFER, v));

    /* Xen's hypercall-page MSR: write-only, reads as zero. */
    check_rc(rdmsr(XEN_CPUID_FIRST_LEAF), 0);
    /* No CPUID faulting offered. */
    check_rc(rdmsr(MSR_PLATFORM_INFO), 0);

    for ( i = 0; i < ARRAY_SIZE(unknown); i++ )
    {
        check_gp("rdmsr of an unhandled MSR", rdmsr_safe(unknown[i], &v));
        check_gp("wrmsr of an unhandled MSR", wrmsr_ex(unknown[i], 0));
        check_gp("wrmsr of an unhandled MSR", wrmsr_ex(unknown[i], ~0UL));
    }
}

/*
 * Xen's fixed PAT, read-only; the microcode revision (Intel's and AMD's
 * shared MSR) forwarded, with Intel's "write 0 first" allowed.
 */
static void test_pat_ucode(void)
{
    uint64_t v;

    check_rc(rdmsr(MSR_CR_PAT), XEN_MSR_PAT);
    check_gp("wrmsr PAT", wrmsr_ex(MSR_CR_PAT,
                                   UINT64_C(0x0007040600070406)));
    check_rc(rdmsr(MSR_CR_PAT), XEN_MSR_PAT);

    switch ( vendor() )
    {
    case 1:
        check_rc(wrmsr_ex(MSR_UCODE_REV, 0), 0);
        printf("  microcode revision %#llx\n",
               (unsigned long long)rdmsr(MSR_UCODE_REV));
        break;
    case 2:
        check_gp("wrmsr UCODE_REV 0 on AMD", wrmsr_ex(MSR_UCODE_REV, 0));
        printf("  patch level %#llx\n",
               (unsigned long long)rdmsr(MSR_UCODE_REV));
        break;
    default:
        check_gp("rdmsr UCODE_REV", rdmsr_safe(MSR_UCODE_REV, &v));
        break;
    }
    check_gp("wrmsr UCODE_REV 1", wrmsr_ex(MSR_UCODE_REV, 1));
}

/* The vendor's counters, with Xen's vPMU off: read as 0, writes dropped. */
static void test_pmu(void)
{
    static const uint32_t intel_pmu[] = { 0xc1, 0xc8, 0x186, 0x189, 0x309,
                                          0x38d, 0x38f, 0x390 };
    static const uint32_t amd_pmu[] = { 0xc0010000, 0xc0010004, 0xc0010007,
                                        0xc0010200, 0xc001020b };
    const uint32_t *mine = intel_pmu, *other = amd_pmu;
    unsigned int nr_mine = ARRAY_SIZE(intel_pmu);
    unsigned int nr_other = ARRAY_SIZE(amd_pmu), i;
    uint64_t v;

    if ( vendor() == 0 )
        return;
    if ( vendor() == 2 )
    {
        mine = amd_pmu, nr_mine = ARRAY_SIZE(amd_pmu);
        other = intel_pmu, nr_other = ARRAY_SIZE(intel_pmu);
    }
    for ( i = 0; i < nr_mine; i++ )
    {
        check_rc(rdmsr(mine[i]), 0);
        check_rc(wrmsr_ex(mine[i], 0xffff), 0);
        check_rc(rdmsr(mine[i]), 0);
    }
    for ( i = 0; i < nr_other; i++ )
        check_gp("the other vendor's counter", rdmsr_safe(other[i], &v));
}

static uint8_t win[PAGE_SIZE] __page_aligned;
static uint8_t got[PAGE_SIZE];

/* xen_version(XENVER_version) through the stub at @page. */
static long version_via(const uint8_t *page)
{
    long rc;
#ifdef __x86_64__
    register unsigned long rdi asm ("rdi") = XENVER_version;
    register unsigned long rsi asm ("rsi") = 0;

    asm volatile ( "call *%[fn]"
                   : "=a" (rc), "+r" (rdi), "+r" (rsi)
                   : [fn] "r" (page + __HYPERVISOR_xen_version * 32)
                   : "rcx", "r11", "rdx", "r8", "r9", "r10", "memory" );
#else
    const uint8_t *fn = page + __HYPERVISOR_xen_version * 32;
    unsigned long ebx = XENVER_version, ecx = 0;

    asm volatile ( "call *%[fn]"
                   : "=a" (rc), "+b" (ebx), "+c" (ecx)
                   : [fn] "m" (fn)
                   : "edx", "esi", "edi", "memory" );
#endif
    return rc;
}

/* Xen's hypercall-page MSR: stubs into a writable frame of the guest's. */
static void test_hypercall_page(void)
{
    const uint32_t msr = XEN_CPUID_FIRST_LEAF;
    unsigned long f = alloc_frame(), l1 = new_table(1, 0, 0);
    unsigned long w = (unsigned long)win;

    frame_fill(f, 0);
    wrmsr(msr, (uint64_t)f << PAGE_SHIFT);
    frame_read(f, 0, got, PAGE_SIZE);
    if ( memcmp(got, hypercall_page, PAGE_SIZE) )
        test_fail("the MSR's page differs from the ELF note's");
    check_rc(map_frame_at(w, f, PTE_RO), 0);
    check_rc(version_via(win), HYPERCALL(__HYPERVISOR_xen_version,
                                         XENVER_version, 0, 0, 0, 0));
    check_rc(remap_initial(w), 0);
    frame_fill(f, 0);                   /* writable again: type released */

    check_gp("hypercall page index 1",
             wrmsr_ex(msr, ((uint64_t)f << PAGE_SHIFT) | 1));
    check_gp("hypercall page: a page table",
             wrmsr_ex(msr, (uint64_t)pt_base_mfn() << PAGE_SHIFT));
    check_gp("hypercall page: a pinned L1",
             wrmsr_ex(msr, (uint64_t)l1 << PAGE_SHIFT));
    check_gp("hypercall page: the hypervisor's",
             wrmsr_ex(msr, (uint64_t)hypervisor_frame() << PAGE_SHIFT));
    check_gp("hypercall page: beyond RAM",
             wrmsr_ex(msr, (uint64_t)maximum_ram_page() << PAGE_SHIFT));
    check_gp("hypercall page: ~0", wrmsr_ex(msr, ~UINT64_C(0xfff)));
    frame_read(l1, 0, got, PAGE_SIZE);
    for ( unsigned int i = 0; i < PAGE_SIZE; i++ )
        if ( got[i] )
            test_fail("the refused L1 was written at %u", i);
    check_rc(unpin_table(l1), 0);
}

/* TSC_AUX is the guest's where CPUID offers RDTSCP. */
static void test_tsc_aux(void)
{
    uint32_t a, b, c, d, aux;
    uint64_t v;

    asm volatile ( XEN_CPUID : "=a" (a), "=b" (b), "=c" (c), "=d" (d)
                   : "0" (0x80000001), "2" (0) );
    if ( !(d & (1u << 27)) )
    {
        check_gp("rdmsr TSC_AUX without RDTSCP", rdmsr_safe(MSR_TSC_AUX, &v));
        printf("  no RDTSCP: TSC_AUX not checked\n");
        return;
    }
    wrmsr(MSR_TSC_AUX, 0x1234);
    check_rc(rdmsr(MSR_TSC_AUX), 0x1234);
    asm volatile ( "rdtscp" : "=a" (a), "=d" (d), "=c" (aux) );
    check_rc(aux, 0x1234);
    check_gp("TSC_AUX upper half", wrmsr_ex(MSR_TSC_AUX,
                                            UINT64_C(1) << 32));
}

void test_main(void)
{
    test_bases();
    test_others();
    test_pat_ucode();
    test_pmu();
    test_tsc_aux();
    test_hypercall_page();

    test_success();
}
