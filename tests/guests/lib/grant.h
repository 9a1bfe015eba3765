/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Grant-table helpers for test kernels: the hypercall, the guest's own
 * table set up and mapped (v1 or v2, with status frames), and grant
 * entries written as a kernel writes them.
 */
#ifndef GUEST_GRANT_H
#define GUEST_GRANT_H

#include "guest.h"
#include "mm.h"
#include <xen/grant_table.h>
#include <xen/memory.h>

/* The guest's own domain id, as the shim gives it (d1). */
#define GNT_SELF_ID     1

static inline long gnttab_op(unsigned int cmd, const void *uop,
                             unsigned long count)
{
    return HYPERCALL(__HYPERVISOR_grant_table_op, cmd, uop, count, 0, 0);
}

/* The table's frames, mapped at gnt_v1 / gnt_v2 / gnt_status. */
#define GNT_MAP_FRAMES  4
extern grant_entry_v1_t *gnt_v1;
extern grant_entry_v2_t *gnt_v2;
extern grant_status_t *gnt_status;

/*
 * setup_table for @nr frames (at most GNT_MAP_FRAMES) and map them
 * writable at gnt_v1/gnt_v2; with version 2, also the status frames
 * (read-write, as Xen shares them).  ERROR ends the test on failure.
 */
void gnt_setup(unsigned int nr);
/* Put the windows back to their start-of-day frames (before a switch). */
void gnt_unmap_all(void);

long gnt_set_version(unsigned int v);

/* Grant @mfn to @domid in entry @ref (flags GTF_permit_access | @extra). */
void gnt_grant(unsigned int version, grant_ref_t ref, domid_t domid,
               unsigned long mfn, uint16_t extra);
/* The GTF_reading/GTF_writing bits Xen keeps for entry @ref. */
uint16_t gnt_status_bits(unsigned int version, grant_ref_t ref);

/* One map / unmap, returning the op's status. */
int16_t gnt_map1(struct gnttab_map_grant_ref *op, domid_t dom,
                 grant_ref_t ref, uint32_t flags, uint64_t host_addr);
int16_t gnt_unmap1(uint64_t host_addr, grant_handle_t handle,
                   uint64_t dev_bus_addr);

/* A page-aligned buffer the tests may remap (its own frame restorable). */
#define __gnt_page __attribute__((aligned(PAGE_SIZE)))

#endif /* GUEST_GRANT_H */
