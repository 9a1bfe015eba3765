/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Grant-table rules with no state (pv/grant/grant-rules.h), after Xen's
 * _set_status_v1/_v2() checks and pv/grant_table.c's grant_to_pte_flags().
 */
#include "pv/grant/grant-rules.h"
#include "arch/x86/page.h"
#include "shim/frame.h"

static uint16_t pin_mask(bool mapflag)
{
    return GTF_type_mask | (mapflag ? GTF_sub_page : 0);
}

int gnt_v1_pin_flags(uint16_t flags, domid_t domid, bool pinned,
                     bool readonly, bool mapflag, domid_t ldomid,
                     uint16_t *new_flags)
{
    if ( !pinned && ((flags & pin_mask(mapflag)) != GTF_permit_access ||
                     domid != ldomid) )
        return GNTST_general_error;
    if ( !readonly && (flags & GTF_readonly) )
        return GNTST_general_error;
    *new_flags = flags | GTF_reading | (readonly ? 0 : GTF_writing);
    return GNTST_okay;
}

int gnt_v2_pin_check(uint16_t flags, domid_t domid, bool pinned,
                     bool readonly, bool mapflag, domid_t ldomid)
{
    uint16_t type = flags & pin_mask(mapflag);

    /*
     * A transitive entry may be copied from, never mapped: its frame
     * field is the next grant's reference (Xen's fix of the same).
     */
    if ( !pinned && ((type != GTF_permit_access &&
                      (mapflag || type != GTF_transitive)) ||
                     domid != ldomid) )
        return GNTST_general_error;
    if ( !readonly && (flags & GTF_readonly) )
        return GNTST_general_error;
    return GNTST_okay;
}

uint64_t gnt_pte_flags(uint32_t gnt_flags, uint64_t nx)
{
    uint64_t f = _PAGE_PRESENT | _PAGE_ACCESSED | _PAGE_DIRTY | nx;

    if ( gnt_flags & GNTMAP_application_map )
        f |= _PAGE_USER;
    if ( !(gnt_flags & GNTMAP_readonly) )
        f |= _PAGE_RW;
    f |= ((uint64_t)((gnt_flags >> _GNTMAP_guest_avail0) & 7)) << 9;
    return f;
}

unsigned int gnt_status_frames(unsigned int grant_frames)
{
    unsigned int per_grant = PAGE_SIZE / sizeof(grant_entry_v2_t);
    unsigned int per_status = PAGE_SIZE / sizeof(grant_status_t);

    return (grant_frames * per_grant + per_status - 1) / per_status;
}
