/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The flag and address rules for one page-table entry that a 64-bit PV
 * guest asks for, as Xen's x86 mm.c applies them before the type and
 * ownership checks: the disallow masks, then adjust_guest_l<N>e().
 */
#ifndef PV_PTE_RULES_H
#define PV_PTE_RULES_H

#include "shim/lib.h"
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
