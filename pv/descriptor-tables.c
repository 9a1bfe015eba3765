/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * set_gdt and update_descriptor, as Xen's pv/descriptor-tables.c.
 *
 * Xen maps the guest's GDT frames into the GDT itself, after giving them
 * the seg_desc page type: a type that is granted only once every
 * descriptor in the frame passes check_descriptor(), and that keeps the
 * frame read-only to the guest for as long as it holds it, so the frames
 * can't change behind the check.  The frame table that carries page types
 * comes with issue 4.  Until then the frames stay ordinary guest memory,
 * and the CPU never sees them: each CPU's GDT (this_cpu()->gdt, whose
 * first FIRST_RESERVED_GDT_ENTRY entries are the guest's) holds a
 * validated copy.  set_gdt checks every descriptor of the frames it is
 * given and installs the copy, all or nothing; update_descriptor checks
 * one descriptor, writes it to the frame and, if the frame is part of the
 * current GDT, to the copy.  What the guest writes to its frames directly
 * never reaches the CPU.  Issue 4 will enforce the seg_desc type as Xen
 * does (no writable mapping of a GDT frame, no GDT frame as a page
 * table).
 *
 * Segment registers are not reloaded when a descriptor changes: the CPU
 * reads the GDT only when a selector is loaded, and, as in Xen for 64-bit
 * guests, a selector the guest already holds keeps its cached descriptor
 * until the guest loads it again.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/errno.h>
#include "arch/x86/desc.h"
#include "arch/x86/layout.h"
#include "arch/x86/page.h"
#include "arch/x86/percpu.h"
#include "pv/build.h"
#include "pv/descriptor-tables.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "shim/frame.h"

#define DESCS_PER_FRAME (PAGE_SIZE / sizeof(uint64_t))

BUILD_BUG_ON(GDT_RESERVED_ENTRY != FIRST_RESERVED_GDT_ENTRY);
BUILD_BUG_ON(ARRAY_SIZE(((struct vcpu *)0)->gdt_frames) !=
             FIRST_RESERVED_GDT_PAGE);

/* Is @mfn one of the guest's frames?  The M2P and the p2m must agree. */
static bool guest_mfn_ok(unsigned long mfn)
{
    unsigned long pfn = pv_m2p_get(mfn);

    return pfn < dom.nr_pages && dom.p2m[pfn] == mfn;
}

/*
 * Is @mfn the page table @table at @level (4: an L4) or one below it?
 * Stands in for issue 4's page types, which refuse a frame that is a page
 * table both as a GDT frame and as update_descriptor's target: a
 * "not present" descriptor may hold any value with bit 47 clear, a fine
 * PTE.  The shim's L4 slots are not the guest's, and a table that is not
 * a guest frame isn't read.
 */
static bool pt_holds_mfn(unsigned long table, unsigned int level,
                         unsigned long mfn)
{
    const uint64_t *t;
    unsigned int i;

    if ( table == mfn )
        return true;
    if ( level == 1 || !guest_mfn_ok(table) )
        return false;

    t = __va(table << PAGE_SHIFT);
    for ( i = 0; i < 512; i++ )
    {
        uint64_t e = ACCESS_ONCE(t[i]);

        if ( level == 4 && i >= L4_SLOT(HYPERVISOR_VIRT_START) &&
             i < L4_SLOT(HYPERVISOR_VIRT_END) )
            continue;
        if ( !(e & _PAGE_PRESENT) || (level < 4 && (e & _PAGE_PSE)) )
            continue;
        if ( pt_holds_mfn((e & PADDR_MASK) >> PAGE_SHIFT, level - 1, mfn) )
            return true;
    }
    return false;
}

/* May @mfn hold descriptors (Xen: may it take the seg_desc type)? */
static bool desc_frame_ok(const struct vcpu *v, unsigned long mfn)
{
    return guest_mfn_ok(mfn) && !pt_holds_mfn(v->guest_table, 4, mfn) &&
           (!v->guest_table_user || !pt_holds_mfn(v->guest_table_user, 4,
                                                  mfn));
}

/* Xen's validate_segdesc_page(): every descriptor of the frame. */
static bool gdt_frame_ok(const struct vcpu *v, unsigned long mfn)
{
    const uint64_t *descs;
    unsigned int i;

    if ( !desc_frame_ok(v, mfn) )
        return false;

    descs = __va(mfn << PAGE_SHIFT);
    for ( i = 0; i < DESCS_PER_FRAME; i++ )
    {
        uint64_t d = ACCESS_ONCE(descs[i]);

        if ( !check_descriptor(&d) )
            return false;
    }
    return true;
}

/*
 * Copy checked frame @mfn to @gdt.  Fix-ups go back to the frame too, as
 * Xen's validation makes them in place.  Each descriptor is read once and
 * checked again, so only checked values reach the GDT even if the frame
 * changed since gdt_frame_ok() (it can't with one vCPU).
 */
static void install_frame(uint64_t *gdt, unsigned long mfn)
{
    uint64_t *descs = __va(mfn << PAGE_SHIFT);
    unsigned int i;

    for ( i = 0; i < DESCS_PER_FRAME; i++ )
    {
        uint64_t orig = ACCESS_ONCE(descs[i]), d = orig;

        if ( !check_descriptor(&d) )
            d = 0;
        else if ( d != orig )
            ACCESS_ONCE(descs[i]) = d;
        ACCESS_ONCE(gdt[i]) = d;
    }
}

/*
 * Xen's pv_set_gdt().  As in Xen the CPU sees whole frames: entries past
 * @entries in the last frame are checked and usable too.
 */
static long pv_set_gdt(struct vcpu *v, const unsigned long *frames,
                       unsigned int entries)
{
    uint64_t *gdt = this_cpu()->gdt;
    unsigned int i, nr_frames = ROUNDUP(entries, DESCS_PER_FRAME) /
                                DESCS_PER_FRAME;

    if ( entries > FIRST_RESERVED_GDT_ENTRY )
        return -XEN_EINVAL;

    for ( i = 0; i < nr_frames; i++ )
        if ( !gdt_frame_ok(v, frames[i]) )
            return -XEN_EINVAL;

    for ( i = 0; i < nr_frames; i++ )
        install_frame(gdt + i * DESCS_PER_FRAME, frames[i]);
    memset(gdt + nr_frames * DESCS_PER_FRAME, 0,
           (FIRST_RESERVED_GDT_PAGE - nr_frames) * PAGE_SIZE);

    for ( i = 0; i < FIRST_RESERVED_GDT_PAGE; i++ )
        v->gdt_frames[i] = i < nr_frames ? frames[i] : 0;
    v->gdt_ents = entries;

    return 0;
}

/*
 * HYPERVISOR_set_gdt: @frame_list is the guest's array of machine frame
 * numbers, DIV_ROUND_UP(entries, 512) of them.  Xen's handler takes
 * @entries as an unsigned int, so the upper half of the register is
 * ignored, as there.
 */
long do_set_gdt(unsigned long frame_list, unsigned long entries_reg)
{
    unsigned int entries = entries_reg;
    unsigned long frames[FIRST_RESERVED_GDT_PAGE];
    unsigned int nr_frames = ROUNDUP(entries, DESCS_PER_FRAME) /
                             DESCS_PER_FRAME;

    /* Rechecked in pv_set_gdt(); bounds the copy. */
    if ( entries > FIRST_RESERVED_GDT_ENTRY )
        return -XEN_EINVAL;

    /* Xen copies nothing, and so can't fail, for an empty list. */
    if ( nr_frames &&
         copy_from_guest(frames, frame_list, nr_frames * sizeof(*frames)) )
        return -XEN_EFAULT;

    return pv_set_gdt(current_vcpu(), frames, entries);
}

/*
 * HYPERVISOR_update_descriptor: write descriptor @desc at machine address
 * @pa, which must be 8-byte aligned (or it would corrupt two neighbours)
 * and lie in a guest frame that is not a page table.  -EINVAL for all
 * errors, as in Xen.
 */
long do_update_descriptor(unsigned long pa, unsigned long desc)
{
    struct vcpu *v = current_vcpu();
    unsigned long mfn = pa >> PAGE_SHIFT;
    unsigned int i, idx = (pa & (PAGE_SIZE - 1)) / sizeof(uint64_t);
    unsigned int nr_frames = ROUNDUP(v->gdt_ents, DESCS_PER_FRAME) /
                             DESCS_PER_FRAME;
    uint64_t d = desc;

    if ( (pa & (sizeof(d) - 1)) || !check_descriptor(&d) )
        return -XEN_EINVAL;
    if ( !desc_frame_ok(v, mfn) )
        return -XEN_EINVAL;

    ACCESS_ONCE(((uint64_t *)__va(mfn << PAGE_SHIFT))[idx]) = d;

    /* A frame may be in the GDT more than once. */
    for ( i = 0; i < nr_frames; i++ )
        if ( v->gdt_frames[i] == mfn )
            ACCESS_ONCE(this_cpu()->gdt[i * DESCS_PER_FRAME + idx]) = d;

    return 0;
}
