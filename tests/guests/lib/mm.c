/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PV MMU helpers: the walk of the bootstrap page tables, the free-frame
 * allocator and a temporary mapping to reach frames that have none, as a
 * PV kernel does it before it has its own memory management.
 */
#include "mm.h"
#include "lib.h"
#include <xen/memory.h>

/* The page whose mapping frame_*() borrows; restored after every use. */
static uint8_t scratch[PAGE_SIZE] __page_aligned;

static unsigned long next_free_pfn;     /* alloc_frame()'s cursor */

static void __noreturn mm_broken(const char *what, long rc)
{
    test_error("%s: %ld", what, rc);
    test_exit();
}

unsigned long pt_base_mfn(void)
{
    return pfn_to_mfn(start_info->pt_base >> PAGE_SHIFT);
}

/*
 * Where the bootstrap table in frame @mfn can be read: at pfn << 12, like
 * everything in the start-of-day mapping, if the frame is one of the
 * nr_pt_frames bootstrap tables.  NULL for any other frame.  The p2m says
 * which, not the M2P: tests rewrite M2P entries.
 */
static const uint64_t *bootstrap_table(unsigned long mfn)
{
    unsigned long pfn = start_info->pt_base >> PAGE_SHIFT;
    unsigned long end = pfn + start_info->nr_pt_frames;

    for ( ; pfn < end; pfn++ )
        if ( pfn_to_mfn(pfn) == mfn )
            return (const uint64_t *)(pfn << PAGE_SHIFT);
    return NULL;
}

const uint64_t *pt_entry(unsigned long va, unsigned int level)
{
    const uint64_t *table = (const uint64_t *)start_info->pt_base;
    unsigned int l;

    for ( l = PT_LEVELS; l > level; l-- )
    {
        uint64_t e = table[pt_slot(va, l)];

        if ( !(e & _PAGE_PRESENT) )
            return NULL;
        table = bootstrap_table(pte_mfn(e));
        if ( !table )
            return NULL;
    }
    return &table[pt_slot(va, level)];
}

uint64_t pt_entry_maddr(unsigned long va, unsigned int level)
{
    const uint64_t *e = pt_entry(va, level);
    unsigned long table_va = (unsigned long)e & ~(PAGE_SIZE - 1);

    if ( !e )
        return 0;

    return ((uint64_t)pfn_to_mfn(table_va >> PAGE_SHIFT) << PAGE_SHIFT) |
           ((unsigned long)e & (PAGE_SIZE - 1));
}

unsigned long virt_to_mfn(const void *va)
{
    const uint64_t *e = pt_entry((unsigned long)va, 1);

    return e && (*e & _PAGE_PRESENT) ? pte_mfn(*e) : INVALID_MFN;
}

unsigned long initial_mapping_end(void)
{
    static unsigned long end;
    unsigned long va;

    if ( end )
        return end;

    va = start_info->pt_base + start_info->nr_pt_frames * PAGE_SIZE;
    for ( ; ; va += PAGE_SIZE )
    {
        const uint64_t *e = pt_entry(va, 1);

        if ( !e || !(*e & _PAGE_PRESENT) )
            break;
    }
    return end = va;
}

unsigned long hypervisor_frame(void)
{
#ifdef __x86_64__
    return pte_mfn(((const uint64_t *)start_info->pt_base)[256]);
#else
    const uint64_t *e = pt_entry(HYPERVISOR_VIRT_START, 2);

    if ( !e || !(*e & _PAGE_PRESENT) )
        mm_broken("no L2 entry for HYPERVISOR_VIRT_START", e ? 0 : -1);
    return pte_mfn(*e);
#endif
}

unsigned long maximum_ram_page(void)
{
    return HYPERCALL(__HYPERVISOR_memory_op, XENMEM_maximum_ram_page, 0, 0,
                     0, 0);
}

long memory_op(unsigned long cmd, const void *arg)
{
    return HYPERCALL(__HYPERVISOR_memory_op, cmd, arg, 0, 0, 0);
}

long current_reservation(void)
{
    struct xen_memory_domain md = { .domid = DOMID_SELF };

    return memory_op(XENMEM_current_reservation, &md);
}

long reservation_op(unsigned long cmd, void *list, unsigned long nr,
                    unsigned int order, unsigned int flags, domid_t domid)
{
    struct xen_memory_reservation r = {
        .nr_extents = nr, .extent_order = order, .mem_flags = flags,
        .domid = domid,
    };

    set_xen_guest_handle(r.extent_start, list);
    return memory_op(cmd, &r);
}

bool is_guest_frame(unsigned long mfn)
{
    for ( unsigned long pfn = 0; pfn < start_info->nr_pages; pfn++ )
        if ( pfn_to_mfn(pfn) == mfn )
            return true;
    return false;
}

static void cpuid(uint32_t leaf, uint32_t r[4])
{
    asm volatile ( "cpuid"
                   : "=a" (r[0]), "=b" (r[1]), "=c" (r[2]), "=d" (r[3])
                   : "a" (leaf), "c" (0) );
}

bool cpu_has_nx(void)
{
    uint32_t r[4];

    cpuid(0x80000000, r);
    if ( r[0] < 0x80000001 )
        return false;
    cpuid(0x80000001, r);
    return r[3] & (1u << 20);
}

unsigned int cpu_paddr_bits(void)
{
    uint32_t r[4];

    cpuid(0x80000000, r);
    if ( r[0] < 0x80000008 )
        return 36;
    cpuid(0x80000008, r);
    return r[0] & 0xff;
}

long map_frame_at(unsigned long va, unsigned long mfn, uint64_t flags)
{
    return hypercall_update_va_mapping(va, pte_make(mfn, flags), UVMF_INVLPG);
}

long unmap_va(unsigned long va)
{
    return hypercall_update_va_mapping(va, 0, UVMF_INVLPG);
}

uint64_t pte_user_bits;

long remap_initial(unsigned long va)
{
    return map_frame_at(va, pfn_to_mfn(va >> PAGE_SHIFT),
                        PTE_RW | pte_user_bits);
}

void check_reads(const char *what, unsigned long va, uint64_t want)
{
    exinfo_t ex = probe_read((void *)va);

    if ( ex )
        test_fail("%s: reading %#lx faulted (vector %u)", what, va,
                  exinfo_vector(ex));
    else if ( peek(va) != want )
        test_fail("%s: %#lx reads %#llx, expected %#llx", what, va,
                  (unsigned long long)peek(va), (unsigned long long)want);
}

/* Map @mfn at the scratch page with @flags; the caller restores it. */
static void scratch_map(unsigned long mfn, uint64_t flags)
{
    long rc = map_frame_at((unsigned long)scratch, mfn, flags);

    if ( rc )
    {
        printf("mm: mapping mfn %#lx at the scratch page failed\n", mfn);
        mm_broken("update_va_mapping", rc);
    }
}

static void scratch_restore(void)
{
    long rc = remap_initial((unsigned long)scratch);

    if ( rc )
        mm_broken("update_va_mapping (scratch page back)", rc);
}

void frame_write(unsigned long mfn, unsigned int off, const void *src,
                 size_t len)
{
    scratch_map(mfn, PTE_RW);
    memcpy(scratch + off, src, len);
    scratch_restore();
}

void frame_fill(unsigned long mfn, int byte)
{
    scratch_map(mfn, PTE_RW);
    memset(scratch, byte, PAGE_SIZE);
    scratch_restore();
}

void frame_read(unsigned long mfn, unsigned int off, void *dst, size_t len)
{
    scratch_map(mfn, PTE_RO);
    memcpy(dst, scratch + off, len);
    scratch_restore();
}

unsigned long alloc_frame(void)
{
    unsigned long mfn;

    if ( !next_free_pfn )
        next_free_pfn = initial_mapping_end() >> PAGE_SHIFT;
    if ( next_free_pfn >= start_info->nr_pages )
        mm_broken("alloc_frame: no free frames left, nr_pages",
                  start_info->nr_pages);

    mfn = pfn_to_mfn(next_free_pfn++);
    frame_fill(mfn, 0);
    return mfn;
}

long mmu_update1(uint64_t ptr, uint64_t val)
{
    mmu_update_t req = { .ptr = ptr, .val = val };

    return hypercall_mmu_update(&req, 1, NULL, DOMID_SELF);
}

long mmuext1(unsigned int cmd, unsigned long arg1)
{
    mmuext_op_t op = { .cmd = cmd, .arg1.linear_addr = arg1 };

    return hypercall_mmuext_op(&op, 1, NULL, DOMID_SELF);
}

long mmuext_set_ldt(unsigned long va, unsigned int ents)
{
    mmuext_op_t op = {
        .cmd = MMUEXT_SET_LDT, .arg1.linear_addr = va, .arg2.nr_ents = ents,
    };

    return hypercall_mmuext_op(&op, 1, NULL, DOMID_SELF);
}

exinfo_t load_es(unsigned int sel)
{
    unsigned int was;
    exinfo_t ex;

    asm volatile ( "mov %%es, %k0" : "=r" (was) );
    ex = TRY("mov %k1, %%es", "r" (sel));
    asm volatile ( "mov %k0, %%es" :: "r" (was) );
    return ex;
}

long mmuext_flush(unsigned int cmd, unsigned long va,
                  const unsigned long *mask)
{
    mmuext_op_t op = { .cmd = cmd, .arg1.linear_addr = va };

    set_xen_guest_handle(op.arg2.vcpumask, mask);
    return hypercall_mmuext_op(&op, 1, NULL, DOMID_SELF);
}

long pin_table(unsigned int level, unsigned long mfn)
{
    return mmuext1(MMUEXT_PIN_L1_TABLE + level - 1, mfn);
}

long unpin_table(unsigned long mfn)
{
    return mmuext1(MMUEXT_UNPIN_TABLE, mfn);
}

unsigned long root_frame(void)
{
    unsigned long mfn = alloc_frame();

    if ( PT_LEVELS == 3 )
        frame_set_pte(mfn, 3, pte_make(alloc_frame(), _PAGE_PRESENT));
    return mfn;
}

unsigned long new_table(unsigned int level, unsigned int slot,
                        uint64_t entry)
{
    unsigned long mfn = level == PT_LEVELS ? root_frame() : alloc_frame();
    long rc;

    if ( entry )
        frame_set_pte(mfn, slot, entry);
    rc = pin_table(level, mfn);
    if ( rc )
    {
        printf("mm: pinning a new L%u (mfn %#lx, [%u] = %#llx) failed\n",
               level, mfn, slot, (unsigned long long)entry);
        mm_broken("MMUEXT_PIN_TABLE", rc);
    }
    return mfn;
}
