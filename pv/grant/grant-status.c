/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pinning one shared grant entry: check the guest's flags and domid and
 * set GTF_reading/GTF_writing where the version keeps them (the v1 entry
 * itself, updated with cmpxchg against a guest racing us, or the v2
 * status frame), and clear them again.  Xen's _set_status_v1/_v2().
 */
#include "pv/grant/private.h"
#include "pv/grant/grant-rules.h"
#include "pv/mm/mm.h"

/* The flags and domid of an entry, read and swapped as one word. */
union grant_combo {
    uint32_t raw;
    struct {
        uint16_t flags;
        domid_t domid;
    };
};

static int set_status_v1(uint32_t *raw, const struct active_grant_entry *act,
                         bool readonly, bool mapflag, domid_t ldomid)
{
    union grant_combo scombo, prev, new;
    unsigned int retries = 0;
    int rc;

    scombo.raw = ACCESS_ONCE(*raw);
    for ( ; ; )
    {
        new = scombo;
        rc = gnt_v1_pin_flags(scombo.flags, scombo.domid, act->pin,
                              readonly, mapflag, ldomid, &new.flags);
        if ( rc )
            return rc;
        prev.raw = __sync_val_compare_and_swap(raw, scombo.raw, new.raw);
        if ( prev.raw == scombo.raw )
            return GNTST_okay;
        /* The guest changed it under us: a few tries, then it's unstable. */
        if ( retries++ == 4 )
            return GNTST_general_error;
        scombo = prev;
    }
}

static int set_status_v2(uint32_t *raw, uint16_t *status,
                         const struct active_grant_entry *act, bool readonly,
                         bool mapflag, domid_t ldomid)
{
    union grant_combo scombo;

    scombo.raw = ACCESS_ONCE(*raw);
    if ( gnt_v2_pin_check(scombo.flags, scombo.domid, act->pin, readonly,
                          mapflag, ldomid) )
        return GNTST_general_error;
    __atomic_fetch_or(status, readonly ? GTF_reading
                                       : GTF_reading | GTF_writing,
                      __ATOMIC_SEQ_CST);

    /* Check again, now that the guest can see the status. */
    scombo.raw = ACCESS_ONCE(*raw);
    if ( !act->pin )
    {
        if ( gnt_v2_pin_check(scombo.flags, scombo.domid, false, readonly,
                              mapflag, ldomid) )
        {
            gnt_clear_flags(status, GTF_writing | GTF_reading);
            return GNTST_general_error;
        }
    }
    else if ( scombo.flags & GTF_readonly )
    {
        gnt_clear_flags(status, GTF_writing);
        return GNTST_general_error;
    }
    return GNTST_okay;
}

int gnt_set_status(struct grant_table *t, grant_ref_t ref,
                   struct active_grant_entry *act, bool readonly,
                   bool mapflag, domid_t ldomid)
{
    uint32_t *raw = (uint32_t *)shared_entry_header(t, ref);

    if ( t->version == 1 )
        return set_status_v1(raw, act, readonly, mapflag, ldomid);
    return set_status_v2(raw, status_entry(t, ref), act, readonly, mapflag,
                         ldomid);
}

void gnt_clear_flags(uint16_t *status, uint16_t flags)
{
    __atomic_fetch_and(status, (uint16_t)~flags, __ATOMIC_SEQ_CST);
}

/* After dropping a pin: what the remaining pins no longer justify. */
void gnt_unpin_clear(uint16_t *status, const struct active_grant_entry *act,
                     bool readonly)
{
    uint16_t clear = 0;

    if ( !readonly && !(act->pin & (GNTPIN_hstw_mask | GNTPIN_devw_mask)) )
        clear |= GTF_writing;
    if ( !act->pin )
        clear |= GTF_reading;
    if ( clear )
        gnt_clear_flags(status, clear);
}

/*
 * Xen's get_paged_frame() for a PV granter: the frame number is a
 * machine frame, and must be the guest's (GNTST_bad_page if not).
 */
int gnt_get_paged_frame(unsigned long gfn, unsigned long *mfn)
{
    struct page_info *pg = mfn_to_page(gfn);

    if ( !pg || !page_get(pg, PGO_GUEST) )
        return GNTST_bad_page;
    *mfn = gfn;
    return GNTST_okay;
}
