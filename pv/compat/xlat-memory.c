/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Translations of memory.h's structures (HYPERVISOR_memory_op) for
 * compat guests.  See pv/compat/xlat.h.
 */
#include "pv/compat/xlat.h"
#include <xen/errno.h>

void xlat_memory_reservation_from_compat(struct xen_memory_reservation *n,
                                         const void *c)
{
    memset(n, 0, sizeof(*n));
    set_xen_guest_handle(n->extent_start,
        compat_get_handle(c, xen_memory_reservation, extent_start));
    n->nr_extents = compat_get(c, xen_memory_reservation, nr_extents);
    n->extent_order = compat_get(c, xen_memory_reservation, extent_order);
    n->mem_flags = compat_get(c, xen_memory_reservation, mem_flags);
    n->domid = compat_get(c, xen_memory_reservation, domid);
}

int xlat_memory_reservation_to_compat(void *c,
                                      const struct xen_memory_reservation *n)
{
    bool ok = true;

    memset(c, 0, COMPAT_SIZEOF(xen_memory_reservation));
    ok &= compat_put_handle(c, xen_memory_reservation, extent_start,
                            n->extent_start);
    ok &= compat_put_fit(c, xen_memory_reservation, nr_extents,
                         n->nr_extents);
    compat_put(c, xen_memory_reservation, extent_order, n->extent_order);
    compat_put(c, xen_memory_reservation, mem_flags, n->mem_flags);
    compat_put(c, xen_memory_reservation, domid, n->domid);
    return ok ? 0 : -XEN_ERANGE;
}

void xlat_memory_exchange_from_compat(struct xen_memory_exchange *n,
                                      const void *c)
{
    BUILD_BUG_ON(COMPAT_MSIZE(xen_memory_exchange, in) !=
                 COMPAT_SIZEOF(xen_memory_reservation));
    memset(n, 0, sizeof(*n));
    xlat_memory_reservation_from_compat(&n->in,
        compat_ptr(c, xen_memory_exchange, in));
    xlat_memory_reservation_from_compat(&n->out,
        compat_ptr(c, xen_memory_exchange, out));
    n->nr_exchanged = compat_get(c, xen_memory_exchange, nr_exchanged);
}

int xlat_memory_exchange_to_compat(void *c,
                                   const struct xen_memory_exchange *n)
{
    int rc_in, rc_out;

    memset(c, 0, COMPAT_SIZEOF(xen_memory_exchange));
    rc_in = xlat_memory_reservation_to_compat(
        compat_ptr(c, xen_memory_exchange, in), &n->in);
    rc_out = xlat_memory_reservation_to_compat(
        compat_ptr(c, xen_memory_exchange, out), &n->out);
    if ( !compat_put_fit(c, xen_memory_exchange, nr_exchanged,
                         n->nr_exchanged) || rc_in || rc_out )
        return -XEN_ERANGE;
    return 0;
}

void xlat_add_to_physmap_from_compat(struct xen_add_to_physmap *n,
                                     const void *c)
{
    memset(n, 0, sizeof(*n));
    n->domid = compat_get(c, xen_add_to_physmap, domid);
    n->size = compat_get(c, xen_add_to_physmap, size);
    n->space = compat_get(c, xen_add_to_physmap, space);
    n->idx = compat_get(c, xen_add_to_physmap, idx);
    n->gpfn = compat_get(c, xen_add_to_physmap, gpfn);
}

int xlat_add_to_physmap_to_compat(void *c,
                                  const struct xen_add_to_physmap *n)
{
    bool ok = true;

    memset(c, 0, COMPAT_SIZEOF(xen_add_to_physmap));
    compat_put(c, xen_add_to_physmap, domid, n->domid);
    compat_put(c, xen_add_to_physmap, size, n->size);
    compat_put(c, xen_add_to_physmap, space, n->space);
    ok &= compat_put_fit(c, xen_add_to_physmap, idx, n->idx);
    ok &= compat_put_fit(c, xen_add_to_physmap, gpfn, n->gpfn);
    return ok ? 0 : -XEN_ERANGE;
}

void xlat_add_to_physmap_batch_from_compat(
    struct xen_add_to_physmap_batch *n, const void *c)
{
    memset(n, 0, sizeof(*n));
    n->domid = compat_get(c, xen_add_to_physmap_batch, domid);
    n->space = compat_get(c, xen_add_to_physmap_batch, space);
    n->size = compat_get(c, xen_add_to_physmap_batch, size);
    n->u.foreign_domid = compat_get(c, xen_add_to_physmap_batch,
                                    u__foreign_domid);
    set_xen_guest_handle(n->idxs,
        compat_get_handle(c, xen_add_to_physmap_batch, idxs));
    set_xen_guest_handle(n->gpfns,
        compat_get_handle(c, xen_add_to_physmap_batch, gpfns));
    set_xen_guest_handle(n->errs,
        compat_get_handle(c, xen_add_to_physmap_batch, errs));
}

int xlat_add_to_physmap_batch_to_compat(
    void *c, const struct xen_add_to_physmap_batch *n)
{
    bool ok = true;

    memset(c, 0, COMPAT_SIZEOF(xen_add_to_physmap_batch));
    compat_put(c, xen_add_to_physmap_batch, domid, n->domid);
    compat_put(c, xen_add_to_physmap_batch, space, n->space);
    compat_put(c, xen_add_to_physmap_batch, size, n->size);
    compat_put(c, xen_add_to_physmap_batch, u__foreign_domid,
               n->u.foreign_domid);
    ok &= compat_put_handle(c, xen_add_to_physmap_batch, idxs, n->idxs);
    ok &= compat_put_handle(c, xen_add_to_physmap_batch, gpfns, n->gpfns);
    ok &= compat_put_handle(c, xen_add_to_physmap_batch, errs, n->errs);
    return ok ? 0 : -XEN_ERANGE;
}

void xlat_remove_from_physmap_from_compat(struct xen_remove_from_physmap *n,
                                          const void *c)
{
    memset(n, 0, sizeof(*n));
    n->domid = compat_get(c, xen_remove_from_physmap, domid);
    n->gpfn = compat_get(c, xen_remove_from_physmap, gpfn);
}

void xlat_memory_map_from_compat(struct xen_memory_map *n, const void *c)
{
    memset(n, 0, sizeof(*n));
    n->nr_entries = compat_get(c, xen_memory_map, nr_entries);
    set_xen_guest_handle(n->buffer,
                         compat_get_handle(c, xen_memory_map, buffer));
}

int xlat_memory_map_to_compat(void *c, const struct xen_memory_map *n)
{
    memset(c, 0, COMPAT_SIZEOF(xen_memory_map));
    compat_put(c, xen_memory_map, nr_entries, n->nr_entries);
    return compat_put_handle(c, xen_memory_map, buffer, n->buffer)
           ? 0 : -XEN_ERANGE;
}

void xlat_pod_target_from_compat(struct xen_pod_target *n, const void *c)
{
    memset(n, 0, sizeof(*n));
    n->target_pages = compat_get(c, xen_pod_target, target_pages);
    n->tot_pages = compat_get(c, xen_pod_target, tot_pages);
    n->pod_cache_pages = compat_get(c, xen_pod_target, pod_cache_pages);
    n->pod_entries = compat_get(c, xen_pod_target, pod_entries);
    n->domid = compat_get(c, xen_pod_target, domid);
}

void xlat_pod_target_to_compat(void *c, const struct xen_pod_target *n)
{
    memset(c, 0, COMPAT_SIZEOF(xen_pod_target));
    compat_put(c, xen_pod_target, target_pages, n->target_pages);
    compat_put(c, xen_pod_target, tot_pages, n->tot_pages);
    compat_put(c, xen_pod_target, pod_cache_pages, n->pod_cache_pages);
    compat_put(c, xen_pod_target, pod_entries, n->pod_entries);
    compat_put(c, xen_pod_target, domid, n->domid);
}

void xlat_machphys_mfn_list_from_compat(struct xen_machphys_mfn_list *n,
                                        const void *c)
{
    memset(n, 0, sizeof(*n));
    n->max_extents = compat_get(c, xen_machphys_mfn_list, max_extents);
    set_xen_guest_handle(n->extent_start,
        compat_get_handle(c, xen_machphys_mfn_list, extent_start));
    n->nr_extents = compat_get(c, xen_machphys_mfn_list, nr_extents);
}

int xlat_machphys_mfn_list_to_compat(void *c,
                                     const struct xen_machphys_mfn_list *n)
{
    memset(c, 0, COMPAT_SIZEOF(xen_machphys_mfn_list));
    compat_put(c, xen_machphys_mfn_list, max_extents, n->max_extents);
    compat_put(c, xen_machphys_mfn_list, nr_extents, n->nr_extents);
    return compat_put_handle(c, xen_machphys_mfn_list, extent_start,
                             n->extent_start) ? 0 : -XEN_ERANGE;
}

int xlat_machphys_mapping_to_compat(void *c,
                                    const struct xen_machphys_mapping *n)
{
    bool ok = true;

    memset(c, 0, COMPAT_SIZEOF(xen_machphys_mapping));
    ok &= compat_put_fit(c, xen_machphys_mapping, v_start, n->v_start);
    ok &= compat_put_fit(c, xen_machphys_mapping, v_end, n->v_end);
    ok &= compat_put_fit(c, xen_machphys_mapping, max_mfn, n->max_mfn);
    return ok ? 0 : -XEN_ERANGE;
}
