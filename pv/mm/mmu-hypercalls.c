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
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/mm/m2p.h"
#include "pv/mm/mm.h"
#include "pv/vcpu/smp.h"
#include "shim/perfc.h"

/* Our guest's own domain id, as a toolstack would number a first domU. */
#define SELF_DOMID 1

/*
 * Whose frames an MMU hypercall may touch, as Xen's get_pg_owner() and
 * XSM answer an unprivileged guest: DOMID_SELF only.  Naming itself by
 * number is -ESRCH in Xen ("cannot specify itself as foreign domain");
 * domain 0 and the special domains exist but are not ours (-EPERM).
 */
int pv_check_domid(unsigned long domid)
{
    domid &= 0xffff;
    if ( domid == DOMID_SELF )
        return 0;
    if ( domid == 0 || domid == DOMID_IO || domid == DOMID_XEN )
        return -XEN_EPERM;
    return -XEN_ESRCH;
}

/*
 * The guest's bitmap of vCPUs (UVMF_MULTI, MMUEXT_{TLB_FLUSH,INVLPG}_MULTI)
 * as Xen's vcpumask_to_pcpumask() reads it: words of the guest's
 * unsigned long, as many as max_vcpus needs, so 4 bytes from a 32-bit
 * guest with up to 32 vCPUs (and a fault past them is none).
 */
int pv_vcpu_mask(unsigned long ptr, unsigned long *mask)
{
    size_t size = dom.compat && dom.max_vcpus <= 32 ? sizeof(uint32_t)
                                                    : sizeof(*mask);

    *mask = 0;
    return copy_from_guest(mask, ptr, size);
}

/* MMU_NORMAL_PT_UPDATE and MMU_PT_UPDATE_PRESERVE_AD: *ptr = val. */
static int pt_update(unsigned long ptr, uint64_t val, bool preserve_ad)
{
    unsigned long mfn = ptr >> PAGE_SHIFT;
    struct page_info *pg = mfn_to_page(mfn);
    unsigned int idx = (ptr & (PAGE_SIZE - 1)) / 8;
    int rc = -XEN_EINVAL;

    /* A validated page table's entry, under its page lock. */
    if ( (pg = pv_lock_table(mfn, PGT_NONE)) )
    {
        rc = mod_entry(mfn, type_level(page_type(pg)), idx, val, preserve_ad);
        pv_unlock_table(pg);
        return rc;
    }

    /* Not a page table: an ordinary write, if it may be writable. */
    pg = mfn_to_page(mfn);
    if ( !pg || !page_get(pg, PGO_GUEST) )
        return -XEN_EINVAL;
    if ( page_get_type_flush(pg, PGT_WRITABLE) == PGT_OK )
    {
        ((uint64_t *)__va(mfn << PAGE_SHIFT))[idx] = val;
        page_put_type(pg);
        rc = 0;
    }
    page_put(pg);
    return rc;
}

/* MMU_MACHPHYS_UPDATE: the guest says which pfn its frame is. */
static int machphys_update(unsigned long mfn, unsigned long gpfn)
{
    struct page_info *pg = mfn_to_page(mfn);

    if ( !pg || !page_get(pg, PGO_GUEST) )
        return -XEN_EINVAL;
    pv_m2p_set(mfn, gpfn);
    page_put(pg);
    return 0;
}

long __hot_text do_mmu_update(unsigned long ureqs, unsigned long count,
                              unsigned long pdone, unsigned long foreigndom)
{
    mmu_update_t req;
    unsigned int done;
    unsigned long i;
    long rc = 0;

    /* Xen takes both as unsigned int: the upper halves don't count. */
    foreigndom = (unsigned int)foreigndom;
    done = batch_begin(&count, pdone);
    perfc_incr(calls_to_mmu_update);
    perfc_add(num_page_updates, count);
    if ( !guest_range_ok(ureqs, count * sizeof(req)) )
        return -XEN_EFAULT;
    /*
     * Low 16 bits: whose frames.  Above them, whose page tables, plus one:
     * that may name us by number (Xen lets a guest name itself there).
     * As in Xen, only the frames' owner being refused reports *pdone.
     */
    i = 0;
    if ( (foreigndom >> 16) && (foreigndom >> 16) - 1 != SELF_DOMID &&
         (rc = pv_check_domid((foreigndom >> 16) - 1)) )
        return rc;
    if ( (rc = pv_check_domid(foreigndom)) )
        goto out;

    for ( i = 0; i < count; i++ )
    {
        /*
         * Between two requests (no page lock held), interrupts in for a
         * moment: a flush another vCPU's CPU started waits for this one
         * (Xen runs hypercalls with interrupts on).
         */
        local_irq_window();
        if ( hypercall_preempt_check(i) )
        {
            rc = hypercall_create_continuation(
                __HYPERVISOR_mmu_update, ureqs + i * sizeof(req),
                (count - i) | MMU_UPDATE_PREEMPTED, pdone, foreigndom);
            break;
        }
        /* The whole array's range was checked above. */
        if ( __copy_from_guest_offset(&req, ureqs, i, sizeof(req)) )
        {
            rc = -XEN_EFAULT;
            break;
        }
        /* The command is in the bits below an entry's alignment. */
        switch ( req.ptr & 7 )
        {
        case MMU_NORMAL_PT_UPDATE:
        case MMU_PT_UPDATE_PRESERVE_AD:
        case MMU_PT_UPDATE_NO_TRANSLATE:    /* translation is HVM's only */
            rc = pt_update(req.ptr & ~7UL, req.val,
                           (req.ptr & 7) == MMU_PT_UPDATE_PRESERVE_AD);
            break;
        case MMU_MACHPHYS_UPDATE:
            rc = machphys_update(req.ptr >> PAGE_SHIFT, req.val);
            break;
        default:
            rc = -XEN_ENOSYS;
            break;
        }
        if ( rc )
            break;
    }

out:
    batch_end(pdone, done, i);
    return rc;
}

/*
 * After a change: UVMF_TLB_FLUSH or UVMF_INVLPG, on this vCPU
 * (UVMF_LOCAL), all of them (UVMF_ALL), or those in the guest's bitmap
 * at the rest of @flags (vCPU n runs on CPU n: the running ones).  As
 * Xen's __do_update_va_mapping(): flush type 3 is no flush at all, and
 * with a vCPU bitmap, reading it decides the result of an update that
 * succeeded.  Returns 1 when the result is the update's.
 */
static long uvmf_flush(unsigned long va, unsigned long flags)
{
    unsigned long where = flags & ~(unsigned long)UVMF_FLUSHTYPE_MASK;
    unsigned long type = flags & UVMF_FLUSHTYPE_MASK;
    unsigned long mask = 1UL << smp_processor_id();
    long rc = 1;

    if ( type != UVMF_TLB_FLUSH && type != UVMF_INVLPG )
        return 1;
    if ( where == UVMF_ALL )
        mask = pv_guest_cpus();
    else if ( where != UVMF_LOCAL )
    {
        rc = pv_vcpu_mask(where, &mask) ? -XEN_EFAULT : 0;
        mask = rc ? 0 : mask & pv_domain_cpumask();
    }
    pv_flush_guest(mask, type == UVMF_INVLPG ? va : 0,
                   type == UVMF_INVLPG ? FLUSH_VA : FLUSH_TLB_GLOBAL);
    return rc;
}

long __hot_text do_update_va_mapping(unsigned long va, unsigned long val,
                                     unsigned long flags)
{
    struct vcpu *v = current_vcpu();
    struct page_info *pg;
    unsigned long l1;
    unsigned int idx;
    long rc, frc;

    perfc_incr(calls_to_update_va);
    if ( !guest_range_ok(va, 1) )
        return -XEN_EINVAL;
    /*
     * The walk reads tables other vCPUs may be changing, as Xen's
     * map_guest_l1e(): what it finds is checked under the L1's lock.
     */
    rc = guest_l1_slot(v, va, &l1, &idx);
    if ( !rc )
    {
        rc = -XEN_EINVAL;
        if ( (pg = pv_lock_table(l1, PGT_L1)) )
        {
            rc = mod_entry(l1, 1, idx, val, false);
            pv_unlock_table(pg);
        }
    }
    /*
     * As Xen since XSA-279: an update that failed changed nothing, so
     * there is nothing to flush, and its error is the result (a vCPU
     * bitmap isn't even read).
     */
    if ( rc )
        return rc;
    frc = uvmf_flush(va, flags);
    return frc == 1 ? rc : frc;
}

long do_update_va_mapping_otherdomain(unsigned long va, unsigned long val,
                                      unsigned long flags,
                                      unsigned long domid)
{
    long rc = pv_check_domid(domid);

    return rc ? rc : do_update_va_mapping(va, val, flags);
}
