/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_grant_table_op: the sub-op switch with Xen's argument checks
 * and continuations (do_grant_table_op()), and the small sub-ops:
 * swap_grant_ref and cache_flush.  Xen removed dump_table: -ENOSYS.
 */
#include "pv/grant/grant.h"
#include "arch/x86/flush.h"
#include "pv/build/build.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/mm/mm.h"
#include "pv/compat/layout.h"

static int16_t swap_grant_ref(grant_ref_t a, grant_ref_t b)
{
    struct grant_table *t = gt();

    if ( a >= nr_grant_entries(t) || b >= nr_grant_entries(t) )
        return GNTST_bad_gntref;
    if ( a == b )
        return GNTST_okay;
    if ( active_entry(t, a)->pin || active_entry(t, b)->pin )
        return GNTST_eagain;
    if ( t->version == 1 )
    {
        grant_entry_v1_t e = *shared_entry_v1(t, a);

        *shared_entry_v1(t, a) = *shared_entry_v1(t, b);
        *shared_entry_v1(t, b) = e;
    }
    else
    {
        grant_entry_v2_t e = *shared_entry_v2(t, a);
        grant_status_t s = *status_entry(t, a);

        *shared_entry_v2(t, a) = *shared_entry_v2(t, b);
        *status_entry(t, a) = *status_entry(t, b);
        *shared_entry_v2(t, b) = e;
        *status_entry(t, b) = s;
    }
    return GNTST_okay;
}

static long gnttab_swap_grant_ref(unsigned long uop, unsigned int count)
{
    gnttab_swap_grant_ref_t op;
    unsigned int i;

    for ( i = 0; i < count; i++ )
    {
        if ( i && hypercall_preempt_check(i) )
            return i;
        if ( copy_from_guest_offset(&op, uop, i, sizeof(op)) )
            return -XEN_EFAULT;
        op.status = swap_grant_ref(op.ref_a, op.ref_b);
        if ( copy_to_guest(uop + i * sizeof(op) +
                           offsetof(gnttab_swap_grant_ref_t, status),
                           &op.status, sizeof(op.status)) )
            return -XEN_EFAULT;
    }
    return 0;
}

/*
 * Xen's cache_flush() on x86: a frame of the guest's own, by machine
 * address; "clean" writes the caches back, "invalidate" alone is not
 * supported.  No other domain's frames can be granted to the guest, so
 * Xen's search of the owner's active grants never happens.
 */
static int cache_flush(const gnttab_cache_flush_t *c, unsigned int cur_ref)
{
    struct page_info *pg;

    if ( c->offset >= PAGE_SIZE || c->length > PAGE_SIZE ||
         c->offset + c->length > PAGE_SIZE ||
         (c->op & ~(GNTTAB_CACHE_INVAL | GNTTAB_CACHE_CLEAN)) )
        return -XEN_EINVAL;
    if ( c->length == 0 || c->op == 0 )
        return !cur_ref ? 0 : -XEN_EILSEQ;
    /* Past RAM: no such frame.  I/O space is dom_io's: no grant table. */
    pg = mfn_to_page(c->a.dev_bus_addr >> PAGE_SHIFT);
    if ( !pg )
        return -XEN_EINVAL;
    if ( !page_get(pg, PGO_GUEST) )
        return -XEN_EPERM;
    page_put(pg);
    if ( !(c->op & GNTTAB_CACHE_CLEAN) )
        return -XEN_EOPNOTSUPP;
    flush_area_local(0, FLUSH_CACHE);
    return 0;
}

static long gnttab_cache_flush(unsigned long uop, unsigned int *cur_ref,
                               unsigned int count)
{
    gnttab_cache_flush_t op;
    unsigned int i;
    int ret;

    for ( i = 0; i < count; i++ )
    {
        if ( i && hypercall_preempt_check(i) )
            return i;
        if ( copy_from_guest_offset(&op, uop, i, sizeof(op)) )
            return -XEN_EFAULT;
        if ( (ret = cache_flush(&op, *cur_ref)) < 0 )
            return ret;
        *cur_ref = 0;
    }
    *cur_ref = 0;
    return 0;
}

/*
 * The size of one element of each batched sub-op (0: not batched), in
 * the guest's layout: a 32-bit guest's transfer and copy differ.
 */
static always_inline size_t op_size(unsigned int cmd, bool compat)
{
    switch ( cmd )
    {
    case GNTTABOP_map_grant_ref:    return sizeof(struct gnttab_map_grant_ref);
    case GNTTABOP_unmap_grant_ref:  return sizeof(struct gnttab_unmap_grant_ref);
    case GNTTABOP_unmap_and_replace:
        return sizeof(struct gnttab_unmap_and_replace);
    case GNTTABOP_transfer:
        return compat ? COMPAT_SIZEOF(gnttab_transfer)
                      : sizeof(struct gnttab_transfer);
    case GNTTABOP_copy:
        return compat ? COMPAT_SIZEOF(gnttab_copy)
                      : sizeof(struct gnttab_copy);
    case GNTTABOP_swap_grant_ref:   return sizeof(gnttab_swap_grant_ref_t);
    case GNTTABOP_cache_flush:      return sizeof(gnttab_cache_flush_t);
    default:                        return 0;
    }
}

static always_inline long batched_op(unsigned int cmd, unsigned long uop,
                                     unsigned int count,
                                     unsigned int *opaque, bool compat)
{
    switch ( cmd )
    {
    case GNTTABOP_map_grant_ref:
        return gnttab_map_grant_ref(uop, count);
    case GNTTABOP_unmap_grant_ref:
        return gnttab_unmap_grant_ref(uop, count);
    case GNTTABOP_unmap_and_replace:
        return gnttab_unmap_and_replace(uop, count);
    case GNTTABOP_transfer:
        return compat ? compat_gnttab_transfer(uop, count)
                      : gnttab_transfer(uop, count);
    case GNTTABOP_copy:
        return compat ? compat_gnttab_copy(uop, count)
                      : gnttab_copy(uop, count);
    case GNTTABOP_swap_grant_ref:
        return gnttab_swap_grant_ref(uop, count);
    default:
        return gnttab_cache_flush(uop, opaque, count);
    }
}

/*
 * A 32-bit guest's setup_table, transfer, copy and get_status_frames
 * are its own layout (Xen's compat_grant_table_op()); the others are
 * laid out alike (pv/compat/same.h) and take the same path.
 */
static always_inline long grant_table_op(unsigned long cmd_arg,
                                         unsigned long uop,
                                         unsigned long count_arg,
                                         bool compat)
{
    unsigned int cmd = cmd_arg, count = count_arg;
    unsigned int opaque_in = cmd & ~GNTTABOP_CMD_MASK, opaque_out = 0;
    size_t size;
    long rc;

    if ( (int)count < 0 )
        return -XEN_EINVAL;
    if ( (cmd &= GNTTABOP_CMD_MASK) != GNTTABOP_cache_flush && opaque_in )
        return -XEN_EINVAL;
    gnttab_lazy_init();

    switch ( cmd )
    {
    case GNTTABOP_setup_table:
        return compat ? compat_gnttab_setup_table(uop, count)
                      : gnttab_setup_table(uop, count);
    case GNTTABOP_query_size:
        return gnttab_query_size(uop, count);
    case GNTTABOP_set_version:
        return gnttab_set_version(uop);
    case GNTTABOP_get_status_frames:
        return compat ? compat_gnttab_get_status_frames(uop, count)
                      : gnttab_get_status_frames(uop, count);
    case GNTTABOP_get_version:
        return gnttab_get_version(uop);
    }

    size = op_size(cmd, compat);
    if ( !size )
        return -XEN_ENOSYS;
    if ( !gnt_handle_okay(uop, count, size) )
        return -XEN_EFAULT;
    rc = batched_op(cmd, uop, count, &opaque_in, compat);
    if ( cmd == GNTTABOP_cache_flush )
        opaque_out = opaque_in;
    if ( cmd == GNTTABOP_copy && rc > 0 )
        rc = count - rc;                /* gnttab_copy() counts what's left */
    /*
     * As Xen: a cache_flush error with a continuation argument continues
     * too, with count - rc (so the guest spins until count overflows).
     */
    if ( rc > 0 || opaque_out )
    {
        if ( rc > 0 )
            uop += rc * size;
        rc = hypercall_create_continuation(__HYPERVISOR_grant_table_op,
                                           opaque_out | cmd, uop,
                                           (unsigned int)(count - rc), 0);
    }
    return rc;
}

long do_grant_table_op(unsigned long cmd, unsigned long uop,
                       unsigned long count)
{
    return grant_table_op(cmd, uop, count, false);
}

long compat_grant_table_op(unsigned long cmd, unsigned long uop,
                           unsigned long count)
{
    return grant_table_op(cmd, uop, count, true);
}
