/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The shim's backends mapping the guest's grants for device I/O: domain
 * 0's maptrack (pv/pv.h's handles) and its GNTTABOP_map_grant_ref /
 * unmap_grant_ref with GNTMAP_device_map, as Xen's map_grant_ref() and
 * unmap_common() do them for a dom0 backend: no page table is touched,
 * only the grant's pin, the frame's references and its type.
 */
#include "pv/grant/private.h"
#include "pv/grant/grant.h"
#include "pv/mm/mm.h"
#include "pv/pv.h"

#define BACKEND_DOMID       0
#define BACKEND_MAPS        PV_BACKEND_MAPS

/*
 * Domain 0's maptrack: what each handle maps.  A handle is taken by the
 * exchange that sets its in_use (any CPU: the backends' own locks are
 * per device) and given back by the store that clears it; in between it
 * is its caller's alone.  No lock: a device's every segment takes one
 * and gives it back (blkback's 32 for a 128 KiB request), and the lock
 * that guarded only this flag cost a quarter of the unmap.
 */
static struct {
    grant_ref_t ref;
    bool in_use, readonly;
    unsigned long mfn;
} maps[BACKEND_MAPS];
static unsigned int free_hint;          /* where to look first: a hint */

static int get_handle(void)
{
    unsigned int i, h, hint = ACCESS_ONCE(free_hint);

    for ( i = 0; i < BACKEND_MAPS; i++ )
    {
        h = (hint + i) % BACKEND_MAPS;
        if ( !ACCESS_ONCE(maps[h].in_use) &&
             !__atomic_exchange_n(&maps[h].in_use, true, __ATOMIC_ACQUIRE) )
        {
            ACCESS_ONCE(free_hint) = h + 1;
            return h;
        }
    }
    return -1;
}

static void put_handle(unsigned int h)
{
    __atomic_store_n(&maps[h].in_use, false, __ATOMIC_RELEASE);
}

/*
 * As map_own_grant() (grant-map.c), for a device: the pin under the
 * table's locks, the frame's references (a writable type for a device
 * that writes it: never a page table meanwhile) without them.
 */
int pv_grant_map_dev(uint32_t ref, bool readonly, unsigned int *handle,
                     uint64_t *maddr)
{
    uint32_t inc = readonly ? GNTPIN_devr_inc : GNTPIN_devw_inc;
    bool got_frame = false;
    struct page_info *pg;
    unsigned long mfn;
    int h, rc;

    if ( (h = get_handle()) < 0 )
        return GNTST_no_device_space;
    grant_read_lock(gt());
    rc = gnt_pin_for_map(ref, readonly, BACKEND_DOMID, inc, &mfn,
                         &got_frame);
    grant_read_unlock(gt());
    if ( rc )
        goto put;
    pg = mfn_to_page(mfn);
    rc = GNTST_general_error;
    if ( !pg || (!got_frame && !page_get(pg, PGO_GUEST)) )
        goto unpin;
    if ( !readonly && page_get_type_flush(pg, PGT_WRITABLE) != PGT_OK )
    {
        page_put(pg);
        goto unpin;
    }
    maps[h].ref = ref;
    maps[h].readonly = readonly;
    maps[h].mfn = mfn;
    *handle = h;
    *maddr = (uint64_t)mfn << PAGE_SHIFT;
    return GNTST_okay;

 unpin:
    gnt_unpin_map(ref, readonly, inc);
 put:
    put_handle(h);
    return rc;
}

/* The frame's references go before the pin, as in an unmap. */
void pv_grant_unmap_dev(unsigned int handle)
{
    struct page_info *pg;
    bool ro;

    if ( handle >= BACKEND_MAPS || !ACCESS_ONCE(maps[handle].in_use) )
        return;
    ro = maps[handle].readonly;
    pg = mfn_to_page(maps[handle].mfn);
    if ( !ro )
        page_put_type(pg);
    page_put(pg);
    gnt_unpin_map(maps[handle].ref, ro,
                  ro ? GNTPIN_devr_inc : GNTPIN_devw_inc);
    put_handle(handle);
}

/* mm-audit: the references domain 0's device mappings hold. */
void gnttab_backend_audit(uint32_t *want_count, uint32_t *want_type)
{
    unsigned int h;

    for ( h = 0; h < BACKEND_MAPS; h++ )
    {
        if ( !maps[h].in_use )
            continue;
        want_count[maps[h].mfn]++;
        if ( !maps[h].readonly )
            want_type[maps[h].mfn]++;
    }
}
