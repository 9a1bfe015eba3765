/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The rules a 32-bit PAE guest's page tables live by, as Xen's for a
 * compat domain (xen/arch/x86/mm.c: alloc_l3_table(),
 * create_pae_xen_mappings(), mod_l3_entry(), mod_l2_entry()):
 * - L3 slot 3 must hold an L2 that takes the hypervisor's slots (its M2P
 *   from HYPERVISOR_VIRT_START up), used by one L3 only, never as a
 *   plain L2;
 * - an L3's slots 3 and up can't change; the hypervisor's L2 slots can't;
 * - the M2P reads at MACH2PHYS_VIRT_START and can't be written;
 * - no L4 and no user page table for a 32-bit guest;
 * - writable page tables take a PAE entry in 32-bit halves (Xen's
 *   ptwr_emulated_update()): each half merged with the other, and an
 *   upper half written first that leaves the entry invalid goes in
 *   without _PAGE_PRESENT, waiting for its lower half.
 */
#include "guest.h"
#include "mm.h"

const char test_title[] = "PAE page-table rules of a 32-bit guest";

#ifdef __x86_64__
void test_main(void)
{
    test_skip("PAE rules: a 32-bit guest's only");
}
#else

/* The hypervisor's first slot in the L2 under L3 slot 3. */
#define XEN_L2_SLOT     ((unsigned int)(HYPERVISOR_VIRT_START >> 21) & 511)

static uint64_t l3_slot_maddr(unsigned long l3, unsigned int slot)
{
    return ((uint64_t)l3 << PAGE_SHIFT) + slot * 8;
}

static uint8_t target[PAGE_SIZE] __page_aligned;

/* A 4-byte store to @p (one half of an entry); 0, or the fault. */
static exinfo_t store32(volatile uint32_t *p, uint32_t v)
{
    return TRY("movl %[v], (%[p])", [p] "r" (p), [v] "r" (v));
}

static void check_halves(void)
{
    volatile uint64_t *e = (volatile uint64_t *)pt_entry(
        (unsigned long)target, 1);
    volatile uint32_t *lo = (volatile uint32_t *)e, *hi = lo + 1;
    unsigned long a = alloc_frame();
    uint64_t orig = *e;
    exinfo_t ex;

    frame_fill(a, 0xaa);
    check_rc(hypercall_vm_assist(VMASST_CMD_enable,
                                 VMASST_TYPE_writable_pagetables), 0);

    /* Lower half: a new frame, same flags; the upper half stays. */
    if ( (ex = store32(lo, (uint32_t)pte_make(a, PTE_RW))) )
        test_fail("lower-half store: exinfo %#lx", ex);
    invlpg_local((unsigned long)target);
    if ( pte_mfn(*e) != a || target[0] != 0xaa )
        test_fail("lower-half store: entry %#llx, reads %#x",
                  (unsigned long long)*e, target[0]);

    /* Upper half first, making the frame one beyond RAM: not present. */
    if ( (ex = store32(hi, 0x000fffff)) )
        test_fail("upper-half store: exinfo %#lx", ex);
    if ( *e & _PAGE_PRESENT )
        test_fail("an invalid upper half left the entry present: %#llx",
                  (unsigned long long)*e);
    if ( *hi != 0x000fffff )
        test_fail("upper half reads %#x", *hi);
    invlpg_local((unsigned long)target);
    if ( exinfo_vector(probe_read(target)) != X86_EXC_PF )
        test_fail("the entry still maps after its upper half went bad");

    /* The upper half back, then the lower half makes it whole again. */
    if ( (ex = store32(hi, 0)) || (ex = store32(lo, (uint32_t)orig)) )
        test_fail("restoring the entry: exinfo %#lx", ex);
    if ( *e != orig )
        test_fail("entry %#llx, was %#llx", (unsigned long long)*e,
                  (unsigned long long)orig);
    /* A lower half that can't be is refused: the guest's #PF. */
    ex = store32(lo, (uint32_t)pte_make(hypervisor_frame(), PTE_RW));
    if ( exinfo_vector(ex) != X86_EXC_PF )
        test_fail("a lower half mapping a hypervisor frame: exinfo %#lx", ex);
    check_rc(hypercall_vm_assist(VMASST_CMD_disable,
                                 VMASST_TYPE_writable_pagetables), 0);
    invlpg_local((unsigned long)target);
}

/* A free frame as an unpinned L3 with @l2 at slot 3 (0: none). */
static unsigned long l3_with(unsigned long l2)
{
    unsigned long l3 = alloc_frame();

    if ( l2 )
        frame_set_pte(l3, 3, pte_make(l2, _PAGE_PRESENT));
    return l3;
}

void test_main(void)
{
    unsigned long boot = pt_base_mfn(), top_l2, l2, l2b, l3, l3b;
    uint64_t e;

    /* The bootstrap L3 and the L2 at its slot 3. */
    e = *pt_entry(0xc0000000UL, 3);
    top_l2 = pte_mfn(e);
    if ( !(e & _PAGE_PRESENT) )
        test_fail("bootstrap L3 slot 3 is not present (%#llx)",
                  (unsigned long long)e);

    /* Slots 3 and up of a validated L3 can't change, slots 0-2 can. */
    check_rc(mmu_update1(l3_slot_maddr(boot, 3), 0), -XEN_EINVAL);
    check_rc(mmu_update1(l3_slot_maddr(boot, 3), e), -XEN_EINVAL);
    check_rc(mmu_update1(l3_slot_maddr(boot, 4), 0), -XEN_EINVAL);
    check_rc(mmu_update1(l3_slot_maddr(boot, 511), 0), -XEN_EINVAL);
    check_rc(mmu_update1(l3_slot_maddr(boot, 2), 0), 0);

    /* The hypervisor's L2 slots are not the guest's. */
    check_rc(mmu_update1(((uint64_t)top_l2 << PAGE_SHIFT) + XEN_L2_SLOT * 8,
                         0), -XEN_EPERM);
    check_rc(mmu_update1(((uint64_t)top_l2 << PAGE_SHIFT) + 511 * 8, 0),
             -XEN_EPERM);

    /* The compat M2P: readable, right, read-only. */
    if ( mfn_to_pfn(pfn_to_mfn(1)) != 1 )
        test_fail("M2P at %#lx: mfn %#lx reads pfn %#lx, not 1",
                  (unsigned long)MACH2PHYS_VIRT_START, pfn_to_mfn(1),
                  mfn_to_pfn(pfn_to_mfn(1)));
    if ( exinfo_vector(probe_write((void *)MACH2PHYS_VIRT_START)) !=
         X86_EXC_PF )
        test_fail("the M2P can be written");

    /* No L4 (Xen ignores a pin of one: 0), no user page table. */
    check_rc(mmuext1(MMUEXT_PIN_L4_TABLE, boot), 0);
    check_rc(mmuext1(MMUEXT_UNPIN_TABLE, boot), 0);     /* as L3, once */
    check_rc(mmuext1(MMUEXT_PIN_L3_TABLE, boot), 0);
    check_rc(mmuext1(MMUEXT_NEW_USER_BASEPTR, boot), -XEN_EINVAL);

    /* An L3 without slot 3 is refused. */
    l3 = l3_with(0);
    check_rc(mmuext1(MMUEXT_PIN_L3_TABLE, l3), -XEN_EINVAL);
    /* So is one sharing the bootstrap L3's slot-3 L2. */
    frame_set_pte(l3, 3, pte_make(top_l2, _PAGE_PRESENT));
    check_rc(mmuext1(MMUEXT_PIN_L3_TABLE, l3), -XEN_EINVAL);

    /*
     * A fresh L2 at slot 3: accepted, and its hypervisor slots are the
     * hypervisor's whatever the guest left there (here: a writable
     * mapping of a frame, which would otherwise be refused or counted).
     */
    l2 = alloc_frame();
    frame_set_pte(l2, XEN_L2_SLOT, pte_make(l2, PTE_RW));
    frame_set_pte(l2, 511, pte_make(l2, PTE_RW));
    frame_set_pte(l3, 3, pte_make(l2, _PAGE_PRESENT));
    check_rc(mmuext1(MMUEXT_PIN_L3_TABLE, l3), 0);
    if ( frame_get_pte(l2, XEN_L2_SLOT) != frame_get_pte(top_l2, XEN_L2_SLOT) )
        test_fail("L2 slot %u: %#llx, the hypervisor has %#llx", XEN_L2_SLOT,
                  (unsigned long long)frame_get_pte(l2, XEN_L2_SLOT),
                  (unsigned long long)frame_get_pte(top_l2, XEN_L2_SLOT));
    if ( frame_get_pte(l2, 511) != frame_get_pte(top_l2, 511) )
        test_fail("L2 slot 511 is not the hypervisor's");

    /* That L2 is no plain L2, and no second L3 may use it. */
    check_rc(mmuext1(MMUEXT_PIN_L2_TABLE, l2), -XEN_EINVAL);
    l3b = l3_with(l2);
    check_rc(mmuext1(MMUEXT_PIN_L3_TABLE, l3b), -XEN_EINVAL);
    /* Nor at another slot of a new L3. */
    l2b = alloc_frame();
    frame_set_pte(l3b, 0, pte_make(l2, _PAGE_PRESENT));
    frame_set_pte(l3b, 3, pte_make(l2b, _PAGE_PRESENT));
    check_rc(mmuext1(MMUEXT_PIN_L3_TABLE, l3b), -XEN_EINVAL);
    /* ... and a plain L2 is no slot-3 L2. */
    check_rc(mmuext1(MMUEXT_PIN_L2_TABLE, l2b), 0);
    frame_set_pte(l3b, 0, 0);
    check_rc(mmuext1(MMUEXT_PIN_L3_TABLE, l3b), -XEN_EINVAL);
    check_rc(mmuext1(MMUEXT_UNPIN_TABLE, l2b), 0);

    /* The new L3 runs (the kernel lives under slot 0), and back. */
    check_rc(mmu_update1(l3_slot_maddr(l3, 0), *pt_entry(0, 3)), 0);
    check_rc(mmuext1(MMUEXT_NEW_BASEPTR, l3), 0);
    check_rc(mmuext1(MMUEXT_NEW_BASEPTR, boot), 0);

    /* Once unpinned, the L2 is free to be a plain one. */
    check_rc(mmuext1(MMUEXT_UNPIN_TABLE, l3), 0);
    check_rc(mmuext1(MMUEXT_PIN_L2_TABLE, l2), 0);
    check_rc(mmuext1(MMUEXT_UNPIN_TABLE, l2), 0);

    check_halves();
    test_success();
}
#endif
