/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The flag and address rules for one page-table entry that a 64-bit PV
 * guest asks for, as Xen's x86 mm.c applies them before the type and
 * ownership checks: the disallow masks, then adjust_guest_l<N>e().
 */
#ifndef PV_PTE_RULES_H
#define PV_PTE_RULES_H

#include "shim/lib.h"
#include <xen/errno.h>
#include "arch/x86/page.h"

/* Entry bits that arch/x86/page.h doesn't name (SDM vol. 3A, 4.5). */
#define PTE_PAT             _PAGE_PSE           /* bit 7 of an L1 entry */
#define PTE_AVAIL           (7UL << 9)          /* ignored bits 9-11 */
#define PTE_AVAIL_HIGH      (0x7ffUL << 52)     /* ignored bits 52-62 */
#define PTE_CACHE_ATTRS     (PTE_PAT | _PAGE_PCD | _PAGE_PWT)

/*
 * Xen's _PAGE_GUEST_KERNEL (asm/x86_64/page.h): bit 52, the first
 * software bit, marks an L1 entry that the guest made without _PAGE_USER.
 * Its kernel runs in ring 3, so such a mapping gets _PAGE_USER too, and
 * this bit is what then still tells it from a user mapping.
 */
#define PTE_GUEST_KERNEL    (1UL << 52)

struct pte_policy {
    bool nx;                    /* the CPU has NX (EFER.NXE is on) */
    bool global_pages;          /* CR4.PGE is on for the guest */
    unsigned int paddr_bits;    /* the CPU's MAXPHYADDR (CPUID 0x80000008) */
    bool compat;                /* a 32-bit PAE guest: kernel in ring 1 */
};

/*
 * The rules, from Xen's arch_init_memory() (base_disallow_mask), the
 * L<N>_DISALLOW_MASKs next to it, and get_page_from_l<N>e(), for a 64-bit
 * PV guest with no I/O memory (the shim passes none through):
 *
 *  - Not present: anything goes and nothing is changed (promote_l<N>_table()
 *    skips such entries).  Xen's one exception, the L1TF check of a
 *    non-present entry's address, is off in shim mode
 *    (opt_pv_l1tf_domu = !pv_shim && ...): there the guest can attack only
 *    the shim, and the host already defends itself against the shim's
 *    HVM container, whose kernel writes non-present entries at will.
 *  - Present, any level: P, RW, USER, A, D, the ignored bits 9-11
 *    (_PAGE_AVAIL) and 52-62 (_PAGE_AVAIL_HIGH) are the guest's to set.
 *    Bits 59-62 are protection keys only with CR4.PKE, which the shim
 *    never sets while a guest runs.
 *  - NX only where the CPU has it (Xen's _PAGE_NX is 0 otherwise, so
 *    base_disallow_mask refuses the bit); without NX it is reserved.
 *  - L2/L3: PSE refused (base_disallow_mask has no room for it: PV
 *    superpages are gone from Xen).  L4: bit 7 is reserved.
 *  - Cache attributes: PAT/PCD/PWT refused at L1 (l1_disallow_mask()
 *    relaxes this only for a domain with I/O memory), PCD/PWT at L2-L4
 *    (base_disallow_mask, for every domain).
 *  - _PAGE_GLOBAL: allowed at L1 only (L1_DISALLOW_MASK takes it out of
 *    base_disallow_mask); refused at L2-L4.
 *  - Address bits at or above MAXPHYADDR are reserved (a walk through the
 *    entry would fault with PFEC.RSVD).  Xen refuses them later, when
 *    mfn_valid() fails and the frame counts as MMIO the guest may not
 *    map; here the rule is explicit.
 *
 * A 32-bit PAE guest (Xen's is_pv_32bit_domain()) differs at the top: it
 * has no L4 (the shim's per-vCPU L4 holds its L3 in slot 0), and its L3
 * entries are PAE PDPTEs, so l3_disallow_mask() is Xen's 0xFFFFF198 in
 * get_pte_flags() form: PWT, PCD, PS, G and every bit from 52 up (NX and
 * the ignored high bits among them) refused; P, RW, USER, A, D and bits
 * 9-11 allowed.
 */
static always_inline int check_flags(unsigned int level, uint64_t e,
                       const struct pte_policy *p, const char **why)
{
    uint64_t high_addr = 0;

    if ( p->paddr_bits < 52 )
        high_addr = PADDR_MASK & ~((1UL << p->paddr_bits) - 1);

    if ( p->compat && level == 4 )
        *why = "no L4 entries for a 32-bit guest";
    else if ( p->compat && level == 3 &&
              (e & (_PAGE_PWT | _PAGE_PCD | _PAGE_PSE | _PAGE_GLOBAL |
                    (0xfffUL << 52))) )
        *why = "bits a 32-bit guest's L3 (PDPT) entry can't have";
    else if ( (e & _PAGE_NX) && !p->nx )
        *why = "NX bit set but the CPU has no NX";
    else if ( (level == 2 || level == 3) && (e & _PAGE_PSE) )
        *why = "superpage (PSE) at L2/L3";
    else if ( level == 4 && (e & _PAGE_PSE) )
        *why = "reserved bit 7 (PS) at L4";
    else if ( level == 1 && (e & PTE_CACHE_ATTRS) )
        *why = "cache attributes (PAT/PCD/PWT) at L1 without I/O memory";
    else if ( level > 1 && (e & (_PAGE_PCD | _PAGE_PWT)) )
        *why = "cache attributes (PCD/PWT) in a table entry";
    else if ( level > 1 && (e & _PAGE_GLOBAL) )
        *why = "global bit in a table entry (L2-L4)";
    else if ( e & high_addr )
        *why = "address above the CPU's physical address width";
    else
        return 0;

    return -XEN_EINVAL;
}

/*
 * Xen's adjust_guest_l1e(): the guest kernel runs in ring 3, so a mapping
 * the guest made for it (no _PAGE_USER) gets _PAGE_USER, and
 * PTE_GUEST_KERNEL to remember what it was.  Guest user space never sees
 * those pages: it runs on the guest's separate user L4
 * (MMUEXT_NEW_USER_BASEPTR), which maps no kernel range.
 *
 * With global pages, every user mapping is made global (Xen's
 * USER_MAPPINGS_ARE_GLOBAL): user mappings are the same in the guest's
 * kernel and user L4s, so they survive the CR3 switch on every guest
 * kernel entry and exit.  A kernel mapping keeps the _PAGE_GLOBAL the
 * guest gave it (Xen only warns: it exposes the guest kernel to its own
 * user space, which is the guest's business, not an escape).
 *
 * Without global pages the shim runs the guest with CR4.PGE clear, where
 * the CPU ignores _PAGE_GLOBAL; Xen leaves the bit in (pv_make_cr4()
 * clears PGE when its global-pages option is off).  The shim strips it,
 * so that no guest entry depends on CR4.PGE staying clear: a full flush
 * is then a plain CR3 reload, and the entries say so.
 */
static always_inline uint64_t adjust_l1(uint64_t e, const struct pte_policy *p)
{
    /*
     * A 32-bit guest's kernel runs in ring 1, a supervisor ring: its
     * entries stay as given (Xen adjusts nothing for is_pv_32bit_domain()),
     * but for the global bit, which goes without global pages as above.
     */
    if ( p->compat )
        return p->global_pages ? e : e & ~_PAGE_GLOBAL;

    if ( !(e & _PAGE_USER) )
        e |= _PAGE_USER | PTE_GUEST_KERNEL;

    if ( !p->global_pages )
        e &= ~_PAGE_GLOBAL;
    else if ( !(e & PTE_GUEST_KERNEL) )
        e |= _PAGE_GLOBAL;

    return e;
}

/*
 * pte_check() (below), inline where a hot path knows the level: an L1
 * entry's update and validation (pv/mm/entry-refs.h).
 */
static always_inline int pte_check_inline(unsigned int level, uint64_t *e,
                                        const struct pte_policy *p,
                                        const char **why)
{
    uint64_t v = *e;
    int rc;

    if ( level < 1 || level > 4 )
    {
        *why = "no such page-table level";
        return -XEN_EINVAL;
    }

    if ( !(v & _PAGE_PRESENT) )
        return 0;

    rc = check_flags(level, v, p, why);
    if ( rc )
        return rc;

    /*
     * adjust_guest_l2e()..adjust_guest_l4e(): _PAGE_USER on every table
     * entry, because the CPU ANDs it over the walk and the guest kernel
     * runs in ring 3; the leaf decides.  An L4 entry also gets
     * _PAGE_ACCESSED, as Xen sets it for every valid L4 entry.
     */
    switch ( level )
    {
    case 1:
        v = adjust_l1(v, p);
        break;
    case 2:
        if ( !p->compat )
            v |= _PAGE_USER;
        break;
    case 3:
        /*
         * A 32-bit guest writes PDPTEs (P only, in PAE paging); the CPU
         * walks them as long-mode L3 entries, which must then let the
         * lower levels decide: Xen's adjust_guest_l3e() for it.
         */
        v |= p->compat ? _PAGE_USER | _PAGE_RW | _PAGE_ACCESSED : _PAGE_USER;
        break;
    case 4:
        v |= _PAGE_USER | _PAGE_ACCESSED;
        break;
    }

    *e = v;
    return 0;
}

/*
 * Check, and adjust as Xen's adjust_guest_l<N>e() does for a 64-bit PV
 * guest (or a 32-bit PAE one, @p->compat), entry *@e that the guest wants
 * at page-table level @level (1-4; 1-3 for a 32-bit guest).
 * Returns 0 with *@e ready to be written, or -XEN_EINVAL with *@e
 * unchanged and *@why naming the rule (a static string; *@why is left
 * alone on success).  A non-present entry is accepted unchanged, whatever
 * its other bits, as Xen does.  Neither the owner nor the type of the
 * frame the entry points to is checked here: pv/mm/validate.c does that.
 */
int pte_check(unsigned int level, uint64_t *e, const struct pte_policy *p,
              const char **why);

/*
 * Is @e at @level a present superpage (PSE) entry?  pte_check() refuses
 * them (Xen supports no PV superpages), so a validated table never holds
 * one; the question is for code that walks tables it did not validate.
 */
bool pte_is_superpage(unsigned int level, uint64_t e);

/*
 * May @e, an entry at @level that pte_check() accepted, be a linear
 * (recursive) entry, i.e. point at a page table of the same level as the
 * one it sits in?  Xen's define_get_linear_pagetable(): only read-only
 * ones, or the guest could write its own page tables through them; and
 * only at L2-L4 (an L1 entry maps data, and maps a table read-only like
 * any other frame).  The caller checks the rest, which is frame state:
 * the target is a validated table of this same level, owned by the guest,
 * and (XSA-240) neither it nor the table holding the entry is part of
 * another linear chain.
 */
bool pte_linear_ok(unsigned int level, uint64_t e);

#endif /* PV_PTE_RULES_H */
