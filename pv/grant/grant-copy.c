/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * GNTTABOP_copy: copy between grant references and (for DOMID_SELF)
 * frames, each op with its own status, as Xen's gnttab_copy():
 * acquire_grant_for_copy() pins a grant for the copy's duration.  The
 * guest's grants are the only ones: domain 0's table grants nothing, and
 * a v2 transitive grant can only lead back to the guest (refused as
 * self-referential) or to domain 0.
 */
#include "pv/grant/private.h"
#include "pv/compat/layout.h"
#include "pv/compat/xlat.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/mm/mm.h"

struct copy_buf {
    unsigned long mfn;
    uint16_t start, len;                /* what the grant allows */
    bool readonly, have_grant, have_type;
    grant_ref_t ref;
};

/* Domain 0's table (v1, one frame, nothing granted). */
static int dom0_grant(grant_ref_t ref)
{
    return ref >= GNT_DOM0_ENTRIES ? GNTST_bad_gntref : GNTST_general_error;
}

/* Which frame and range a transitive v2 grant leads to: never any here. */
static int acquire_transitive(grant_entry_v2_t *sha2)
{
    domid_t trans_domid = ACCESS_ONCE(sha2->transitive.trans_domid);
    grant_ref_t trans_gref = ACCESS_ONCE(sha2->transitive.gref);

    if ( trans_domid == GNT_GUEST_DOMID )
        return GNTST_general_error;     /* self-referential */
    if ( trans_domid != 0 )
        return GNTST_general_error;     /* no such domain */
    return dom0_grant(trans_gref);
}

/* With the table read-locked and the entry locked (the caller's). */
static int acquire_locked(struct grant_table *t, grant_ref_t ref, bool ro,
                          struct active_grant_entry *act, struct copy_buf *b)
{
    grant_entry_v2_t *sha2;
    uint16_t *status;
    uint32_t old_pin;
    unsigned long gfn;
    bool sub_page;
    int rc;

    status = grant_status_word(t, ref);
    sha2 = t->version == 2 ? shared_entry_v2(t, ref) : NULL;
    if ( act->pin && (act->domid != GNT_GUEST_DOMID ||
                      (act->pin & GNTPIN_overflow)) )
        return GNTST_general_error;
    old_pin = act->pin;

    if ( sha2 && (sha2->hdr.flags & GTF_type_mask) == GTF_transitive )
    {
        if ( (!old_pin || (!ro && !(old_pin & (GNTPIN_devw_mask |
                                               GNTPIN_hstw_mask)))) &&
             (rc = gnt_set_status(t, ref, act, ro, false, GNT_GUEST_DOMID)) )
            return rc;
        rc = acquire_transitive(sha2);
        gnt_unpin_clear(status, act, ro);
        return rc;
    }
    if ( !old_pin || (!ro && !(old_pin & (GNTPIN_devw_mask |
                                          GNTPIN_hstw_mask))) )
    {
        if ( (rc = gnt_set_status(t, ref, act, ro, false, GNT_GUEST_DOMID)) )
            return rc;
        b->start = 0;
        b->len = PAGE_SIZE;
        /* Read once: the guest may flip it (what follows must agree). */
        sub_page = sha2 && (ACCESS_ONCE(sha2->hdr.flags) & GTF_sub_page);
        if ( !sha2 )
            gfn = shared_entry_v1(t, ref)->frame;
        else if ( !sub_page )
            gfn = sha2->full_page.frame;
        else
        {
            gfn = sha2->sub_page.frame;
            b->start = sha2->sub_page.page_off;
            b->len = sha2->sub_page.length;
        }
        if ( (rc = gnt_get_paged_frame(gfn, &b->mfn)) )
        {
            gnt_unpin_clear(status, act, ro);
            return rc;
        }
        /*
         * A write copy into a grant already pinned (read-only) copies
         * into the frame pinned, act->mfn: the reference and the
         * writable type must be that frame's, so an entry that names
         * another frame now is refused (Xen's XSA-500 fix).  Otherwise
         * a page table mapped read-only through the grant would be
         * written while the type was taken on the other frame.
         */
        if ( act->pin && b->mfn != act->mfn )
        {
            printk(XENLOG_DEBUG "d1: grant %#x copy: pinned mfn %#lx, "
                   "entry now names %#lx\n", ref, act->mfn, b->mfn);
            page_put(mfn_to_page(b->mfn));
            b->mfn = INVALID_PFN;
            gnt_unpin_clear(status, act, ro);
            return GNTST_general_error;
        }
        if ( !act->pin )
        {
            act->domid = GNT_GUEST_DOMID;
            act->is_sub_page = sub_page;
            act->start = b->start;
            act->length = b->len;
            act->mfn = b->mfn;
        }
    }
    else if ( !page_get(mfn_to_page(act->mfn), PGO_GUEST) )
    {
        gnt_unpin_clear(status, act, ro);
        return GNTST_bad_domain;
    }
    act->pin += ro ? GNTPIN_hstr_inc : GNTPIN_hstw_inc;
    b->start = act->start;
    b->len = act->length;
    b->mfn = act->mfn;
    return GNTST_okay;
}

/*
 * Xen's acquire_grant_for_copy(): pin grant @ref for the copy, under the
 * table's read lock and the entry's lock; the copy itself runs with
 * neither, the pin and the frame's reference keeping the frame.
 */
static int acquire_grant_for_copy(grant_ref_t ref, bool ro,
                                  struct copy_buf *b)
{
    struct grant_table *t = gt();
    struct active_grant_entry *act;
    int rc = GNTST_bad_gntref;

    grant_read_lock(t);
    if ( ref < nr_grant_entries(t) )
    {
        act = active_entry_acquire(t, ref);
        rc = acquire_locked(t, ref, ro, act, b);
        active_entry_release(act);
    }
    grant_read_unlock(t);
    return rc;
}

/*
 * As Xen's gnttab_copy_release_buf(): the frame's type and reference
 * first, then the pin, so that once the guest sees the grant unused the
 * frame is free to become anything (a page table, say) at once.
 */
static void release_buf(struct copy_buf *b)
{
    struct page_info *pg = mfn_to_page(b->mfn);

    if ( b->have_type )
        page_put_type(pg);
    if ( b->mfn != INVALID_PFN )
        page_put(pg);
    if ( b->have_grant )
        gnt_unpin_map(b->ref, b->readonly,
                      b->readonly ? GNTPIN_hstr_inc : GNTPIN_hstw_inc);
}

static int claim_buf(const struct gnttab_copy *op,
                     const struct gnttab_copy_ptr *ptr, struct copy_buf *b,
                     unsigned int gref_flag)
{
    int rc;

    b->readonly = gref_flag == GNTCOPY_source_gref;
    if ( op->flags & gref_flag )
    {
        if ( ptr->domid != DOMID_SELF &&
             gnt_domain(ptr->domid, true) == GNT_DOM_ZERO )
            return dom0_grant(ptr->u.ref);
        rc = acquire_grant_for_copy(ptr->u.ref, b->readonly, b);
        if ( rc )
            return rc;
        b->ref = ptr->u.ref;
        b->have_grant = true;
    }
    else
    {
        if ( (rc = gnt_get_paged_frame(ptr->u.gmfn, &b->mfn)) )
            return rc;
        b->start = 0;
        b->len = PAGE_SIZE;
    }
    if ( !b->readonly )
    {
        if ( page_get_type_flush(mfn_to_page(b->mfn), PGT_WRITABLE) !=
             PGT_OK )
            return GNTST_general_error;
        b->have_type = true;
    }
    return GNTST_okay;
}

/* Xen's gnttab_copy_lock_domain(): frames only for DOMID_SELF. */
static int check_domain(domid_t domid, bool is_gref)
{
    if ( domid != DOMID_SELF && !is_gref )
        return GNTST_permission_denied;
    return gnt_domain(domid, true) == GNT_DOM_NONE ? GNTST_bad_domain
                                                   : GNTST_okay;
}

static bool in_grant(uint16_t off, uint16_t len, const struct copy_buf *b)
{
    return off >= b->start && off + len <= b->start + b->len;
}

static int copy_one(const struct gnttab_copy *op)
{
    struct copy_buf src = { .mfn = INVALID_PFN },
                    dest = { .mfn = INVALID_PFN };
    int rc;

    if ( (rc = check_domain(op->source.domid,
                            op->flags & GNTCOPY_source_gref)) ||
         (rc = check_domain(op->dest.domid, op->flags & GNTCOPY_dest_gref)) )
        return rc;
    if ( (rc = claim_buf(op, &op->source, &src, GNTCOPY_source_gref)) ||
         (rc = claim_buf(op, &op->dest, &dest, GNTCOPY_dest_gref)) )
        goto out;
    if ( op->source.offset + op->len > PAGE_SIZE ||
         op->dest.offset + op->len > PAGE_SIZE )
        rc = GNTST_bad_copy_arg;
    else if ( !in_grant(op->source.offset, op->len, &src) ||
              !in_grant(op->dest.offset, op->len, &dest) )
        rc = GNTST_general_error;
    else
        memmove((char *)__va(dest.mfn << PAGE_SHIFT) + op->dest.offset,
                (char *)__va(src.mfn << PAGE_SHIFT) + op->source.offset,
                op->len);
 out:
    release_buf(&dest);
    release_buf(&src);
    return rc;
}

/*
 * Returns count - i when preempted, as Xen's (never 0 for "continue").
 * A 32-bit guest's ops are its own layout (a gmfn is 32 bits there);
 * only status goes back, as for a 64-bit guest.
 */
static always_inline long copy_batch(unsigned long uop, unsigned int count,
                                     bool compat)
{
    const size_t size = compat ? COMPAT_SIZEOF(gnttab_copy)
                               : sizeof(struct gnttab_copy);
    const size_t status = compat ? COMPAT_OFFSET(gnttab_copy, status)
                                 : offsetof(struct gnttab_copy, status);
    uint8_t c[COMPAT_SIZEOF(gnttab_copy)];
    struct gnttab_copy op;
    unsigned int i;

    BUILD_BUG_ON(COMPAT_MSIZE(gnttab_copy, status) != sizeof(op.status));
    for ( i = 0; i < count; i++ )
    {
        if ( i && hypercall_preempt_check(i) )
            return count - i;
        if ( compat ? copy_from_guest_offset(c, uop, i, size)
                    : copy_from_guest_offset(&op, uop, i, size) )
            return -XEN_EFAULT;
        if ( compat )
            xlat_gnttab_copy_from_compat(&op, c);
        op.status = copy_one(&op);
        if ( copy_to_guest(uop + i * size + status, &op.status,
                           sizeof(op.status)) )
            return -XEN_EFAULT;
    }
    return 0;
}

long gnttab_copy(unsigned long uop, unsigned int count)
{
    return copy_batch(uop, count, false);
}

long compat_gnttab_copy(unsigned long uop, unsigned int count)
{
    return copy_batch(uop, count, true);
}
