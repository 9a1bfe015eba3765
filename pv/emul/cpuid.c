/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest's CPUID: the real values, through the PV policy of
 * pv/emul/cpuid-policy.c, with the facts about this host and shim it needs.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/version.h>
#include "arch/x86/cpu.h"
#include "arch/x86/cr.h"
#include "arch/x86/page.h"
#include "arch/x86/setup.h"
#include "arch/x86/time.h"
#include "pv/emul/cpuid.h"
#include "pv/domain.h"
#include "pv/hypercall.h"
#include "shim/frame.h"

/* Bits needed for the highest machine address, as Xen's flsl() + 12. */
static unsigned int maddr_bits(void)
{
    unsigned long max_mfn = frames_max_pfn() - 1;

    return max_mfn ? 64 - __builtin_clzl(max_mfn) + PAGE_SHIFT : PAGE_SHIFT;
}

/* The host facts, fixed once the shim is up: gathered at the first call. */
static const struct pv_cpuid_host *host_facts(void)
{
    static struct pv_cpuid_host h;
    static bool done;
    uint32_t a, b, c, d = 0;
    unsigned int i;

    if ( done )
        return &h;
    if ( boot_cpu.max_ext_leaf >= 0x80000007 )
        cpuid_count(0x80000007, 0, &a, &b, &c, &d);
    h = (struct pv_cpuid_host){
        .vendor = boot_cpu.vendor,
        .max_leaf = boot_cpu.max_leaf,
        .max_ext_leaf = boot_cpu.max_ext_leaf,
        .xcr0 = xfeature_mask,          /* the guest's XCR0 may be less */
        .global_pages = opt_global_pages,
        .xen_version = do_xen_version(XENVER_version, 0),
        .tsc_khz = cpu_khz(),
        .tsc_reliable = d & (1u << 8),      /* invariant TSC */
        .rdtscp = cpu_has(X86_FEATURE_RDTSCP),
        .maddr_bits = maddr_bits(),
    };
    for ( i = 2; i < ARRAY_SIZE(h.xstate_end); i++ )
        if ( h.xcr0 & (1ULL << i) )
        {
            cpuid_count(0xd, i, &a, &b, &c, &d);
            h.xstate_end[i] = a + b;
        }
    done = true;
    return &h;
}

void pv_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t res[4])
{
    struct pv_cpuid_host h = *host_facts();

    /*
     * Xen leaks the real CR4.OSXSAVE to the guest kernel; user mode sees
     * the guest's own (guest_cpuid()).
     */
    h.osxsave = h.xcr0 && (current_vcpu()->kernel_mode ||
                           (current_vcpu()->cr4_guest & X86_CR4_OSXSAVE));
    h.compat = dom.compat;
    cpuid_count(leaf, subleaf, &res[0], &res[1], &res[2], &res[3]);
    pv_cpuid_policy(leaf, subleaf, res, &h);
}

bool pv_guest_has(uint32_t leaf, unsigned int reg, uint32_t bit)
{
    uint32_t r[4];

    pv_cpuid(leaf, 0, r);
    return r[reg] & bit;
}
