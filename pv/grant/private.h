/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Grant tables inside pv/grant/: the active entries and map tracking that
 * only the shim sees, the domains a grant op may name, and the helpers the
 * table, map, copy and op files share.  After Xen's common/grant_table.c.
 * Toward the rest of pv/: pv/grant/grant.h.
 */
#ifndef PV_GRANT_PRIVATE_H
#define PV_GRANT_PRIVATE_H

#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/errno.h>
#include <xen/grant_table.h>
#include "arch/x86/layout.h"
#include "pv/domain.h"
#include "shim/console.h"
#include "shim/frame.h"

#ifndef DIV_ROUND_UP
#define DIV_ROUND_UP(n, d)  (((n) + (d) - 1) / (d))
#endif

/* The guest's domain id (the log's d1); the shim is "domain 0". */
#define GNT_GUEST_DOMID     1

/* Xen's INITIAL_NR_GRANT_FRAMES (x86). */
#define GNT_INITIAL_FRAMES  1

/* Xen's continuation encoding: an opaque argument above the sub-op. */
#define GNTTABOP_CONTINUATION_ARG_SHIFT 12
#define GNTTABOP_CMD_MASK   ((1u << GNTTABOP_CONTINUATION_ARG_SHIFT) - 1)

#define SHGNT_PER_PAGE_V1   (PAGE_SIZE / sizeof(grant_entry_v1_t))
#define SHGNT_PER_PAGE_V2   (PAGE_SIZE / sizeof(grant_entry_v2_t))
#define STGNT_PER_PAGE      (PAGE_SIZE / sizeof(grant_status_t))

/*
 * Xen's active_grant_entry: the shim's shadow of a pinned grant, all of
 * it under its @lock (active_entry_acquire()).
 */
struct active_grant_entry {
    spinlock_t lock;
    uint32_t pin;                       /* GNTPIN_* counts */
    uint16_t domid;                     /* the domain granted access */
    uint16_t start;                     /* sub-page grants: offset ... */
    uint16_t length;                    /* ... and length */
    bool is_sub_page;
    unsigned long mfn;
};

#define GNTPIN_hstw_inc     (1u << 0)
#define GNTPIN_hstw_mask    (0xffu << 0)
#define GNTPIN_hstr_inc     (1u << 8)
#define GNTPIN_hstr_mask    (0xffu << 8)
#define GNTPIN_devw_inc     (1u << 16)
#define GNTPIN_devw_mask    (0xffu << 16)
#define GNTPIN_devr_inc     (1u << 24)
#define GNTPIN_devr_mask    (0xffu << 24)
#define GNTPIN_overflow     0x80808080u

#define ACGNT_PER_PAGE      (PAGE_SIZE / sizeof(struct active_grant_entry))

/* Xen's grant_mapping: one maptrack entry, a handle's record. */
struct grant_mapping {
    grant_ref_t ref;                    /* or the next free handle */
    uint16_t flags;                     /* GNTMAP_*; 0: free */
    domid_t domid;
    uint32_t vcpu, pad;
};

#define MAPTRACK_PER_PAGE   (PAGE_SIZE / sizeof(struct grant_mapping))
#define MAPTRACK_TAIL       (~0u)
#define INVALID_HANDLE      (~0u)

/*
 * The domains a grant op can name.  rcu_lock_domain_by_id() finds the
 * guest (1) and the shim's domain 0; by_any_id() also takes DOMID_SELF.
 * Domain 0 has Xen's initial table (v1, one frame) and grants nothing.
 */
enum gnt_dom { GNT_DOM_NONE, GNT_DOM_SELF, GNT_DOM_ZERO };

static inline enum gnt_dom gnt_domain(domid_t id, bool any_id)
{
    if ( id == GNT_GUEST_DOMID || (any_id && id == DOMID_SELF) )
        return GNT_DOM_SELF;
    return id == 0 ? GNT_DOM_ZERO : GNT_DOM_NONE;
}

/* Entries in domain 0's table: one v1 frame, all invalid. */
#define GNT_DOM0_ENTRIES    SHGNT_PER_PAGE_V1

/*
 * Xen's guest_handle_okay() on x86-64: the count must not overflow and
 * the array must *start* in guest space; each element is range-checked
 * as it is copied, so an array running into the hypervisor's range or
 * unmapped memory fails there, after the elements before it are done.
 */
static inline bool gnt_handle_okay(unsigned long va, unsigned long count,
                                   size_t size)
{
    return count < ~0UL / size &&
           (va < (1UL << 47) || va >= HYPERVISOR_VIRT_END);
}

static inline struct grant_table *gt(void)
{
    return &dom.grant_table;
}

/*
 * The table's lock (Xen's grant_read_lock() and grant_write_lock()),
 * waited for with interrupts on: a holder may be flushing TLBs (a frame
 * shared or taken back, a writable type), which needs every CPU.
 */
static inline void grant_read_lock(struct grant_table *t)
{
    read_lock_irq_on_wait(&t->lock);
}

static inline void grant_read_unlock(struct grant_table *t)
{
    read_unlock(&t->lock);
}

static inline void grant_write_lock(struct grant_table *t)
{
    write_lock_irq_on_wait(&t->lock);
}

static inline void grant_write_unlock(struct grant_table *t)
{
    write_unlock(&t->lock);
}

/*
 * Entry @ref (below nr_grant_entries(), the table read-locked) with its
 * lock held, until active_entry_release(): its pin, frame and range, and
 * the maptrack entries that name it changing (Xen's).  Waited for with
 * interrupts on, as its holder may wait for a page table's lock.
 */
struct active_grant_entry *active_entry_acquire(struct grant_table *t,
                                                grant_ref_t ref);

static inline void active_entry_release(struct active_grant_entry *act)
{
    spin_unlock(&act->lock);
}

unsigned int nr_grant_entries(const struct grant_table *t);
grant_entry_header_t *shared_entry_header(struct grant_table *t,
                                          grant_ref_t ref);
grant_entry_v1_t *shared_entry_v1(struct grant_table *t, grant_ref_t ref);
grant_entry_v2_t *shared_entry_v2(struct grant_table *t, grant_ref_t ref);
grant_status_t *status_entry(struct grant_table *t, grant_ref_t ref);
/* The flags word Xen keeps status in: v1's header, v2's status frame. */
uint16_t *grant_status_word(struct grant_table *t, grant_ref_t ref);
struct active_grant_entry *active_entry(struct grant_table *t,
                                        grant_ref_t ref);

/* grant-table.c */
unsigned long va_to_mfn(const void *va);
unsigned int grant_to_status_frames(unsigned int grant_frames);
void gnttab_lazy_init(void);
int gnttab_grow_table(unsigned int req_nr_frames);
int gnttab_populate_status_frames(unsigned int req_nr_frames);
int gnttab_unpopulate_status_frames(void);

/* grant-query.c (compat_*: a 32-bit guest's layout) */
long gnttab_setup_table(unsigned long uop, unsigned int count);
long compat_gnttab_setup_table(unsigned long uop, unsigned int count);
long gnttab_query_size(unsigned long uop, unsigned int count);
long gnttab_get_status_frames(unsigned long uop, unsigned int count);
long compat_gnttab_get_status_frames(unsigned long uop, unsigned int count);
long gnttab_get_version(unsigned long uop);

/* grant-version.c */
long gnttab_set_version(unsigned long uop);

/* grant-status.c: pinning a shared entry, and clearing what it set. */
int gnt_set_status(struct grant_table *t, grant_ref_t ref,
                   struct active_grant_entry *act, bool readonly,
                   bool mapflag, domid_t ldomid);
void gnt_clear_flags(uint16_t *status, uint16_t flags);
void gnt_unpin_clear(uint16_t *status, const struct active_grant_entry *act,
                     bool readonly);
/* A guest frame by its number (PV: gfn == mfn), with a reference. */
int gnt_get_paged_frame(unsigned long gfn, unsigned long *mfn);
/* grant-map.c: pin entry @ref for a map by @domid (see there). */
int gnt_pin_for_map(grant_ref_t ref, bool ro, domid_t domid, uint32_t inc,
                    unsigned long *mfn, bool *got_frame);
void gnt_unpin_map(grant_ref_t ref, bool ro, uint32_t inc);

/* The handles in maptrack frames: read without maptrack_lock. */
static inline unsigned int maptrack_limit(const struct grant_table *t)
{
    return __atomic_load_n(&t->maptrack_limit, __ATOMIC_ACQUIRE);
}

/* grant-map.c */
struct grant_mapping *maptrack_entry(grant_handle_t h);
void put_maptrack_handle(grant_handle_t handle);
long gnttab_map_grant_ref(unsigned long uop, unsigned int count);

/* grant-unmap.c */
long gnttab_unmap_grant_ref(unsigned long uop, unsigned int count);
long gnttab_unmap_and_replace(unsigned long uop, unsigned int count);

/* grant-pte.c: the PV host mappings, as Xen's pv/grant_table.c. */
int create_grant_pv_mapping(uint64_t addr, unsigned long mfn,
                            unsigned int flags);
int replace_grant_pv_mapping(uint64_t addr, unsigned long mfn,
                             uint64_t new_addr, unsigned int flags);

/* grant-copy.c */
long gnttab_copy(unsigned long uop, unsigned int count);
long compat_gnttab_copy(unsigned long uop, unsigned int count);

/* grant-transfer.c */
long gnttab_transfer(unsigned long uop, unsigned int count);
long compat_gnttab_transfer(unsigned long uop, unsigned int count);

#endif /* PV_GRANT_PRIVATE_H */
