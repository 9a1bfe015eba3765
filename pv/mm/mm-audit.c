/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frame table's consistency check: recount every reference from
 * scratch (allocation, pins, root tables, descriptor tables, and each
 * entry of each validated page table) and compare with what the table
 * says, and check the invariants no guest may break.  mm-audit runs it
 * after every MMU hypercall; a difference is a shim bug.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include "arch/x86/layout.h"
#include "arch/x86/page.h"
#include "pv/mm/m2p.h"
#include "pv/mm/mm.h"
#include "pv/grant/grant.h"
#include "shim/console.h"
#include "shim/frame.h"
#include "shim/panic.h"
#include "shim/param.h"

/*
 * mm-audit=<boolean|integer>: check the frame table after every hypercall
 * that moves references, or after every Nth of them (counted across the
 * guest's vCPUs), and as the guest ends.
 */
unsigned long __read_mostly opt_mm_audit;             /* N, or 0: off */

static int parse_mm_audit(const char *s)
{
    const char *end;
    unsigned long long n;
    bool ovf = false;
    int b = parse_bool(s, NULL);

    if ( !*s )
        b = 1;                          /* the bare name */
    if ( b >= 0 )
    {
        opt_mm_audit = b;               /* true: every call */
        return 0;
    }
    n = simple_strtoull(s, &end, 0, &ovf);
    if ( end == s || *end )
        return -XEN_EINVAL;
    if ( ovf )
        return -XEN_ERANGE;
    opt_mm_audit = n;
    return 0;
}
custom_param("mm-audit", parse_mm_audit);

static uint32_t *want_count, *want_type;

static bool guest_slot(unsigned int type, unsigned int i)
{
    if ( type == PGT_L2_XEN )
        return i < pv_m2p_compat_first_slot();
    return type != PGT_L4 || i < L4_SLOT(HYPERVISOR_VIRT_START) ||
           i >= L4_SLOT(HYPERVISOR_VIRT_END);
}

/* The type a table of @type's entry @i must point at (level > 1). */
static unsigned int child_type(unsigned int type, unsigned int i)
{
    if ( type == PGT_L3 && dom.compat && i == 3 )
        return PGT_L2_XEN;
    return PGT_L1 + type_level(type) - 2;
}

static long report(unsigned long mfn, const char *what, unsigned long have,
                   unsigned long want)
{
    printk(XENLOG_ERR "mm audit: mfn %#lx: %s is %lu, expected %lu\n", mfn,
           what, have, want);
    return 1;
}

static void count_root(unsigned long mfn)
{
    if ( mfn )
    {
        want_count[mfn]++;
        want_type[mfn]++;
    }
}

/* The references one validated table's entries hold; bad entries too. */
static long count_table(unsigned long mfn, unsigned int type)
{
    unsigned int level = type_level(type);
    const uint64_t *t = __va(mfn << PAGE_SHIFT);
    const uint64_t *shim = shim_l4();
    long bad = 0;
    unsigned int i;

    for ( i = 0; i < 512; i++ )
    {
        unsigned long target = (t[i] & PADDR_MASK) >> PAGE_SHIFT;
        struct page_info *pg = mfn_to_page(target);

        if ( type == PGT_L2_XEN && !guest_slot(type, i) )
            continue;                   /* the compat M2P: shim frames */
        if ( !guest_slot(type, i) )
        {
            /* The M2P's may be blank (VMASST_TYPE_m2p_strict). */
            if ( t[i] != shim[i] &&
                 (i != L4_SLOT(MACH2PHYS_VIRT_START) || t[i]) )
                bad += report(mfn, "a changed hypervisor L4 slot", i, i);
            continue;
        }
        if ( !(t[i] & _PAGE_PRESENT) )
            continue;
        if ( !pg || (page_owner(pg) != PGO_GUEST &&
                     page_owner(pg) != PGO_DYING) )
        {
            bad += report(mfn, "an entry to a non-guest frame", target, 0);
            continue;
        }
        if ( level == 1 )
        {
            want_count[target]++;
            if ( t[i] & _PAGE_RW )
            {
                want_type[target]++;
                if ( page_type(pg) != PGT_WRITABLE )
                    bad += report(target, "type of a writable mapping",
                                  page_type(pg), PGT_WRITABLE);
            }
            continue;
        }
        if ( target == mfn )
            continue;                   /* linear self-entry */
        want_count[target]++;
        want_type[target]++;
        if ( page_type(pg) != child_type(type, i) &&
             page_type(pg) != PGT_L1 + level - 1 )
            bad += report(target, "type of a mapped table", page_type(pg),
                          child_type(type, i));
    }
    return bad;
}

/* What vCPU @v holds: its root tables, descriptor and event frames. */
static void count_vcpu(const struct vcpu *v)
{
    unsigned int i;

    count_root(v->guest_table);
    count_root(v->guest_table_user);
    for ( i = 0; i < ARRAY_SIZE(v->gdt_frames); i++ )
        count_root(v->gdt_frames[i]);
    for ( i = 0; i < ARRAY_SIZE(v->ldt_frames); i++ )
        count_root(v->ldt_frames[i]);
    /* Writable frames events hold: vcpu_info, FIFO control. */
    count_root(v->vcpu_info_mfn);
    count_root(v->fifo_control ? v->fifo_control_mfn : 0);
}

long pv_mm_audit(void)
{
    unsigned long mfn, n = frame_table_nr, bytes, pfn;
    unsigned int i;
    long bad = 0;

    if ( !want_count )
    {
        bytes = ROUNDUP(2 * n * sizeof(uint32_t), PAGE_SIZE);
        pfn = frames_alloc(bytes >> PAGE_SHIFT, 0, 0);
        if ( pfn == INVALID_PFN )
            panic("mm audit: no room for its %lu KiB", bytes >> 10);
        want_count = __va(pfn << PAGE_SHIFT);
        want_type = want_count + n;
    }
    memset(want_count, 0, n * sizeof(uint32_t));
    memset(want_type, 0, n * sizeof(uint32_t));

    for ( mfn = 0; mfn < n; mfn++ )
    {
        const struct page_info *pg = &frame_table[mfn];

        /* A frame given back but still referenced: no allocation. */
        if ( page_owner(pg) != PGO_GUEST && page_owner(pg) != PGO_DYING )
            continue;
        if ( page_owner(pg) == PGO_GUEST )
            want_count[mfn]++;          /* allocation */
        if ( page_flags(pg) & PGF_PINNED )
            count_root(mfn);
        if ( is_page_table_type(page_type(pg)) && page_type_count(pg) )
            bad += count_table(mfn, page_type(pg));
    }
    for ( i = 0; i < dom.max_vcpus; i++ )
        count_vcpu(&dom.vcpu[i]);
    /* ... shared_info's writable type, the shim's for good ... */
    want_type[dom.shared_info_mfn]++;
    /* ... the backends' references on the rings ... */
    count_root(dom.store_mfn);
    count_root(dom.console_mfn);
    /* ... and the FIFO event array. */
    for ( i = 0; i < dom.fifo_num_evtchns / 1024; i++ )
        count_root(dom.fifo_array_mfn[i]);
    gnttab_audit(want_count, want_type);

    for ( mfn = 0; mfn < n; mfn++ )
    {
        const struct page_info *pg = &frame_table[mfn];

        if ( page_owner(pg) != PGO_GUEST && page_owner(pg) != PGO_DYING )
        {
            if ( page_count(pg) || page_type_count(pg) )
                bad += report(mfn, "references to a non-guest frame",
                              page_count(pg), 0);
            /* Held by the shim (grant frames, vcpu_info...), yet freed. */
            if ( want_count[mfn] || want_type[mfn] )
                bad += report(mfn, "references held to a non-guest frame",
                              want_count[mfn] + want_type[mfn], 0);
            continue;
        }
        if ( page_count(pg) != want_count[mfn] )
            bad += report(mfn, "count", page_count(pg), want_count[mfn]);
        if ( page_type_count(pg) != want_type[mfn] )
            bad += report(mfn, "type count", page_type_count(pg),
                          want_type[mfn]);
        if ( (page_type(pg) == PGT_NONE) != (page_type_count(pg) == 0) )
            bad += report(mfn, "type with no count", page_type(pg),
                          page_type_count(pg));
        if ( (page_flags(pg) & PGF_VALIDATED) &&
             !is_page_table_type(page_type(pg)) )
            bad += report(mfn, "validated flag on type", page_type(pg), 0);
    }
    return bad;
}
