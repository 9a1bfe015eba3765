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
#include "pv/pv.h"
#include "pv/compat/layout.h"
#include "pv/mm/m2p.h"
#include "shim/console.h"
#include "shim/frame.h"
#include "shim/panic.h"

static unsigned long *m2p;

/*
 * A 32-bit guest's M2P (Xen's compat_machine_to_phys_mapping): 4-byte
 * entries, kept beside the native one once the guest is known to be
 * 32-bit, and mapped read-only at MACH2PHYS_VIRT_START of xen-x86_32.h
 * (0xF5800000) through slots of the guest's top L2 (pv/mm/validate.c
 * copies compat_m2p_l2e[] into every PGT_L2_XEN table).
 */
static uint32_t *m2p_compat;
#define COMPAT_M2P_SLOT0    ((COMPAT_MACH2PHYS_VIRT_START >> 21) & 511)
#define COMPAT_M2P_SLOTS    (512 - COMPAT_M2P_SLOT0)
static uint64_t compat_m2p_l2e[COMPAT_M2P_SLOTS];

unsigned long pv_m2p_pages(void)
{
    return ROUNDUP(frames_max_pfn() * sizeof(*m2p), PAGE_SIZE) >> PAGE_SHIFT;
}

/*
 * The table in 2 MiB pages, as Xen maps its read-only M2P, where a run of
 * 2 MiB-aligned frames is free: the guest's reads of it (every pte_val()
 * of a Linux PV kernel) walk one level less and need no L1 of the shim's;
 * the rest of the last 2 MiB is the M2P's too (invalid entries, as past
 * the end of RAM).  Else 4 KiB pages.
 */
void pv_m2p_init(void)
{
    unsigned long n = pv_m2p_pages(), n2m = ROUNDUP(n, L2_SIZE >> PAGE_SHIFT);
    unsigned long pfn;
    bool large = true;

    BUILD_BUG_ON(MACH2PHYS_VIRT_START != SHIM_AREA_START);
    BUILD_BUG_ON(MACH2PHYS_VIRT_START & (L2_SIZE - 1));
    if ( (n2m << PAGE_SHIFT) > MACH2PHYS_VIRT_END - MACH2PHYS_VIRT_START )
        panic("M2P: %lu frames of RAM are more than the M2P can cover",
              frames_max_pfn());
    pfn = frames_alloc(n2m, L2_SHIFT - PAGE_SHIFT, 0);
    if ( pfn == INVALID_PFN )
    {
        large = false;
        pfn = frames_alloc(n, 0, 0);
    }
    else
        n = n2m;
    if ( pfn == INVALID_PFN )
        panic("M2P: no %lu contiguous frames", n);
    m2p = __va(pfn << PAGE_SHIFT);
    /* Every frame starts invalid: only the guest's get a pfn. */
    memset(m2p, 0xff, n << PAGE_SHIFT);
    if ( large )
        map_pages_2m(MACH2PHYS_VIRT_START, pfn << PAGE_SHIFT,
                     n << PAGE_SHIFT, _PAGE_USER);
    else
        map_pages(MACH2PHYS_VIRT_START, pfn << PAGE_SHIFT, n << PAGE_SHIFT,
                  _PAGE_USER);
    printk("M2P: %lu KiB at %#lx in %s pages, read-only for the guest\n",
           n << (PAGE_SHIFT - 10), (unsigned long)MACH2PHYS_VIRT_START,
           large ? "2M" : "4K");
}

void pv_m2p_set(unsigned long mfn, unsigned long pfn)
{
    ASSERT(mfn < frames_max_pfn());
    m2p[mfn] = pfn;
    if ( m2p_compat )
        m2p_compat[mfn] = pfn;          /* Xen's truncation: ~0 stays ~0 */
}

void pv_m2p_set_run(unsigned long mfn, unsigned long pfn, unsigned long nr,
                    long step)
{
    unsigned long *e = m2p + mfn, i;

    ASSERT(nr && mfn < frames_max_pfn());
    ASSERT(step > 0 ? nr <= frames_max_pfn() - mfn : nr <= mfn + 1);
    for ( i = 0; i < nr; i++, e += step )
        *e = pfn + i;
    if ( m2p_compat )
    {
        uint32_t *c = m2p_compat + mfn;

        for ( i = 0; i < nr; i++, c += step )
            *c = pfn + i;
    }
}

/* The pfn of machine frame @mfn, or INVALID_PFN past the end of RAM. */
unsigned long pv_m2p_get(unsigned long mfn)
{
    return mfn < frames_max_pfn() ? m2p[mfn] : INVALID_PFN;
}

/*
 * The compat M2P, for a 32-bit guest: its frames (a copy of the native
 * entries so far), and the shim-owned L1 tables that map them read-only
 * at COMPAT_MACH2PHYS_VIRT_START, one per 2 MiB of entries.  RAM beyond
 * what the 168 MiB window can cover (42M frames) refuses the guest.
 */
void pv_m2p_compat_init(void)
{
    unsigned long n = frames_max_pfn(), pages, pfn, l1, i, j;
    uint64_t *t;

    pages = ROUNDUP(n * sizeof(*m2p_compat), PAGE_SIZE) >> PAGE_SHIFT;
    if ( (pages + 511) / 512 > COMPAT_M2P_SLOTS )
        panic("compat M2P: %lu frames of RAM are more than a 32-bit "
              "guest's M2P can cover", n);
    pfn = frames_alloc(pages, 0, 0);
    if ( pfn == INVALID_PFN )
        panic("compat M2P: no %lu contiguous frames", pages);
    m2p_compat = __va(pfn << PAGE_SHIFT);
    memset(m2p_compat, 0xff, pages << PAGE_SHIFT);
    for ( i = 0; i < n; i++ )
        m2p_compat[i] = m2p[i];

    for ( i = 0; i * 512 < pages; i++ )
    {
        if ( (l1 = frame_alloc()) == INVALID_PFN )
            panic("compat M2P: no frame for its page tables");
        t = __va(l1 << PAGE_SHIFT);
        memset(t, 0, PAGE_SIZE);
        for ( j = 0; j < 512 && i * 512 + j < pages; j++ )
            t[j] = ((pfn + i * 512 + j) << PAGE_SHIFT) | _PAGE_PRESENT |
                   _PAGE_USER | _PAGE_ACCESSED | page_nx_bit();
        compat_m2p_l2e[i] = (l1 << PAGE_SHIFT) | _PAGE_PRESENT | _PAGE_USER |
                            _PAGE_ACCESSED;
    }
    printk("M2P: compat, %lu KiB at %#x, read-only for the guest\n",
           pages << (PAGE_SHIFT - 10), COMPAT_MACH2PHYS_VIRT_START);
}

/* The first L2 slot of the shim's in a 32-bit guest's top L2. */
unsigned int pv_m2p_compat_first_slot(void)
{
    return COMPAT_M2P_SLOT0;
}

/* Write the shim's slots of a 32-bit guest's top L2 (PGT_L2_XEN). */
void pv_m2p_compat_fill_l2(uint64_t *l2)
{
    memcpy(l2 + COMPAT_M2P_SLOT0, compat_m2p_l2e, sizeof(compat_m2p_l2e));
}

/* How many bytes of compat M2P the guest may read (XENMEM_machphys_*). */
unsigned long pv_m2p_compat_bytes(void)
{
    return frames_max_pfn() * sizeof(*m2p_compat);
}
