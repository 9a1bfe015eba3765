/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PV MMU helpers for test kernels: page-table entries, a walk of the
 * bootstrap page tables, free frames, and the mmu_update / mmuext_op /
 * update_va_mapping calls a PV kernel makes to manage its own tables.
 */
#ifndef GUEST_MM_H
#define GUEST_MM_H

#include "guest.h"

/* ------------------------------------------------- page-table entries */

/*
 * Entry bits, SDM vol. 3A section 4.5 (and xen.h's MMU_NORMAL_PT_UPDATE).
 * Entries are 64 bits wide for both widths (PAE for a 32-bit guest), so
 * are their bits: ~_PAGE_RW must not clear an entry's upper half.
 */
#define _PAGE_PRESENT   UINT64_C(0x001)
#define _PAGE_RW        UINT64_C(0x002)
#define _PAGE_USER      UINT64_C(0x004)
#define _PAGE_PWT       UINT64_C(0x008)
#define _PAGE_PCD       UINT64_C(0x010)
#define _PAGE_ACCESSED  UINT64_C(0x020)
#define _PAGE_DIRTY     UINT64_C(0x040)
#define _PAGE_PSE       UINT64_C(0x080) /* L2/L3: superpage; L4: reserved */
#define _PAGE_PAT       UINT64_C(0x080) /* L1 */
#define _PAGE_GLOBAL    UINT64_C(0x100)
#define _PAGE_NX        (UINT64_C(1) << 63)

#ifndef PAGE_SHIFT
#define PAGE_SHIFT      12
#endif
#define PTE_ADDR_MASK   UINT64_C(0x000ffffffffff000)    /* bits 12-51 */
#define INVALID_MFN     (~0UL)

/* What a kernel asks for: data read-only / writable, and a table entry. */
#define PTE_RO          (_PAGE_PRESENT | _PAGE_ACCESSED)
#define PTE_RW          (_PAGE_PRESENT | _PAGE_RW | _PAGE_ACCESSED | \
                         _PAGE_DIRTY)
#define PTE_TABLE       (_PAGE_PRESENT | _PAGE_RW | _PAGE_ACCESSED)

#ifdef __x86_64__
/*
 * Four levels, 512 entries each.  Bits the hypervisor may add to a
 * present entry (Xen's adjust_guest_l1e() and friends: _PAGE_USER because
 * the guest kernel runs in ring 3, _PAGE_GUEST_KERNEL = bit 52 to remember
 * it, _PAGE_GLOBAL on user mappings, _PAGE_ACCESSED on L4 entries).
 * Compare entries without them.
 */
#define PT_LEVELS       4
#define PTE_HV_BITS     (_PAGE_USER | _PAGE_GLOBAL | _PAGE_ACCESSED | \
                         (UINT64_C(1) << 52))
#define PTE_HV_BITS_TOP PTE_HV_BITS
#else
/*
 * PAE: three levels, the top one (L3) 4 entries, the hypervisor running
 * it as a long-mode L3 (so _PAGE_RW and _PAGE_USER, which a PAE PDPTE
 * lacks, are allowed there too); the L2 under L3 slot 3 also holds the
 * hypervisor's mappings (its M2P) from HYPERVISOR_VIRT_START up, and may
 * be no other L3's.  The hypervisor leaves the ring-1 kernel's L1 and L2
 * entries as they are (no _PAGE_USER: the kernel is not user mode; the
 * CPU sets _PAGE_ACCESSED, user_init() _PAGE_USER), and adds _PAGE_USER,
 * _PAGE_RW and _PAGE_ACCESSED to present L3 entries (Xen's
 * adjust_guest_l3e() for a 32-bit domain): PTE_HV_BITS_TOP.
 */
#define PT_LEVELS       3
#define PTE_HV_BITS     (_PAGE_USER | _PAGE_ACCESSED)
#define PTE_HV_BITS_TOP (_PAGE_USER | _PAGE_RW | _PAGE_ACCESSED)
#endif

#define __page_aligned  __attribute__((aligned(PAGE_SIZE)))

static inline uint64_t pte_make(unsigned long mfn, uint64_t flags)
{
    return ((uint64_t)mfn << PAGE_SHIFT) | flags;
}

static inline unsigned long pte_mfn(uint64_t pte)
{
    return (pte & PTE_ADDR_MASK) >> PAGE_SHIFT;
}

/* Index of @va in its table at @level (1 to PT_LEVELS). */
static inline unsigned int pt_slot(unsigned long va, unsigned int level)
{
    return (va >> (PAGE_SHIFT + 9 * (level - 1))) & 511;
}

#ifdef __x86_64__
/* The canonical address whose walk uses slots l4, l3, l2, l1. */
static inline unsigned long va_of_slots(unsigned int l4, unsigned int l3,
                                        unsigned int l2, unsigned int l1)
{
    unsigned long va = ((unsigned long)l4 << 39) | ((unsigned long)l3 << 30) |
                       ((unsigned long)l2 << 21) | ((unsigned long)l1 << 12);

    return l4 & 256 ? va | 0xffff000000000000UL : va;
}
#endif

/* Reads and writes the compiler may not cache: mappings change under it. */
static inline uint64_t peek(unsigned long va)
{
    return *(const volatile uint64_t *)va;
}

static inline void poke(unsigned long va, uint64_t val)
{
    *(volatile uint64_t *)va = val;
}

/* ------------------------------------------------- frames and the walk */

/*
 * The M2P (read-only, in the hypervisor's area: L4 slot 256, or from
 * HYPERVISOR_VIRT_START under L3 slot 3) and the p2m.
 */
static inline unsigned long mfn_to_pfn(unsigned long mfn)
{
    return ((const volatile unsigned long *)MACH2PHYS_VIRT_START)[mfn];
}

static inline unsigned long pfn_to_mfn(unsigned long pfn)
{
    return ((const unsigned long *)start_info->mfn_list)[pfn];
}

/*
 * The top-level table (L4, or PAE L3) the guest started on
 * (start_info->pt_base), pinned by its builder.
 */
unsigned long pt_base_mfn(void);

/*
 * The entry at @level (PT_LEVELS = the top one) on the walk of @va from
 * pt_base, read through the read-only start-of-day mapping of the
 * bootstrap tables.  NULL if an entry above it is not present or points
 * at a table outside the bootstrap ones (those have no mapping to read
 * them through).
 */
const uint64_t *pt_entry(unsigned long va, unsigned int level);

/* Its machine address, the `ptr` of an mmu_update; 0 if pt_entry() is NULL. */
uint64_t pt_entry_maddr(unsigned long va, unsigned int level);

/* The frame @va maps, by the walk above; INVALID_MFN if none. */
unsigned long virt_to_mfn(const void *va);

/*
 * The end of the start-of-day mapping (xen.h: at least 512 KiB past the
 * bootstrap stack, 4 MiB aligned).  Pfns from here up to nr_pages are the
 * guest's but mapped nowhere: alloc_frame() hands them out.
 */
unsigned long initial_mapping_end(void);

/*
 * A free frame, zeroed through a temporary writable mapping that is gone
 * again when this returns: the frame has no mapping and no type, ready to
 * become a page table.  Ends the test in ERROR when none are left.
 */
unsigned long alloc_frame(void);

/*
 * Access any frame the guest may map through the same temporary mapping:
 * writable for frame_write()/frame_fill() (so not for page tables),
 * read-only for frame_read().  A refused mapping ends the test in ERROR.
 */
void frame_write(unsigned long mfn, unsigned int off, const void *src,
                 size_t len);
void frame_fill(unsigned long mfn, int byte);
void frame_read(unsigned long mfn, unsigned int off, void *dst, size_t len);

static inline void frame_set_pte(unsigned long mfn, unsigned int slot,
                                 uint64_t val)
{
    frame_write(mfn, slot * 8, &val, sizeof(val));
}

static inline uint64_t frame_get_pte(unsigned long mfn, unsigned int slot)
{
    uint64_t val;

    frame_read(mfn, slot * 8, &val, sizeof(val));
    return val;
}

/*
 * Frames that are not the guest's: the hypervisor's table for its
 * read-only M2P (the frame our L4's slot 256 points at; for PAE, the one
 * the L2 entry of HYPERVISOR_VIRT_START points at), and the first frame
 * past the end of RAM (XENMEM_maximum_ram_page).
 */
unsigned long hypervisor_frame(void);
unsigned long maximum_ram_page(void);

/*
 * memory_op: @cmd with @arg; the caller's current reservation; and a
 * reservation op (increase, decrease, populate_physmap) of @nr extents
 * of 2^@order frames listed at @list, with @flags (mem_flags) for
 * domain @domid.
 */
long memory_op(unsigned long cmd, const void *arg);
long current_reservation(void);
long reservation_op(unsigned long cmd, void *list, unsigned long nr,
                    unsigned int order, unsigned int flags, domid_t domid);

/* Is @mfn in the guest's p2m (start_info->mfn_list)? */
bool is_guest_frame(unsigned long mfn);

/* CPUID 0x80000001 EDX.NX, and 0x80000008 EAX[7:0] (MAXPHYADDR). */
bool cpu_has_nx(void);
unsigned int cpu_paddr_bits(void);

/* ------------------------------------------------------- MMU requests */

/* update_va_mapping(@va, @mfn with @flags, UVMF_INVLPG). */
long map_frame_at(unsigned long va, unsigned long mfn, uint64_t flags);
/* update_va_mapping(@va, 0, UVMF_INVLPG). */
long unmap_va(unsigned long va);
/*
 * Back to @va's start-of-day mapping: pfn va >> 12, writable (and, for a
 * 32-bit guest after user_init(), user-accessible: pte_user_bits).
 */
long remap_initial(unsigned long va);
extern uint64_t pte_user_bits;

/* @va must read as @want without faulting, or the test fails. */
void check_reads(const char *what, unsigned long va, uint64_t want);

/* One MMU_NORMAL_PT_UPDATE (or the command in @ptr's low bits). */
long mmu_update1(uint64_t ptr, uint64_t val);
/* One mmuext_op with arg1 = @arg1, for DOMID_SELF. */
long mmuext1(unsigned int cmd, unsigned long arg1);
/* MMUEXT_SET_LDT: @ents descriptors at @va (0, 0: none). */
long mmuext_set_ldt(unsigned long va, unsigned int ents);
/* %es = @sel and back: 0, or the load's fault. */
exinfo_t load_es(unsigned int sel);
/* Segment descriptor @d (its base 0) based at @base instead. */
static inline uint64_t desc_set_base(uint64_t d, uint32_t base)
{
    return d | (uint64_t)(base & 0xffffff) << 16 |
           (uint64_t)(base >> 24) << 56;
}
/* One flush: MMUEXT_<cmd> of @va, the _MULTI forms to the vCPUs in @mask. */
long mmuext_flush(unsigned int cmd, unsigned long va,
                  const unsigned long *mask);

/* MMUEXT_PIN_L<level>_TABLE / MMUEXT_UNPIN_TABLE of @mfn. */
long pin_table(unsigned int level, unsigned long mfn);
long unpin_table(unsigned long mfn);

static inline long tlb_flush_local(void)
{
    return mmuext1(MMUEXT_TLB_FLUSH_LOCAL, 0);
}

static inline long invlpg_local(unsigned long va)
{
    return mmuext1(MMUEXT_INVLPG_LOCAL, va);
}

/*
 * A new page table of @level (1-PT_LEVELS) from a free frame: entry
 * @slot set to @entry (0: an empty table), written while the frame has no
 * other mapping, then pinned.  A PAE L3 also gets a fresh L2 in slot 3
 * (root_frame()).  Returns its mfn; a refused pin ends the test in ERROR.
 */
unsigned long new_table(unsigned int level, unsigned int slot,
                        uint64_t entry);

/*
 * A free frame ready to become a top-level table (an L4 or PAE L3),
 * neither pinned nor in use: zeroed, or for a PAE L3, with slot 3
 * pointing at a fresh, empty L2, which the hypervisor fills with its own
 * mappings when it validates the L3 (Xen requires one there, not shared
 * with another L3).
 */
unsigned long root_frame(void);

#endif /* GUEST_MM_H */
