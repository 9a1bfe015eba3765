/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * INIT_P2M: the p2m list mapped where the kernel asks, outside the
 * initial mapping, as libxc builds a domU (xg_dom_x86.c,
 * alloc_p2m_list_x86_64()): the list's frames follow the initial mapping
 * (and an unmapped initrd) in pfn order, then the L3/L2/L1 tables that
 * map it, which start_info's first_p2m_pfn/nr_p2m_frames cover.  The L4
 * is the bootstrap one, and pv_mm_adopt_initial_tables() validates the
 * new tables with the rest.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include "arch/x86/layout.h"
#include "arch/x86/page.h"
#include "pv/build/build.h"
#include "shim/frame.h"
#include "shim/panic.h"

static unsigned long nr_slots(unsigned long s, unsigned long e,
                              unsigned int shift)
{
    return e > s ? ((e - 1) >> shift) - (s >> shift) + 1 : 0;
}

/* Tables at one level, less those the initial mapping already has. */
static unsigned long tables_at(const struct pv_layout *l, unsigned int shift)
{
    unsigned long s = l->p2m_va, e = s + (l->p2m_pages << PAGE_SHIFT);
    /* The table spans both ranges touch (the initial mapping's has them). */
    unsigned long os = MAX(s >> shift, l->v_start >> shift);
    unsigned long oe = MIN((e - 1) >> shift, (l->v_end - 1) >> shift);

    return nr_slots(s, e, shift) - (oe >= os ? oe - os + 1 : 0);
}

unsigned long pv_p2m_tables_needed(const struct pv_layout *l)
{
    /* An L3 per 512 GiB, an L2 per GiB, an L1 per 2 MiB. */
    return tables_at(l, 39) + tables_at(l, 30) + tables_at(l, 21);
}

struct p2m_alloc {
    const struct domain *d;
    unsigned long next, end;    /* pfns */
};

static uint64_t *walk(struct p2m_alloc *a, uint64_t *t, unsigned int idx)
{
    unsigned long mfn;

    if ( !(t[idx] & _PAGE_PRESENT) )
    {
        if ( a->next >= a->end )
            panic("INIT_P2M page tables: layout miscounted");
        mfn = pv_p2m(a->d, a->next++);
        clear_page(__va(mfn << PAGE_SHIFT));
        t[idx] = (mfn << PAGE_SHIFT) | GUEST_PTE;
    }
    return __va(t[idx] & PADDR_MASK);
}

void pv_map_p2m(struct domain *d, const struct pv_layout *l)
{
    struct p2m_alloc a = {
        .d = d, .next = l->p2m_pfn + l->p2m_pages,
        .end = l->p2m_pfn + l->p2m_pages + l->p2m_tables,
    };
    uint64_t *l4 = __va(d->vcpu[0].guest_table << PAGE_SHIFT);
    unsigned long i, va, mfn;

    for ( i = 0; i < l->p2m_pages; i++ )
    {
        uint64_t *l3, *l2, *l1;

        va = l->p2m_va + (i << PAGE_SHIFT);
        mfn = pv_p2m(d, l->p2m_pfn + i);
        pv_write_p2m_page(d, i, __va(mfn << PAGE_SHIFT));

        l3 = walk(&a, l4, (va >> 39) & 511);
        l2 = walk(&a, l3, (va >> 30) & 511);
        l1 = walk(&a, l2, (va >> 21) & 511);
        l1[(va >> 12) & 511] = (mfn << PAGE_SHIFT) | GUEST_PTE;
    }
    if ( a.next != a.end )
        panic("INIT_P2M page tables: %lu counted, %lu used", l->p2m_tables,
              a.next - l->p2m_pfn - l->p2m_pages);
}
