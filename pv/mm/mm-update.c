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
#include "pv/mm/mm.h"
#include "shim/console.h"
#include "shim/panic.h"

/* Flags whose change needs no reference work: the mfn and RW stay. */
#define FASTPATH_FLAGS (_PAGE_ACCESSED | _PAGE_DIRTY | _PAGE_PWT | _PAGE_PCD)

static bool is_shim_l4_slot(unsigned int i)
{
    return i >= L4_SLOT(HYPERVISOR_VIRT_START) &&
           i < L4_SLOT(HYPERVISOR_VIRT_END);
}

int mod_entry(unsigned long table_mfn, unsigned int level, unsigned int idx,
              uint64_t val, bool preserve_ad)
{
    uint64_t *slot = (uint64_t *)__va(table_mfn << PAGE_SHIFT) + idx;
    uint64_t old = *slot;
    int rc;

    if ( level == 4 && is_shim_l4_slot(idx) )
    {
        printk(XENLOG_DEBUG "d1: L4 slot %u is the hypervisor's\n", idx);
        return -XEN_EINVAL;
    }
    if ( preserve_ad )
        val |= old & (_PAGE_ACCESSED | _PAGE_DIRTY);

    /*
     * Same frame, same RW, both present: only the flags move, so no
     * reference changes, but the new flags must pass like any others.
     */
    if ( (old & _PAGE_PRESENT) && (val & _PAGE_PRESENT) &&
         !((old ^ val) & ~(uint64_t)FASTPATH_FLAGS) )
    {
        if ( (rc = pv_check_entry(level, &val)) )
            return rc;
        *slot = val;
        return 0;
    }

    if ( (rc = get_page_from_entry(level, &val, table_mfn)) )
        return rc;
    *slot = val;
    put_page_from_entry(level, old, table_mfn);
    return 0;
}

/* NEW_BASEPTR: a validated L4 becomes the vCPU's kernel page table. */
int new_guest_cr3(struct vcpu *v, unsigned long mfn)
{
    unsigned long old = v->guest_table;
    int rc;

    if ( mfn == old )
    {
        pv_flush_local(0, FLUSH_TLB_GLOBAL);    /* as Xen's CR3 switch */
        return 0;
    }
    if ( (rc = get_page_and_type(mfn, PGT_L4)) )
        return rc;
    if ( !(dom.vm_assist & (1UL << VMASST_TYPE_m2p_strict)) )
        pv_fill_ro_mpt(mfn);
    v->guest_table = mfn;
    if ( v->kernel_mode )
    {
        /* Everything goes, global entries too, as in Xen's write_ptbase. */
        switch_cr3(mfn << PAGE_SHIFT);
        pv_note_flush(1UL << smp_processor_id(), FLUSH_TLB_GLOBAL);
    }
    if ( old )
        put_page_and_type(old);
    return 0;
}

/* NEW_USER_BASEPTR: the table user mode runs on; 0 removes it. */
int new_guest_user_cr3(struct vcpu *v, unsigned long mfn)
{
    unsigned long old = v->guest_table_user;
    int rc;

    if ( mfn == old )
        return 0;
    if ( mfn && (rc = get_page_and_type(mfn, PGT_L4)) )
        return rc;
    if ( mfn && (dom.vm_assist & (1UL << VMASST_TYPE_m2p_strict)) )
        pv_zap_ro_mpt(mfn);
    v->guest_table_user = mfn;
    if ( old )
        put_page_and_type(old);
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
    if ( (rc = pin_table(mfn, PGT_L4)) )
        panic("the bootstrap page tables don't validate (%d)", rc);
    if ( (rc = new_guest_cr3(v, mfn)) )
        panic("the bootstrap L4 won't be CR3 (%d)", rc);
    printk("Dom1: bootstrap page tables validated, L4 %#lx pinned\n", mfn);
}

int guest_l1_slot(struct vcpu *v, unsigned long va, unsigned long *l1_mfn,
                  unsigned int *idx)
{
    unsigned long mfn = v->kernel_mode ? v->guest_table : v->guest_table_user;
    unsigned int level;

    for ( level = 4; level > 1; level-- )
    {
        uint64_t e = ((uint64_t *)__va(mfn << PAGE_SHIFT))
                         [(va >> (12 + 9 * (level - 1))) & 511];

        if ( !(e & _PAGE_PRESENT) || (e & _PAGE_PSE) )
            return -XEN_EINVAL;
        mfn = (e & PADDR_MASK) >> PAGE_SHIFT;
    }
    if ( mfn_to_page(mfn)->type != PGT_L1 )
        return -XEN_EINVAL;             /* e.g. reached through linear */
    *l1_mfn = mfn;
    *idx = (va >> 12) & 511;
    return 0;
}
