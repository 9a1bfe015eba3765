/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The M2P table at MACH2PHYS_VIRT_START: readable, read-only, consistent
 * with the p2m even when the p2m is not ascending (this test runs with
 * pv-p2m-reverse), and a pfn is never its mfn by accident.  m2p-large
 * builds it with M2P_LARGE: a big guest whose frames the PCI hole splits
 * into runs, ascending within each, every one the M2P's inverse.
 */
#include "guest.h"

#ifndef M2P_LARGE
const char test_title[] = "M2P: read-only, and the inverse of a reversed p2m";
#else
const char test_title[] = "M2P: the inverse of an ascending p2m in runs";
#endif

void test_main(void)
{
    const unsigned long *m2p = (const void *)MACH2PHYS_VIRT_START;
    const unsigned long *p2m = (const void *)start_info->mfn_list;
    unsigned long n = start_info->nr_pages, pfn, descending = 0, jumps = 0;

    for ( pfn = 0; pfn < n; pfn++ )
    {
        if ( m2p[p2m[pfn]] != pfn )
            return test_fail("m2p[%#lx] = %#lx, expected %#lx", p2m[pfn],
                             m2p[p2m[pfn]], pfn);
        descending += pfn && p2m[pfn] < p2m[pfn - 1];
        jumps += pfn && p2m[pfn] > p2m[pfn - 1] + 1;
    }
#ifndef M2P_LARGE
    if ( descending != n - 1 )
        test_fail("pv-p2m-reverse: %lu of %lu steps descend", descending,
                  n - 1);
#else
    if ( descending || !jumps )
        test_fail("%lu pages: %lu steps descend, %lu jump (a hole): wanted "
                  "none and some", n, descending, jumps);
    if ( n < (5UL << 18) )
        test_fail("only %lu MiB of memory", n >> 8);
#endif
    if ( exinfo_vector(probe_write((void *)&m2p[p2m[0]])) != X86_EXC_PF )
        test_fail("M2P entry writable");
    /* The shared_info frame is no guest pfn: Xen marks it specially. */
    if ( m2p[start_info->shared_info >> 12] < n )
        test_fail("shared_info's M2P entry %#lx is a guest pfn",
                  m2p[start_info->shared_info >> 12]);
    test_success();
}
