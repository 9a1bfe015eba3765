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
#include "pv/mm/m2p.h"
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
 * never in it (those freed before, the APs' trampoline tables and a
 * failed driver's memory, are cleared as they are), and every frame
 * whose contents matter (page tables, rings, start_info, .bss) is zeroed
 * explicitly.  Under TCG a full scrub costs over a second per 512 MiB.
 */
static bool opt_bootscrub;
boolean_param("bootscrub", opt_bootscrub);


/*
 * The guest's frames, a run of free frames at a time: the frame table,
 * the M2P and the run list are written in tight loops, so a GiB costs
 * little more than the first touch of its share of those tables.  With
 * pv-p2m-reverse the pfns count down through the same runs.
 */
void pv_alloc_guest_memory(struct domain *d, unsigned long nr_pages)
{
    unsigned long done = 0, mfn, nr, pfn;
    struct p2m_run *r;

    d->nr_pages = nr_pages;
    d->tot_pages = nr_pages;
    d->max_pages = nr_pages;
    d->nr_p2m_runs = 0;
    d->p2m_descending = opt_p2m_reverse;
    while ( done < nr_pages )
    {
        if ( d->nr_p2m_runs == P2M_MAX_RUNS )
            panic("the guest's memory is in more than %u pieces",
                  P2M_MAX_RUNS);
        mfn = frames_alloc_run(nr_pages - done, &nr);
        if ( mfn == INVALID_PFN )
            panic("out of frames after %lu of the guest's %lu", done,
                  nr_pages);
        if ( opt_bootscrub )
            memset(__va(mfn << PAGE_SHIFT), 0, nr << PAGE_SHIFT);
        pv_mm_give_frames(mfn, nr);

        r = &d->p2m_run[d->nr_p2m_runs++];
        r->nr = nr;
        if ( !opt_p2m_reverse )
        {
            r->pfn = done;
            r->mfn = mfn;
            pv_m2p_set_run(mfn, done, nr, 1);
        }
        else
        {
            /* The last pfns get the lowest frames, counting down. */
            pfn = nr_pages - done - nr;
            r->pfn = pfn;
            r->mfn = mfn + nr - 1;
            pv_m2p_set_run(mfn + nr - 1, pfn, nr, -1);
        }
        done += nr;
    }
    printk("Dom1: %lu frames in %u run(s), p2m %s (pfn 0 -> mfn %#lx)\n",
           nr_pages, d->nr_p2m_runs,
           opt_p2m_reverse ? "reversed" : "ascending", pv_p2m(d, 0));
}

/*
 * Page @i of the guest's mfn_list: its 512 entries (1024 of 4 bytes for
 * a 32-bit guest), zeros past the end.
 */
void pv_write_p2m_page(const struct domain *d, unsigned long i, void *page)
{
    unsigned long size = d->compat ? 4 : sizeof(unsigned long);
    unsigned long per = PAGE_SIZE / size, first = i * per, buf[512], j, k;
    unsigned long n = first < d->nr_pages ? MIN(per, d->nr_pages - first) : 0;
    uint32_t *p32 = page;

    if ( !d->compat )
        pv_p2m_copy(d, first, n, page);
    else
        for ( j = 0; j < n; j += k )
        {
            k = MIN(n - j, ARRAY_SIZE(buf));
            pv_p2m_copy(d, first + j, k, buf);
            while ( k-- )
                p32[j + k] = buf[k];
            k = MIN(n - j, ARRAY_SIZE(buf));
        }
    if ( n < per )
        memset((uint8_t *)page + n * size, 0, (per - n) * size);
}

static const struct p2m_run *find_run(const struct domain *d,
                                      unsigned long pfn)
{
    unsigned int i;

    for ( i = 0; i < d->nr_p2m_runs; i++ )
        if ( pfn - d->p2m_run[i].pfn < d->p2m_run[i].nr )
            return &d->p2m_run[i];
    panic("pfn %#lx is not the guest's (%lu pages)", pfn, d->nr_pages);
}

unsigned long pv_p2m(const struct domain *d, unsigned long pfn)
{
    const struct p2m_run *r = find_run(d, pfn);

    return d->p2m_descending ? r->mfn - (pfn - r->pfn)
                             : r->mfn + (pfn - r->pfn);
}

void pv_p2m_copy(const struct domain *d, unsigned long pfn, unsigned long n,
                 unsigned long *dst)
{
    while ( n )
    {
        const struct p2m_run *r = find_run(d, pfn);
        unsigned long off = pfn - r->pfn, k = MIN(n, r->nr - off), i;

        if ( d->p2m_descending )
            for ( i = 0; i < k; i++ )
                dst[i] = r->mfn - off - i;
        else
            for ( i = 0; i < k; i++ )
                dst[i] = r->mfn + off + i;
        dst += k;
        pfn += k;
        n -= k;
    }
}

void *pv_initial_va(const struct domain *d, const struct pv_layout *l,
                    unsigned long va)
{
    unsigned long pfn = (va - l->v_start) >> PAGE_SHIFT;

    ASSERT(va >= l->v_start && pfn < d->nr_pages);
    return (char *)__va(pv_p2m(d, pfn) << PAGE_SHIFT) + (va & (PAGE_SIZE - 1));
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

/*
 * The segments, then (BSD_SYMTAB) the header and tables that
 * pv/build/elf-symtab.c laid out.  From the image's end to the next page
 * everything else is zero, as in libxc's kernel segment, which it clears
 * before loading.
 */
void pv_load_kernel(struct domain *d, const struct pv_layout *l,
                    const struct pv_kernel *k, const uint8_t *image)
{
    const struct pv_elf_symtab *t = &k->symtab;
    unsigned int i;

    for ( i = 0; i < k->nr_segments; i++ )
    {
        const struct pv_elf_segment *s = &k->seg[i];

        pv_write_initial(d, l, s->dest, image + s->offset, s->filesz);
        pv_write_initial(d, l, s->dest + s->filesz, NULL, s->memsz - s->filesz);
    }

    pv_write_initial(d, l, k->vend, NULL,
                     ROUNDUP(l->kern_end, PAGE_SIZE) - k->vend);
    if ( !t->loaded )
        return;
    pv_write_initial(d, l, t->start, t->hdr, t->hdr_len);
    pv_write_initial(d, l, t->sym_dest, image + t->sym_off, t->sym_size);
    pv_write_initial(d, l, t->str_dest, image + t->str_off, t->str_size);
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
    *mfn = pv_p2m(a->d, pfn);
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

/*
 * The bootstrap tables: an L4 with the shim's slots for a 64-bit guest;
 * for a 32-bit one an L3 (PAE), with an L2 at slot 3 whatever it maps
 * (pv/mm/validate.c gives it the shim's slots), and its own mappings
 * without _PAGE_USER: its kernel runs in ring 1 (Xen's COMPAT_L1_PROT).
 */
void pv_build_page_tables(struct domain *d, const struct pv_layout *l)
{
    struct pt_alloc a = { .d = d, .l = l, .next = l->pt_start };
    const uint64_t *shim = shim_l4();
    unsigned int levels = d->compat ? 3 : 4, level;
    uint64_t leaf = d->compat ? GUEST_PTE & ~_PAGE_USER : GUEST_PTE;
    unsigned long va, root_mfn, slot;
    uint64_t *root, *t;

    /* start_info, rings, page tables, stack: all start zeroed. */
    pv_write_initial(d, l, l->start_info, NULL,
                     l->stack_end - l->start_info);
    root = pt_frame(&a, &root_mfn);

    /* The shim's slots: every guest L4 has them, and may not change them. */
    if ( !d->compat )
        for ( slot = L4_SLOT(HYPERVISOR_VIRT_START);
              slot < L4_SLOT(HYPERVISOR_VIRT_END); slot++ )
            root[slot] = shim[slot];

    for ( va = l->v_start; va < l->v_end; va += PAGE_SIZE )
    {
        unsigned long mfn = pv_p2m(d, (va - l->v_start) >> PAGE_SHIFT);
        uint64_t flags = leaf;

        for ( t = root, level = levels; level > 1; level-- )
            t = pt_walk(&a, t, (va >> (12 + 9 * (level - 1))) & 511);
        if ( va >= l->pt_start && va < l->pt_end )
            flags &= ~(_PAGE_RW | _PAGE_DIRTY);
        t[(va >> 12) & 511] = (mfn << PAGE_SHIFT) | flags;
    }
    if ( d->compat )
        pt_walk(&a, root, 3);
    d->vcpu[0].guest_table = root_mfn;
}
