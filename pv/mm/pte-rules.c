/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which flags and addresses a 64-bit PV guest may put in its page-table
 * entries, and how the shim completes them.  Pure, so that
 * tests/unit/test-pte-rules.c runs it on the host.
 */
#include "shim/lib.h"
#include <xen/errno.h>
#include "pv/mm/pte-rules.h"

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
static int check_flags(unsigned int level, uint64_t e,
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
static uint64_t adjust_l1(uint64_t e, const struct pte_policy *p)
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

int pte_check(unsigned int level, uint64_t *e, const struct pte_policy *p,
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

bool pte_is_superpage(unsigned int level, uint64_t e)
{
    return (level == 2 || level == 3) &&
           (e & (_PAGE_PRESENT | _PAGE_PSE)) == (_PAGE_PRESENT | _PAGE_PSE);
}

bool pte_linear_ok(unsigned int level, uint64_t e)
{
    if ( level < 2 || level > 4 || !(e & _PAGE_PRESENT) )
        return false;

    /* "Attempt to create linear p.t. with write perms" */
    if ( e & _PAGE_RW )
        return false;

    /* pte_check() refuses these already; a linear entry is a table. */
    return !(e & _PAGE_PSE);
}
