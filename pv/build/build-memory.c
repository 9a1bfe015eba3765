/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The builder's memory steps: the guest's frames (and their p2m / M2P
 * entries), the kernel image copied into them, and the bootstrap page
 * tables that map the initial region (themselves read-only, as xen.h's
 * start-of-day contract says).
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include "arch/x86/layout.h"
#include "arch/x86/page.h"
#include "pv/build/build.h"
#include "pv/mm/mm.h"
#include "shim/console.h"
#include "shim/frame.h"
#include "shim/panic.h"
#include "shim/param.h"

/*
 * pv-p2m-reverse (debug): hand the guest its frames in descending order,
 * so a guest that assumes pfn and mfn move together breaks visibly.
 */
static bool opt_p2m_reverse;
boolean_param("pv-p2m-reverse", opt_p2m_reverse);

/*
 * bootscrub=<bool> (Xen's name): zero all of the guest's memory before it
 * runs.  Off by default: the VM's free RAM holds nothing the guest, its
 * only tenant, may not see (the host hands it over zeroed; what firmware
 * and loaders leave there is the VM's own), the shim's own frames are
 * never in it, and every frame whose contents matter (page tables, rings,
 * start_info, .bss) is zeroed explicitly.  Under TCG a full scrub costs
 * over a second per 512 MiB.
 */
static bool opt_bootscrub;
boolean_param("bootscrub", opt_bootscrub);


void pv_alloc_guest_memory(struct domain *d, unsigned long nr_pages)
{
    unsigned long p2m_pages = ROUNDUP(nr_pages * sizeof(*d->p2m), PAGE_SIZE)
                              >> PAGE_SHIFT;
    unsigned long pfn, mfn, i;

    pfn = frames_alloc(p2m_pages, 0, 0);
    if ( pfn == INVALID_PFN )
        panic("no room for the guest's %lu-page p2m", p2m_pages);
    d->p2m = __va(pfn << PAGE_SHIFT);
    d->nr_pages = nr_pages;

    for ( i = 0; i < nr_pages; i++ )
    {
        mfn = frame_alloc();
        if ( mfn == INVALID_PFN )
            panic("out of frames after %lu of the guest's %lu", i, nr_pages);
        if ( opt_bootscrub )
            clear_page(__va(mfn << PAGE_SHIFT));
        pv_mm_give_frame(mfn);
        d->p2m[opt_p2m_reverse ? nr_pages - 1 - i : i] = mfn;
    }
    for ( i = 0; i < nr_pages; i++ )
        pv_m2p_set(d->p2m[i], i);
    printk("Dom1: %lu frames, p2m %s (pfn 0 -> mfn %#lx)\n", nr_pages,
           opt_p2m_reverse ? "reversed" : "ascending", d->p2m[0]);
}

void *pv_initial_va(const struct domain *d, const struct pv_layout *l,
                    unsigned long va)
{
    unsigned long pfn = (va - l->v_start) >> PAGE_SHIFT;

    ASSERT(va >= l->v_start && pfn < d->nr_pages);
    return (char *)__va(d->p2m[pfn] << PAGE_SHIFT) + (va & (PAGE_SIZE - 1));
}

void pv_write_initial(const struct domain *d, const struct pv_layout *l,
                          unsigned long va, const uint8_t *src, size_t len)
{
    while ( len )
    {
        size_t n = MIN(len, PAGE_SIZE - (va & (PAGE_SIZE - 1)));

        if ( src )
        {
            memcpy(pv_initial_va(d, l, va), src, n);
            src += n;
        }
        else
            memset(pv_initial_va(d, l, va), 0, n);
        va += n;
        len -= n;
    }
}

void pv_load_kernel(struct domain *d, const struct pv_layout *l,
                    const struct pv_kernel *k, const uint8_t *image)
{
    unsigned int i;

    for ( i = 0; i < k->nr_segments; i++ )
    {
        const struct pv_elf_segment *s = &k->seg[i];

        pv_write_initial(d, l, s->dest, image + s->offset, s->filesz);
        pv_write_initial(d, l, s->dest + s->filesz, NULL, s->memsz - s->filesz);
    }
}

/* The bootstrap page-table frames, handed out in order from pt_start. */
struct pt_alloc {
    const struct domain *d;
    const struct pv_layout *l;
    unsigned long next;
};

static uint64_t *pt_frame(struct pt_alloc *a, unsigned long *mfn)
{
    unsigned long pfn = (a->next - a->l->v_start) >> PAGE_SHIFT;

    if ( a->next >= a->l->pt_end )
        panic("bootstrap page tables: layout miscounted");
    a->next += PAGE_SIZE;
    *mfn = a->d->p2m[pfn];
    return __va(*mfn << PAGE_SHIFT);
}

static always_inline uint64_t *pt_walk(struct pt_alloc *a, uint64_t *t,
                                       unsigned int idx)
{
    unsigned long mfn;

    if ( !(t[idx] & _PAGE_PRESENT) )
    {
        pt_frame(a, &mfn);
        t[idx] = (mfn << PAGE_SHIFT) | GUEST_PTE;
    }
    return __va(t[idx] & PADDR_MASK);
}

void pv_build_page_tables(struct domain *d, const struct pv_layout *l)
{
    struct pt_alloc a = { .d = d, .l = l, .next = l->pt_start };
    const uint64_t *shim = shim_l4();
    unsigned long va, l4_mfn, slot;
    uint64_t *l4;

    /* start_info, rings, page tables, stack: all start zeroed. */
    pv_write_initial(d, l, l->start_info, NULL,
                     l->stack_end - l->start_info);
    l4 = pt_frame(&a, &l4_mfn);

    /* The shim's slots: every guest L4 has them, and may not change them. */
    for ( slot = L4_SLOT(HYPERVISOR_VIRT_START);
          slot < L4_SLOT(HYPERVISOR_VIRT_END); slot++ )
        l4[slot] = shim[slot];

    for ( va = l->v_start; va < l->v_end; va += PAGE_SIZE )
    {
        uint64_t *l3 = pt_walk(&a, l4, (va >> 39) & 511);
        uint64_t *l2 = pt_walk(&a, l3, (va >> 30) & 511);
        uint64_t *l1 = pt_walk(&a, l2, (va >> 21) & 511);
        unsigned long mfn = d->p2m[(va - l->v_start) >> PAGE_SHIFT];
        uint64_t flags = GUEST_PTE;

        if ( va >= l->pt_start && va < l->pt_end )
            flags &= ~(_PAGE_RW | _PAGE_DIRTY);
        l1[(va >> 12) & 511] = (mfn << PAGE_SHIFT) | flags;
    }
    d->vcpu[0].guest_table = l4_mfn;
}
