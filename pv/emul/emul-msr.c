/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdmsr and wrmsr from the guest kernel, answered as Xen 4.17 answers a
 * 64-bit PV domU: pv/emul/emul-priv-op.c read_msr()/write_msr(), msr.c
 * guest_rdmsr()/guest_wrmsr(), traps.c guest_{rd,wr}msr_xen().  Every MSR
 * not named here gets #GP, as in Xen without msr_relaxed.
 */
#include "shim/lib.h"
#include <xen/arch-x86/cpuid.h>
#include "arch/x86/cpu.h"
#include "arch/x86/layout.h"
#include "arch/x86/msr.h"
#include "arch/x86/time.h"
#include "pv/emul/cpuid.h"
#include "pv/emul/emul-cr.h"
#include "pv/guest-addr.h"
#include "pv/domain.h"
#include "pv/hypercall.h"
#include "pv/mm/mm.h"
#include "shim/console.h"

/*
 * Xen's fixed PAT (XEN_MSR_PAT), part of the PV ABI: WB, WT, UC-, UC, WC,
 * WP, UC, UC.  PV guests read it; Linux builds its cache modes from it.
 */
#define XEN_MSR_PAT                 0x0000050100070406ULL
/* Xen's own: the hypercall-page MSR, at the base CPUID 0x40000002 gives. */
#define MSR_XEN_HYPERCALL_PAGE      XEN_CPUID_FIRST_LEAF

/* The EFER bits a guest sees: not SVME. */
#define EFER_GUEST_MASK     (EFER_SCE | EFER_LME | EFER_LMA | EFER_NXE | \
                             EFER_FFXSE)


/*
 * The performance counters Xen routes to its vPMU (read_msr()/write_msr():
 * Intel's on Intel, AMD's K7 and family 15h ones on AMD and Hygon).  With
 * the vPMU off, Xen's default, vpmu_do_msr() reads them as 0 and drops
 * writes; Linux's PMU probe then finds no working counter.
 */
static bool is_pmu_msr(uint32_t msr)
{
    switch ( msr )
    {
    case 0x000000c1 ... 0x000000c8:     /* MSR_P6_PERFCTR(0..7) */
    case 0x00000186 ... 0x00000189:     /* MSR_P6_EVNTSEL(0..3) */
    case 0x00000309 ... 0x0000030b:     /* MSR_CORE_PERF_FIXED_CTR0..2 */
    case 0x0000038d ... 0x00000390:     /* FIXED_CTR_CTRL .. GLOBAL_OVF_CTRL */
        return boot_cpu.vendor == VENDOR_INTEL;
    case 0xc0010000 ... 0xc0010007:     /* MSR_K7_EVNTSEL0 .. PERFCTR3 */
    case 0xc0010200 ... 0xc001020b:     /* MSR_AMD_FAM15H_EVNTSEL0 .. */
        return boot_cpu.vendor == VENDOR_AMD ||
               boot_cpu.vendor == VENDOR_HYGON;
    default:
        return false;
    }
}

static bool read_msr(uint32_t msr, uint64_t *val);
static bool write_msr(uint32_t msr, uint64_t val);

static bool guest_has_tsc_aux(void)
{
    return pv_guest_has(0x80000001, 3, CPUID_BIT(RDTSCP)) ||
           pv_guest_has(7, 2, CPUID_BIT(RDPID));
}


static uint64_t guest_misc_enable(uint64_t val)
{
    val &= ~(MSR_IA32_MISC_ENABLE_PERF_AVAIL |
             MSR_IA32_MISC_ENABLE_MONITOR_ENABLE);
    return val | MSR_IA32_MISC_ENABLE_BTS_UNAVAIL |
           MSR_IA32_MISC_ENABLE_PEBS_UNAVAIL |
           MSR_IA32_MISC_ENABLE_XTPR_DISABLE;
}

static bool intel(void)
{
    return boot_cpu.vendor == VENDOR_INTEL;
}

static bool amd_like(void)
{
    return boot_cpu.vendor == VENDOR_AMD || boot_cpu.vendor == VENDOR_HYGON;
}

/*
 * An MSR the guest may not touch (or a value it may not write): #GP, as
 * in Xen, which also logs it
 * ("RDMSR 0x%08x unimplemented").  Named once per MSR (for the first 32)
 * so that bringing up a kernel shows what it reads, and no guest floods
 * the console.
 */
static void unhandled(const char *what, uint32_t msr)
{
    static uint32_t said[32];
    static unsigned int nr_said;
    unsigned int i, n = __atomic_load_n(&nr_said, __ATOMIC_ACQUIRE);

    /*
     * vCPUs emulate at once (no lock): a slot is claimed by one of them;
     * two naming the same MSR at once may both say it.
     */
    for ( i = 0; i < n && i < ARRAY_SIZE(said); i++ )
        if ( ACCESS_ONCE(said[i]) == msr )
            return;
    do {
        if ( n >= ARRAY_SIZE(said) )
            return;
    } while ( !__atomic_compare_exchange_n(&nr_said, &n, n + 1, false,
                                           __ATOMIC_ACQ_REL,
                                           __ATOMIC_ACQUIRE) );
    ACCESS_ONCE(said[n]) = msr;
    printk(XENLOG_DEBUG "d1: %s %#x refused: #GP\n", what, msr);
}

bool pv_read_msr(uint32_t msr, uint64_t *val)
{
    if ( is_pmu_msr(msr) )
    {
        *val = 0;
        return true;
    }
    if ( !read_msr(msr, val) )
    {
        unhandled("RDMSR", msr);
        return false;
    }
    return true;
}

bool pv_write_msr(uint32_t msr, uint64_t val)
{
    if ( is_pmu_msr(msr) )
        return true;                    /* dropped */
    if ( !write_msr(msr, val) )
    {
        unhandled("WRMSR", msr);
        return false;
    }
    return true;
}

static bool read_msr(uint32_t msr, uint64_t *val)
{
    switch ( msr )
    {
    case MSR_FS_BASE:
    case MSR_GS_BASE:
    case MSR_SHADOW_GS_BASE:
        /*
         * The guest's bases live in the real MSRs (the shim never uses
         * %fs, %gs or swapgs): while its kernel runs GS_BASE is the
         * kernel's, SHADOW_GS_BASE the user's.  A 32-bit guest has no
         * such MSRs (Xen: #GP), its bases are its descriptors'.
         */
        if ( dom.compat )
            return false;
        *val = rdmsr(msr);
        return true;
    case MSR_EFER:
        *val = rdmsr(MSR_EFER) & EFER_GUEST_MASK;
        /*
         * Xen's guest_efer(): a 32-bit guest sees no long mode, nor SCE
         * on Intel (whose SYSCALL it can't use).
         */
        if ( dom.compat )
            *val &= ~(EFER_LME | EFER_LMA |
                      (boot_cpu.vendor == VENDOR_INTEL ? EFER_SCE : 0));
        return true;
    case MSR_IA32_TSC:
        *val = rdtsc();                 /* never emulated (see CPUID) */
        return true;
    case MSR_IA32_PLATFORM_ID:
        return intel() && rdmsr_safe(msr, val);
    case MSR_IA32_FEATURE_CONTROL:
        /* Locked, with no VMX or LMCE: Linux reads it unguarded. */
        *val = IA32_FEATURE_CONTROL_LOCK;
        return intel();
    case MSR_IA32_CR_PAT:
        *val = XEN_MSR_PAT;
        return true;
    case MSR_IA32_UCODE_REV:
        /*
         * Intel's and AMD's (PATCHLEVEL) revision, as Xen's last load
         * left it: Xen forwards the real MSR (guest_rdmsr()).
         */
        return (intel() || boot_cpu.vendor == VENDOR_AMD) &&
               rdmsr_safe(msr, val);
    case MSR_INTEL_PLATFORM_INFO:
    case MSR_INTEL_MISC_FEATURES:
        *val = 0;                       /* no CPUID faulting offered */
        return true;
    case MSR_IA32_PERF_STATUS:
    case MSR_IA32_PERF_CTL:
    case MSR_IA32_THERM_STATUS:
        *val = 0;                       /* read as zero: not a cpufreq dom0 */
        return intel();
    case MSR_IA32_MISC_ENABLE:
        if ( !rdmsr_safe(msr, val) )
            return false;
        *val = guest_misc_enable(*val);
        return true;
    case MSR_TSC_AUX:
        if ( !guest_has_tsc_aux() )
            return false;
        *val = rdmsr(MSR_TSC_AUX);      /* the guest's: the shim's unused */
        return true;
    case MSR_K8_HWCR:
    case MSR_K7_FID_VID_CTL:
    case MSR_K7_FID_VID_STATUS:
    case MSR_K8_PSTATE_LIMIT ... MSR_K8_PSTATE7:
        *val = 0;
        return amd_like();
    case MSR_AMD64_DE_CFG:
        *val = AMD64_DE_CFG_LFENCE_SERIALISE;
        return amd_like();
    case MSR_XEN_HYPERCALL_PAGE:
        *val = 0;                       /* write-only: reads as zero */
        return true;
    default:
        return false;
    }
}

/*
 * Xen's guest_wrmsr_xen(): the frame in bits 12 and up (an mfn: PV isn't
 * translated) gets the hypercall stubs if the guest may write it, i.e.
 * it takes a writable type reference, as a page table or descriptor page
 * can't; page index 0 only, the one page 0x40000002 advertises.
 */
static bool write_hypercall_page(uint64_t val)
{
    unsigned long mfn = val >> PAGE_SHIFT;

    if ( val & (PAGE_SIZE - 1) )
    {
        printk(XENLOG_DEBUG "d1: wrmsr hypercall page index %#lx "
               "unsupported\n", (unsigned long)(val & (PAGE_SIZE - 1)));
        return false;
    }
    if ( get_page_and_type(mfn, PGT_WRITABLE) )
    {
        printk(XENLOG_DEBUG "d1: Bad GMFN %#lx to MSR %08x\n", mfn,
               MSR_XEN_HYPERCALL_PAGE);
        return false;
    }
    pv_fill_hypercall_page(__va(mfn << PAGE_SHIFT), dom.compat);
    put_page_and_type(mfn);
    return true;
}

static bool write_msr(uint32_t msr, uint64_t val)
{
    struct vcpu *v = current_vcpu();
    uint64_t cur;

    switch ( msr )
    {
    case MSR_FS_BASE:
    case MSR_GS_BASE:
    case MSR_SHADOW_GS_BASE:
        /* Checked first: a non-canonical wrmsr would #GP in the shim. */
        if ( dom.compat || !is_canonical(val) )
            return false;
        wrmsr(msr, val);
        if ( msr == MSR_FS_BASE )
            v->fs_base = val;
        else if ( msr == MSR_GS_BASE )
            v->gs_base_kernel = val;
        else
            v->gs_base_user = val;
        return true;
    case MSR_PRED_CMD:
        if ( !pv_guest_has(0x80000008, 1, CPUID_BIT(IBPB)) ||
             (val & ~PRED_CMD_IBPB) )
            return false;
        if ( val )
            wrmsr(MSR_PRED_CMD, val);
        return true;
    case MSR_IA32_UCODE_REV:
        /* Read-only, but Intel tells software to write 0 before reading. */
        return intel() && !val;
    case MSR_INTEL_MISC_FEATURES:
        return !val;                    /* CPUID faulting not offered */
    case MSR_IA32_MISC_ENABLE:
        if ( !rdmsr_safe(msr, &cur) )
            return false;
        /* A change is ignored, as Xen ignores it (with a debug log). */
        if ( val != guest_misc_enable(cur) && IS_ENABLED(CONFIG_DEBUG) )
            printk(XENLOG_DEBUG "d1: ignored WRMSR %#x: %#lx to %#lx\n",
                   msr, guest_misc_enable(cur), val);
        return true;
    case MSR_TSC_AUX:
        if ( !guest_has_tsc_aux() || val != (uint32_t)val )
            return false;
        wrmsr(MSR_TSC_AUX, val);
        return true;
    case MSR_IA32_PERF_CTL:
    case MSR_IA32_THERM_CONTROL:
    case MSR_IA32_ENERGY_PERF_BIAS:
        return intel();                 /* dropped: not a cpufreq dom0 */
    case MSR_IA32_MPERF:
    case MSR_IA32_APERF:
        return intel() || amd_like();   /* dropped */
    case MSR_K8_HWCR:
    case MSR_K7_FID_VID_CTL:
    case MSR_K7_FID_VID_STATUS:
    case MSR_K8_PSTATE_LIMIT ... MSR_K8_PSTATE7:
    case MSR_AMD64_DE_CFG:
        return amd_like();              /* dropped */
    case MSR_XEN_HYPERCALL_PAGE:
        return write_hypercall_page(val);
    default:
        return false;
    }
}
