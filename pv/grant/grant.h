/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Grant tables toward the rest of pv/: what the MM asks of them.  The
 * hypercall is pv/hypercall.h's; the table's internals are
 * pv/grant/private.h's.
 */
#ifndef PV_GRANT_GRANT_H
#define PV_GRANT_GRANT_H

#include "shim/lib.h"

/*
 * Is @mfn one of the grant table's shared or status frames?  Between
 * gnttab_hold() and gnttab_unhold() (the table's lock, read): its frames
 * stay as they are, so a frame the caller finds not shared cannot become
 * one (the table growing, or v2's status frames, from frames the guest
 * gave back meanwhile) before the caller has taken it from the guest.
 */
void gnttab_hold(void);
void gnttab_unhold(void);
bool gnttab_shares_frame(unsigned long mfn);

/*
 * For pv/mm/mm-audit.c: the references the grant table holds outside any
 * page table (each shared frame's own type, each device mapping's), added
 * to the counts it expects of each frame (indexed by mfn).
 */
void gnttab_audit(uint32_t *want_count, uint32_t *want_type);
/* ... of which the backends' device mappings (grant-backend.c). */
void gnttab_backend_audit(uint32_t *want_count, uint32_t *want_type);

#endif /* PV_GRANT_GRANT_H */
