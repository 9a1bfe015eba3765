/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest's CR0 and CR4: what the CPU holds while it runs and what it
 * reads, as Xen's pv_make_cr4() and pv_fixup_guest_cr4() (pv/domain.c)
 * and read_cr() (pv/emul/emul-priv-op.c) make them for a 64-bit PV guest.
 */
#include "shim/lib.h"
#include "arch/x86/cr.h"
#include "arch/x86/page.h"
#include "arch/x86/setup.h"
#include "pv/emul/cpuid.h"
#include "pv/emul/emul-cr.h"
#include "pv/domain.h"

/*
 * Xen starts from its own CR4 less PCIDE, PGE and TSD; adds PGE unless it
 * uses PCID or XPTI (we use neither), TSD if the guest set it (its TSC is
 * never emulated here), and FSGSBASE only once a 64-bit guest has set it
 * (it can't: its CPUID bit is hidden).  PGE is global-pages' choice, so
 * the guest's global mappings behave as the shim's own.
 */
unsigned long pv_make_cr4(void)
{
    unsigned long cr4 = read_cr4() & ~(X86_CR4_PCIDE | X86_CR4_PGE |
                                       X86_CR4_TSD | X86_CR4_FSGSBASE);

    if ( opt_global_pages )
        cr4 |= X86_CR4_PGE;
    /*
     * A 32-bit guest's kernel runs in ring 1, a supervisor ring: SMAP
     * would fault its every access to its user pages (it can't stac in
     * ring 1) and SMEP may stop it running code it mapped user, so both
     * are off while it runs, as Xen's cr4_pv32 handling makes them.
     */
    if ( dom.compat )
        cr4 &= ~(X86_CR4_SMEP | X86_CR4_SMAP);
    if ( current_vcpu()->cr4_guest & X86_CR4_TSD )
        cr4 |= X86_CR4_TSD;
    return cr4;
}

/* The real CR0, with the guest's own TS (fpu_taskswitch, clts). */
unsigned long pv_guest_cr0(void)
{
    return (read_cr0() & ~X86_CR0_TS) |
           (current_vcpu()->ctrlreg0_ts ? X86_CR0_TS : 0);
}

/*
 * Xen's v->arch.pv.ctrlreg[4], from pv_fixup_guest_cr4(): the bits the
 * guest sees but can't change (PAE, OSFXSR, OSXMMEXCPT as the CPU has
 * them; PGE when CPUID shows it, with global-pages; MCE hidden, as its
 * CPUID bit is) and the ones it controls, clear at first.
 */
unsigned long pv_guest_cr4(void)
{
    return (pv_make_cr4() & (X86_CR4_PAE | X86_CR4_OSFXSR |
                             X86_CR4_OSXMMEXCPT | X86_CR4_PGE)) |
           current_vcpu()->cr4_guest;
}

/*
 * Xen's write_cr(4) and pv_fixup_guest_cr4(): never a fault.  Of the bits
 * a PV guest controls (TSD, DE, FSGSBASE, OSXSAVE) it keeps those its
 * CPUID offers: TSD with TSC, OSXSAVE with XSAVE (DE and FSGSBASE are
 * hidden); the rest of the value is ignored.  TSD reaches the real CR4,
 * OSXSAVE only the guest's view, CPUID and XSETBV.
 */
unsigned long pv_fixup_guest_cr4(unsigned long val)
{
    unsigned long mask = 0;

    if ( pv_guest_has(1, 3, CPUID_BIT(TSC)) )
        mask |= X86_CR4_TSD;
    if ( pv_guest_has(1, 2, CPUID_BIT(XSAVE)) )
        mask |= X86_CR4_OSXSAVE;
    return val & mask;
}

void pv_write_cr4(unsigned long val)
{
    current_vcpu()->cr4_guest = pv_fixup_guest_cr4(val);
    write_cr4(pv_make_cr4());
}

/* Xen's valid_xcr0(): the architectural dependencies between components. */
static bool valid_xcr0(uint64_t xcr0)
{
    const uint64_t avx512 = X86_XCR0_OPMASK | X86_XCR0_ZMM | X86_XCR0_HI_ZMM;

    if ( !(xcr0 & X86_XCR0_FP) )
        return false;
    if ( (xcr0 & X86_XCR0_YMM) && !(xcr0 & X86_XCR0_SSE) )
        return false;
    if ( (xcr0 & avx512) &&
         (!(xcr0 & X86_XCR0_YMM) || (~xcr0 & avx512)) )
        return false;
    return !(xcr0 & X86_XCR0_BNDREGS) == !(xcr0 & X86_XCR0_BNDCSR);
}

/*
 * Xen's handle_xsetbv(): XCR0 only, within what the shim enabled and
 * architecturally consistent; false is #GP(0).  The shim never uses the
 * extended state itself, so the guest's XCR0 simply stays loaded.
 */
bool pv_xsetbv(uint32_t index, uint64_t val)
{
    if ( index != 0 || (val & ~xfeature_mask) || !valid_xcr0(val) )
        return false;
    xsetbv(val);
    return true;
}

/*
 * A vCPU starts as Xen's do: XCR0 x87 and SSE.  Its guest CR4 bits are
 * the builder's (none) or VCPUOP_initialise's (ctrlreg[4], fixed up).
 */
void pv_cr_init(struct vcpu *v)
{
    if ( xfeature_mask )
        xsetbv(X86_XCR0_FP | X86_XCR0_SSE);
}
