/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_grant_table_op: the sub-op switch with Xen's argument checks
 * and continuations (do_grant_table_op()), and the small sub-op
 * swap_grant_ref.  Xen removed dump_table, and x86 Xen has no
 * cache_flush since 4.21 (an x86 cache is coherent with DMA): both
 * -ENOSYS.
 */
#include "pv/grant/private.h"
#include "arch/x86/flush.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/mm/mm.h"
#include "pv/compat/layout.h"
#include "shim/perfc.h"

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
        grant_write_lock(gt());         /* as Xen's: no pin may change */
        op.status = swap_grant_ref(op.ref_a, op.ref_b);
        grant_write_unlock(gt());
        if ( copy_to_guest(uop + i * sizeof(op) +
                           offsetof(gnttab_swap_grant_ref_t, status),
                           &op.status, sizeof(op.status)) )
            return -XEN_EFAULT;
    }
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
    case GNTTABOP_unmap_grant_ref:
        return sizeof(struct gnttab_unmap_grant_ref);
    case GNTTABOP_unmap_and_replace:
        return sizeof(struct gnttab_unmap_and_replace);
    case GNTTABOP_transfer:
        return compat ? COMPAT_SIZEOF(gnttab_transfer)
                      : sizeof(struct gnttab_transfer);
    case GNTTABOP_copy:
        return compat ? COMPAT_SIZEOF(gnttab_copy)
                      : sizeof(struct gnttab_copy);
    case GNTTABOP_swap_grant_ref:   return sizeof(gnttab_swap_grant_ref_t);
    default:                        return 0;
    }
}

static always_inline long batched_op(unsigned int cmd, unsigned long uop,
                                     unsigned int count, bool compat)
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
    default:
        return gnttab_swap_grant_ref(uop, count);
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
    size_t size;
    long rc;

    perfc_incra(gnttab_ops, cmd);
    if ( (int)count < 0 )
        return -XEN_EINVAL;
    /*
     * Only cache_flush ever took an argument above the sub-op (its
     * continuation's); it reaches -ENOSYS below with one, as in Xen.
     */
    if ( (cmd & GNTTABOP_CMD_MASK) != GNTTABOP_cache_flush &&
         (cmd & ~GNTTABOP_CMD_MASK) )
        return -XEN_EINVAL;
    cmd &= GNTTABOP_CMD_MASK;
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
    rc = batched_op(cmd, uop, count, compat);
    if ( cmd == GNTTABOP_copy && rc > 0 )
        rc = count - rc;                /* gnttab_copy() counts what's left */
    if ( rc > 0 )
        rc = hypercall_create_continuation(__HYPERVISOR_grant_table_op, cmd,
                                           uop + rc * size,
                                           (unsigned int)(count - rc), 0);
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
