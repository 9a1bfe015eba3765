/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * XENMEM_machphys_mapping, as Xen answers a domU: where the M2P is (the
 * address the guest reads it at, lib/mm.h's mfn_to_pfn()), where it
 * ends and its last entry, one word per entry; for a 64-bit guest the
 * whole range the ABI reserves (Xen's MACH2PHYS_NR_ENTRIES), for a
 * 32-bit one its compat M2P (MACH2PHYS_COMPAT_NR_ENTRIES).  Each of the
 * guest's frames has its entry there; a faulting pointer is -EFAULT.
 */
#include "guest.h"
#include "mm.h"
#include <xen/memory.h>

const char test_title[] = "memory_op: XENMEM_machphys_mapping";

void test_main(void)
{
    struct xen_machphys_mapping m;
    unsigned long pfn, last = start_info->nr_pages - 1;

    check_rc(memory_op(XENMEM_machphys_mapping, BAD_XEN), -XEN_EFAULT);
    check_rc(memory_op(XENMEM_machphys_mapping, &m), 0);
    printf("machphys: %#lx-%#lx, max_mfn %#lx\n", (unsigned long)m.v_start,
           (unsigned long)m.v_end, (unsigned long)m.max_mfn);
    if ( m.v_start != MACH2PHYS_VIRT_START )
        test_fail("v_start %#lx, not %#lx", (unsigned long)m.v_start,
                  (unsigned long)MACH2PHYS_VIRT_START);
    if ( (m.v_end - m.v_start) / sizeof(unsigned long) != m.max_mfn + 1 )
        test_fail("%#lx-%#lx holds no %#lx entries", (unsigned long)m.v_start,
                  (unsigned long)m.v_end, (unsigned long)m.max_mfn + 1);
#ifdef __x86_64__
    if ( m.v_end != MACH2PHYS_VIRT_END ||
         m.max_mfn != MACH2PHYS_NR_ENTRIES - 1 )
        test_fail("not the whole range the ABI reserves");
#endif
    for ( pfn = 0; pfn <= last; pfn += last / 7 ? last / 7 : 1 )
        if ( pfn_to_mfn(pfn) > m.max_mfn ||
             mfn_to_pfn(pfn_to_mfn(pfn)) != pfn )
            test_fail("pfn %#lx: mfn %#lx past max_mfn or its entry %#lx",
                      pfn, pfn_to_mfn(pfn), mfn_to_pfn(pfn_to_mfn(pfn)));
    test_success();
}
