/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pure rules of grant tables, tested on the host
 * (tests/unit/test-grant-rules.c): which entry may be pinned and how its
 * flags change, the PTE a host mapping gets, and table sizes.
 */
#ifndef PV_GRANT_RULES_H
#define PV_GRANT_RULES_H

#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/grant_table.h>

/*
 * Pinning an entry whose flags/domid are @flags/@domid for @ldomid
 * (Xen's _set_status() checks).  @pinned: already pinned (then only the
 * read-only bit matters).  @mapflag: a map, where sub-page entries are
 * refused.  v1: *@new_flags is what to write (GTF_reading, and
 * GTF_writing unless @readonly).  Returns GNTST_okay or
 * GNTST_general_error.
 */
int gnt_v1_pin_flags(uint16_t flags, domid_t domid, bool pinned,
                     bool readonly, bool mapflag, domid_t ldomid,
                     uint16_t *new_flags);
int gnt_v2_pin_check(uint16_t flags, domid_t domid, bool pinned,
                     bool readonly, bool mapflag, domid_t ldomid);

/*
 * Xen's grant_to_pte_flags() for a 64-bit PV guest: P, A, D, @nx (the
 * CPU's NX bit or 0), U for an application map, RW unless read-only,
 * and the map's avail bits 16-18 as PTE bits 9-11.
 */
uint64_t gnt_pte_flags(uint32_t gnt_flags, uint64_t nx);

/* Status frames for @grant_frames v2 frames (Xen's rounding up). */
unsigned int gnt_status_frames(unsigned int grant_frames);

#endif /* PV_GRANT_RULES_H */
