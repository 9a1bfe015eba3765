/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Translations of the grant-table operations whose arguments differ for
 * compat guests (setup_table, transfer, copy, get_status_frames; the
 * others are checked alike in pv/compat/same.h).  See pv/compat/xlat.h.
 */
#include "pv/compat/xlat.h"
#include <xen/errno.h>

void xlat_gnttab_setup_table_from_compat(struct gnttab_setup_table *n,
                                         const void *c)
{
    memset(n, 0, sizeof(*n));
    n->dom = compat_get(c, gnttab_setup_table, dom);
    n->nr_frames = compat_get(c, gnttab_setup_table, nr_frames);
    n->status = compat_get(c, gnttab_setup_table, status);
    set_xen_guest_handle(n->frame_list,
        compat_get_handle(c, gnttab_setup_table, frame_list));
}

int xlat_gnttab_setup_table_to_compat(void *c,
                                      const struct gnttab_setup_table *n)
{
    memset(c, 0, COMPAT_SIZEOF(gnttab_setup_table));
    compat_put(c, gnttab_setup_table, dom, n->dom);
    compat_put(c, gnttab_setup_table, nr_frames, n->nr_frames);
    compat_put(c, gnttab_setup_table, status, n->status);
    return compat_put_handle(c, gnttab_setup_table, frame_list,
                             n->frame_list) ? 0 : -XEN_ERANGE;
}

void xlat_gnttab_transfer_from_compat(struct gnttab_transfer *n,
                                      const void *c)
{
    memset(n, 0, sizeof(*n));
    n->mfn = compat_get(c, gnttab_transfer, mfn);
    n->domid = compat_get(c, gnttab_transfer, domid);
    n->ref = compat_get(c, gnttab_transfer, ref);
    n->status = compat_get(c, gnttab_transfer, status);
}

int xlat_gnttab_transfer_to_compat(void *c, const struct gnttab_transfer *n)
{
    memset(c, 0, COMPAT_SIZEOF(gnttab_transfer));
    compat_put(c, gnttab_transfer, domid, n->domid);
    compat_put(c, gnttab_transfer, ref, n->ref);
    compat_put(c, gnttab_transfer, status, n->status);
    return compat_put_fit(c, gnttab_transfer, mfn, n->mfn)
           ? 0 : -XEN_ERANGE;
}

static void copy_ptr_from_compat(struct gnttab_copy_ptr *n, const void *c)
{
    /* The union's widest arm, so a ref reads the zero-extension too. */
    BUILD_BUG_ON(sizeof(n->u.gmfn) != sizeof(n->u));
    n->u.gmfn = compat_get(c, gnttab_copy_ptr, u);
    n->domid = compat_get(c, gnttab_copy_ptr, domid);
    n->offset = compat_get(c, gnttab_copy_ptr, offset);
}

static bool copy_ptr_to_compat(void *c, const struct gnttab_copy_ptr *n,
                               bool gref)
{
    compat_put(c, gnttab_copy_ptr, domid, n->domid);
    compat_put(c, gnttab_copy_ptr, offset, n->offset);
    if ( gref )
        return compat_put_fit(c, gnttab_copy_ptr, u, n->u.ref);
    return compat_put_fit(c, gnttab_copy_ptr, u, n->u.gmfn);
}

void xlat_gnttab_copy_from_compat(struct gnttab_copy *n, const void *c)
{
    memset(n, 0, sizeof(*n));
    copy_ptr_from_compat(&n->source, compat_ptr(c, gnttab_copy, source));
    copy_ptr_from_compat(&n->dest, compat_ptr(c, gnttab_copy, dest));
    n->len = compat_get(c, gnttab_copy, len);
    n->flags = compat_get(c, gnttab_copy, flags);
    n->status = compat_get(c, gnttab_copy, status);
}

int xlat_gnttab_copy_to_compat(void *c, const struct gnttab_copy *n)
{
    bool ok = true;

    memset(c, 0, COMPAT_SIZEOF(gnttab_copy));
    ok &= copy_ptr_to_compat(compat_ptr(c, gnttab_copy, source), &n->source,
                             n->flags & GNTCOPY_source_gref);
    ok &= copy_ptr_to_compat(compat_ptr(c, gnttab_copy, dest), &n->dest,
                             n->flags & GNTCOPY_dest_gref);
    compat_put(c, gnttab_copy, len, n->len);
    compat_put(c, gnttab_copy, flags, n->flags);
    compat_put(c, gnttab_copy, status, n->status);
    return ok ? 0 : -XEN_ERANGE;
}

void xlat_gnttab_get_status_frames_from_compat(
    struct gnttab_get_status_frames *n, const void *c)
{
    memset(n, 0, sizeof(*n));
    n->nr_frames = compat_get(c, gnttab_get_status_frames, nr_frames);
    n->dom = compat_get(c, gnttab_get_status_frames, dom);
    n->status = compat_get(c, gnttab_get_status_frames, status);
    set_xen_guest_handle(n->frame_list,
        compat_get_handle(c, gnttab_get_status_frames, frame_list));
}

int xlat_gnttab_get_status_frames_to_compat(
    void *c, const struct gnttab_get_status_frames *n)
{
    memset(c, 0, COMPAT_SIZEOF(gnttab_get_status_frames));
    compat_put(c, gnttab_get_status_frames, nr_frames, n->nr_frames);
    compat_put(c, gnttab_get_status_frames, dom, n->dom);
    compat_put(c, gnttab_get_status_frames, status, n->status);
    return compat_put_handle(c, gnttab_get_status_frames, frame_list,
                             n->frame_list) ? 0 : -XEN_ERANGE;
}
