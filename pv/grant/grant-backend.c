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

/* Domain 0's maptrack: what each handle maps. */
static struct {
    grant_ref_t ref;
    bool in_use, readonly;
    unsigned long mfn;
} maps[BACKEND_MAPS];
static unsigned int free_hint;

static int find_free(void)
{
    unsigned int i, h;

    for ( i = 0; i < BACKEND_MAPS; i++ )
    {
        h = (free_hint + i) % BACKEND_MAPS;
        if ( !maps[h].in_use )
        {
            free_hint = h + 1;
            return h;
        }
    }
    return -1;
}

int pv_grant_map_dev(uint32_t ref, bool readonly, unsigned int *handle,
                     uint64_t *maddr)
{
    struct active_grant_entry *act = NULL;
    uint32_t inc = readonly ? GNTPIN_devr_inc : GNTPIN_devw_inc;
    bool got_frame = false;
    struct page_info *pg;
    int h, rc;

    ASSERT(pv_backend_locked());
    if ( (h = find_free()) < 0 )
        return GNTST_no_device_space;
    if ( (rc = gnt_pin_for_map(ref, readonly, BACKEND_DOMID, &act,
                               &got_frame)) )
        return rc;
    act->pin += inc;
    pg = mfn_to_page(act->mfn);
    rc = GNTST_general_error;
    if ( !pg || (!got_frame && !page_get(pg, PGO_GUEST)) )
        goto unpin;
    /* The device writes it: never a page table meanwhile. */
    if ( !readonly && page_get_type_flush(pg, PGT_WRITABLE) != PGT_OK )
    {
        page_put(pg);
        goto unpin;
    }
    maps[h].in_use = true;
    maps[h].ref = ref;
    maps[h].readonly = readonly;
    maps[h].mfn = act->mfn;
    *handle = h;
    *maddr = (uint64_t)act->mfn << PAGE_SHIFT;
    return GNTST_okay;

 unpin:
    act->pin -= inc;
    gnt_unpin_clear(grant_status_word(gt(), ref), act, readonly);
    return rc;
}

void pv_grant_unmap_dev(unsigned int handle)
{
    struct grant_table *t = gt();
    struct active_grant_entry *act;
    struct page_info *pg;
    bool ro;

    ASSERT(pv_backend_locked());
    if ( handle >= BACKEND_MAPS || !maps[handle].in_use )
        return;
    ro = maps[handle].readonly;
    act = active_entry(t, maps[handle].ref);
    pg = mfn_to_page(maps[handle].mfn);
    if ( !ro )
        page_put_type(pg);
    page_put(pg);
    act->pin -= ro ? GNTPIN_devr_inc : GNTPIN_devw_inc;
    gnt_unpin_clear(grant_status_word(t, maps[handle].ref), act, ro);
    maps[handle].in_use = false;
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
