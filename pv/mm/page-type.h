/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frame table's per-frame state and its rules, as Xen's x86 mm.c
 * describes them ("Reference counting of pages"): a general reference
 * count, and a type with its own count.  A frame's type changes only when
 * its type count is zero, so a frame used as a page table can never also
 * be mapped writable.  Pure logic: pv/mm/validate.c does the validation
 * these functions ask for; tests/unit/test-page-type.c checks every
 * transition.
 */
#ifndef PV_PAGE_TYPE_H
#define PV_PAGE_TYPE_H

#include "shim/lib.h"

enum page_type {
    PGT_NONE = 0,
    PGT_WRITABLE,       /* mapped writable somewhere */
    PGT_L1,             /* page tables, by level */
    PGT_L2,
    PGT_L3,
    PGT_L4,
    PGT_SEG_DESC,       /* GDT/LDT frame */
    /*
     * A 32-bit PAE guest's L2 at slot 3 of an L3 (Xen's PGT_l2_page_table
     * | PGT_pae_xen_l2): its slots from the compat hypervisor hole up are
     * the shim's (the compat M2P), so it is a type of its own, never
     * taken for a plain L2, and held by one L3 only.
     */
    PGT_L2_XEN,
    PGT_NR,
};

enum page_owner {
    PGO_NONE = 0,       /* no one's: not RAM, free, or not tracked */
    PGO_GUEST,          /* the guest's: it may map and type it */
    PGO_SHIM,           /* ours (image, M2P, shared_info...): never the
                           guest's to map through its page tables */
    PGO_IO,             /* not RAM: device or firmware space (Xen's
                           dom_io), refused to a guest without I/O */
    PGO_DYING,          /* the guest gave it back (decrease_reservation)
                           while something still referenced it: no new
                           reference; freed when the last one goes */
};

#define PGF_VALIDATED   0x01    /* type's contents checked (page tables) */
#define PGF_PINNED      0x02    /* the guest pinned it (one type ref) */
/*
 * The type was just taken (a page table, a descriptor frame, or a frame
 * a stale walk may still reach): the CPU that took it flushes, validates
 * and ends this with page_type_validated() or page_type_invalid().
 */
#define PGF_VALIDATING  0x04
/*
 * Set when a page-table type ends, cleared when the frame next takes a
 * type (after the flush that takes): a paging-structure cache may still
 * walk through the frame until then.
 */
#define PGF_STALE_TABLE 0x08
/*
 * page_lock(): one CPU at a time changes this validated table's entries
 * (Xen's PGT_locked); the lock holds a type reference of its own.
 */
#define PGF_LOCKED      0x10
/*
 * A writable or seg_desc type's last reference going: its flush stamp
 * is being written (put_type()); a getter waits (PGT_BUSY), so no
 * mapping of it can come and go unstamped in between.
 */
#define PGF_ENDING      0x20

/*
 * A frame's counts live in two words, each changed only by cmpxchg (or,
 * before any other CPU can see the frame, a plain store), as Xen's
 * count_info and type_info: so the rules below hold with no lock.
 *
 *   count_info  bits 0-31 general references, 32-39 enum page_owner
 *   type_info   bits 0-31 type references, 32-39 enum page_type,
 *               40-47 PGF_*
 */
#define PAGE_COUNT(x)   ((uint32_t)(x))
#define PAGE_OWNER(x)   ((uint8_t)((x) >> 32))
#define PAGE_CINFO(owner, count) \
    (((uint64_t)(owner) << 32) | (uint32_t)(count))
#define PAGE_TCOUNT(x)  ((uint32_t)(x))
#define PAGE_TYPE(x)    ((uint8_t)((x) >> 32))
#define PAGE_FLAGS(x)   ((uint8_t)((x) >> 40))
#define PAGE_TINFO(type, count, flags) \
    (((uint64_t)(uint8_t)(flags) << 40) | ((uint64_t)(type) << 32) | \
     (uint32_t)(count))

struct page_info {
    /*
     * tlbflush_stamp() when its last type ended (0: never), or for a
     * page table, when a walk last could reach it (page_stamp_unlinked()):
     * until each CPU that ran the guest has flushed everything since,
     * TLBs may still hold a writable translation of it, and
     * paging-structure caches a pointer to it if it was a page table.
     * Before it takes a new type, the CPUs tlbflush_filter() leaves flush
     * (pv/mm/validate.c).  Written by the CPU that ends a type while it
     * still holds the last reference (and a table's by each that drops a
     * walkable one), read by the one that next holds the frame
     * VALIDATING.
     */
    uint64_t flush_stamp;
    uint64_t count_info;
    uint64_t type_info;
    /*
     * Linear (recursive) page tables, as Xen's linear_pt_count: > 0, how
     * many linear entries this table holds; < 0, how many linear entries
     * point at it.  A table can't be both (XSA-240).  pv/mm/validate.c's
     * business, changed by cmpxchg.
     */
    int16_t linear_pt_count;
};

static inline uint64_t page_cinfo(const struct page_info *pg)
{
    return __atomic_load_n(&pg->count_info, __ATOMIC_ACQUIRE);
}

static inline uint64_t page_tinfo(const struct page_info *pg)
{
    return __atomic_load_n(&pg->type_info, __ATOMIC_ACQUIRE);
}

static inline uint32_t page_count(const struct page_info *pg)
{
    return PAGE_COUNT(page_cinfo(pg));
}

static inline unsigned int page_owner(const struct page_info *pg)
{
    return PAGE_OWNER(page_cinfo(pg));
}

static inline unsigned int page_type(const struct page_info *pg)
{
    return PAGE_TYPE(page_tinfo(pg));
}

static inline uint32_t page_type_count(const struct page_info *pg)
{
    return PAGE_TCOUNT(page_tinfo(pg));
}

static inline unsigned int page_flags(const struct page_info *pg)
{
    return PAGE_FLAGS(page_tinfo(pg));
}

/*
 * Whole states, for a frame no other CPU can reach yet (being given to
 * the guest, freed, or a test's).
 */
static inline void page_set_cinfo(struct page_info *pg,
                                  enum page_owner owner, uint32_t count)
{
    __atomic_store_n(&pg->count_info, PAGE_CINFO(owner, count),
                     __ATOMIC_RELEASE);
}

static inline void page_set_tinfo(struct page_info *pg, enum page_type type,
                                  uint32_t count, unsigned int flags)
{
    __atomic_store_n(&pg->type_info, PAGE_TINFO(type, count, flags),
                     __ATOMIC_RELEASE);
}

/*
 * The owner @from becomes @to, the count kept: false if it was not
 * @from's (decrease_reservation's PGO_GUEST -> PGO_DYING).
 */
bool page_change_owner(struct page_info *pg, enum page_owner from,
                       enum page_owner to);

/*
 * @owner's frame referenced only by its allocation becomes no one's,
 * count 0, in one step: false if anything else holds a reference (Xen's
 * steal_page()).
 */
bool page_release(struct page_info *pg, enum page_owner owner);

static inline bool is_page_table_type(unsigned int t)
{
    return (t >= PGT_L1 && t <= PGT_L4) || t == PGT_L2_XEN;
}

/* What page_get_type() tells its caller. */
#define PGT_OK          0       /* reference taken, nothing more to do */
#define PGT_VALIDATE    1       /* new type, VALIDATING: finish it now */
#define PGT_BUSY        2       /* another CPU is (de)validating it: retry */

/*
 * General references.  page_get() refuses (false) a frame not owned by
 * @owner (PGO_NONE owns nothing), a frame with no reference left (count
 * 0: whoever assigns a frame sets its owner and first reference), and a
 * count that would overflow.  A guest frame holds one reference for being
 * allocated, so its count never reaches 0 while the guest has it.
 * Xen's get_page(); stricter in one way: PGO_DYING (a frame given back)
 * takes none, where Xen still counts new ones on a frame that lost its
 * allocation.  Inline, as page_unref(): validation takes one per entry.
 */
#define PAGE_COUNT_MAX      UINT32_MAX
/*
 * The type count's (page_get_type() and page_lock() refuse at it): a
 * type count overflow is -XEN_EINVAL, as Xen's _get_page_type() returns
 * ("Type count overflow"); a guest can't reach either with real memory.
 */
#define PAGE_TYPE_COUNT_MAX UINT32_MAX

static inline bool page_get(struct page_info *pg, enum page_owner owner)
{
    uint64_t x = page_cinfo(pg);

    if ( owner == PGO_NONE || owner == PGO_DYING )
        return false;
    do {
        if ( PAGE_OWNER(x) != owner || PAGE_COUNT(x) == 0 ||
             PAGE_COUNT(x) == PAGE_COUNT_MAX )
            return false;
    } while ( !__atomic_compare_exchange_n(&pg->count_info, &x, x + 1, false,
                                           __ATOMIC_ACQ_REL,
                                           __ATOMIC_ACQUIRE) );
    return true;
}

/*
 * A frame's last reference about to go (count_info @x): a PGO_DYING
 * frame's flush_stamp, written before the count can be seen at 0
 * (pv_mm_free_dying()'s scan may find the frame dead at once, and trusts
 * the stamp it reads).
 */
void page_dying_stamp(struct page_info *pg, uint64_t x);

/*
 * page_unref() drops one.  It returns true when that was the last
 * reference of a PGO_DYING frame: the frame died, and the caller must
 * hand it to the MM to be freed (pv/mm/frame-table.c: page_put() does).
 * Inline, so that page_put() does it all in one call, as the hot paths
 * of mmu_update and unpinning need.
 */
static inline bool __attribute__((__warn_unused_result__))
page_unref(struct page_info *pg)
{
    uint64_t x = page_cinfo(pg), nx;

    do {
        ASSERT(PAGE_COUNT(x) != 0);
        if ( unlikely(PAGE_COUNT(x) == 0) )
            return false;
        if ( unlikely(PAGE_COUNT(x) == 1) )
            page_dying_stamp(pg, x);
        nx = x - 1;
    } while ( !__atomic_compare_exchange_n(&pg->count_info, &x, nx, false,
                                           __ATOMIC_ACQ_REL,
                                           __ATOMIC_ACQUIRE) );
    return !PAGE_COUNT(nx) && PAGE_OWNER(nx) == PGO_DYING;
}

/*
 * Type references.  page_get_type() raises the type count if the frame
 * already has @type (and, for page tables, is validated), or gives it
 * @type if its type count is 0.  A new type that needs more (a page
 * table's checks, or a flush first: any type but writable, or a frame a
 * page-table walk may still reach) leaves the frame VALIDATING and returns
 * PGT_VALIDATE: the caller flushes, validates a page table's contents and
 * then calls page_type_validated() or, on failure, page_type_invalid()
 * (which drops the reference it took).  PGT_BUSY: the frame has @type but
 * is being validated or devalidated (by another CPU: the caller waits and
 * asks again; by this one, a table that contains itself, which it refuses).
 * Refusals (-XEN_EINVAL): another type in use, a count that would
 * overflow.
 */
int page_get_type(struct page_info *pg, enum page_type type);
void page_type_validated(struct page_info *pg);
void page_type_invalid(struct page_info *pg);

/*
 * page_put_type() drops one type reference.  It returns true when that
 * was the last reference to a validated page table: the caller must then
 * drop the references the table's entries hold and call
 * page_type_released(), after which the frame has no type.  Until then
 * the frame keeps its type and a count of 1, held by the devalidation, so
 * that no one can take a type reference to it meanwhile.
 */
bool page_put_type(struct page_info *pg);
void page_type_released(struct page_info *pg);

/*
 * While a frame is a validated page table its flush_stamp is the latest
 * time a CPU's page walk could still reach it (0: never since the
 * validation, which flushed what came before), and stays so when the
 * type ends: a paging-structure cache can hold a pointer to the table
 * only if some CPU's loaded root reached it since that root was loaded,
 * and at its devalidation nothing reaches it any more, so every such
 * path was cut by removing an entry into it or into a table above it
 * (or by the CR3 write that unloaded the root: that flushes the writing
 * CPU's paging-structure caches whatever the global bit).  Before a
 * reference a walk may follow goes (a live entry into the table, or a
 * vCPU's root while loaded), page_stamp_unlinked() records when:
 * UNLINKED_NOW, or a stamp already handed out (a table above's, on its
 * devalidation), or 0 for a reference no CPU could walk (a pin, a
 * validation's undo, a root this CPU has just unloaded).
 */
#define UNLINKED_NOW    (~0ULL)
void page_stamp_unlinked(struct page_info *pg, uint64_t unlinked);

/*
 * Xen's page_lock()/page_unlock(): a validated page table's entries are
 * changed by one CPU at a time, which holds a type reference while it
 * does, so the table can't be devalidated under it.  page_lock() waits
 * while another CPU holds it, and fails (false) on a frame that isn't a
 * validated page table.  A put that would leave only the lock's
 * reference waits for the unlock (page_unlock() never drops the last
 * one: it can't devalidate), as Xen's _put_page_type().  One page lock
 * per CPU at a time (the debug build checks).
 */
/*
 * What a CPU does while it waits for another one in these calls
 * (pv/mm/validate.c: interrupts let in, so a flush IPI the other CPU
 * waits for is answered).
 */
void page_wait_relax(void);

/* Inline: mmu_update's and ptwr's every entry takes and drops one. */
static inline bool page_lock(struct page_info *pg)
{
    uint64_t x = page_tinfo(pg), nx;

    do {
        while ( PAGE_FLAGS(x) & PGF_LOCKED )
        {
            page_wait_relax();
            x = page_tinfo(pg);
        }
        if ( !(PAGE_FLAGS(x) & PGF_VALIDATED) || !PAGE_TCOUNT(x) ||
             PAGE_TCOUNT(x) == PAGE_TYPE_COUNT_MAX )
            return false;
        nx = (x + 1) | PAGE_TINFO(0, 0, PGF_LOCKED);
    } while ( !__atomic_compare_exchange_n(&pg->type_info, &x, nx, false,
                                           __ATOMIC_ACQ_REL,
                                           __ATOMIC_ACQUIRE) );
    return true;
}

/* Never the last type reference: put_type() waits rather than leave it. */
static inline void page_unlock(struct page_info *pg)
{
    uint64_t x = page_tinfo(pg);
    bool held;

    do {
        held = (PAGE_FLAGS(x) & PGF_LOCKED) && PAGE_TCOUNT(x) >= 2;
        ASSERT(held);
        if ( unlikely(!held) )
            return;
    } while ( !__atomic_compare_exchange_n(
                  &pg->type_info, &x, (x - 1) & ~PAGE_TINFO(0, 0, PGF_LOCKED),
                  false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) );
}

/*
 * Pinning (MMUEXT_PIN_Lx_TABLE / MMUEXT_UNPIN_TABLE): a pin is one type
 * reference and the PGF_PINNED flag, taken together.  page_pin() is
 * page_get_type() plus the flag (-XEN_EINVAL if already pinned); if
 * validation then fails, page_type_invalid() drops both.  page_unpin()
 * refuses (-XEN_EINVAL) a frame not pinned; otherwise it returns 1 when
 * the caller must devalidate (as page_put_type() returning true), else 0.
 */
int page_pin(struct page_info *pg, enum page_type type);
int page_unpin(struct page_info *pg);

#endif /* PV_PAGE_TYPE_H */
