/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * set_gdt, update_descriptor and MMUEXT_SET_LDT, as Xen's
 * pv/descriptor-tables.c (and x86_64/compat/mm.c's compat_set_gdt()).
 *
 * As in Xen, a frame holding the guest's descriptors takes the seg_desc
 * page type for as long as it is in use: the type is refused to a frame
 * that is mapped writable or is a page table, and keeps it from becoming
 * either, so only update_descriptor (which checks) can change it.  For the
 * GDT the CPU reads a copy (each CPU's GDT, whose first
 * FIRST_RESERVED_GDT_ENTRY entries are the guest's), which
 * update_descriptor keeps in step; the LDT's frames are mapped for the CPU
 * on first use, as Xen maps them (see pv_ldt_fault()).
 *
 * No domain lock for update_descriptor, as in Xen: the frame's type
 * reference keeps it a descriptor frame while the descriptor is written
 * (atomically: one quadword); a vCPU's gdt_lock orders its frame list and
 * its CPU's copy against update_descriptor's refresh of that copy, so
 * the copy never keeps an older value than the frame; and the fix-ups
 * written back into a frame (install_frame(), fix_desc_frame()) are each
 * a cmpxchg, so one never overwrites a descriptor update_descriptor
 * wrote meanwhile.  set_gdt (and VCPUOP_initialise) keep the domain
 * lock, as Xen's do.
 *
 * Segment registers are not reloaded when a descriptor changes: the CPU
 * reads the tables only when a selector is loaded, and, as in Xen for
 * 64-bit guests, a selector the guest already holds keeps its cached
 * descriptor until the guest loads it again.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/errno.h>
#include "arch/x86/desc.h"
#include "arch/x86/eflags.h"
#include "arch/x86/exception.h"
#include "arch/x86/layout.h"
#include "arch/x86/page.h"
#include "arch/x86/percpu.h"
#include "arch/x86/segment.h"
#include "arch/x86/traps.h"
#include "pv/compat/handle.h"
#include "pv/descriptor-tables.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/mm/mm.h"
#include "pv/traps.h"
#include "shim/frame.h"
#include "shim/perfc.h"

bool pv_check_descriptor(uint64_t *d)
{
    return dom.compat ? check_descriptor_compat(d) : check_descriptor(d);
}

#define DESCS_PER_FRAME (PAGE_SIZE / sizeof(uint64_t))

BUILD_BUG_ON(GDT_RESERVED_ENTRY != FIRST_RESERVED_GDT_ENTRY);
BUILD_BUG_ON(ARRAY_SIZE(((struct vcpu *)0)->gdt_frames) !=
             FIRST_RESERVED_GDT_PAGE);

/* Frames of descriptors hold the seg_desc type while in use. */
static int get_desc_frame(unsigned long mfn)
{
    return get_page_and_type(mfn, PGT_SEG_DESC);
}

static void put_desc_frames(unsigned long *frames, unsigned int nr)
{
    unsigned int i;

    for ( i = 0; i < nr; i++ )
        if ( frames[i] )
        {
            put_page_and_type(frames[i]);
            frames[i] = 0;
        }
}

/* Xen's validate_segdesc_page(): every descriptor of the frame. */
static bool desc_frame_ok(unsigned long mfn)
{
    const uint64_t *descs = __va(mfn << PAGE_SHIFT);
    unsigned int i;

    for ( i = 0; i < DESCS_PER_FRAME; i++ )
    {
        uint64_t d = ACCESS_ONCE(descs[i]);

        if ( !pv_check_descriptor(&d) )
            return false;
    }
    return true;
}

/*
 * Descriptor @p of a frame in use, checked, Xen's fix-ups written back
 * as its validation makes them in place; false (and the frame as it
 * was) if it fails the check.  The write-back is a cmpxchg: a value
 * update_descriptor wrote meanwhile (checked already) stays, and is the
 * one returned.
 */
static bool fix_desc(uint64_t *p, uint64_t *out)
{
    uint64_t orig = ACCESS_ONCE(*p), d;

    for ( ;; )
    {
        d = orig;
        if ( !pv_check_descriptor(&d) )
            return false;
        if ( d == orig )
            break;
        if ( __atomic_compare_exchange_n(p, &orig, d, false,
                                         __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) )
            break;
    }
    *out = d;
    return true;
}

/*
 * Copy checked frame @mfn to @gdt.  Each descriptor is read once and
 * checked again, so only checked values reach the GDT even if the frame
 * changed since desc_frame_ok(); one that fails (it can't: only
 * update_descriptor writes the frame, and checks) reads as null.
 */
static void install_frame(uint64_t *gdt, unsigned long mfn)
{
    uint64_t *descs = __va(mfn << PAGE_SHIFT), d;
    unsigned int i;

    for ( i = 0; i < DESCS_PER_FRAME; i++ )
        ACCESS_ONCE(gdt[i]) = fix_desc(&descs[i], &d) ? d : 0;
}

/*
 * The guest's part of this CPU's GDT from @v's frames (v runs here):
 * when set_gdt changes them, and when the CPU starts running @v.
 */
static void load_gdt_locked(struct vcpu *v)
{
    uint64_t *gdt = this_cpu()->gdt;
    unsigned int i, nr_frames = ROUNDUP(v->gdt_ents, DESCS_PER_FRAME) /
                                DESCS_PER_FRAME;

    ASSERT(spin_is_locked_by_me(&v->gdt_lock));
    for ( i = 0; i < nr_frames; i++ )
        install_frame(gdt + i * DESCS_PER_FRAME, v->gdt_frames[i]);
    memset(gdt + nr_frames * DESCS_PER_FRAME, 0,
           (FIRST_RESERVED_GDT_PAGE - nr_frames) * PAGE_SIZE);
}

void pv_load_gdt(struct vcpu *v)
{
    spin_lock(&v->gdt_lock);
    load_gdt_locked(v);
    spin_unlock(&v->gdt_lock);
}

/*
 * @v's frames become @frames (@nr of them, @entries entries), its CPU's
 * copy with them if it runs here; the old frames' references go after.
 */
static void swap_gdt(struct vcpu *v, const unsigned long *frames,
                     unsigned int nr, unsigned int entries)
{
    unsigned long old[FIRST_RESERVED_GDT_PAGE];
    unsigned int i;

    spin_lock(&v->gdt_lock);
    for ( i = 0; i < FIRST_RESERVED_GDT_PAGE; i++ )
    {
        old[i] = v->gdt_frames[i];
        v->gdt_frames[i] = i < nr ? frames[i] : 0;
    }
    v->gdt_ents = entries;
    if ( v == current_vcpu() )
        load_gdt_locked(v);
    spin_unlock(&v->gdt_lock);
    put_desc_frames(old, FIRST_RESERVED_GDT_PAGE);
}

/* Xen's pv_destroy_gdt(): the frames' references go, nothing is loaded. */
void pv_destroy_gdt(struct vcpu *v)
{
    swap_gdt(v, NULL, 0, 0);
}

/*
 * Xen's pv_set_gdt().  As in Xen the CPU sees whole frames: entries past
 * @entries in the last frame are checked and usable too.  For a vCPU
 * that doesn't run here (VCPUOP_initialise) the frames are only taken;
 * its CPU loads them when it starts running it.
 */
long pv_set_gdt(struct vcpu *v, const unsigned long *frames,
                unsigned int entries)
{
    unsigned int i, nr_frames = ROUNDUP(entries, DESCS_PER_FRAME) /
                                DESCS_PER_FRAME;
    unsigned long taken[FIRST_RESERVED_GDT_PAGE];

    ASSERT(spin_is_locked_by_me(&dom.domain_lock));
    if ( entries > FIRST_RESERVED_GDT_ENTRY )
        return -XEN_EINVAL;

    for ( i = 0; i < nr_frames; i++ )
    {
        taken[i] = frames[i];
        if ( get_desc_frame(frames[i]) )
            break;
        if ( !desc_frame_ok(frames[i]) )
        {
            put_page_and_type(frames[i]);
            break;
        }
    }
    if ( i < nr_frames )
    {
        put_desc_frames(taken, i);      /* the ones already taken */
        return -XEN_EINVAL;
    }

    swap_gdt(v, frames, nr_frames, entries);
    return 0;
}

/*
 * HYPERVISOR_set_gdt: @frame_list is the guest's array of machine frame
 * numbers, DIV_ROUND_UP(entries, 512) of them (4-byte ones from a 32-bit
 * guest, as Xen's compat_set_gdt() reads them).  Xen's handler takes
 * @entries as an unsigned int, so the upper half of the register is
 * ignored, as there.
 */
static always_inline long set_gdt(unsigned long frame_list,
                                  unsigned long entries_reg, bool compat)
{
    unsigned int i, entries = entries_reg;
    unsigned long frames[FIRST_RESERVED_GDT_PAGE];
    unsigned int nr_frames = ROUNDUP(entries, DESCS_PER_FRAME) /
                             DESCS_PER_FRAME;

    /* Rechecked in pv_set_gdt(); bounds the copy. */
    if ( entries > FIRST_RESERVED_GDT_ENTRY )
        return -XEN_EINVAL;

    /* Xen copies nothing, and so can't fail, for an empty list. */
    if ( compat )
    {
        for ( i = 0; i < nr_frames; i++ )
            if ( copy_elem_from_guest(&frames[i], frame_list, i,
                                      XEN_PFN_SIZE(compat)) )
                return -XEN_EFAULT;
    }
    else if ( nr_frames &&
              copy_from_guest(frames, frame_list,
                              nr_frames * sizeof(*frames)) )
        return -XEN_EFAULT;

    return pv_set_gdt(current_vcpu(), frames, entries);
}

long do_set_gdt(unsigned long frame_list, unsigned long entries)
{
    return set_gdt(frame_list, entries, false);
}

long compat_set_gdt(unsigned long frame_list, unsigned long entries)
{
    return set_gdt(frame_list, entries, true);
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
    unsigned int i, n, idx = (pa & (PAGE_SIZE - 1)) / sizeof(uint64_t);
    unsigned int nr_frames;
    uint64_t d = desc, *slot;

    struct page_info *pg = mfn_to_page(mfn);
    enum page_type type;

    if ( (pa & (sizeof(d) - 1)) || !pv_check_descriptor(&d) || !pg ||
         !page_get(pg, PGO_GUEST) )
        return -XEN_EINVAL;
    /* A descriptor frame in use, or any frame that may be writable. */
    type = page_type(pg) == PGT_SEG_DESC ? PGT_SEG_DESC : PGT_WRITABLE;
    if ( page_get_type_flush(pg, type) != PGT_OK )
    {
        page_put(pg);
        return -XEN_EINVAL;
    }

    slot = (uint64_t *)__va(mfn << PAGE_SHIFT) + idx;
    ACCESS_ONCE(*slot) = d;

    /*
     * Every running vCPU's GDT copy that holds the frame (more than once,
     * perhaps) sees the change, as the frames themselves would in Xen:
     * under its gdt_lock, the frame read again (a later update_descriptor
     * may have written it since; a copy made since has it).
     */
    for ( n = 0; n < v->domain->max_vcpus; n++ )
    {
        struct vcpu *w = &v->domain->vcpu[n];

        if ( !ACCESS_ONCE(w->running) )
            continue;                   /* its start copies the frames */
        spin_lock(&w->gdt_lock);
        nr_frames = ROUNDUP(w->gdt_ents, DESCS_PER_FRAME) / DESCS_PER_FRAME;
        for ( i = 0; i < nr_frames; i++ )
            if ( w->gdt_frames[i] == mfn )
                ACCESS_ONCE(percpu_area[w->id]->gdt[i * DESCS_PER_FRAME +
                                                    idx]) = ACCESS_ONCE(*slot);
        spin_unlock(&w->gdt_lock);
    }
    put_page_and_type(mfn);

    return 0;
}

/*
 * The LDT, as Xen's: MMUEXT_SET_LDT only records where it is, and the CPU
 * reads it through its LDT_VIRT(v), where nothing is mapped at first.  The
 * first access to a page faults there (pv_ldt_fault()); the guest's frame
 * behind it then takes the seg_desc type, its descriptors are checked, and
 * it is mapped read-only for the CPU.  A page that can't be mapped is the
 * guest's #PF at its own address.  No lock, as the LDT is this vCPU's own
 * (set by its own MMUEXT_SET_LDT, mapped in its own window, faulted in by
 * its own CPU; VCPUOP_initialise sets another's only before it runs):
 * the guest's L1 entry is read once, and the frame behind it is held by
 * a reference and the seg_desc type from then on, whatever the guest
 * does to that entry meanwhile.
 */
#define LDT_VIRT_SIZE   (LDT_FRAMES_MAX * PAGE_SIZE)
#define LDT_VIRT(v)     (ONDEMAND_VIRT_START + (v)->id * LDT_VIRT_SIZE)

bool __hot_text pv_in_ldt(const struct vcpu *v, unsigned long addr)
{
    return addr - LDT_VIRT(v) < (unsigned long)v->ldt_ents * 8;
}

/*
 * Each vCPU's LDT has its own range (vCPU n runs on CPU n only), so no
 * CPU ever holds a translation of another's: mapping and unmapping one
 * concerns its own CPU's TLB alone.
 */
BUILD_BUG_ON(MAX_VCPUS * LDT_VIRT_SIZE > ONDEMAND_VIRT_SIZE);

static void load_ldt(struct vcpu *v)
{
    uint64_t *g = this_cpu()->gdt + (LDT_SEL >> 3);
    unsigned int ents = v->ldt_ents;
    uint64_t base = LDT_VIRT(v), limit = ents * 8 - 1;

    if ( !ents )
    {
        lldt(0);
        return;
    }
    set_tssldt_desc(g, base, limit, SYS_DESC_ldt);
    lldt(LDT_SEL);
}

/* Unmap the LDT's pages and release their frames (Xen's pv_destroy_ldt). */
static void destroy_ldt(struct vcpu *v)
{
    unsigned int i;

    for ( i = 0; i < LDT_FRAMES_MAX; i++ )
        if ( v->ldt_frames[i] )
            unmap_pages(LDT_VIRT(v) + i * PAGE_SIZE, PAGE_SIZE);
    put_desc_frames(v->ldt_frames, LDT_FRAMES_MAX);
}

/*
 * @v's kernel page tables changed (NEW_BASEPTR): the LDT's base is an
 * address in them, so what it maps is mapped again, from the new ones,
 * as the CPU reads it (Xen's new_guest_cr3() -> pv_destroy_ldt()).
 */
void pv_ldt_unmap(struct vcpu *v)
{
    destroy_ldt(v);
}

/*
 * MMUEXT_SET_LDT: Xen's checks (page aligned, a guest address, at most
 * 8192 entries); nothing is mapped or checked until the CPU reads it.
 */
long pv_set_ldt(struct vcpu *v, unsigned long base, unsigned int ents)
{
    if ( (base & (PAGE_SIZE - 1)) || !guest_range_ok(base, 1) ||
         ents > LDT_ENTRIES_MAX )
        return -XEN_EINVAL;
    if ( ents == v->ldt_ents && base == v->ldt_base )
        return 0;
    destroy_ldt(v);
    v->ldt_base = base;
    v->ldt_ents = ents;
    load_ldt(v);
    return 0;
}

/* The CPU starts running @v: its LDT, none of it mapped yet. */
void pv_load_ldt(struct vcpu *v)
{
    load_ldt(v);
}

bool pv_seg_base(unsigned int sel, uint32_t *base)
{
    struct vcpu *v = current_vcpu();
    unsigned int idx = sel >> 3;
    unsigned long mfn;
    uint64_t d;

    if ( sel & 4 )
    {
        if ( idx >= v->ldt_ents ||
             !(mfn = v->ldt_frames[idx / DESCS_PER_FRAME]) )
            return false;
        d = ((const uint64_t *)__va(mfn << PAGE_SHIFT))[idx % DESCS_PER_FRAME];
    }
    else
    {
        if ( !idx || idx >= GDT_ENTRIES )
            return false;
        d = ACCESS_ONCE(this_cpu()->gdt[idx]);
    }
    *base = (uint32_t)(((d >> 16) & 0xffffff) | ((d >> 56) << 24));
    return true;
}

/* Check a descriptor frame as it is, writing Xen's fix-ups back. */
static bool fix_desc_frame(unsigned long mfn)
{
    uint64_t *descs = __va(mfn << PAGE_SHIFT), d;
    unsigned int i;

    for ( i = 0; i < DESCS_PER_FRAME; i++ )
        if ( !fix_desc(&descs[i], &d) )
            return false;
    return true;
}

/*
 * Map page @page of @v's LDT, not yet mapped, from the kernel's page
 * tables (from user mode too: the LDT is the kernel's): false if the
 * guest's address there maps nothing a descriptor table may be.
 */
static bool ldt_map_page(struct vcpu *v, unsigned int page)
{
    unsigned long l1, mfn;
    unsigned int idx;
    uint64_t e;

    if ( guest_kern_l1_slot(v, v->ldt_base + page * PAGE_SIZE, &l1, &idx) )
        return false;
    e = ((uint64_t *)__va(l1 << PAGE_SHIFT))[idx];
    mfn = (e & PADDR_MASK) >> PAGE_SHIFT;
    if ( !(e & _PAGE_PRESENT) || get_desc_frame(mfn) )
        return false;
    if ( !fix_desc_frame(mfn) )
    {
        put_page_and_type(mfn);
        return false;
    }
    v->ldt_frames[page] = mfn;
    /*
     * Writable, as Xen's pv_map_ldt_shadow_page(): loading a segment
     * whose descriptor isn't marked accessed, the CPU marks it, a write
     * that would fault forever on a read-only page.  The frame's
     * descriptor type keeps the guest from writing it; the accessed
     * bit changes no descriptor's meaning.  Never executable.
     */
    map_pages(LDT_VIRT(v) + page * PAGE_SIZE, mfn << PAGE_SHIFT, PAGE_SIZE,
              _PAGE_RW | page_nx_bit());
    return true;
}

/* @addr in @v's LDT window, its page not yet mapped: that page. */
static bool ldt_unmapped(const struct vcpu *v, unsigned long addr,
                         unsigned int *page)
{
    unsigned long off = addr - LDT_VIRT(v);

    *page = off / PAGE_SIZE;
    return addr >= LDT_VIRT(v) && off < (unsigned long)v->ldt_ents * 8 &&
           !v->ldt_frames[*page];
}

/*
 * A #PF at @addr: if it is the CPU reading a not yet mapped page of the
 * current LDT, map it (true: retry) or give the guest its #PF at the LDT's
 * own address (true: delivered).  False: not an LDT access.
 */
bool pv_ldt_fault(struct cpu_regs *regs, unsigned long addr)
{
    struct vcpu *v = current_vcpu();
    unsigned int page;

    if ( !ldt_unmapped(v, addr, &page) )
        return false;                   /* not ours, or mapped already */
    if ( !ldt_map_page(v, page) )
    {
        pv_set_guest_cr2(v, v->ldt_base + (addr - LDT_VIRT(v)));
        pv_inject_exception(regs, X86_EXC_PF, regs->error_code);
    }
    return true;
}

/*
 * A #PF in the shim's own code (trap_set_pf_fixup()): the CPU reading
 * the current vCPU's LDT for a selector the shim loads on the guest's
 * behalf (a vCPU's segments as it starts, SEGBASE_GS_USER_SEL).  Mapped,
 * as Xen's handle_ldt_mapping_fault() maps it for its own loads too:
 * true to retry.  False (not the LDT, or nothing to map there) leaves
 * the fault to the instruction's fix-up, which loads NUL.  Only where
 * interrupts were on, as Xen's fixup_page_fault(): the mapping may
 * flush other CPUs, which lets interrupts in, and code that runs with
 * them off may rely on none coming (the exit's iretq, whose own fix-up
 * takes an LDT fault back through the exit's checks: pv_iret_fault()).
 */
static bool ldt_fault_shim(const struct cpu_regs *regs, unsigned long addr)
{
    struct vcpu *v = current_vcpu();
    unsigned int page;

    if ( !v || !(regs->rflags & X86_EFLAGS_IF) ||
         (regs->error_code & (PFEC_page_present | PFEC_user_mode |
                              PFEC_reserved_bit)) ||
         !ldt_unmapped(v, addr, &page) )
        return false;
    perfc_incr(ldt_faults);
    return ldt_map_page(v, page);
}

/* Before any guest L4 is validated: its copy of the slot must see it. */
void pv_ldt_init(void)
{
    paging_reserve(ONDEMAND_VIRT_START, MAX_VCPUS * LDT_VIRT_SIZE);
    trap_set_pf_fixup(ldt_fault_shim);
}
