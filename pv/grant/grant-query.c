/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The sub-ops that hand out the table's frames or sizes: setup_table
 * (growing the table), query_size, get_status_frames and get_version,
 * for the guest only (Xen's XSM_TARGET: domain 0's are refused).
 */
#include "pv/grant/grant.h"
#include "pv/guest-access.h"

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

long gnttab_setup_table(unsigned long uop, unsigned int count)
{
    struct gnttab_setup_table op;
    struct grant_table *t = gt();
    xen_pfn_t gmfn;
    unsigned int i;

    if ( count != 1 )
        return -XEN_EINVAL;
    if ( copy_from_guest(&op, uop, sizeof(op)) )
        return -XEN_EFAULT;
    if ( !gnt_handle_okay((unsigned long)op.frame_list.p, op.nr_frames,
                          sizeof(gmfn)) )
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
    if ( (op.nr_frames > t->nr_frames ||
          (t->version > 1 &&
           grant_to_status_frames(op.nr_frames) > t->nr_status_frames)) &&
         gnttab_grow_table(op.nr_frames) )
    {
        op.status = GNTST_general_error;
        goto out;
    }
    for ( i = 0; i < op.nr_frames; i++ )
    {
        gmfn = va_to_mfn(t->shared[i]);
        if ( copy_to_guest_offset((unsigned long)op.frame_list.p, i, &gmfn,
                                  sizeof(gmfn)) )
            op.status = GNTST_bad_virt_addr;
    }

 out:
    if ( copy_to_guest(uop + offsetof(struct gnttab_setup_table, status),
                       &op.status, sizeof(op.status)) )
        return -XEN_EFAULT;
    return 0;
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
        op.nr_frames = gt()->nr_frames;
        op.max_nr_frames = GNTTAB_MAX_FRAMES;
    }
    if ( copy_to_guest(uop, &op, sizeof(op)) )
        return -XEN_EFAULT;
    return 0;
}

long gnttab_get_status_frames(unsigned long uop, unsigned int count)
{
    gnttab_get_status_frames_t op;
    struct grant_table *t = gt();
    uint64_t gmfn;
    unsigned int i;

    if ( count != 1 )
        return -XEN_EINVAL;
    if ( copy_from_guest(&op, uop, sizeof(op)) )
        return -XEN_EFAULT;
    op.status = target_status(op.dom);
    if ( op.status != GNTST_okay )
        goto out;
    if ( op.nr_frames > t->nr_status_frames )
    {
        printk(XENLOG_DEBUG "d1 asked for %u grant status frames of %u\n",
               op.nr_frames, t->nr_status_frames);
        op.status = GNTST_general_error;
        goto out;
    }
    for ( i = 0; i < op.nr_frames; i++ )
    {
        gmfn = va_to_mfn(t->status[i]);
        if ( copy_to_guest_offset((unsigned long)op.frame_list.p, i, &gmfn,
                                  sizeof(gmfn)) )
            op.status = GNTST_bad_virt_addr;
    }

 out:
    if ( copy_to_guest(uop + offsetof(gnttab_get_status_frames_t, status),
                       &op.status, sizeof(op.status)) )
        return -XEN_EFAULT;
    return 0;
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
    op.version = gt()->version;
    if ( copy_to_guest(uop + offsetof(gnttab_get_version_t, version),
                       &op.version, sizeof(op.version)) )
        return -XEN_EFAULT;
    return 0;
}
