/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside pv/mm/: the references one entry holds, taken and dropped
 * inline where they are the bulk of the work: an L1's validation and
 * devalidation (a pin's and an unpin's, pv/mm/validate.c) and an L1
 * entry's update (mod_entry(), pv/mm/mm-update.c: mmu_update's).
 */
#ifndef PV_MM_ENTRY_REFS_H
#define PV_MM_ENTRY_REFS_H

#include "shim/lib.h"
#include "arch/x86/page.h"
#include "pv/mm/mm.h"
#include "pv/mm/pte-rules.h"
#include "shim/console.h"

/* pv/mm/validate.c: the rules, and the log line of an entry refused. */
extern struct pte_policy pv_pte_policy;
void pv_entry_refused(unsigned int level, uint64_t e, const char *why);

static always_inline unsigned long entry_mfn(uint64_t e)
{
    return (e & PADDR_MASK) >> PAGE_SHIFT;
}

/*
 * Xen's get_page_from_l1e(), for a present entry: I/O space needs a
 * permission we never give (-EPERM); a frame that is someone else's, or
 * that can't be writable now, is -EBUSY.
 */
static always_inline int get_l1e(uint64_t *e)
{
    struct page_info *pg;
    unsigned long mfn;
    const char *why;
    int rc;

    if ( (rc = pte_check_inline(1, e, &pv_pte_policy, &why)) )
    {
        pv_entry_refused(1, *e, why);
        return rc;
    }
    mfn = entry_mfn(*e);
    pg = mfn_to_page(mfn);
    if ( !pg || page_owner(pg) == PGO_IO )
    {
        printk(XENLOG_DEBUG "d1: L1 entry %#lx: mfn %#lx is no RAM of "
               "the guest's\n", (unsigned long)*e, mfn);
        return mfn == PADDR_MASK >> PAGE_SHIFT ? -XEN_EINVAL  /* invalid */
                                               : -XEN_EPERM;
    }
    if ( !page_get(pg, PGO_GUEST) )
    {
        printk(XENLOG_DEBUG "d1: L1 entry %#lx: mfn %#lx is not the "
               "guest's\n", (unsigned long)*e, mfn);
        return -XEN_EBUSY;
    }
    if ( (*e & _PAGE_RW) &&
         page_get_type_flush(pg, PGT_WRITABLE) != PGT_OK )
    {
        printk(XENLOG_DEBUG "d1: L1 entry %#lx: mfn %#lx can't be "
               "writable (type %u)\n", (unsigned long)*e, mfn,
               page_type(pg));
        page_put(pg);
        return -XEN_EBUSY;
    }
    return 0;
}

/*
 * Does entry @e of a table at @level hold the references validation
 * took?  It always does, unless something wrote the table behind the
 * MMU's back (as the grant copy of XSA-500 could): then releasing it
 * must not fault on a frame past RAM nor drop references others hold.
 */
static always_inline bool entry_holds_refs(unsigned int level, uint64_t e,
                                           const struct page_info *pg)
{
    uint64_t c, t;

    if ( !pg )
        return false;
    c = page_cinfo(pg);
    t = page_tinfo(pg);
    if ( (PAGE_OWNER(c) != PGO_GUEST && PAGE_OWNER(c) != PGO_DYING) ||
         !PAGE_COUNT(c) )
        return false;
    if ( level == 1 )
        return !(e & _PAGE_RW) ||
               (PAGE_TYPE(t) == PGT_WRITABLE && PAGE_TCOUNT(t));
    return is_page_table_type(PAGE_TYPE(t)) && PAGE_TCOUNT(t);
}

/* The references L1 entry @e holds (none if not present), dropped. */
static always_inline void put_l1e(uint64_t e, unsigned long table_mfn)
{
    struct page_info *pg = mfn_to_page(entry_mfn(e));
    bool held;

    if ( !(e & _PAGE_PRESENT) )
        return;
    held = entry_holds_refs(1, e, pg);
    ASSERT(held);
    if ( unlikely(!held) )
    {
        printk(XENLOG_ERR "d1: mfn %#lx: L1 entry %#lx holds no "
               "reference: left alone\n", table_mfn, (unsigned long)e);
        return;
    }
    if ( e & _PAGE_RW )
        page_put_type(pg);              /* writable: no table to drop */
    page_put(pg);
}

#endif /* PV_MM_ENTRY_REFS_H */
