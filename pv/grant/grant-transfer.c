/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * GNTTABOP_transfer, which Xen still implements for PV guests: the guest
 * gives up one of its frames (steal_page(): only a frame nothing else
 * references) to a domain whose grant entry accepts it.  Here the only
 * domain that can accept is the guest itself (Xen allows that); domain 0
 * accepts nothing, and a frame stolen for a failed transfer is lost to
 * the guest, as in Xen, where it is freed.
 */
#include "pv/grant/private.h"
#include "pv/compat/layout.h"
#include "pv/compat/xlat.h"
#include "arch/x86/flush.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/mm/m2p.h"
#include "pv/mm/mm.h"
#include "shim/frame.h"

union transfer_combo {
    uint32_t raw;
    struct {
        uint16_t flags;
        domid_t domid;
    };
};

/* Xen's steal_page(): the guest's, referenced only by its allocation. */
static int steal_page(unsigned long mfn)
{
    struct page_info *pg = mfn_to_page(mfn);

    if ( page_type_count(pg) || mfn == dom.shared_info_mfn )
        return -XEN_EINVAL;
    spin_lock(&dom.page_alloc_lock);
    if ( !page_release(pg, PGO_GUEST) )
    {
        spin_unlock(&dom.page_alloc_lock);
        return -XEN_EINVAL;
    }
    dom.tot_pages--;
    spin_unlock(&dom.page_alloc_lock);
    pv_flush_domain(0, FLUSH_TLB_GLOBAL);
    return 0;
}

/* Xen's gnttab_prepare_for_transfer() on the guest's own table. */
static bool prepare_for_transfer(grant_ref_t ref)
{
    struct grant_table *t = gt();
    union transfer_combo scombo, prev, new;
    unsigned int retries = 0;
    uint32_t *raw;

    raw = (uint32_t *)shared_entry_header(t, ref);
    scombo.raw = ACCESS_ONCE(*raw);
    for ( ; ; )
    {
        if ( scombo.flags != GTF_accept_transfer ||
             scombo.domid != GNT_GUEST_DOMID )
            return false;
        new = scombo;
        new.flags |= GTF_transfer_committed;
        prev.raw = __sync_val_compare_and_swap(raw, scombo.raw, new.raw);
        if ( prev.raw == scombo.raw )
            return true;
        if ( retries++ == 4 )
            return false;
        scombo = prev;
    }
}

/* The entry now names the frame, at the pfn it asked for. */
static void complete_transfer(grant_ref_t ref, unsigned long mfn)
{
    struct grant_table *t = gt();

    if ( t->version == 1 )
    {
        grant_entry_v1_t *e = shared_entry_v1(t, ref);

        pv_m2p_set(mfn, e->frame);
        e->frame = mfn;
    }
    else
    {
        grant_entry_v2_t *e = shared_entry_v2(t, ref);

        pv_m2p_set(mfn, e->full_page.frame);
        e->full_page.frame = mfn;
    }
    __atomic_fetch_or(&shared_entry_header(t, ref)->flags,
                      (uint16_t)GTF_transfer_completed, __ATOMIC_SEQ_CST);
}

/*
 * The frame comes back to the guest at the pfn entry @ref asked for, if
 * the entry accepts it and the guest has room for it (a vCPU may have
 * taken the stolen frame's place meanwhile), as Xen's gnttab_transfer()
 * does it: under the entry's lock, committing and assigning under
 * page_alloc_lock.
 */
static bool transfer_to(grant_ref_t ref, unsigned long mfn)
{
    struct grant_table *t = gt();
    struct active_grant_entry *act;
    bool ok = false;

    grant_read_lock(t);
    if ( ref >= nr_grant_entries(t) )
        goto unlock;
    act = active_entry_acquire(t, ref);
    spin_lock(&dom.page_alloc_lock);
    ok = dom.tot_pages < dom.max_pages && prepare_for_transfer(ref) &&
         pv_mm_assign_frames_locked(mfn, 1);
    spin_unlock(&dom.page_alloc_lock);
    if ( ok )
        complete_transfer(ref, mfn);
    active_entry_release(act);
 unlock:
    grant_read_unlock(t);
    return ok;
}

static int16_t transfer_one(const struct gnttab_transfer *gop)
{
    unsigned long mfn = gop->mfn;
    enum gnt_dom e;

    if ( !mfn_to_page(mfn) || page_owner(mfn_to_page(mfn)) == PGO_IO )
        return GNTST_bad_page;
    if ( steal_page(mfn) )
        return GNTST_bad_page;
    e = gnt_domain(gop->domid, false);
    if ( e == GNT_DOM_SELF && transfer_to(gop->ref, mfn) )
        return GNTST_okay;
    /* Freed, as Xen frees the stolen page when the transfer fails. */
    printk(XENLOG_DEBUG "d1: transfer of mfn %#lx to d%u failed: frame "
           "freed\n", mfn, gop->domid);
    pv_m2p_set(mfn, ~0UL);
    frames_free(mfn, 1);
    return e == GNT_DOM_NONE ? GNTST_bad_domain : GNTST_general_error;
}

/* A 32-bit guest's ops are its own layout: a 32-bit mfn. */
static always_inline long transfer_batch(unsigned long uop,
                                         unsigned int count, bool compat)
{
    const size_t size = compat ? COMPAT_SIZEOF(gnttab_transfer)
                               : sizeof(struct gnttab_transfer);
    const size_t status = compat ? COMPAT_OFFSET(gnttab_transfer, status)
                                 : offsetof(struct gnttab_transfer, status);
    uint8_t c[COMPAT_SIZEOF(gnttab_transfer)];
    struct gnttab_transfer gop;
    unsigned int i;

    BUILD_BUG_ON(COMPAT_MSIZE(gnttab_transfer, status) !=
                 sizeof(gop.status));
    for ( i = 0; i < count; i++ )
    {
        if ( i && hypercall_preempt_check(i) )
            return i;
        if ( compat ? copy_from_guest_offset(c, uop, i, size)
                    : copy_from_guest_offset(&gop, uop, i, size) )
            return -XEN_EFAULT;
        if ( compat )
            xlat_gnttab_transfer_from_compat(&gop, c);
        gop.status = transfer_one(&gop);
        if ( copy_to_guest(uop + i * size + status, &gop.status,
                           sizeof(gop.status)) )
            return -XEN_EFAULT;
    }
    return 0;
}

long gnttab_transfer(unsigned long uop, unsigned int count)
{
    return transfer_batch(uop, count, false);
}

long compat_gnttab_transfer(unsigned long uop, unsigned int count)
{
    return transfer_batch(uop, count, true);
}
