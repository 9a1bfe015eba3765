/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * GNTTABOP_map_grant_ref: pin a grant, take the frame references the
 * mapping needs (a writable type for a writable map) and record it in the
 * maptrack, whose index is the handle; Xen's map_grant_ref() and its
 * maptrack free list (one vCPU's).  The granter can only be the guest
 * itself: domain 0 grants nothing, so its refs fail as Xen's checks fail
 * them against an empty table.
 */
#include "pv/grant/private.h"
#include "arch/x86/nospec.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/mm/mm.h"
#include "shim/frame.h"

/*
 * A handle the guest named, below maptrack_limit: clamped as well.  The
 * limit only grows, each frame in place before it (grow_maptrack()).
 */
struct grant_mapping *maptrack_entry(grant_handle_t h)
{
    h = array_index_nospec(h, maptrack_limit(gt()));
    return &gt()->maptrack[h / MAPTRACK_PER_PAGE][h % MAPTRACK_PER_PAGE];
}

/* A new maptrack frame: its first handle, the rest onto the free list. */
static grant_handle_t grow_maptrack(struct grant_table *t)
{
    unsigned int nr = t->maptrack_limit / MAPTRACK_PER_PAGE, i;
    grant_handle_t handle = t->maptrack_limit;
    struct grant_mapping *new;
    unsigned long mfn;

    if ( nr >= GNTTAB_MAX_MAPTRACK_FRAMES ||
         (mfn = frame_alloc()) == INVALID_PFN )
        return INVALID_HANDLE;
    new = __va(mfn << PAGE_SHIFT);
    memset(new, 0, PAGE_SIZE);
    for ( i = 0; i < MAPTRACK_PER_PAGE; i++ )
        new[i].ref = handle + i + 1;
    if ( t->maptrack_tail == MAPTRACK_TAIL )
        t->maptrack_tail = handle + MAPTRACK_PER_PAGE - 1;
    new[MAPTRACK_PER_PAGE - 1].ref = t->maptrack_head;
    t->maptrack_head = handle + 1;
    t->maptrack[nr] = new;
    /* Lock-free readers (unmap) see the frame before the limit. */
    __atomic_store_n(&t->maptrack_limit, t->maptrack_limit + MAPTRACK_PER_PAGE,
                     __ATOMIC_RELEASE);
    return handle;
}

/*
 * Xen keeps one entry on the free list, so the tail can always grow.
 * The free list and the growth are maptrack_lock's (Xen's keeps a list
 * per vCPU and steals between them; one list under one lock, held for a
 * few loads and stores, is what Xen had before 4.7).
 */
static grant_handle_t get_maptrack_handle(void)
{
    struct grant_table *t = gt();
    grant_handle_t head, next;

    spin_lock(&t->maptrack_lock);
    head = t->maptrack_head;
    if ( head != MAPTRACK_TAIL &&
         (next = maptrack_entry(head)->ref) != MAPTRACK_TAIL )
        t->maptrack_head = next;
    else
        head = grow_maptrack(t);
    spin_unlock(&t->maptrack_lock);
    return head;
}

/* @handle's entry has flags 0: no unmap can take it meanwhile. */
void put_maptrack_handle(grant_handle_t handle)
{
    struct grant_table *t = gt();
    grant_handle_t prev_tail;

    spin_lock(&t->maptrack_lock);
    prev_tail = t->maptrack_tail;
    maptrack_entry(handle)->ref = MAPTRACK_TAIL;
    t->maptrack_tail = handle;
    maptrack_entry(prev_tail)->ref = handle;
    spin_unlock(&t->maptrack_lock);
}

static uint32_t pin_inc(unsigned int flags)
{
    bool ro = flags & GNTMAP_readonly;
    uint32_t inc = 0;

    if ( flags & GNTMAP_device_map )
        inc += ro ? GNTPIN_devr_inc : GNTPIN_devw_inc;
    if ( flags & GNTMAP_host_map )
        inc += ro ? GNTPIN_hstr_inc : GNTPIN_hstw_inc;
    return inc;
}

/*
 * Pin entry @ref of the guest's table for a map by @domid (the guest's
 * own, or the shim's backends as domain 0), read-only if @ro, adding
 * @inc to its pin, as Xen's map_grant_ref() up to the frame: 0, or a
 * GNTST_* error.  The table is read-locked by the caller; the entry is
 * locked here and released before returning.  *@mfn is the frame
 * pinned, and *@got_frame says this pin took the frame's first
 * reference (the map's own, then).
 */
int gnt_pin_for_map(grant_ref_t ref, bool ro, domid_t domid, uint32_t inc,
                    unsigned long *mfn, bool *got_frame)
{
    struct grant_table *t = gt();
    struct active_grant_entry *act;
    unsigned long gfn;
    int rc = GNTST_okay;

    ASSERT(rw_is_locked_by_me(&t->lock));
    if ( ref >= nr_grant_entries(t) )
        return GNTST_bad_gntref;
    act = active_entry_acquire(t, ref);
    if ( act->pin && (act->domid != domid ||
                      (act->pin & GNTPIN_overflow) || act->is_sub_page) )
        rc = GNTST_general_error;
    else if ( act->pin && (ro || (act->pin & (GNTPIN_hstw_mask |
                                              GNTPIN_devw_mask))) )
        ;                               /* pinned as it needs to be */
    else if ( (rc = gnt_set_status(t, ref, act, ro, true, domid)) )
        ;
    else if ( !act->pin )
    {
        gfn = t->version == 1 ? shared_entry_v1(t, ref)->frame
                              : shared_entry_v2(t, ref)->full_page.frame;
        if ( (rc = gnt_get_paged_frame(gfn, &act->mfn)) )
            gnt_unpin_clear(grant_status_word(t, ref), act, ro);
        else
        {
            *got_frame = true;
            act->domid = domid;
            act->start = 0;
            act->length = PAGE_SIZE;
            act->is_sub_page = false;
        }
    }
    if ( !rc )
    {
        act->pin += inc;
        *mfn = act->mfn;
    }
    active_entry_release(act);
    return rc;
}

/* Drop a map's pin of @inc, its frame references gone (or never taken). */
void gnt_unpin_map(grant_ref_t ref, bool ro, uint32_t inc)
{
    struct grant_table *t = gt();
    struct active_grant_entry *act;

    grant_read_lock(t);
    act = active_entry_acquire(t, ref);
    act->pin -= inc;
    gnt_unpin_clear(grant_status_word(t, ref), act, ro);
    active_entry_release(act);
    grant_read_unlock(t);
}

/* The frame references of a map: general, and writable types. */
static int take_refs(struct page_info *pg, unsigned int flags, bool have_one,
                     unsigned int *refcnt, unsigned int *typecnt)
{
    bool ro = flags & GNTMAP_readonly;

    if ( have_one )
        (*refcnt)++;
    else if ( page_get(pg, PGO_GUEST) )
        (*refcnt)++;
    else
        return GNTST_general_error;
    if ( (flags & GNTMAP_device_map) && !ro )
    {
        if ( page_get_type_flush(pg, PGT_WRITABLE) != PGT_OK )
            return GNTST_general_error;
        (*typecnt)++;
    }
    if ( !(flags & GNTMAP_host_map) )
        return GNTST_okay;
    if ( flags & GNTMAP_device_map )
    {
        if ( !page_get(pg, PGO_GUEST) )
            return GNTST_general_error;
        (*refcnt)++;
    }
    if ( !ro )
    {
        if ( page_get_type_flush(pg, PGT_WRITABLE) != PGT_OK )
            return GNTST_general_error;
        (*typecnt)++;
    }
    return GNTST_okay;
}

/*
 * As Xen's map_grant_ref(): the pin under the table's read lock and the
 * entry's lock, the frame's references and the PTE with neither (the pin
 * keeps the entry's frame), the maptrack entry last, its flags after the
 * rest (an unmap of the handle meanwhile finds it free).
 */
static void map_own_grant(struct gnttab_map_grant_ref *op,
                          grant_handle_t handle)
{
    struct grant_table *t = gt();
    unsigned int refcnt = 0, typecnt = 0;
    bool got_frame = false, ro = op->flags & GNTMAP_readonly;
    uint32_t inc = pin_inc(op->flags);
    struct grant_mapping *mt;
    struct page_info *pg;
    unsigned long mfn;
    int rc;

    grant_read_lock(t);
    rc = gnt_pin_for_map(op->ref, ro, GNT_GUEST_DOMID, inc, &mfn,
                         &got_frame);
    grant_read_unlock(t);
    if ( rc )
        goto fail;
    pg = mfn_to_page(mfn);
    rc = pg ? take_refs(pg, op->flags, got_frame, &refcnt, &typecnt)
            : GNTST_general_error;
    if ( !rc && (op->flags & GNTMAP_host_map) )
        rc = create_grant_pv_mapping(op->host_addr, mfn, op->flags);
    if ( rc )
    {
        printk(XENLOG_DEBUG "d1: could not map grant %#x of mfn %#lx\n",
               op->ref, mfn);
        while ( typecnt-- )
            page_put_type(pg);
        while ( refcnt-- )
            page_put(pg);
        gnt_unpin_map(op->ref, ro, inc);
        goto fail;
    }

    mt = maptrack_entry(handle);
    mt->domid = op->dom;
    mt->ref = op->ref;
    /* Xen keeps 16 bits of them */
    __atomic_store_n(&mt->flags, op->flags, __ATOMIC_RELEASE);
    op->dev_bus_addr = (uint64_t)mfn << PAGE_SHIFT;
    op->handle = handle;
    op->status = GNTST_okay;
    return;

 fail:
    op->status = rc;
    put_maptrack_handle(handle);
}

static void map_grant_ref(struct gnttab_map_grant_ref *op)
{
    enum gnt_dom rd = gnt_domain(op->dom, false);
    grant_handle_t handle;

    if ( !(op->flags & (GNTMAP_device_map | GNTMAP_host_map)) )
    {
        op->status = GNTST_bad_gntref;
        return;
    }
    if ( rd == GNT_DOM_NONE )
    {
        op->status = GNTST_bad_domain;
        return;
    }
    handle = get_maptrack_handle();
    if ( handle == INVALID_HANDLE )
    {
        op->status = GNTST_no_device_space;
        return;
    }
    if ( rd == GNT_DOM_SELF )
    {
        map_own_grant(op, handle);
        return;
    }
    /* Domain 0's table: one frame of invalid entries. */
    op->status = op->ref >= GNT_DOM0_ENTRIES ? GNTST_bad_gntref
                                             : GNTST_general_error;
    put_maptrack_handle(handle);
}

long gnttab_map_grant_ref(unsigned long uop, unsigned int count)
{
    struct gnttab_map_grant_ref op;
    unsigned int i;

    for ( i = 0; i < count; i++ )
    {
        if ( i && hypercall_preempt_check(i) )
            return i;
        if ( copy_from_guest_offset(&op, uop, i, sizeof(op)) )
            return -XEN_EFAULT;
        map_grant_ref(&op);
        if ( copy_to_guest_offset(uop, i, &op, sizeof(op)) )
            return -XEN_EFAULT;
    }
    return 0;
}
