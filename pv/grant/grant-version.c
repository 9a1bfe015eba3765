/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * GNTTABOP_set_version: switch the table between the v1 and v2 layouts,
 * as Xen's gnttab_set_version(): refused (-EBUSY) while any grant past
 * the 8 reserved ones is pinned; v1 -> v2 adds status frames, v2 -> v1
 * takes them back (-EBUSY while the guest maps one) and needs the
 * reserved entries to fit v1 (-ERANGE); every shared frame is cleared,
 * but for the reserved entries, which are carried across.
 */
#include "pv/grant/private.h"
#include "pv/guest-access.h"

/* v2 reserved entries that v1 can't hold: transitive, or 64-bit frames. */
static int check_v1_representable(struct grant_table *t)
{
    unsigned int i;

    for ( i = 0; i < GNTTAB_NR_RESERVED_ENTRIES; i++ )
    {
        grant_entry_v2_t *e = shared_entry_v2(t, i);

        switch ( e->hdr.flags & GTF_type_mask )
        {
        case GTF_permit_access:
            if ( !(e->full_page.frame >> 32) )
                break;
            /* fall through */
        case GTF_transitive:
            return -XEN_ERANGE;
        }
    }
    return 0;
}

static void save_reserved(struct grant_table *t, grant_entry_v1_t *saved)
{
    unsigned int i;

    if ( t->version == 1 )
    {
        memcpy(saved, shared_entry_v1(t, 0),
               GNTTAB_NR_RESERVED_ENTRIES * sizeof(*saved));
        return;
    }
    for ( i = 0; i < GNTTAB_NR_RESERVED_ENTRIES; i++ )
    {
        grant_entry_v2_t *e = shared_entry_v2(t, i);

        if ( (e->hdr.flags & GTF_type_mask) == GTF_permit_access )
        {
            saved[i].flags = e->hdr.flags | *status_entry(t, i);
            saved[i].domid = e->hdr.domid;
            saved[i].frame = e->full_page.frame;
        }
        else
            memset(&saved[i], 0, sizeof(saved[i]));
    }
}

static void restore_reserved(struct grant_table *t, unsigned int version,
                             const grant_entry_v1_t *saved)
{
    unsigned int i;

    if ( version == 1 )
    {
        memcpy(shared_entry_v1(t, 0), saved,
               GNTTAB_NR_RESERVED_ENTRIES * sizeof(*saved));
        return;
    }
    for ( i = 0; i < GNTTAB_NR_RESERVED_ENTRIES; i++ )
    {
        grant_entry_v2_t *e = shared_entry_v2(t, i);

        *status_entry(t, i) = saved[i].flags & (GTF_reading | GTF_writing);
        e->hdr.flags = saved[i].flags & ~(GTF_reading | GTF_writing);
        e->hdr.domid = saved[i].domid;
        e->full_page.frame = saved[i].frame;
    }
}

static long switch_version(struct grant_table *t, unsigned int version)
{
    grant_entry_v1_t saved[GNTTAB_NR_RESERVED_ENTRIES];
    unsigned int i;
    long res;

    for ( i = GNTTAB_NR_RESERVED_ENTRIES; i < nr_grant_entries(t); i++ )
        if ( ACCESS_ONCE(active_entry(t, i)->pin) )
        {
            printk(XENLOG_DEBUG "d1: grant table v%u -> v%u with grants "
                   "in use\n", t->version, version);
            return -XEN_EBUSY;
        }
    if ( t->version == 1 )
        res = gnttab_populate_status_frames(t->nr_frames);
    else
        res = check_v1_representable(t);
    if ( res )
        return res;

    save_reserved(t, saved);
    if ( version < 2 && t->version == 2 &&
         (res = gnttab_unpopulate_status_frames()) )
        return res;
    for ( i = 0; i < t->nr_frames; i++ )
        memset(t->shared[i], 0, PAGE_SIZE);
    restore_reserved(t, version, saved);
    t->version = version;
    return 0;
}

long gnttab_set_version(unsigned long uop)
{
    struct grant_table *t = gt();
    gnttab_set_version_t op;
    long res = 0;

    if ( copy_from_guest(&op, uop, sizeof(op)) )
        return -XEN_EFAULT;
    /* No entry is pinned meanwhile: every op on one reads the lock. */
    grant_write_lock(t);
    if ( op.version != 1 && op.version != 2 )
        res = -XEN_EINVAL;
    else if ( op.version != t->version )
        res = switch_version(t, op.version);
    op.version = t->version;
    grant_write_unlock(t);
    if ( copy_to_guest(uop, &op, sizeof(op)) )
        res = -XEN_EFAULT;
    return res;
}
