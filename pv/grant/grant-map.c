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

/* A handle the guest named, below maptrack_limit: clamped as well. */
struct grant_mapping *maptrack_entry(grant_handle_t h)
{
    h = array_index_nospec(h, gt()->maptrack_limit);
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
    t->maptrack[nr] = new;
    t->maptrack_limit += MAPTRACK_PER_PAGE;
    new[MAPTRACK_PER_PAGE - 1].ref = t->maptrack_head;
    t->maptrack_head = handle + 1;
    return handle;
}

/* Xen keeps one entry on the free list, so the tail can always grow. */
static grant_handle_t get_maptrack_handle(void)
{
    struct grant_table *t = gt();
    grant_handle_t head = t->maptrack_head, next;

    if ( head != MAPTRACK_TAIL )
    {
        next = maptrack_entry(head)->ref;
        if ( next != MAPTRACK_TAIL )
        {
            t->maptrack_head = next;
            return head;
        }
    }
    return grow_maptrack(t);
}

void put_maptrack_handle(grant_handle_t handle)
{
    struct grant_table *t = gt();
    grant_handle_t prev_tail = t->maptrack_tail;

    maptrack_entry(handle)->ref = MAPTRACK_TAIL;
    t->maptrack_tail = handle;
    maptrack_entry(prev_tail)->ref = handle;
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
 * own, or the shim's backends as domain 0), read-only if @ro, as Xen's
 * map_grant_ref() up to the frame: 0, or a GNTST_* error.  *@got_frame
 * when this pin took the frame's first reference.
 */
int gnt_pin_for_map(grant_ref_t ref, bool ro, domid_t domid,
                    struct active_grant_entry **pact, bool *got_frame)
{
    struct grant_table *t = gt();
    struct active_grant_entry *act;
    unsigned long gfn, mfn;
    int rc;

    if ( ref >= nr_grant_entries(t) )
        return GNTST_bad_gntref;
    *pact = act = active_entry(t, ref);
    if ( act->pin && (act->domid != domid ||
                      (act->pin & GNTPIN_overflow) || act->is_sub_page) )
        return GNTST_general_error;
    if ( act->pin && (ro || (act->pin & (GNTPIN_hstw_mask |
                                         GNTPIN_devw_mask))) )
        return GNTST_okay;
    if ( (rc = gnt_set_status(t, ref, act, ro, true, domid)) )
        return rc;
    if ( act->pin )
        return GNTST_okay;
    gfn = t->version == 1 ? shared_entry_v1(t, ref)->frame
                          : shared_entry_v2(t, ref)->full_page.frame;
    if ( (rc = gnt_get_paged_frame(gfn, &mfn)) )
    {
        gnt_unpin_clear(grant_status_word(t, ref), act, ro);
        return rc;
    }
    *got_frame = true;
    act->domid = domid;
    act->mfn = mfn;
    act->start = 0;
    act->length = PAGE_SIZE;
    act->is_sub_page = false;
    return GNTST_okay;
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

static void map_own_grant(struct gnttab_map_grant_ref *op,
                          grant_handle_t handle)
{
    struct active_grant_entry *act = NULL;
    unsigned int refcnt = 0, typecnt = 0;
    bool got_frame = false, ro = op->flags & GNTMAP_readonly;
    struct grant_mapping *mt;
    struct page_info *pg;
    int rc;

    rc = gnt_pin_for_map(op->ref, op->flags & GNTMAP_readonly,
                         GNT_GUEST_DOMID, &act, &got_frame);
    if ( rc )
        goto fail;
    act->pin += pin_inc(op->flags);
    pg = mfn_to_page(act->mfn);
    rc = pg ? take_refs(pg, op->flags, got_frame, &refcnt, &typecnt)
            : GNTST_general_error;
    if ( !rc && (op->flags & GNTMAP_host_map) )
        rc = create_grant_pv_mapping(op->host_addr, act->mfn, op->flags);
    if ( rc )
    {
        printk(XENLOG_DEBUG "d1: could not map grant %#x of mfn %#lx\n",
               op->ref, act->mfn);
        while ( typecnt-- )
            page_put_type(pg);
        while ( refcnt-- )
            page_put(pg);
        act->pin -= pin_inc(op->flags);
        gnt_unpin_clear(grant_status_word(gt(), op->ref), act, ro);
        goto fail;
    }

    mt = maptrack_entry(handle);
    mt->domid = op->dom;
    mt->ref = op->ref;
    mt->flags = op->flags;              /* Xen keeps 16 bits of them */
    op->dev_bus_addr = (uint64_t)act->mfn << PAGE_SHIFT;
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
