/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest's CR0 and CR4: what the CPU holds while it runs and what it
 * reads, as Xen's pv_make_cr4() and pv_fixup_guest_cr4() (pv/domain.c)
 * and read_cr() (pv/emul-priv-op.c) make them for a 64-bit PV guest.
 */
#include "shim/lib.h"
#include "arch/x86/cr.h"
#include "arch/x86/page.h"
#include "pv/cr.h"
#include "pv/domain.h"

/* CR4 bits arch/x86/cr.h doesn't name (SDM vol. 3A, 2.5). */
#define X86_CR4_TSD         (1UL << 2)
#define X86_CR4_FSGSBASE    (1UL << 16)
#define X86_CR4_PCIDE       (1UL << 17)

/*
 * Xen starts from its own CR4 less PCIDE, PGE and TSD; adds PGE unless it
 * uses PCID or XPTI (we use neither), TSD if the guest set it or its TSC
 * is emulated (neither can happen yet), and FSGSBASE only once a 64-bit
 * guest has set it (it can't yet).  PGE is global-pages' choice, so the
 * guest's global mappings behave as the shim's own.
 */
unsigned long pv_make_cr4(void)
{
    unsigned long cr4 = read_cr4() & ~(X86_CR4_PCIDE | X86_CR4_PGE |
                                       X86_CR4_TSD | X86_CR4_FSGSBASE);

    if ( opt_global_pages )
        cr4 |= X86_CR4_PGE;
    return cr4;
}

/* The real CR0, with the guest's own TS (fpu_taskswitch, clts). */
unsigned long pv_guest_cr0(void)
{
    return (read_cr0() & ~X86_CR0_TS) |
           (current_vcpu()->ctrlreg0_ts ? X86_CR0_TS : 0);
}

/*
 * The value a Xen vCPU starts with, pv_fixup_guest_cr4(v, 0): the bits it
 * sees but can't change (PAE, MCE, OSFXSR, OSXMMEXCPT) as the CPU has
 * them, and the ones it controls (TSD, DE, FSGSBASE, OSXSAVE) clear; CR4
 * writes aren't emulated yet, so it stays so.  MCE is hidden, as its
 * CPUID bit is; PGE shows when CPUID shows it, with global-pages.
 */
unsigned long pv_guest_cr4(void)
{
    return pv_make_cr4() & (X86_CR4_PAE | X86_CR4_OSFXSR |
                            X86_CR4_OSXMMEXCPT | X86_CR4_PGE);
}
