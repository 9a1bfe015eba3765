/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The PV MMU: the rule that every entry of every page table the guest
 * uses was validated, holding a reference on what it maps (validation
 * and pinning, pv/mm/validate.c; xen/arch/x86/mm.c in spirit), and the
 * changes the guest makes to its tables (pv/mm/mm-update.c).  With it,
 * the frame table (pv/mm/frame-table.h) and the guest's TLB flushes
 * (pv/mm/guest-flush.h).
 */
#ifndef PV_MM_H
#define PV_MM_H

#include "shim/lib.h"
#include <xen/errno.h>
#include "pv/domain.h"
#include "pv/mm/frame-table.h"
#include "pv/mm/guest-flush.h"
#include "pv/mm/page-type.h"
#include "shim/frame.h"

/* Boot: the frame table (pv_mm_init(), pv/pv.h), then the rules
 * entries are checked against. */

/*
 * Validate, type and pin the bootstrap L4 the builder made, and make it
 * vCPU 0's kernel page table (as Xen's builder pins the guest's L4).
 */
void pv_mm_adopt_initial_tables(struct vcpu *v);

/*
 * References for one entry at @level (1-4) of the table in frame
 * @table_mfn.  get_ may adjust the entry's flags (as Xen's adjust_guest_*)
 * and returns 0 or -XEN_EINVAL.
 */
int get_page_from_entry(unsigned int level, uint64_t *e,
                        unsigned long table_mfn);
void put_page_from_entry(unsigned int level, uint64_t e,
                         unsigned long table_mfn);
/* The same for an entry never written: no walk can have followed it. */
void put_page_from_unwritten_entry(unsigned int level, uint64_t e,
                                   unsigned long table_mfn);

/* The guest is 32-bit: PTE rules for a ring-1 kernel (pte_policy.compat). */
void pv_mm_set_compat(void);

/* pv/mm/pte-rules.c's check of one entry's flags, with the shim's policy. */
int pv_check_entry(unsigned int level, uint64_t *e);

/* Pin / unpin a page table: -XEN_EINVAL if pinned twice, or never. */
int pin_table(unsigned long mfn, enum page_type type);
int unpin_table(unsigned long mfn);

/* page_get_type(), flushing first if the frame was a page table lately. */
int page_get_type_flush(struct page_info *pg, enum page_type type);

/* A general and a type reference, validating a new page-table type. */
int get_page_and_type(unsigned long mfn, enum page_type type);
void put_page_and_type(unsigned long mfn);
void put_page_and_type_unlinked(unsigned long mfn, uint64_t unlinked);

/*
 * The guest's validated page table @mfn, locked by page_lock() (Xen's
 * get_page() and page_lock() in do_mmu_update; no general reference
 * needed: pv/mm/mm-update.c):
 * its entries are this CPU's to change until pv_unlock_table().  NULL if
 * @mfn is no validated page table of the guest's now, or (unless @type
 * is PGT_NONE: any table) not one of @type.  One at a time.
 */
/* Does this CPU hold one?  (The debug build knows; others say no.) */
#ifdef CONFIG_DEBUG
bool pv_holds_table_lock(void);
void pv_note_table_lock(struct page_info *pg, bool locked);
#else
static inline bool pv_holds_table_lock(void)
{
    return false;
}

static inline void pv_note_table_lock(struct page_info *pg, bool locked)
{
}
#endif

/*
 * No general reference of our own, unlike Xen's do_mmu_update(): the
 * lock's type reference keeps the table validated, and each other type
 * reference comes with its holder's general one, which a put can't drop
 * while only the lock's would be left (page_put_type() waits), so the
 * frame stays the guest's until the unlock.  A frame no longer the
 * guest's (given back, still a table somewhere) is refused as Xen's
 * get_page_from_gfn() would (the look is racy, the lock's checks aren't).
 * Inline: every entry mmu_update changes takes it.
 */
static inline struct page_info *pv_lock_table(unsigned long mfn,
                                              enum page_type type)
{
    struct page_info *pg = mfn_to_page(mfn);

    ASSERT(!pv_holds_table_lock());
    if ( !pg || page_owner(pg) != PGO_GUEST || !page_lock(pg) )
        return NULL;
    if ( type != PGT_NONE && page_type(pg) != type )
    {
        page_unlock(pg);
        return NULL;
    }
    pv_note_table_lock(pg, true);
    return pg;
}

static inline void pv_unlock_table(struct page_info *pg)
{
    pv_note_table_lock(pg, false);
    page_unlock(pg);
}

/*
 * Replace entry @idx of page table @table_mfn (typed @level) with @val,
 * the table locked by pv_lock_table():
 * validate the new entry, write it, then release the old one.  With
 * @preserve_ad the old entry's Accessed/Dirty bits survive.
 */
int mod_entry(unsigned long table_mfn, unsigned int level, unsigned int idx,
              uint64_t val, bool preserve_ad);
/*
 * The same, written only if the entry still is @old (what the caller
 * read and decided on): MOD_ENTRY_CHANGED (no error code any check could
 * return), nothing changed, if a CPU's page walk set its Accessed or
 * Dirty bit meanwhile.  For the emulated writes of ptwr, atomic as the
 * guest's instruction would have been.
 */
#define MOD_ENTRY_CHANGED   1
int mod_entry_cmpxchg(unsigned long table_mfn, unsigned int level,
                      unsigned int idx, uint64_t old, uint64_t val);

/* The page table level a page type stands for (1-4), or 0. */
static inline unsigned int type_level(unsigned int type)
{
    if ( type == PGT_L2_XEN )
        return 2;
    return is_page_table_type(type) ? type - PGT_L1 + 1 : 0;
}

/*
 * The read-only M2P slot of a validated guest L4, VMASST_TYPE_m2p_strict's
 * way (Xen's fill_ro_mpt()/zap_ro_mpt()): without the assist an L4 gets
 * it once used as a kernel one, with it an L4 loses it once used as a
 * user one.
 */
void pv_fill_ro_mpt(unsigned long mfn);
void pv_zap_ro_mpt(unsigned long mfn);

/*
 * The guest's CR3 values: an mfn shifted, or for a 32-bit guest rotated
 * so that frames above 4 GiB fit 32 bits (xen-x86_32.h, extended-cr3).
 */
static inline unsigned long pv_pfn_to_cr3(unsigned long pfn)
{
    if ( dom.compat )
        return (uint32_t)((pfn << 12) | (pfn >> 20));
    return pfn << 12;
}

static inline unsigned long pv_cr3_to_pfn(unsigned long cr3)
{
    if ( dom.compat )
        return (uint32_t)((uint32_t)cr3 >> 12 | (uint32_t)cr3 << 20);
    return cr3 >> 12;
}

/* Roots: PGT_L4, or PGT_L3 for a 32-bit guest; CR3 for @v as it runs. */
unsigned int pv_root_type(void);
unsigned long pv_vcpu_cr3(const struct vcpu *v);
/* A 32-bit guest's vCPU: its compat L4 (before its first CR3). */
void pv_compat_vcpu_init(struct vcpu *v);
/* Slot 0 of @v's compat L4: its L3 @l3 (the caller flushes if it runs). */
void pv_compat_set_l3(struct vcpu *v, unsigned long l3);

/* Switch vCPU @v's kernel (or user) page table to L4 @mfn. */
int new_guest_cr3(struct vcpu *v, unsigned long mfn);
int new_guest_user_cr3(struct vcpu *v, unsigned long mfn);

/* The L1 entry that maps guest address @va in @v's current tables: its
 * table's mfn and index, or -XEN_EINVAL if no L1 maps it.  Safe against
 * another vCPU changing the tables meanwhile: every table it reads is a
 * guest frame, the L1 one typed L1 when looked at. */
int guest_l1_slot(struct vcpu *v, unsigned long va, unsigned long *l1_mfn,
                  unsigned int *idx);
/* The same in @v's kernel tables, whatever its mode (the LDT's). */
int guest_kern_l1_slot(struct vcpu *v, unsigned long va,
                       unsigned long *l1_mfn, unsigned int *idx);

/* For tests and debug keys: recount every reference; 0 if consistent. */
long pv_mm_audit(void);
/* mm-audit: after every Nth referencing hypercall (0: no audit). */
extern unsigned long opt_mm_audit;

/* mm-audit's: did this CPU's last mmuext_op run more than flushes? */
bool pv_mmuext_changed_refs(void);
bool pv_memory_op_changed_refs(void);

#endif /* PV_MM_H */
