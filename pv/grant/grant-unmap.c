/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * GNTTABOP_unmap_grant_ref and GNTTABOP_unmap_and_replace: undo a map by
 * its handle, in batches of 32 with one TLB flush before the frame
 * references go, as Xen's unmap_common() / unmap_common_complete().
 */
#include "pv/grant/private.h"
#include "arch/x86/flush.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/mm/mm.h"

#define GNTTAB_UNMAP_BATCH_SIZE 32

struct unmap_common {
    uint64_t host_addr, dev_bus_addr, new_addr;
    grant_handle_t handle;
    int16_t status;
    uint16_t done;                      /* GNTMAP_* undone, for complete */
    unsigned long mfn;
    grant_ref_t ref;
};

/*
 * As Xen's unmap_common(): the handle's entry read without a lock, then
 * checked again under its grant's lock, which every change to a mapped
 * handle's entry holds (so of two unmaps of one handle, one finds it
 * gone; a handle freed and mapped again for another grant meanwhile has
 * another ref).
 */
static void unmap_common(struct unmap_common *op)
{
    struct grant_table *t = gt();
    struct active_grant_entry *act;
    struct grant_mapping *map;
    bool put_handle = false;
    unsigned int flags;
    grant_ref_t ref;
    int rc = GNTST_okay;

    op->done = 0;
    if ( op->handle >= maptrack_limit(t) ||
         !__atomic_load_n(&(map = maptrack_entry(op->handle))->flags,
                          __ATOMIC_ACQUIRE) )
    {
        op->status = GNTST_bad_handle;
        return;
    }
    ref = ACCESS_ONCE(map->ref);
    grant_read_lock(t);
    if ( ref >= nr_grant_entries(t) )
    {
        grant_read_unlock(t);
        op->status = GNTST_bad_handle;
        return;
    }
    act = active_entry_acquire(t, ref);
    flags = ACCESS_ONCE(map->flags);
    if ( !flags || ACCESS_ONCE(map->ref) != ref )
    {
        rc = GNTST_bad_handle;
        goto out;
    }
    op->ref = ref;
    op->mfn = act->mfn;
    if ( op->dev_bus_addr &&
         op->dev_bus_addr != ((uint64_t)act->mfn << PAGE_SHIFT) )
    {
        rc = GNTST_general_error;
        goto out;
    }
    if ( op->host_addr && (flags & GNTMAP_host_map) )
    {
        rc = replace_grant_pv_mapping(op->host_addr, op->mfn, op->new_addr,
                                      flags);
        if ( rc )
            goto out;
        map->flags &= ~GNTMAP_host_map;
        op->done |= GNTMAP_host_map | (flags & GNTMAP_readonly);
    }
    if ( op->dev_bus_addr && (flags & GNTMAP_device_map) )
    {
        map->flags &= ~GNTMAP_device_map;
        op->done |= GNTMAP_device_map | (flags & GNTMAP_readonly);
    }
    if ( !(map->flags & (GNTMAP_device_map | GNTMAP_host_map)) )
    {
        map->flags = 0;
        put_handle = true;
    }
 out:
    active_entry_release(act);
    grant_read_unlock(t);
    if ( put_handle )
        put_maptrack_handle(op->handle);
    op->status = rc;
}

/* After the flush: drop the frame references and the pins. */
static void unmap_common_complete(const struct unmap_common *op)
{
    struct grant_table *t = gt();
    struct active_grant_entry *act;
    struct page_info *pg;
    bool ro = op->done & GNTMAP_readonly;

    if ( !op->done )
        return;
    grant_read_lock(t);
    act = active_entry_acquire(t, op->ref);
    pg = mfn_to_page(op->mfn);
    if ( op->done & GNTMAP_device_map )
    {
        if ( !ro )
            page_put_type(pg);
        page_put(pg);
        act->pin -= ro ? GNTPIN_devr_inc : GNTPIN_devw_inc;
    }
    if ( op->done & GNTMAP_host_map )
    {
        if ( !ro )
            page_put_type(pg);
        page_put(pg);
        act->pin -= ro ? GNTPIN_hstr_inc : GNTPIN_hstw_inc;
    }
    gnt_unpin_clear(grant_status_word(t, op->ref), act, ro);
    active_entry_release(act);
    grant_read_unlock(t);
}

static void complete_batch(struct unmap_common *common, unsigned int n)
{
    unsigned int i;

    pv_flush_domain(0, FLUSH_TLB_GLOBAL);
    for ( i = 0; i < n; i++ )
        unmap_common_complete(&common[i]);
}

/* Read entry @i as a common op: both structures start the same way. */
static int read_op(unsigned long uop, bool replace, struct unmap_common *c)
{
    struct gnttab_unmap_and_replace r;
    struct gnttab_unmap_grant_ref u;

    if ( replace )
    {
        if ( copy_from_guest(&r, uop, sizeof(r)) )
            return -XEN_EFAULT;
        c->host_addr = r.host_addr;
        c->new_addr = r.new_addr;
        c->dev_bus_addr = 0;
        c->handle = r.handle;
        return 0;
    }
    if ( copy_from_guest(&u, uop, sizeof(u)) )
        return -XEN_EFAULT;
    c->host_addr = u.host_addr;
    c->dev_bus_addr = u.dev_bus_addr;
    c->new_addr = 0;
    c->handle = u.handle;
    return 0;
}

static long unmap_batches(unsigned long uop, unsigned int count,
                          bool replace)
{
    struct unmap_common common[GNTTAB_UNMAP_BATCH_SIZE];
    size_t size = replace ? sizeof(struct gnttab_unmap_and_replace)
                          : sizeof(struct gnttab_unmap_grant_ref);
    size_t status_off = replace
        ? offsetof(struct gnttab_unmap_and_replace, status)
        : offsetof(struct gnttab_unmap_grant_ref, status);
    unsigned int c, i, done = 0;

    while ( count )
    {
        c = MIN(count, (unsigned int)GNTTAB_UNMAP_BATCH_SIZE);
        for ( i = 0; i < c; i++ )
        {
            if ( read_op(uop, replace, &common[i]) )
                goto fault;
            unmap_common(&common[i]);
            if ( copy_to_guest(uop + status_off, &common[i].status,
                               sizeof(common[i].status)) )
            {
                i++;
                goto fault;
            }
            uop += size;
        }
        complete_batch(common, c);
        count -= c;
        done += c;
        if ( count && hypercall_preempt_check(done) )
            return done;
    }
    return 0;

 fault:
    complete_batch(common, i);
    return -XEN_EFAULT;
}

long gnttab_unmap_grant_ref(unsigned long uop, unsigned int count)
{
    return unmap_batches(uop, count, false);
}

long gnttab_unmap_and_replace(unsigned long uop, unsigned int count)
{
    return unmap_batches(uop, count, true);
}
