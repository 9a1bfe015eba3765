/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_fpu_taskswitch as Xen's do_fpu_taskswitch(): set, the
 * guest's next x87 or SSE instruction raises #NM exactly once (Xen clears
 * the guest's TS as it delivers it, so the kernel's handler need not);
 * clear, nothing faults.  Xen's argument is an int.
 */
#include "guest.h"

const char test_title[] =
    "fpu_taskswitch: one #NM after set, none after clear";

#define X86_EXC_NM 7

static long fpu_taskswitch(unsigned long set)
{
    return HYPERCALL(__HYPERVISOR_fpu_taskswitch, set, 0, 0, 0, 0);
}

static exinfo_t use_x87(void)
{
    return TRY("fnop");
}

static exinfo_t use_sse(void)
{
    return TRY("xorps %%xmm0, %%xmm0");
}

static void check(const char *what, exinfo_t got, bool want_nm)
{
    exinfo_t want = want_nm ? EXINFO(X86_EXC_NM, 0) : 0;

    if ( got != want )
        test_fail("%s: exinfo %#lx, expected %#lx", what, got, want);
}

void test_main(void)
{
    /* Clear: the FPU is usable. */
    check_rc(fpu_taskswitch(0), 0);
    check("x87 with TS clear", use_x87(), false);
    check("SSE with TS clear", use_sse(), false);

    /* Set: one #NM, then TS is clear again. */
    check_rc(fpu_taskswitch(1), 0);
    check("x87 with TS set", use_x87(), true);
    check("x87 after the #NM", use_x87(), false);
    check("SSE after the #NM", use_sse(), false);

    check_rc(fpu_taskswitch(1), 0);
    check("SSE with TS set", use_sse(), true);
    check("SSE after the #NM", use_sse(), false);

    /* Set twice is still one #NM; set then clear is none. */
    check_rc(fpu_taskswitch(1), 0);
    check_rc(fpu_taskswitch(1), 0);
    check("x87 after two sets", use_x87(), true);
    check("x87 after that #NM", use_x87(), false);

    check_rc(fpu_taskswitch(1), 0);
    check_rc(fpu_taskswitch(0), 0);
    check("x87 after set and clear", use_x87(), false);

    /* Any non-zero int sets; the upper 32 bits don't count. */
    check_rc(fpu_taskswitch(-1), 0);
    check("x87 after set(-1)", use_x87(), true);
#ifdef __x86_64__
    check_rc(fpu_taskswitch(1), 0);
    check_rc(fpu_taskswitch(1UL << 32), 0);
    check("x87 after set(1 << 32), a clear", use_x87(), false);
#endif

    test_success();
}
