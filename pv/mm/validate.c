/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The PV MMU's core: the validation that makes a guest frame a page
 * table, and pinning.  Validating a table takes a reference for each
 * present entry (and a type reference on each lower-level table,
 * recursively), so what a validated table maps is always the guest's,
 * and a page table is never writable; its last type reference (or its
 * pin) going drops them again.  Modelled on xen/arch/x86/mm.c; the rules
 * for one entry are pv/mm/pte-rules.c's, the count rules
 * pv/mm/page-type.c's, the frames pv/mm/frame-table.c's.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include "arch/x86/flush.h"
#include "arch/x86/irq.h"
#include "arch/x86/layout.h"
#include "arch/x86/page.h"
#include "arch/x86/percpu.h"
#include "pv/pv.h"
#include "pv/descriptor-tables.h"
#include "pv/mm/m2p.h"
#include "pv/mm/mm.h"
#include "pv/mm/entry-refs.h"
#include "pv/mm/private.h"
#include "pv/mm/pte-rules.h"
#include "pv/vcpu/smp.h"
#include "shim/console.h"

/* The rules every guest entry is checked against (pte-rules.h). */
struct pte_policy __read_mostly pv_pte_policy;

/*
 * Is slot @i of a table of @type the guest's?  Not the shim's slots of
 * every L4 (HYPERVISOR_VIRT_START..END), nor those of a 32-bit guest's
 * top L2 from the compat hypervisor hole up (Xen's is_guest_l2_slot()).
 */
static bool is_guest_slot(unsigned int type, unsigned int i)
{
    if ( type == PGT_L4 )
        return i < L4_SLOT(HYPERVISOR_VIRT_START) ||
               i >= L4_SLOT(HYPERVISOR_VIRT_END);
    if ( type == PGT_L2_XEN )
        return i < pv_m2p_compat_first_slot();
    return true;
}

static uint64_t *map_table(unsigned long mfn)
{
    return __va(mfn << PAGE_SHIFT);
}

/*
 * Boot: the frame table, the LDT window's page tables (before any guest
 * L4 is validated: its copy of the shim's slots must see them), and the
 * rules every guest entry is checked against.
 */
void pv_mm_init(const struct memmap *m)
{
    frame_table_init(m);
    pv_ldt_init();

    pv_pte_policy.nx = page_nx_bit();
    pv_pte_policy.global_pages = opt_global_pages;
    /*
     * Frames beyond RAM are caught as such (-EPERM at L1, as Xen's
     * mfn_valid() test), so the rule only needs the architecture's limit.
     */
    pv_pte_policy.paddr_bits = 52;
}

void pv_mm_set_compat(void)
{
    pv_pte_policy.compat = true;
}

/* No entry of t[0..8) is present. */
static always_inline bool none_present8(const uint64_t *t)
{
    return !((t[0] | t[1] | t[2] | t[3] | t[4] | t[5] | t[6] | t[7]) &
             _PAGE_PRESENT);
}

/*
 * Walk the present guest entries of table @t (of page type @type) from
 * slot 0, calling @fn on each; stop at the first error, returning how far
 * it got through *done.  always_inline, so @fn is a direct call at every
 * site even with retpolines (the KVM "HVA handler" technique).
 */
static always_inline int for_each_guest_entry(
    uint64_t *t, unsigned int type, unsigned long table_mfn,
    int (*fn)(unsigned int level, uint64_t *e, unsigned long table_mfn),
    unsigned int *done)
{
    unsigned int i, g, level = type_level(type);
    int rc;

    for ( g = 0; g < 512; g += 8 )
    {
        /*
         * A table's walk is long: interrupts in now and then, so a flush
         * another CPU waits for is answered (it may wait for this very
         * frame's validation next).
         */
        if ( !(g & 63) && !irqs_enabled() )
            local_irq_window();
        /*
         * Most tables are sparse (a process's L1s map a few runs of
         * pages each): eight empty slots are passed over at once, and
         * fork and exit, which pin and unpin every table of a process,
         * walk mostly those (a full table pays one test in eight).  The
         * contents stay put meanwhile: a table being (de)validated has no
         * writable mapping.
         */
        if ( !(t[g] & _PAGE_PRESENT) && none_present8(&t[g]) )
            continue;
        for ( i = g; i < g + 8; i++ )
        {
            if ( !is_guest_slot(type, i) || !(t[i] & _PAGE_PRESENT) )
                continue;
            if ( (rc = fn(level, &t[i], table_mfn)) )
            {
                *done = i;
                return rc;
            }
        }
    }
    *done = 512;
    return 0;
}

static always_inline void put_entry(unsigned int level, uint64_t e,
                                   unsigned long table_mfn,
                                   uint64_t unlinked);

/* A devalidation's: no walk reaches the entry since the table's stamp. */
static int put_entry_cb(unsigned int level, uint64_t *e,
                        unsigned long table_mfn)
{
    put_entry(level, *e, table_mfn, mfn_to_page(table_mfn)->flush_stamp);
    return 0;
}

static int put_l1e_cb(unsigned int level, uint64_t *e,
                      unsigned long table_mfn);

/*
 * Drop the references entries [0, upto) of a table of @type hold.  All
 * 512, a table whose last type reference went (page_put_type()): they go
 * as no walk has reached them since its flush_stamp.  Fewer, a
 * validation's undo: the table was never walkable.
 */
static void devalidate_table(unsigned long mfn, unsigned int type,
                             unsigned int upto)
{
    uint64_t *t = map_table(mfn);
    unsigned int i, done;

    if ( upto == 512 )
    {
        /* An L1's walk with its type known, its entries' release inline. */
        if ( type == PGT_L1 )
            for_each_guest_entry(t, PGT_L1, mfn, put_l1e_cb, &done);
        else
            for_each_guest_entry(t, type, mfn, put_entry_cb, &done);
        return;
    }
    for ( i = 0; i < upto; i++ )
        if ( is_guest_slot(type, i) && (t[i] & _PAGE_PRESENT) )
            put_entry(type_level(type), t[i], mfn, 0);
}

/*
 * Slot 3 of a 32-bit guest's L3 (Xen's alloc_l3_table() and
 * create_pae_xen_mappings()): present, and an L2 that takes the shim's
 * slots, which only this L3 may use (so no other table can reach the
 * shim's slots through it, nor change its guest part unvalidated).
 */
static int get_xen_l2(uint64_t *e)
{
    unsigned long mfn = entry_mfn(*e);
    int rc;

    if ( !(*e & _PAGE_PRESENT) )
    {
        printk(XENLOG_DEBUG "d1: PAE L3 slot 3 is empty\n");
        return -XEN_EINVAL;
    }
    if ( (rc = pv_check_entry(3, e)) ||
         (rc = get_page_and_type(mfn, PGT_L2_XEN)) )
        return rc;
    if ( page_type_count(mfn_to_page(mfn)) != 1 )
    {
        printk(XENLOG_DEBUG "d1: PAE L3 slot 3 (mfn %#lx) is shared\n", mfn);
        put_page_and_type(mfn);
        return -XEN_EINVAL;
    }
    return 0;
}

static int get_l1e_cb(unsigned int level, uint64_t *e,
                      unsigned long table_mfn);

static int validate_table(unsigned long mfn, unsigned int type)
{
    uint64_t *t = map_table(mfn);
    const uint64_t *shim = shim_l4();
    unsigned int i, done;
    uint64_t l3e3;
    int rc;

    if ( type == PGT_L3 && dom.compat )
    {
        /*
         * A PAE guest need only fill a PDPT's 4 entries, but long mode
         * walks all 512 of the page: Xen's alloc_l3_table() clears the
         * rest.  Then slot 3, then the others with it hidden from the walk.
         */
        memset(t + 4, 0, (512 - 4) * sizeof(*t));
        if ( (rc = get_xen_l2(&t[3])) )
            return rc;
        l3e3 = t[3];
        t[3] = 0;
        rc = for_each_guest_entry(t, type, mfn, get_page_from_entry, &done);
        if ( rc )
            devalidate_table(mfn, type, done);
        t[3] = l3e3;
        if ( rc )
            put_page_and_type(entry_mfn(l3e3));
        return rc;
    }
    /* An L1's walk with its type known, its entries' checks inline. */
    rc = type == PGT_L1
         ? for_each_guest_entry(t, PGT_L1, mfn, get_l1e_cb, &done)
         : for_each_guest_entry(t, type, mfn, get_page_from_entry, &done);
    if ( rc )
    {
        devalidate_table(mfn, type, done);
        return rc;
    }
    if ( type == PGT_L2_XEN )
        pv_m2p_compat_fill_l2(t);
    /*
     * Every guest L4 carries the shim's slots, whatever it held there;
     * the read-only M2P's only under m2p_strict (xen.h: "L4 tables get
     * created with the respective slot blank" without it).
     */
    if ( type == PGT_L4 )
        for ( i = L4_SLOT(HYPERVISOR_VIRT_START);
              i < L4_SLOT(HYPERVISOR_VIRT_END); i++ )
            t[i] = shim[i];
    if ( type == PGT_L4 && !(dom.vm_assist & (1UL << VMASST_TYPE_m2p_strict)) )
        pv_zap_ro_mpt(mfn);
    return 0;
}

/* Xen's fill_ro_mpt() and zap_ro_mpt(): the M2P's slot of guest L4 @mfn. */
void pv_fill_ro_mpt(unsigned long mfn)
{
    uint64_t *t = map_table(mfn);

    t[L4_SLOT(MACH2PHYS_VIRT_START)] = shim_l4()[L4_SLOT(MACH2PHYS_VIRT_START)];
}

void pv_zap_ro_mpt(unsigned long mfn)
{
    uint64_t *t = map_table(mfn);

    t[L4_SLOT(MACH2PHYS_VIRT_START)] = 0;
}

/*
 * The frames each CPU is validating, innermost last: a page table's
 * validation takes references on the tables below it, never (levels only
 * go down, and a linear entry takes only a validated table) on one it is
 * inside, unless the guest made a table contain itself.
 */
#define MAX_VALIDATING  8
static struct {
    const struct page_info *pg[MAX_VALIDATING];
    unsigned int nr;
} validating[NR_CPUS];

static bool validating_here(const struct page_info *pg)
{
    unsigned int cpu = smp_processor_id(), i;

    for ( i = 0; i < validating[cpu].nr; i++ )
        if ( validating[cpu].pg[i] == pg )
            return true;
    return false;
}

/*
 * Waiting for another CPU's validation or page lock: interrupts let in
 * now and then, so a flush that CPU waits for is answered (it may be
 * flushing for the very frame).
 */
void page_wait_relax(void)
{
    if ( !irqs_enabled() )
        local_irq_window();
    cpu_relax();
}

/*
 * page_get_type(), waiting while another CPU validates or devalidates
 * the frame (Xen's _get_page_type() spins the same way); a frame this CPU
 * is validating is a table that contains itself: refused.
 */
static int __hot_text get_type_wait(struct page_info *pg, enum page_type type,
                                    bool pin)
{
    int rc;

    while ( (rc = pin ? page_pin(pg, type) : page_get_type(pg, type)) ==
            PGT_BUSY )
    {
        if ( validating_here(pg) )
            return -XEN_EINVAL;
        page_wait_relax();
    }
    return rc;
}

/*
 * A frame that just took page-table type @type: a TLB may still map it
 * writable (flush, then it can't), and its entries must pass.  The type
 * is validated, or undone, on return.
 */
static int __hot_text validate_new_type(struct page_info *pg, unsigned long mfn,
                                        enum page_type type)
{
    unsigned int cpu = smp_processor_id();
    int rc;

    pv_flush_stale(pg);
    /* From here, no CPU walks it from before: page_stamp_unlinked(). */
    pg->flush_stamp = 0;
    ASSERT(validating[cpu].nr < MAX_VALIDATING);    /* 4 levels deep */
    if ( unlikely(validating[cpu].nr == MAX_VALIDATING) )
        rc = -XEN_EINVAL;
    else
    {
        validating[cpu].pg[validating[cpu].nr++] = pg;
        rc = validate_table(mfn, type);
        validating[cpu].nr--;
    }
    if ( rc )
        page_type_invalid(pg);
    else
        page_type_validated(pg);
    return rc;
}

/*
 * page_get_type() for a type that needs no validation, flushing on a
 * type change as Xen's _get_page_type() does by its TLB-flush timestamp:
 * a frame whose page-table type ended since the last full flush may
 * still be walked as one by a CPU's paging-structure caches, so before
 * it is anything else (writable above all); and a frame whose writable
 * type ended may still be writable through a stale TLB entry, so before
 * it holds descriptors (seg_desc: the CPU reads an LDT frame itself).
 * Every CPU running a vCPU that may still hold such a translation
 * flushes (pv_flush_stale()).  A page-table type is left to the caller
 * to validate (PGT_VALIDATE).
 */
int __hot_text page_get_type_flush(struct page_info *pg, enum page_type type)
{
    int rc = get_type_wait(pg, type, false);

    if ( rc == PGT_VALIDATE && !is_page_table_type(type) )
    {
        pv_flush_stale(pg);
        page_type_validated(pg);
        rc = PGT_OK;
    }
    return rc;
}

/*
 * A page table's type is gone: the frame is marked PGF_STALE_TABLE for
 * page_get_type_flush().  The shim's slots of a PGT_L2_XEN go with it
 * (the frame holds nothing of the shim's once the guest may map it, and
 * may become a plain L2).
 */
static void release_table(struct page_info *pg, unsigned long mfn)
{
    unsigned int type = page_type(pg);

    devalidate_table(mfn, type, 512);
    if ( type == PGT_L2_XEN )
        memset(map_table(mfn) + pv_m2p_compat_first_slot(), 0,
               (512 - pv_m2p_compat_first_slot()) * sizeof(uint64_t));
    page_type_released(pg);
}

int __hot_text get_page_and_type(unsigned long mfn, enum page_type type)
{
    struct page_info *pg = mfn_to_page(mfn);
    int rc;

    if ( !pg || !page_get(pg, PGO_GUEST) )
        return -XEN_EINVAL;
    rc = page_get_type_flush(pg, type);
    if ( rc == PGT_VALIDATE )
        rc = validate_new_type(pg, mfn, type);
    if ( rc < 0 )
        page_put(pg);
    return rc < 0 ? rc : 0;
}

/*
 * A page table's reference stamps it (page_stamp_unlinked()): now, unless
 * the caller knows better (put_page_and_type_unlinked()).
 */
void put_page_and_type(unsigned long mfn)
{
    put_page_and_type_unlinked(mfn, UNLINKED_NOW);
}

void put_page_and_type_unlinked(unsigned long mfn, uint64_t unlinked)
{
    struct page_info *pg = mfn_to_page(mfn);

    ASSERT(pg);
    if ( unlikely(!pg) )
        return;
    if ( is_page_table_type(page_type(pg)) )
        page_stamp_unlinked(pg, unlinked);
    if ( page_put_type(pg) )
        release_table(pg, mfn);
    page_put(pg);
}

/*
 * Xen's inc_linear_entries() and inc_linear_uses(): a table may hold
 * linear entries (its count > 0) or be pointed at by them (< 0), never
 * both (XSA-240), and neither count overflows.
 */
static bool linear_step(struct page_info *pg, int step)
{
    int16_t x = __atomic_load_n(&pg->linear_pt_count, __ATOMIC_RELAXED);

    do {
        if ( step > 0 ? x < 0 || x == INT16_MAX : x > 0 || x == INT16_MIN )
            return false;
    } while ( !__atomic_compare_exchange_n(&pg->linear_pt_count, &x,
                                           (int16_t)(x + step), false,
                                           __ATOMIC_RELAXED,
                                           __ATOMIC_RELAXED) );
    return true;
}

/* And undoing one (towards zero: never refused). */
static void linear_unstep(struct page_info *pg, int step)
{
    __atomic_sub_fetch(&pg->linear_pt_count, step, __ATOMIC_RELAXED);
}

/*
 * A linear (recursive) entry: a table of @level pointing at a table of the
 * same level, read-only, only to an already validated table that holds
 * no linear entries itself, from a table no one maps linearly (Xen's
 * get_linear_pagetable, with XSA-240's counts).  Pointing at itself takes
 * no reference: the table can't go while it holds the entry.
 */
static int get_linear(unsigned int level, uint64_t e, unsigned long table_mfn)
{
    unsigned long mfn = entry_mfn(e);
    struct page_info *pg = mfn_to_page(mfn), *tpg = mfn_to_page(table_mfn);
    uint64_t x;
    int rc;

    if ( !pte_linear_ok(level, e) )
        return -XEN_EINVAL;
    if ( mfn == table_mfn )
        return 0;
    if ( !pg )
        return -XEN_EINVAL;
    x = page_tinfo(pg);
    if ( PAGE_TYPE(x) != PGT_L1 + level - 1 ||
         !(PAGE_FLAGS(x) & PGF_VALIDATED) || !linear_step(tpg, 1) )
        return -XEN_EINVAL;
    if ( !linear_step(pg, -1) )
        goto no_use;
    if ( !page_get(pg, PGO_GUEST) )
        goto no_ref;
    /*
     * Only a table validated already (never a wait): one that went free
     * since the look above is taken as new (PGT_VALIDATE), and let go.
     */
    rc = page_get_type(pg, PGT_L1 + level - 1);
    if ( rc == PGT_VALIDATE )
        page_type_invalid(pg);
    if ( rc != PGT_OK )
        goto no_type;
    return 0;

 no_type:
    page_put(pg);
 no_ref:
    linear_unstep(pg, -1);
 no_use:
    linear_unstep(tpg, 1);
    return -XEN_EINVAL;
}

void pv_entry_refused(unsigned int level, uint64_t e, const char *why)
{
    printk(XENLOG_DEBUG "d1: L%u entry %#lx refused: %s\n", level,
           (unsigned long)e, why);
}

int pv_check_entry(unsigned int level, uint64_t *e)
{
    const char *why;
    int rc = pte_check(level, e, &pv_pte_policy, &why);

    if ( rc )
        pv_entry_refused(level, *e, why);
    return rc;
}

static int get_l1e_cb(unsigned int level, uint64_t *e,
                      unsigned long table_mfn)
{
    return get_l1e(e);
}

int get_page_from_entry(unsigned int level, uint64_t *e,
                        unsigned long table_mfn)
{
    unsigned long mfn;
    int rc;

    if ( !(*e & _PAGE_PRESENT) )
        return 0;
    if ( level == 1 )
        return get_l1e(e);
    if ( (rc = pv_check_entry(level, e)) )
        return rc;
    mfn = entry_mfn(*e);
    /* As Xen: only a type refusal (-EINVAL) may be a linear entry. */
    rc = get_page_and_type(mfn, PGT_L1 + level - 2);
    if ( rc == -XEN_EINVAL && !get_linear(level, *e, table_mfn) )
        rc = 0;
    return rc;
}

/*
 * Inline into an L1's devalidation, the bulk of an unpin's work.  No walk
 * follows @e since @unlinked (page_stamp_unlinked()).
 */
static always_inline void put_entry(unsigned int level, uint64_t e,
                                   unsigned long table_mfn,
                                   uint64_t unlinked)
{
    unsigned long mfn = entry_mfn(e);
    struct page_info *pg = mfn_to_page(mfn);
    bool held;

    if ( level == 1 )
    {
        put_l1e(e, table_mfn);
        return;
    }
    if ( !(e & _PAGE_PRESENT) || mfn == table_mfn )
        return;                         /* a table's linear self-entry */
    held = entry_holds_refs(level, e, pg);
    ASSERT(held);
    if ( unlikely(!held) )
    {
        printk(XENLOG_ERR "d1: mfn %#lx: L%u entry %#lx holds no "
               "reference: left alone\n", table_mfn, level,
               (unsigned long)e);
        return;
    }
    if ( page_type(pg) == PGT_L1 + level - 1 )
    {
        /* A linear entry: undo get_linear()'s counts. */
        linear_unstep(mfn_to_page(table_mfn), 1);
        linear_unstep(pg, -1);
    }
    put_page_and_type_unlinked(mfn, unlinked);
}

/* A live table's entry, just replaced: walks may have followed it. */
void put_page_from_entry(unsigned int level, uint64_t e,
                         unsigned long table_mfn)
{
    put_entry(level, e, table_mfn, UNLINKED_NOW);
}

/* An entry that never reached its table (an exact write that lost). */
void put_page_from_unwritten_entry(unsigned int level, uint64_t e,
                                   unsigned long table_mfn)
{
    put_entry(level, e, table_mfn, 0);
}

static int put_l1e_cb(unsigned int level, uint64_t *e,
                      unsigned long table_mfn)
{
    put_entry(1, *e, table_mfn, 0);     /* an L1's: no table behind it */
    return 0;
}

/* MMUEXT_PIN_Lx_TABLE: a general reference, a type reference, the flag. */
int __hot_text pin_table(unsigned long mfn, enum page_type type)
{
    struct page_info *pg = mfn_to_page(mfn);
    int rc;

    if ( !pg || !page_get(pg, PGO_GUEST) )
        return -XEN_EINVAL;
    rc = get_type_wait(pg, type, true);
    if ( rc == PGT_VALIDATE )
        rc = validate_new_type(pg, mfn, type);
    if ( rc < 0 )
        page_put(pg);
    return rc < 0 ? rc : 0;
}

int unpin_table(unsigned long mfn)
{
    struct page_info *pg = mfn_to_page(mfn);
    int rc;

    /*
     * A frame the guest gave back is still its own to unpin until it is
     * freed, as in Xen (its owner stays the domain till then): a pin
     * that landed as it went would hold its tree for good otherwise.
     */
    if ( !pg || (page_owner(pg) != PGO_GUEST && page_owner(pg) != PGO_DYING) )
        return -XEN_EINVAL;
    rc = page_unpin(pg);
    if ( rc < 0 )
        return rc;
    if ( rc == 1 )
        release_table(pg, mfn);
    page_put(pg);
    return 0;
}
