/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest's grant table: its shared frames (and v2 status frames),
 * shim-allocated and shared with the guest read-write as Xen's
 * share_xen_page_with_guest(SHARE_rw) does, the active entries and
 * growth.  After Xen's common/grant_table.c.
 */
#include "pv/grant/private.h"
#include "pv/grant/grant-rules.h"
#include "arch/x86/flush.h"
#include "arch/x86/nospec.h"
#include "pv/guest-access.h"
#include "pv/mm/m2p.h"
#include "pv/mm/mm.h"
#include "pv/grant/grant.h"
#include "shim/frame.h"

unsigned int grant_to_status_frames(unsigned int grant_frames)
{
    return gnt_status_frames(grant_frames);
}

unsigned int nr_grant_entries(const struct grant_table *t)
{
    return t->nr_frames * (t->version == 2 ? SHGNT_PER_PAGE_V2
                                           : SHGNT_PER_PAGE_V1);
}

/*
 * The entries of a ref the guest named, checked against
 * nr_grant_entries() by the caller: clamped again, so that a mispredicted
 * check can't read past the table (Spectre v1, as Xen's accessors).
 */
static grant_ref_t ref_nospec(const struct grant_table *t, grant_ref_t ref)
{
    return array_index_nospec(ref, nr_grant_entries(t));
}

grant_entry_v1_t *shared_entry_v1(struct grant_table *t, grant_ref_t ref)
{
    ref = ref_nospec(t, ref);
    return (grant_entry_v1_t *)t->shared[ref / SHGNT_PER_PAGE_V1] +
           ref % SHGNT_PER_PAGE_V1;
}

grant_entry_v2_t *shared_entry_v2(struct grant_table *t, grant_ref_t ref)
{
    ref = ref_nospec(t, ref);
    return (grant_entry_v2_t *)t->shared[ref / SHGNT_PER_PAGE_V2] +
           ref % SHGNT_PER_PAGE_V2;
}

grant_entry_header_t *shared_entry_header(struct grant_table *t,
                                          grant_ref_t ref)
{
    if ( t->version == 1 )
        return (grant_entry_header_t *)shared_entry_v1(t, ref);
    return &shared_entry_v2(t, ref)->hdr;
}

grant_status_t *status_entry(struct grant_table *t, grant_ref_t ref)
{
    ref = ref_nospec(t, ref);
    return t->status[ref / STGNT_PER_PAGE] + ref % STGNT_PER_PAGE;
}

uint16_t *grant_status_word(struct grant_table *t, grant_ref_t ref)
{
    return t->version == 1 ? &shared_entry_header(t, ref)->flags
                           : status_entry(t, ref);
}

struct active_grant_entry *active_entry(struct grant_table *t,
                                        grant_ref_t ref)
{
    ref = ref_nospec(t, ref);
    return t->active[ref / ACGNT_PER_PAGE] + ref % ACGNT_PER_PAGE;
}

struct active_grant_entry *active_entry_acquire(struct grant_table *t,
                                                grant_ref_t ref)
{
    struct active_grant_entry *act = active_entry(t, ref);

    ASSERT(rw_is_locked_by_me(&t->lock));
    spin_lock_irq_on_wait(&act->lock);
    return act;
}

unsigned long va_to_mfn(const void *va)
{
    return __pa(va) >> PAGE_SHIFT;
}

/*
 * A frame of the shim's shared with the guest, as Xen's xenheap pages:
 * the guest's to map (its owner, with the allocation reference) and
 * holding a writable type reference of its own for as long as it is
 * shared, so it can never become a page table or descriptor frame; no
 * pfn in the M2P.
 */
static void *share_frame(void)
{
    unsigned long mfn = frame_alloc();

    if ( mfn == INVALID_PFN )
        return NULL;
    memset(__va(mfn << PAGE_SHIFT), 0, PAGE_SIZE);
    pv_m2p_set(mfn, ~0UL);
    pv_mm_give_frame(mfn);
    page_get_type_flush(mfn_to_page(mfn), PGT_WRITABLE);
    return __va(mfn << PAGE_SHIFT);
}

/*
 * A frame shared a moment ago taken back, the table's growth having
 * failed.  The guest owns it already and may have mapped it (its number
 * can be guessed): then it stays the guest's, an ordinary frame once the
 * share's writable type is dropped (the shim no longer writes it),
 * counted in tot_pages as any of its frames (its giving back will count
 * it out), and only the memory is lost, which the log says.  No TLB may keep a
 * translation of one the allocator takes back.
 */
static void unshare_frame(void *va)
{
    unsigned long mfn = va_to_mfn(va);
    struct page_info *pg = mfn_to_page(mfn);
    bool taken;

    spin_lock(&dom.page_alloc_lock);
    taken = page_release(pg, PGO_GUEST);
    page_put_type(pg);
    if ( !taken )
        dom.tot_pages++;            /* an ordinary frame: counted as one */
    spin_unlock(&dom.page_alloc_lock);
    if ( !taken )
    {
        printk(XENLOG_WARNING "d1: grant table frame %#lx left to the guest, "
               "which maps it\n", mfn);
        return;
    }
    pv_flush_domain(0, FLUSH_TLB_GLOBAL);
    frames_free(mfn, 1);
}

/* A frame of active entries, each with its lock set up. */
static struct active_grant_entry *alloc_active_frame(void)
{
    unsigned long mfn = frame_alloc();
    struct active_grant_entry *act;
    unsigned int i;

    if ( mfn == INVALID_PFN )
        return NULL;
    act = __va(mfn << PAGE_SHIFT);
    memset(act, 0, PAGE_SIZE);
    for ( i = 0; i < ACGNT_PER_PAGE; i++ )
        spin_lock_init(&act[i].lock, LOCK_RANK_GRANT_ACTIVE);
    return act;
}

int gnttab_populate_status_frames(unsigned int req_nr_frames)
{
    struct grant_table *t = gt();
    unsigned int i, req = grant_to_status_frames(req_nr_frames);

    ASSERT(rw_is_write_locked_by_me(&t->lock));
    for ( i = t->nr_status_frames; i < req; i++ )
        if ( !(t->status[i] = share_frame()) )
        {
            while ( i-- > t->nr_status_frames )
                unshare_frame(t->status[i]);
            return -XEN_ENOMEM;
        }
    t->nr_status_frames = MAX(req, t->nr_status_frames);
    return 0;
}

static struct page_info *status_page(const struct grant_table *t,
                                     unsigned int i)
{
    return mfn_to_page(va_to_mfn(t->status[i]));
}

/*
 * All or nothing: -EBUSY while the guest still maps any status frame.
 * It may map one at any time (mmu_update takes no grant lock), so each
 * frame is taken from it in one step, its allocation reference the
 * only one left (page_release()); one that has another stops the lot
 * and the ones taken are the guest's again, as they were.
 */
int gnttab_unpopulate_status_frames(void)
{
    struct grant_table *t = gt();
    unsigned int i, n = t->nr_status_frames;

    ASSERT(rw_is_write_locked_by_me(&t->lock));
    spin_lock(&dom.page_alloc_lock);
    for ( i = 0; i < n; i++ )
        if ( !page_release(status_page(t, i), PGO_GUEST) )
            break;
    if ( i < n )
    {
        while ( i-- )
            page_set_cinfo(status_page(t, i), PGO_GUEST, 1);
        spin_unlock(&dom.page_alloc_lock);
        return -XEN_EBUSY;
    }
    for ( i = 0; i < n; i++ )
    {
        ASSERT(page_type_count(status_page(t, i)) == 1);
        page_put_type(status_page(t, i));
    }
    spin_unlock(&dom.page_alloc_lock);
    pv_flush_domain(0, FLUSH_TLB_GLOBAL);
    for ( i = 0; i < n; i++ )
    {
        frames_free(va_to_mfn(t->status[i]), 1);
        t->status[i] = NULL;
    }
    t->nr_status_frames = 0;
    return 0;
}

int gnttab_grow_table(unsigned int req)
{
    struct grant_table *t = gt();
    unsigned int i, act;

    /* Room for every entry's active one, whatever size it has. */
    BUILD_BUG_ON(DIV_ROUND_UP(GNTTAB_MAX_FRAMES * SHGNT_PER_PAGE_V1,
                              ACGNT_PER_PAGE) >
                 ARRAY_SIZE(((struct grant_table *)0)->active));
    ASSERT(rw_is_write_locked_by_me(&t->lock));
    req = MAX(req, (unsigned int)GNT_INITIAL_FRAMES);
    act = DIV_ROUND_UP(req * SHGNT_PER_PAGE_V1, ACGNT_PER_PAGE);
    if ( req > GNTTAB_MAX_FRAMES || act > ARRAY_SIZE(t->active) )
        return -XEN_EINVAL;
    for ( ; t->nr_active_frames < act; t->nr_active_frames++ )
        if ( !(t->active[t->nr_active_frames] = alloc_active_frame()) )
            return -XEN_ENOMEM;
    for ( i = t->nr_frames; i < req; i++ )
        if ( !(t->shared[i] = share_frame()) )
            goto fail;
    if ( t->version > 1 && gnttab_populate_status_frames(req) )
        goto fail;
    if ( req > GNT_INITIAL_FRAMES )
        printk(XENLOG_DEBUG "d1: grant table from %u to %u frames\n",
               t->nr_frames, req);
    t->nr_frames = req;
    return 0;

 fail:
    while ( i-- > t->nr_frames )
        unshare_frame(t->shared[i]);
    printk(XENLOG_WARNING "d1: no memory to grow the grant table\n");
    return -XEN_ENOMEM;
}

/*
 * Xen makes the table with the domain; we do on the first grant op, the
 * first of several vCPUs' to take the lock for writing (the version is
 * set last, so whoever sees it sees the table).
 */
void gnttab_lazy_init(void)
{
    struct grant_table *t = gt();

    if ( __atomic_load_n(&t->version, __ATOMIC_ACQUIRE) )
        return;
    grant_write_lock(t);
    if ( !t->version )
    {
        t->maptrack_head = t->maptrack_tail = MAPTRACK_TAIL;
        gnttab_grow_table(0);
        __atomic_store_n(&t->version, 1, __ATOMIC_RELEASE);
    }
    grant_write_unlock(t);
}

/*
 * The frames the shim shares with the guest for its grant table stay
 * the table's while it has them: memory_op may not take them away
 * (pv/mm/memory.c), or the allocator would hand out a frame the shim still
 * writes grant entries and status into.
 */
void gnttab_hold(void)
{
    grant_read_lock(gt());
}

void gnttab_unhold(void)
{
    grant_read_unlock(gt());
}

bool gnttab_shares_frame(unsigned long mfn)
{
    struct grant_table *t = gt();
    bool shared = false;
    unsigned int i;

    ASSERT(rw_is_locked_by_me(&t->lock));
    for ( i = 0; i < t->nr_frames && !shared; i++ )
        shared = va_to_mfn(t->shared[i]) == mfn;
    for ( i = 0; i < t->nr_status_frames && !shared; i++ )
        shared = va_to_mfn(t->status[i]) == mfn;
    return shared;
}

/*
 * For pv/mm/mm-audit.c: references the grant table holds outside any
 * page table: each shared frame's own type, each device mapping's.
 */
void gnttab_audit(uint32_t *want_count, uint32_t *want_type)
{
    struct grant_table *t = gt();
    unsigned int i;

    for ( i = 0; i < t->nr_frames; i++ )
        want_type[va_to_mfn(t->shared[i])]++;
    for ( i = 0; i < t->nr_status_frames; i++ )
        want_type[va_to_mfn(t->status[i])]++;
    for ( i = 0; i < t->maptrack_limit; i++ )
    {
        const struct grant_mapping *m =
            &t->maptrack[i / MAPTRACK_PER_PAGE][i % MAPTRACK_PER_PAGE];

        if ( !(m->flags & GNTMAP_device_map) ||
             m->ref >= nr_grant_entries(t) )
            continue;
        want_count[active_entry(t, m->ref)->mfn]++;
        if ( !(m->flags & GNTMAP_readonly) )
            want_type[active_entry(t, m->ref)->mfn]++;
    }
    gnttab_backend_audit(want_count, want_type);
}
