/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Writes to an L2 page table through its read-only mapping: Xen never
 * emulates them ("Page-directory entries cannot be written", xen.h), so
 * by default the guest takes its #PF, even with the writable-pagetables
 * assist on; with the shim's ptwr-l2 (guest command line "ptwr-l2" says
 * the shim has it) they are emulated, with or without the assist, and
 * validated like an mmu_update: an entry to a frame that isn't the
 * guest's is still the guest's #PF.
 */
#include "guest.h"
#include "mm.h"

const char test_title[] = "Writes to an L2 through its read-only mapping";

static exinfo_t store(volatile uint64_t *p, uint64_t v)
{
#ifdef __x86_64__
    return TRY("movq %[v], (%[p])", [p] "r" (p), [v] "r" (v));
#else
    /* The lower half last: the entry is whole when it becomes present. */
    exinfo_t ex = TRY("movl %[v], (%[p])", [p] "r" ((volatile uint32_t *)p + 1),
                      [v] "r" ((uint32_t)(v >> 32)));

    return ex ?: TRY("movl %[v], (%[p])", [p] "r" (p), [v] "r" ((uint32_t)v));
#endif
}

void test_main(void)
{
    bool on = strstr((const char *)start_info->cmd_line, "ptwr-l2");
    /* A 2 MiB slot past the initial mapping: no L1 under it yet. */
    unsigned long hole = (initial_mapping_end() + (1UL << 21) - 1) &
                         ~((1UL << 21) - 1);
    volatile uint64_t *e = (volatile uint64_t *)pt_entry(hole, 2);
    unsigned long data = alloc_frame(), l1;
    exinfo_t ex;

    if ( !e || *e )
        return test_error("no empty L2 slot at %#lx", hole);
    frame_fill(data, 0x5c);
    l1 = new_table(1, 0, pte_make(data, PTE_RO));

    ex = store(e, pte_make(l1, PTE_TABLE));
    if ( !on )
    {
        if ( exinfo_vector(ex) != X86_EXC_PF )
            test_fail("L2 store without ptwr-l2: exinfo %#lx", ex);
        check_rc(hypercall_vm_assist(VMASST_CMD_enable,
                                     VMASST_TYPE_writable_pagetables), 0);
        ex = store(e, pte_make(l1, PTE_TABLE));
        if ( exinfo_vector(ex) != X86_EXC_PF )
            test_fail("L2 store with the assist: exinfo %#lx", ex);
        if ( *e )
            test_fail("a refused store left %#llx", (unsigned long long)*e);
        return test_success();
    }

    if ( ex )
        return test_fail("L2 store with ptwr-l2: exinfo %#lx", ex);
    check_rc(tlb_flush_local(), 0);
    if ( *(volatile uint8_t *)hole != 0x5c )
        test_fail("the new L2 entry maps %#x", *(volatile uint8_t *)hole);
    /* Validated: a table that isn't the guest's is its #PF. */
    ex = store(e, pte_make(hypervisor_frame(), PTE_TABLE));
    if ( exinfo_vector(ex) != X86_EXC_PF )
        test_fail("L2 entry to a hypervisor frame: exinfo %#lx", ex);
    /* Gone again; the L1 unpins. */
    if ( (ex = store(e, 0)) )
        test_fail("clearing the entry: exinfo %#lx", ex);
    check_rc(tlb_flush_local(), 0);
    if ( exinfo_vector(probe_read((void *)hole)) != X86_EXC_PF )
        test_fail("the cleared entry still maps");
    check_rc(mmuext1(MMUEXT_UNPIN_TABLE, l1), 0);
    test_success();
}
