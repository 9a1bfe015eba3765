/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmu_update, update_va_mapping and update_va_mapping_otherdomain, as
 * Xen's do_mmu_update / do_update_va_mapping: every change to a page
 * table goes through mod_entry's validation.  Long batches continue
 * themselves (MMU_UPDATE_PREEMPTED in the count, the running total in
 * *pdone), with the same results as one uninterrupted run.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include "arch/x86/flush.h"
#include "arch/x86/layout.h"
#include "arch/x86/page.h"
#include "pv/build.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/mm.h"

/* Our guest's own domain id, as a toolstack would number a first domU. */
#define SELF_DOMID 1

/* DOMID_SELF or our own id; the privileged ones aren't for us. */
int pv_check_domid(unsigned long domid)
{
    if ( domid == DOMID_SELF || domid == SELF_DOMID )
        return 0;
    if ( domid == DOMID_IO || domid == DOMID_XEN )
        return -XEN_EPERM;
    return -XEN_ESRCH;
}

/* MMU_NORMAL_PT_UPDATE and MMU_PT_UPDATE_PRESERVE_AD: *ptr = val. */
static int pt_update(unsigned long ptr, uint64_t val, bool preserve_ad)
{
    unsigned long mfn = ptr >> PAGE_SHIFT;
    struct page_info *pg = mfn_to_page(mfn);
    unsigned int idx = (ptr & (PAGE_SIZE - 1)) / 8;

    if ( (ptr & 7) || !pg || pg->owner != PGO_GUEST )
        return -XEN_EINVAL;
    if ( is_page_table_type(pg->type) )
        return mod_entry(mfn, type_level(pg->type), idx, val, preserve_ad);

    /* Not a page table: an ordinary write, if it may be writable. */
    if ( page_get_type(pg, PGT_WRITABLE) != PGT_OK )
        return -XEN_EINVAL;
    ((uint64_t *)__va(mfn << PAGE_SHIFT))[idx] = val;
    page_put_type(pg);
    return 0;
}

/* MMU_MACHPHYS_UPDATE: the guest says which pfn its frame is. */
static int machphys_update(unsigned long mfn, unsigned long gpfn)
{
    struct page_info *pg = mfn_to_page(mfn);

    if ( !pg || pg->owner != PGO_GUEST )
        return -XEN_EINVAL;
    pv_m2p_set(mfn, gpfn);
    return 0;
}

long do_mmu_update(unsigned long ureqs, unsigned long count,
                   unsigned long pdone, unsigned long foreigndom)
{
    mmu_update_t req;
    unsigned int done = 0;
    unsigned long i;
    long rc = 0;

    if ( count & MMU_UPDATE_PREEMPTED )
    {
        count &= ~MMU_UPDATE_PREEMPTED;
        if ( pdone )
            (void)copy_from_guest(&done, pdone, sizeof(done));
    }
    /* Low 16 bits: whose frames; above them: whose page tables (+1). */
    if ( (rc = pv_check_domid(foreigndom & 0xffff)) ||
         ((foreigndom >> 16) &&
          (rc = pv_check_domid((foreigndom >> 16) - 1))) )
        return rc;

    for ( i = 0; i < count; i++ )
    {
        if ( hypercall_preempt_check(i) )
        {
            rc = hypercall_create_continuation(
                __HYPERVISOR_mmu_update, ureqs + i * sizeof(req),
                (count - i) | MMU_UPDATE_PREEMPTED, pdone, foreigndom);
            break;
        }
        if ( copy_from_guest_offset(&req, ureqs, i, sizeof(req)) )
        {
            rc = -XEN_EFAULT;
            break;
        }
        switch ( req.ptr & 3 )
        {
        case MMU_NORMAL_PT_UPDATE:
        case MMU_PT_UPDATE_PRESERVE_AD:
        case MMU_PT_UPDATE_NO_TRANSLATE:    /* translation is HVM's only */
            rc = pt_update(req.ptr & ~3UL, req.val,
                           (req.ptr & 3) == MMU_PT_UPDATE_PRESERVE_AD);
            break;
        case MMU_MACHPHYS_UPDATE:
            rc = machphys_update(req.ptr >> PAGE_SHIFT, req.val);
            break;
        }
        if ( rc )
            break;
    }

    if ( pdone )
    {
        done += i;
        (void)copy_to_guest(pdone, &done, sizeof(done));
    }
    return rc;
}

/*
 * After a change: UVMF_TLB_FLUSH or UVMF_INVLPG, on this vCPU
 * (UVMF_LOCAL), all of them (UVMF_ALL), or those in the guest's bitmap
 * at the rest of @flags.  One vCPU for now: any set means us.
 */
static long uvmf_flush(unsigned long va, unsigned long flags)
{
    unsigned long where = flags & ~(unsigned long)UVMF_FLUSHTYPE_MASK;
    unsigned long mask = 1;

    switch ( flags & UVMF_FLUSHTYPE_MASK )
    {
    case UVMF_NONE:
        return 0;
    case UVMF_TLB_FLUSH:
    case UVMF_INVLPG:
        break;
    default:
        return -XEN_EINVAL;
    }
    if ( where != UVMF_LOCAL && where != UVMF_ALL &&
         copy_from_guest(&mask, where, sizeof(mask)) )
        return -XEN_EFAULT;
    if ( !(mask & 1) )
        return 0;
    if ( (flags & UVMF_FLUSHTYPE_MASK) == UVMF_INVLPG )
        pv_flush_local(va, FLUSH_VA);
    else
        pv_flush_local(0, FLUSH_TLB_GLOBAL);
    return 0;
}

long do_update_va_mapping(unsigned long va, unsigned long val,
                          unsigned long flags)
{
    struct vcpu *v = current_vcpu();
    unsigned long l1;
    unsigned int idx;
    long rc, frc;

    if ( !guest_range_ok(va, 1) )
        return -XEN_EINVAL;
    rc = guest_l1_slot(v, va, &l1, &idx);
    if ( !rc )
        rc = mod_entry(l1, 1, idx, val, false);
    /* As Xen: the flush happens whatever the update's result. */
    frc = uvmf_flush(va, flags);
    return rc ? rc : frc;
}

long do_update_va_mapping_otherdomain(unsigned long va, unsigned long val,
                                      unsigned long flags,
                                      unsigned long domid)
{
    long rc = pv_check_domid(domid);

    return rc ? rc : do_update_va_mapping(va, val, flags);
}
