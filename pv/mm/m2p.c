/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The machine-to-physical table: one entry per machine frame, owned by the
 * shim, mapped read-only for the guest at MACH2PHYS_VIRT_START (the shim
 * writes it through the directmap).
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include "arch/x86/layout.h"
#include "arch/x86/page.h"
#include "pv/build/build.h"
#include "shim/console.h"
#include "shim/frame.h"
#include "shim/panic.h"

static unsigned long *m2p;

unsigned long pv_m2p_pages(void)
{
    return ROUNDUP(frames_max_pfn() * sizeof(*m2p), PAGE_SIZE) >> PAGE_SHIFT;
}

void pv_m2p_init(void)
{
    unsigned long n = pv_m2p_pages(), pfn;

    BUILD_BUG_ON(MACH2PHYS_VIRT_START != SHIM_AREA_START);
    if ( (n << PAGE_SHIFT) > MACH2PHYS_VIRT_END - MACH2PHYS_VIRT_START )
        panic("M2P: %lu frames of RAM are more than the M2P can cover",
              frames_max_pfn());
    pfn = frames_alloc(n, 0, 0);
    if ( pfn == INVALID_PFN )
        panic("M2P: no %lu contiguous frames", n);
    m2p = __va(pfn << PAGE_SHIFT);
    /* Every frame starts invalid: only the guest's get a pfn. */
    memset(m2p, 0xff, n << PAGE_SHIFT);
    map_pages(MACH2PHYS_VIRT_START, pfn << PAGE_SHIFT, n << PAGE_SHIFT,
              _PAGE_USER);
    printk("M2P: %lu KiB at %#lx, read-only for the guest\n",
           n << (PAGE_SHIFT - 10), (unsigned long)MACH2PHYS_VIRT_START);
}

void pv_m2p_set(unsigned long mfn, unsigned long pfn)
{
    ASSERT(mfn < frames_max_pfn());
    m2p[mfn] = pfn;
}

void pv_m2p_set_run(unsigned long mfn, unsigned long pfn, unsigned long nr,
                    long step)
{
    unsigned long *e = m2p + mfn, i;

    ASSERT(nr && mfn < frames_max_pfn());
    ASSERT(step > 0 ? nr <= frames_max_pfn() - mfn : nr <= mfn + 1);
    for ( i = 0; i < nr; i++, e += step )
        *e = pfn + i;
}

/* The pfn of machine frame @mfn, or INVALID_PFN past the end of RAM. */
unsigned long pv_m2p_get(unsigned long mfn)
{
    return mfn < frames_max_pfn() ? m2p[mfn] : INVALID_PFN;
}
