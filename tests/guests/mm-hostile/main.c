/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Page-table attacks on the PV MMU, each refused the way Xen's
 * arch/x86/mm.c refuses it, after which the guest (and the shim) carry on:
 *
 *  - frames the guest doesn't own: get_page_from_l1e() says -EBUSY for
 *    RAM that isn't ours (no owner, or another), -EPERM for I/O frames
 *    (the low 1 MiB, holes, anything past RAM or MAXPHYADDR), -EINVAL for
 *    the all-ones frame number; and nothing else takes them either;
 *  - a page table mapped writable, in every way (-EBUSY), also by
 *    flipping only RW on a read-only entry (XSA-182's fast path);
 *  - a table that maps itself writable: L1 -EBUSY, L2-L4 -EINVAL;
 *  - linear page tables (get_l<N>_linear_pagetable()): only read-only,
 *    only the same level, no chains of them (XSA-240); a legal one reads
 *    our own tables;
 *  - the hypervisor's L4 slots 256-271 (mod_l4_entry(): -EINVAL);
 *  - NEW_BASEPTR to frames that don't validate as an L4;
 *  - frames the hypervisor writes itself (shared_info, the grant
 *    table's frames, the xenstore and console rings) as page tables or
 *    descriptor frames: their writable type is permanent, as Xen's
 *    share_xen_page_with_guest() and the backends' writable foreign
 *    mappings make it (-EINVAL).  A zeroed page validates as an L1, and
 *    the shim's own writes would then make its entries.
 */
#include "guest.h"
#include "mm.h"
#include <xen/grant_table.h>

const char test_title[] =
    "PV MMU attacks: foreign frames, page tables, linear maps";

static uint8_t win[2][PAGE_SIZE] __page_aligned;
#define W(i)        ((unsigned long)win[i])

#define X           200                 /* a free L4 slot for linear maps */
static uint64_t l4x;                    /* its machine address (64-bit) */
static const uint64_t *boot_l4;         /* the top level: L4, or PAE L3 */

static void check_unchanged(const char *what)
{
    if ( virt_to_mfn(win[0]) != pfn_to_mfn(W(0) >> PAGE_SHIFT) )
        test_fail("%s: the window's mapping changed", what);
}

static void test_foreign_frames(void)
{
    const struct {
        const char *what;
        uint64_t mfn;                   /* past 32 bits for a 32-bit guest */
        long rc;
    } f[] = {
        { "the shim image (2 MiB, its memory map)", 0x200, -XEN_EBUSY },
        { "the shim's table of the M2P", hypervisor_frame(), -XEN_EBUSY },
        { "mfn 0 (the low 1 MiB is I/O)", 0, -XEN_EPERM },
        { "mfn 0xb8 (VGA)", 0xb8, -XEN_EPERM },
        { "the first frame past RAM", maximum_ram_page(), -XEN_EPERM },
        { "the local APIC", 0xfee00, -XEN_EPERM },
        { "past MAXPHYADDR", UINT64_C(1) << (cpu_paddr_bits() - PAGE_SHIFT),
          -XEN_EPERM },
        { "all address bits (INVALID_MFN)", PTE_ADDR_MASK >> PAGE_SHIFT,
          -XEN_EINVAL },
    };
    uint64_t l1e = pt_entry_maddr(W(0), 1);

    for ( unsigned int i = 0; i < ARRAY_SIZE(f); i++ )
    {
        uint64_t mfn = f[i].mfn, maddr = mfn << PAGE_SHIFT;
        /* mmuext_op names a frame in an unsigned long: not all of these. */
        bool named = mfn == (unsigned long)mfn;
        long rc[4];

        if ( named && is_guest_frame(mfn) )
        {
            test_error("%s: mfn %#llx is ours", f[i].what,
                       (unsigned long long)mfn);
            continue;
        }
        rc[0] = hypercall_update_va_mapping(W(0), maddr | PTE_RO,
                                            UVMF_INVLPG);
        rc[1] = hypercall_update_va_mapping(W(0), maddr | PTE_RW,
                                            UVMF_INVLPG);
        rc[2] = mmu_update1(l1e, maddr | PTE_RO);
        rc[3] = mmu_update1(l1e | MMU_PT_UPDATE_PRESERVE_AD, maddr | PTE_RW);
        for ( unsigned int j = 0; j < 4; j++ )
            if ( rc[j] != f[i].rc )
                test_fail("mapping %s (mfn %#llx), way %u: %ld, "
                          "expected %ld", f[i].what, (unsigned long long)mfn,
                          j, rc[j], f[i].rc);
        check_unchanged(f[i].what);

        /* Not ours to pin, unpin, update, or give an M2P entry. */
        if ( named )
        {
            check_rc(pin_table(1, mfn), -XEN_EINVAL);
            check_rc(unpin_table(mfn), -XEN_EINVAL);
            check_rc(mmuext1(MMUEXT_NEW_BASEPTR, mfn), -XEN_EINVAL);
        }
        check_rc(mmu_update1(maddr, 0), -XEN_EINVAL);
        check_rc(mmu_update1(maddr | MMU_MACHPHYS_UPDATE, 0), -XEN_EINVAL);
    }
}

/* Every way to map a page table writable: -EBUSY. */
static void test_tables_writable(void)
{
    unsigned long l1 = new_table(1, 0, 0);
    unsigned long l2 = new_table(2, 0, pte_make(l1, PTE_TABLE));
    const unsigned long live[] = {
        pt_base_mfn(),
#ifdef __x86_64__
        pte_mfn(*pt_entry(0, 4)),
#else
        pte_mfn(boot_l4[3]),            /* the L2 with the hypervisor's */
#endif
        pte_mfn(*pt_entry(0, 3)), pte_mfn(*pt_entry(W(0), 2)), l1, l2,
    };
    uint64_t l1e = pt_entry_maddr(W(0), 1), self = (uint64_t)l1 << PAGE_SHIFT;

    for ( unsigned int i = 0; i < ARRAY_SIZE(live); i++ )
    {
        check_rc(map_frame_at(W(0), live[i], PTE_RW), -XEN_EBUSY);
        check_rc(mmu_update1(l1e, pte_make(live[i], PTE_RW)), -XEN_EBUSY);
        check_unchanged("mapping a page table writable");
    }

    /* Read-only is fine; flipping just RW is not (XSA-182). */
    check_rc(map_frame_at(W(0), l1, PTE_RO), 0);
    check_rc(mmu_update1(l1e, pte_make(l1, PTE_RO | _PAGE_RW)), -XEN_EBUSY);
    check_rc(hypercall_update_va_mapping(W(0), pte_make(l1, PTE_RW),
                                         UVMF_INVLPG), -XEN_EBUSY);
    if ( exinfo_vector(probe_write(win[0])) != X86_EXC_PF )
        test_fail("pinned L1 became writable");

    /* An L1 may map itself read-only, never writable. */
    check_rc(mmu_update1(self + 5 * 8, pte_make(l1, PTE_RO)), 0);
    check_rc(mmu_update1(self + 5 * 8, pte_make(l1, PTE_RW)), -XEN_EBUSY);
    check_rc(mmu_update1(self + 6 * 8, pte_make(l2, PTE_RW)), -XEN_EBUSY);
    check_rc(pte_mfn(peek(W(0) + 5 * 8)), l1);
    if ( peek(W(0) + 5 * 8) & _PAGE_RW )
        test_fail("L1 entry 5 became writable");

    check_rc(remap_initial(W(0)), 0);
    check_rc(unpin_table(l2), 0);
    check_rc(unpin_table(l1), 0);
}

/*
 * Tables that map themselves: read-only is a legal same-level entry,
 * but for a PAE L3 (Xen allows no linear L3 for a 32-bit guest).
 */
static void test_self_maps(void)
{
    for ( unsigned int level = 1; level <= PT_LEVELS; level++ )
    {
        bool pae_l3 = PT_LEVELS == 3 && level == 3;
        unsigned long t = level == PT_LEVELS ? root_frame() : alloc_frame();
        unsigned int slot = pae_l3 ? 0 : 3;
        long want = level == 1 ? -XEN_EBUSY : -XEN_EINVAL;

        frame_set_pte(t, slot, pte_make(t, level == 1 ? PTE_RW : PTE_TABLE));
        if ( pin_table(level, t) != want )
            test_fail("L%u mapping itself writable: pin didn't give %ld",
                      level, want);
        frame_set_pte(t, slot, pte_make(t, PTE_RO));   /* no type left */
        check_rc(pin_table(level, t), pae_l3 ? -XEN_EINVAL : 0);
        if ( !pae_l3 )
            check_rc(unpin_table(t), 0);
    }
}

static void check_linear_reads(unsigned long va, const uint64_t *want,
                               const char *what)
{
    unsigned int bad = 0;

    for ( unsigned int i = 0; i < 512; i++ )
        bad += peek(va + i * 8) != want[i];
    if ( bad )
        test_fail("linear map of %s: %u of 512 entries differ", what, bad);
}

#ifdef __x86_64__
static void test_linear(void)
{
    unsigned long me = pt_base_mfn(), l2 = new_table(2, 0, 0);
    unsigned long l1 = new_table(1, 0, 0), b, c;
    unsigned long self_va = va_of_slots(X, X, X, X);
    unsigned long hole = (initial_mapping_end() + (1UL << 21) - 1) &
                         ~((1UL << 21) - 1);
    const uint64_t *l3 = pt_entry(0, 3), *l2t = pt_entry(0, 2);

    /* Wrong level, or writable: refused. */
    check_rc(mmu_update1(l4x, pte_make(l2, PTE_RO)), -XEN_EINVAL);
    check_rc(mmu_update1(l4x, pte_make(l1, PTE_RO)), -XEN_EINVAL);
    check_rc(mmu_update1(pt_entry_maddr(1UL << 30, 3), pte_make(me, PTE_RO)),
             -XEN_EINVAL);
    check_rc(mmu_update1(pt_entry_maddr(hole, 2),
                         pte_make(pte_mfn(boot_l4[0]), PTE_RO)), -XEN_EINVAL);
    check_rc(mmu_update1(l4x, pte_make(me, PTE_RO | _PAGE_RW)), -XEN_EINVAL);
    check_rc(boot_l4[X], 0);

    /* Read-only, same level: our L4, L3, L2 through it. */
    check_rc(mmu_update1(l4x, pte_make(me, PTE_RO)), 0);
    check_rc(tlb_flush_local(), 0);
    check_linear_reads(self_va, boot_l4, "the L4");
    check_linear_reads(va_of_slots(X, X, X, 0), l3, "the L3");
    check_linear_reads(va_of_slots(X, X, 0, 0), l2t, "the L2");
    if ( exinfo_vector(probe_write((void *)self_va)) != X86_EXC_PF )
        test_fail("linear map of the L4 is writable");

    /* XSA-182: now just add RW. */
    check_rc(mmu_update1(l4x, pte_make(me, PTE_RO | _PAGE_RW)), -XEN_EINVAL);
    if ( boot_l4[X] & _PAGE_RW )
        test_fail("linear L4 entry became writable");
    check_rc(mmu_update1(l4x, 0), 0);
    check_rc(tlb_flush_local(), 0);
    if ( exinfo_vector(probe_read((void *)self_va)) != X86_EXC_PF )
        test_fail("linear map still there after its removal");

    /* XSA-240: B has a linear entry to C; ours to B would chain them. */
    c = new_table(4, 0, 0);
    b = new_table(4, 7, pte_make(c, PTE_RO));
    check_rc(mmu_update1(l4x, pte_make(b, PTE_RO)), -XEN_EINVAL);
    check_rc(mmu_update1(l4x, pte_make(c, PTE_RO)), 0);
    /* C is a linear target now: it may not hold linear entries itself. */
    check_rc(mmu_update1(((uint64_t)c << PAGE_SHIFT) + 9 * 8,
                         pte_make(me, PTE_RO)), -XEN_EINVAL);
    check_rc(mmu_update1(l4x, 0), 0);
    check_rc(tlb_flush_local(), 0);

    check_rc(unpin_table(b), 0);
    check_rc(unpin_table(c), 0);
    check_rc(unpin_table(l2), 0);
    check_rc(unpin_table(l1), 0);
}
#else
/*
 * PAE's linear maps are L2 ones: an entry of our L2 naming an L2,
 * read-only, so that 2 MiB show the L1s it points at as pages (and, at
 * its own slot, the L2 itself).
 */
static void test_linear(void)
{
    unsigned long hole = (initial_mapping_end() + (1UL << 21) - 1) &
                         ~((1UL << 21) - 1);
    uint64_t l2x = pt_entry_maddr(hole, 2);
    const uint64_t *me_va = pt_entry(0, 2) - pt_slot(0, 2);
    unsigned long me = pte_mfn(*pt_entry(0, 3));        /* our L2 */
    unsigned long self_va = hole + (pt_slot(hole, 2) << PAGE_SHIFT);
    unsigned long l1 = new_table(1, 0, 0), b, c;

    if ( *pt_entry(hole, 2) & _PAGE_PRESENT )
        return test_error("no free L2 slot at %#lx", hole);

    /* Wrong level, or writable: refused. */
    check_rc(mmu_update1(l2x, pte_make(pt_base_mfn(), PTE_RO)), -XEN_EINVAL);
    check_rc(mmu_update1(l2x, pte_make(me, PTE_RO | _PAGE_RW)),
             -XEN_EINVAL);

    /* Read-only, same level: our L2 through it. */
    check_rc(mmu_update1(l2x, pte_make(me, PTE_RO)), 0);
    check_rc(tlb_flush_local(), 0);
    check_linear_reads(self_va, me_va, "the L2");
    if ( exinfo_vector(probe_write((void *)self_va)) != X86_EXC_PF )
        test_fail("linear map of the L2 is writable");

    /* XSA-182: now just add RW. */
    check_rc(mmu_update1(l2x, pte_make(me, PTE_RO | _PAGE_RW)),
             -XEN_EINVAL);
    if ( *pt_entry(hole, 2) & _PAGE_RW )
        test_fail("linear L2 entry became writable");
    check_rc(mmu_update1(l2x, 0), 0);
    check_rc(tlb_flush_local(), 0);
    if ( exinfo_vector(probe_read((void *)self_va)) != X86_EXC_PF )
        test_fail("linear map still there after its removal");

    /* XSA-240: B has a linear entry to C; ours to B would chain them. */
    c = new_table(2, 0, 0);
    b = new_table(2, 7, pte_make(c, PTE_RO));
    check_rc(mmu_update1(l2x, pte_make(b, PTE_RO)), -XEN_EINVAL);
    check_rc(mmu_update1(l2x, pte_make(c, PTE_RO)), 0);
    /* C is a linear target now: it may not hold linear entries itself. */
    check_rc(mmu_update1(((uint64_t)c << PAGE_SHIFT) + 9 * 8,
                         pte_make(me, PTE_RO)), -XEN_EINVAL);
    check_rc(mmu_update1(l2x, 0), 0);
    check_rc(tlb_flush_local(), 0);

    check_rc(unpin_table(b), 0);
    check_rc(unpin_table(c), 0);
    check_rc(unpin_table(l1), 0);
}
#endif

#ifdef __x86_64__
/* The hypervisor's slots: not even rewriting what is there. */
static void test_reserved_slots(void)
{
    uint64_t base = (uint64_t)pt_base_mfn() << PAGE_SHIFT;
    unsigned long other = new_table(4, 0, 0);
    const unsigned int slots[] = { 256, 257, 263, 271 };

    for ( unsigned int i = 0; i < ARRAY_SIZE(slots); i++ )
    {
        unsigned int s = slots[i];
        uint64_t old = boot_l4[s];

        check_rc(mmu_update1(base + s * 8, old), -XEN_EINVAL);
        check_rc(mmu_update1(base + s * 8, 0), -XEN_EINVAL);
        check_rc(mmu_update1(base + s * 8, pte_make(other, PTE_RO)),
                 -XEN_EINVAL);
        check_rc(mmu_update1(((uint64_t)other << PAGE_SHIFT) + s * 8, 0),
                 -XEN_EINVAL);
        if ( boot_l4[s] != old )
            test_fail("L4 slot %u changed", s);
    }
    check_rc(mmu_update1(base + 272 * 8, 0), 0);        /* the guest's */
    if ( exinfo_vector(probe_write((void *)MACH2PHYS_VIRT_START)) !=
         X86_EXC_PF )
        test_fail("the M2P is writable");
    check_rc(unpin_table(other), 0);
}
#else
/*
 * The hypervisor's part of a PAE guest's tables: L3 slot 3 may not change
 * at all (Xen's mod_l3_entry(): -EINVAL), nor the entries of the L2 it
 * names from HYPERVISOR_VIRT_START up (mod_l2_entry(): -EPERM); that
 * L2's entries below are the guest's.
 */
static void test_reserved_slots(void)
{
    uint64_t base = (uint64_t)pt_base_mfn() << PAGE_SHIFT;
    uint64_t old = boot_l4[3], xen_l2e = pt_entry_maddr(HYPERVISOR_VIRT_START,
                                                        2);
    const uint64_t *e = pt_entry(HYPERVISOR_VIRT_START, 2);
    uint64_t xen_old = e ? *e : 0;

    if ( !e )
        return test_error("no L2 entry for HYPERVISOR_VIRT_START");
    check_rc(mmu_update1(base + 3 * 8, old), -XEN_EINVAL);
    check_rc(mmu_update1(base + 3 * 8, 0), -XEN_EINVAL);
    if ( boot_l4[3] != old )
        test_fail("L3 slot 3 changed");
    check_rc(mmu_update1(xen_l2e, xen_old), -XEN_EPERM);
    check_rc(mmu_update1(xen_l2e, 0), -XEN_EPERM);
    if ( *e != xen_old )
        test_fail("the hypervisor's L2 entry changed");
    check_rc(mmu_update1(pt_entry_maddr(0xc0000000UL, 2), 0), 0);
    if ( exinfo_vector(probe_write((void *)MACH2PHYS_VIRT_START)) !=
         X86_EXC_PF )
        test_fail("the M2P is writable");
}
#endif

static void test_bad_baseptr(void)
{
    unsigned long junk = alloc_frame(), l4 = root_frame();
    unsigned int slot = PT_LEVELS == 3 ? 1 : 5;

    frame_fill(junk, 0xff);
    check_rc(mmuext1(MMUEXT_NEW_BASEPTR, junk), -XEN_EINVAL);
    /* (A 32-bit guest's NEW_USER_BASEPTR is -EINVAL whatever it names.) */
    check_rc(mmuext1(MMUEXT_NEW_USER_BASEPTR, junk), -XEN_EINVAL);

    /* Our slot 0, plus the hypervisor's M2P table one level down. */
    frame_set_pte(l4, 0, boot_l4[0]);
    frame_set_pte(l4, slot, pte_make(hypervisor_frame(), PTE_TABLE));
    check_rc(mmuext1(MMUEXT_NEW_BASEPTR, l4), -XEN_EINVAL);
    /* ... or itself, writable. */
    frame_set_pte(l4, slot, pte_make(l4, PTE_TABLE));
    check_rc(mmuext1(MMUEXT_NEW_BASEPTR, l4), -XEN_EINVAL);
    check_rc(mmuext1(MMUEXT_NEW_BASEPTR, pt_base_mfn()), 0);
}

static void test_shared_frames(void)
{
    struct gnttab_setup_table st = { .dom = DOMID_SELF, .nr_frames = 1 };
    static const char *const what[] = {
        "shared_info", "a grant frame", "the xenstore ring",
        "the console ring",
    };
    xen_pfn_t gframe = 0;
    unsigned long f[4], i, l2, va;
    unsigned int level;

    set_xen_guest_handle(st.frame_list, &gframe);
    check_rc(HYPERCALL(__HYPERVISOR_grant_table_op, GNTTABOP_setup_table,
                       &st, 1, 0, 0), 0);
    check_rc(st.status, GNTST_okay);
    f[0] = start_info->shared_info >> PAGE_SHIFT;
    f[1] = gframe;
    f[2] = start_info->store_mfn;
    f[3] = start_info->console.domU.mfn;
    for ( i = 0; i < ARRAY_SIZE(f); i++ )
    {
        /* The rings are mapped at start of day: not now. */
        va = mfn_to_pfn(f[i]) << PAGE_SHIFT;
        if ( i >= 2 )
            check_rc(unmap_va(va), 0);
        for ( level = 1; level <= PT_LEVELS; level++ )
            if ( pin_table(level, f[i]) != -XEN_EINVAL )
                test_fail("%s pinned as an L%u", what[i], level);
        /* As the L1 an L2 entry names. */
        l2 = alloc_frame();
        frame_set_pte(l2, 0, pte_make(f[i], PTE_TABLE));
        check_rc(pin_table(2, l2), -XEN_EINVAL);
        check_rc(HYPERCALL(__HYPERVISOR_set_gdt, &f[i], 1, 0, 0, 0),
                 -XEN_EINVAL);
        /* Still writable: mapped so, and back. */
        check_rc(map_frame_at(W(1), f[i], PTE_RW), 0);
        check_rc(remap_initial(W(1)), 0);
        if ( i >= 2 )
            check_rc(remap_initial(va), 0);
    }
}

void test_main(void)
{
    boot_l4 = (const uint64_t *)start_info->pt_base;
    l4x = ((uint64_t)pt_base_mfn() << PAGE_SHIFT) + X * 8;
    if ( PT_LEVELS == 4 && boot_l4[X] )
        return test_error("L4 slot %u in use", X);

    test_foreign_frames();
    test_tables_writable();
    test_self_maps();
    test_linear();
    test_reserved_slots();
    test_bad_baseptr();
    test_shared_frames();

    test_success();
}
