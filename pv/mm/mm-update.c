/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Changing what is validated: one entry at a time (mod_entry, as Xen's
 * mod_lN_entry), the vCPU's root tables (new_guest_cr3), and finding the
 * L1 entry for a guest address (update_va_mapping's walk).
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include "arch/x86/cr.h"
#include "arch/x86/flush.h"
#include "arch/x86/layout.h"
#include "arch/x86/page.h"
#include "arch/x86/percpu.h"
#include "pv/descriptor-tables.h"
#include "pv/mm/entry-refs.h"
#include "pv/mm/m2p.h"
#include "pv/mm/mm.h"
#include "shim/console.h"
#include "shim/frame.h"
#include "shim/panic.h"

/* Flags whose change needs no reference work: the mfn and RW stay. */
#define FASTPATH_FLAGS (_PAGE_ACCESSED | _PAGE_DIRTY | _PAGE_PWT | _PAGE_PCD)

static bool is_shim_l4_slot(unsigned int i)
{
    return i >= L4_SLOT(HYPERVISOR_VIRT_START) &&
           i < L4_SLOT(HYPERVISOR_VIRT_END);
}

/* How mod_entry() writes: over what is there, keeping A/D, or exactly. */
enum commit { COMMIT_PLAIN, COMMIT_PRESERVE_AD, COMMIT_EXACT };

/*
 * Xen's update_intpte(): write @val over the entry that read @old.  With
 * COMMIT_PRESERVE_AD, the entry's Accessed and Dirty bits survive, those
 * a CPU's page walk sets between the read and the write too: a cmpxchg
 * loop, retried with what the walk left (nothing else may change an
 * entry of a validated table behind the shim's back).  COMMIT_EXACT: only
 * if the entry still is @old (Xen's paging_cmpxchg_guest_entry()), false
 * if a walk changed it.
 */
static bool update_intpte(uint64_t *slot, uint64_t old, uint64_t val,
                          enum commit how)
{
    const uint64_t ad = _PAGE_ACCESSED | _PAGE_DIRTY;

    if ( how == COMMIT_PLAIN )
    {
        ACCESS_ONCE(*slot) = val;
        return true;
    }
    for ( ;; )
    {
        uint64_t seen = old;

        if ( __atomic_compare_exchange_n(slot, &seen,
                                         how == COMMIT_EXACT ? val
                                                             : val | (old & ad),
                                         false, __ATOMIC_SEQ_CST,
                                         __ATOMIC_SEQ_CST) )
            return true;
        ASSERT(!((seen ^ old) & ~ad));
        if ( how == COMMIT_EXACT )
            return false;
        old = seen;
    }
}

#ifdef CONFIG_DEBUG
/*
 * Each CPU's locked table, for the debug build's checks (one at a time;
 * mod_entry() under it; none held where a pause may find the CPU).
 */
static struct page_info *locked_table[NR_CPUS];

bool pv_holds_table_lock(void)
{
    return locked_table[smp_processor_id()];
}

void pv_note_table_lock(struct page_info *pg, bool locked)
{
    ASSERT(locked || locked_table[smp_processor_id()] == pg);
    locked_table[smp_processor_id()] = locked ? pg : NULL;
}
#endif

static always_inline int commit_entry(unsigned long table_mfn,
                                      unsigned int level, unsigned int idx,
                                      uint64_t old, uint64_t val,
                                      enum commit how)
{
    uint64_t *slot = (uint64_t *)__va(table_mfn << PAGE_SHIFT) + idx;
    int rc;

#ifdef CONFIG_DEBUG
    ASSERT(locked_table[smp_processor_id()] == mfn_to_page(table_mfn));
#endif

    if ( level == 4 && is_shim_l4_slot(idx) )
    {
        printk(XENLOG_DEBUG "d1: L4 slot %u is the hypervisor's\n", idx);
        return -XEN_EINVAL;
    }
    /* A 32-bit guest's L3: slot 3 is fixed once validated (Xen's
     * mod_l3_entry()), and the PDPT has no slot beyond it. */
    if ( level == 3 && dom.compat && idx >= 3 )
    {
        printk(XENLOG_DEBUG "d1: PAE L3 slot %u can't change\n", idx);
        return -XEN_EINVAL;
    }
    if ( level == 2 && page_type(mfn_to_page(table_mfn)) == PGT_L2_XEN &&
         idx >= pv_m2p_compat_first_slot() )
    {
        printk(XENLOG_DEBUG "d1: L2 slot %u is the hypervisor's\n", idx);
        return -XEN_EPERM;
    }
    if ( how == COMMIT_PRESERVE_AD )
        val |= old & (_PAGE_ACCESSED | _PAGE_DIRTY);     /* as checked */

    /*
     * Same frame, same RW, both present: only the flags move, so no
     * reference changes, but the new flags must pass like any others.
     */
    if ( (old & _PAGE_PRESENT) && (val & _PAGE_PRESENT) &&
         !((old ^ val) & ~(uint64_t)FASTPATH_FLAGS) )
    {
        if ( (rc = pv_check_entry(level, &val)) )
            return rc;
        return update_intpte(slot, old, val, how) ? 0 : MOD_ENTRY_CHANGED;
    }

    /*
     * An L1's (mmu_update's, ptwr's), with its references' work inline;
     * an exact write that finds the entry changed gives back the new
     * entry's references, and the caller tries again.
     */
    if ( level == 1 )
    {
        if ( (val & _PAGE_PRESENT) && (rc = get_l1e(&val)) )
            return rc;
        if ( !update_intpte(slot, old, val, how) )
        {
            put_l1e(val, table_mfn);
            return MOD_ENTRY_CHANGED;
        }
        put_l1e(old, table_mfn);
        return 0;
    }
    if ( (rc = get_page_from_entry(level, &val, table_mfn)) )
        return rc;
    if ( !update_intpte(slot, old, val, how) )
    {
        put_page_from_unwritten_entry(level, val, table_mfn);
        return MOD_ENTRY_CHANGED;
    }
    put_page_from_entry(level, old, table_mfn);
    return 0;
}

int __hot_text mod_entry(unsigned long table_mfn, unsigned int level,
                         unsigned int idx, uint64_t val, bool preserve_ad)
{
    uint64_t *slot = (uint64_t *)__va(table_mfn << PAGE_SHIFT) + idx;

    return commit_entry(table_mfn, level, idx, ACCESS_ONCE(*slot), val,
                        preserve_ad ? COMMIT_PRESERVE_AD : COMMIT_PLAIN);
}

int mod_entry_cmpxchg(unsigned long table_mfn, unsigned int level,
                      unsigned int idx, uint64_t old, uint64_t val)
{
    return commit_entry(table_mfn, level, idx, old, val, COMMIT_EXACT);
}

/* The page-table type of a root table: L3 for a 32-bit guest. */
unsigned int pv_root_type(void)
{
    return dom.compat ? PGT_L3 : PGT_L4;
}

/* What CR3 holds while @v runs, in the mode it is in. */
unsigned long pv_vcpu_cr3(const struct vcpu *v)
{
    if ( dom.compat )
        return v->compat_l4 << PAGE_SHIFT;
    return (v->kernel_mode ? v->guest_table : v->guest_table_user)
           << PAGE_SHIFT;
}

/*
 * A 32-bit guest's vCPU: the L4 that stands for its L3 (Xen's
 * setup_compat_l4()), the shim's frame, never the guest's: only the
 * shim's slots and slot 0, which follows guest_table.
 */
void pv_compat_vcpu_init(struct vcpu *v)
{
    unsigned long mfn = frame_alloc(), slot;
    uint64_t *l4;

    if ( mfn == INVALID_PFN )
        panic("no frame for d1v%u's compat L4", v->id);
    l4 = __va(mfn << PAGE_SHIFT);
    memset(l4, 0, PAGE_SIZE);
    for ( slot = L4_SLOT(HYPERVISOR_VIRT_START);
          slot < L4_SLOT(HYPERVISOR_VIRT_END); slot++ )
        l4[slot] = shim_l4()[slot];
    v->compat_l4 = mfn;
}

/* Slot 0 of @v's compat L4 follows its L3 (U and RW: the L3 decides). */
void pv_compat_set_l3(struct vcpu *v, unsigned long l3)
{
    uint64_t *l4 = __va(v->compat_l4 << PAGE_SHIFT);

    l4[0] = l3 ? (l3 << PAGE_SHIFT) | _PAGE_PRESENT | _PAGE_RW | _PAGE_USER |
                 _PAGE_ACCESSED
               : 0;
}

/* NEW_BASEPTR: a validated L4 (L3) becomes the vCPU's kernel page table. */
int new_guest_cr3(struct vcpu *v, unsigned long mfn)
{
    unsigned long old = v->guest_table;
    int rc;

    if ( mfn == old )
    {
        pv_flush_local(0, FLUSH_TLB_GLOBAL);    /* as Xen's CR3 switch */
        return 0;
    }
    if ( (rc = get_page_and_type(mfn, pv_root_type())) )
        return rc;
    if ( dom.compat )
        pv_compat_set_l3(v, mfn);
    else if ( !(dom.vm_assist & (1UL << VMASST_TYPE_m2p_strict)) )
        pv_fill_ro_mpt(mfn);
    v->guest_table = mfn;
    /* The LDT's base names an address in the tables that go. */
    pv_ldt_unmap(v);
    /* Everything goes, global entries too, as in Xen's write_ptbase. */
    if ( v->kernel_mode || dom.compat )
        switch_cr3(pv_vcpu_cr3(v));
    /*
     * No stamp: this CPU no longer walks it (the CR3 write above, or the
     * one into user mode's table, dropped its paging-structure caches;
     * no PCIDs here), and no other CPU runs this vCPU.
     */
    if ( old )
        put_page_and_type_unlinked(old, 0);
    return 0;
}

/* NEW_USER_BASEPTR: the table user mode runs on; 0 removes it. */
int new_guest_user_cr3(struct vcpu *v, unsigned long mfn)
{
    unsigned long old = v->guest_table_user;
    int rc;

    if ( dom.compat )
        return -XEN_EINVAL;             /* one table for ring 1 and 3 */
    if ( mfn == old )
        return 0;
    if ( mfn && (rc = get_page_and_type(mfn, PGT_L4)) )
        return rc;
    if ( mfn && (dom.vm_assist & (1UL << VMASST_TYPE_m2p_strict)) )
        pv_zap_ro_mpt(mfn);
    v->guest_table_user = mfn;
    /* Loaded only in user mode: unloaded since, if in the kernel now. */
    if ( old )
        put_page_and_type_unlinked(old, v->kernel_mode ? 0 : UNLINKED_NOW);
    return 0;
}

/*
 * The builder's tables become the guest's: validate the L4 (and so, the
 * whole tree) through the same code as any pin, pin it and hold it as
 * the kernel's CR3, as Xen's builder does.  A failure here is a builder
 * bug, not the guest's.
 */
void pv_mm_adopt_initial_tables(struct vcpu *v)
{
    unsigned long mfn = v->guest_table;
    int rc;

    v->guest_table = 0;
    if ( (rc = pin_table(mfn, pv_root_type())) )
        panic("the bootstrap page tables don't validate (%d)", rc);
    if ( (rc = new_guest_cr3(v, mfn)) )
        panic("the bootstrap L%u won't be CR3 (%d)", type_level(pv_root_type()),
              rc);
    printk("Dom1: bootstrap page tables validated, L%u %#lx pinned\n",
           type_level(pv_root_type()), mfn);
}

static always_inline int l1_slot_from(unsigned long mfn, unsigned long va,
                                      unsigned long *l1_mfn,
                                      unsigned int *idx)
{
    unsigned int level;

    if ( dom.compat && (va >> 32) )
        return -XEN_EINVAL;
    for ( level = type_level(pv_root_type()); level > 1; level-- )
    {
        uint64_t e = ACCESS_ONCE(((uint64_t *)__va(mfn << PAGE_SHIFT))
                                     [(va >> (12 + 9 * (level - 1))) & 511]);

        if ( !(e & _PAGE_PRESENT) || (e & _PAGE_PSE) )
            return -XEN_EINVAL;
        mfn = (e & PADDR_MASK) >> PAGE_SHIFT;
        if ( !guest_table_frame(mfn) )
            return -XEN_EINVAL;
    }
    if ( page_type(mfn_to_page(mfn)) != PGT_L1 )
        return -XEN_EINVAL;             /* e.g. reached through linear */
    *l1_mfn = mfn;
    *idx = (va >> 12) & 511;
    return 0;
}

int __hot_text guest_l1_slot(struct vcpu *v, unsigned long va,
                             unsigned long *l1_mfn, unsigned int *idx)
{
    return l1_slot_from(v->kernel_mode || dom.compat ? v->guest_table
                                                     : v->guest_table_user,
                        va, l1_mfn, idx);
}

int guest_kern_l1_slot(struct vcpu *v, unsigned long va,
                       unsigned long *l1_mfn, unsigned int *idx)
{
    return l1_slot_from(v->guest_table, va, l1_mfn, idx);
}
