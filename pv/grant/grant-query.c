/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The sub-ops that hand out the table's frames or sizes: setup_table
 * (growing the table), query_size, get_status_frames and get_version,
 * for the guest only (Xen's XSM_TARGET: domain 0's are refused).  A
 * 32-bit guest's setup_table and get_status_frames are its own layout.
 */
#include "pv/grant/private.h"
#include "pv/guest-access.h"
#include "pv/compat/handle.h"
#include "pv/compat/xlat.h"

/* Xen's XSM_TARGET sub-ops: the guest may ask about itself only. */
static int16_t target_status(domid_t id)
{
    switch ( gnt_domain(id, true) )
    {
    case GNT_DOM_SELF:
        return GNTST_okay;
    case GNT_DOM_ZERO:
        return GNTST_permission_denied;
    default:
        return GNTST_bad_domain;
    }
}

/*
 * A 32-bit guest's frame list has 4-byte elements.  Xen's
 * compat_grant_table_op() runs no op at all for a count of 0 (it loops
 * over count), and writes the frames out after the fact, ignoring a
 * failure: the list's range is all it checks.
 */
static always_inline long setup_table(unsigned long uop, unsigned int count,
                                      bool compat)
{
    const size_t fsize = XEN_PFN_SIZE(compat);
    const size_t status = compat ? COMPAT_OFFSET(gnttab_setup_table, status)
                                 : offsetof(struct gnttab_setup_table, status);
    uint8_t c[COMPAT_SIZEOF(gnttab_setup_table)];
    struct gnttab_setup_table op;
    struct grant_table *t = gt();
    unsigned int i;

    if ( compat && !count )
        return 0;
    if ( count != 1 )
        return -XEN_EINVAL;
    if ( compat )
    {
        if ( copy_from_guest(c, uop, sizeof(c)) )
            return -XEN_EFAULT;
        xlat_gnttab_setup_table_from_compat(&op, c);
    }
    else if ( copy_from_guest(&op, uop, sizeof(op)) )
        return -XEN_EFAULT;
    if ( compat ? !compat_handle_okay((unsigned long)op.frame_list.p,
                                      op.nr_frames, fsize)
                : !gnt_handle_okay((unsigned long)op.frame_list.p,
                                   op.nr_frames, fsize) )
        return -XEN_EFAULT;

    op.status = target_status(op.dom);
    if ( op.status != GNTST_okay )
        goto out;
    if ( op.nr_frames > GNTTAB_MAX_FRAMES )
    {
        printk(XENLOG_DEBUG "d1 is limited to %u grant-table frames\n",
               GNTTAB_MAX_FRAMES);
        op.status = GNTST_general_error;
        goto out;
    }
    /* As Xen's: the frames grow and go out under the lock for writing. */
    grant_write_lock(t);
    if ( (op.nr_frames > t->nr_frames ||
          (t->version > 1 &&
           grant_to_status_frames(op.nr_frames) > t->nr_status_frames)) &&
         gnttab_grow_table(op.nr_frames) )
        op.status = GNTST_general_error;
    else
        for ( i = 0; i < op.nr_frames; i++ )
            if ( copy_elem_to_guest((unsigned long)op.frame_list.p, i,
                                    va_to_mfn(t->shared[i]), fsize) &&
                 !compat )
                op.status = GNTST_bad_virt_addr;
    grant_write_unlock(t);

 out:
    BUILD_BUG_ON(COMPAT_MSIZE(gnttab_setup_table, status) !=
                 sizeof(op.status));
    if ( copy_to_guest(uop + status, &op.status, sizeof(op.status)) )
        return -XEN_EFAULT;
    return 0;
}

long gnttab_setup_table(unsigned long uop, unsigned int count)
{
    return setup_table(uop, count, false);
}

long compat_gnttab_setup_table(unsigned long uop, unsigned int count)
{
    return setup_table(uop, count, true);
}

long gnttab_query_size(unsigned long uop, unsigned int count)
{
    struct gnttab_query_size op;

    if ( count != 1 )
        return -XEN_EINVAL;
    if ( copy_from_guest(&op, uop, sizeof(op)) )
        return -XEN_EFAULT;
    op.status = target_status(op.dom);
    if ( op.status == GNTST_okay )
    {
        grant_read_lock(gt());
        op.nr_frames = gt()->nr_frames;
        grant_read_unlock(gt());
        op.max_nr_frames = GNTTAB_MAX_FRAMES;
    }
    if ( copy_to_guest(uop, &op, sizeof(op)) )
        return -XEN_EFAULT;
    return 0;
}

/*
 * A 32-bit guest's structure differs (its frame_list handle), not the
 * list's uint64_t elements.  As for setup_table, Xen's compat path runs
 * nothing for a count of 0, checks the list's range up front and ignores
 * a failure to write it.
 */
static always_inline long get_status_frames(unsigned long uop,
                                            unsigned int count, bool compat)
{
    const size_t status =
        compat ? COMPAT_OFFSET(gnttab_get_status_frames, status)
               : offsetof(gnttab_get_status_frames_t, status);
    uint8_t c[COMPAT_SIZEOF(gnttab_get_status_frames)];
    gnttab_get_status_frames_t op;
    struct grant_table *t = gt();
    uint64_t gmfn;
    unsigned int i;

    if ( compat && !count )
        return 0;
    if ( count != 1 )
        return -XEN_EINVAL;
    if ( compat )
    {
        if ( copy_from_guest(c, uop, sizeof(c)) )
            return -XEN_EFAULT;
        xlat_gnttab_get_status_frames_from_compat(&op, c);
        if ( !compat_handle_okay((unsigned long)op.frame_list.p,
                                 op.nr_frames, sizeof(gmfn)) )
            return -XEN_EFAULT;
    }
    else if ( copy_from_guest(&op, uop, sizeof(op)) )
        return -XEN_EFAULT;
    op.status = target_status(op.dom);
    if ( op.status != GNTST_okay )
        goto out;
    grant_read_lock(t);
    if ( op.nr_frames > t->nr_status_frames )
    {
        printk(XENLOG_DEBUG "d1 asked for %u grant status frames of %u\n",
               op.nr_frames, t->nr_status_frames);
        op.status = GNTST_general_error;
    }
    else
        for ( i = 0; i < op.nr_frames; i++ )
        {
            gmfn = va_to_mfn(t->status[i]);
            if ( copy_to_guest_offset((unsigned long)op.frame_list.p, i,
                                      &gmfn, sizeof(gmfn)) && !compat )
                op.status = GNTST_bad_virt_addr;
        }
    grant_read_unlock(t);

 out:
    BUILD_BUG_ON(COMPAT_MSIZE(gnttab_get_status_frames, status) !=
                 sizeof(op.status));
    if ( copy_to_guest(uop + status, &op.status, sizeof(op.status)) )
        return -XEN_EFAULT;
    return 0;
}

long gnttab_get_status_frames(unsigned long uop, unsigned int count)
{
    return get_status_frames(uop, count, false);
}

long compat_gnttab_get_status_frames(unsigned long uop, unsigned int count)
{
    return get_status_frames(uop, count, true);
}

long gnttab_get_version(unsigned long uop)
{
    gnttab_get_version_t op;

    if ( copy_from_guest(&op, uop, sizeof(op)) )
        return -XEN_EFAULT;
    switch ( gnt_domain(op.dom, true) )
    {
    case GNT_DOM_NONE:
        return -XEN_ESRCH;
    case GNT_DOM_ZERO:
        return -XEN_EPERM;
    default:
        break;
    }
    op.version = ACCESS_ONCE(gt()->version);    /* Xen's: no lock */
    if ( copy_to_guest(uop + offsetof(gnttab_get_version_t, version),
                       &op.version, sizeof(op.version)) )
        return -XEN_EFAULT;
    return 0;
}
