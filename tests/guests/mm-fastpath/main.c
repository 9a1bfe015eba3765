/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An update that keeps an entry's frame and RW bit needs no reference
 * work, but its new flags must still pass every rule: cache attributes
 * (PCD/PWT, refused without I/O memory) can't sneak in that way, while
 * A/D changes can.
 */
#include "guest.h"
#include "mm.h"

const char test_title[] = "mmu_update: a flags-only change is still checked";

static uint8_t target[PAGE_SIZE] __page_aligned;

void test_main(void)
{
    unsigned long va = (unsigned long)target;
    uint64_t ptr = pt_entry_maddr(va, 1);
    unsigned long mfn = virt_to_mfn(target);
    const uint64_t *e = pt_entry(va, 1);

    if ( !ptr || !e )
        return test_error("no L1 entry for the target page");

    check_rc(mmu_update1(ptr, pte_make(mfn, PTE_RW)), 0);
    check_rc(mmu_update1(ptr, pte_make(mfn, PTE_RW | _PAGE_PCD)),
             -XEN_EINVAL);
    check_rc(mmu_update1(ptr, pte_make(mfn, PTE_RW | _PAGE_PWT)),
             -XEN_EINVAL);
    if ( *e & (_PAGE_PCD | _PAGE_PWT) )
        test_fail("cache attributes reached the entry: %#llx",
                  (unsigned long long)*e);
    /* A and D alone may change. */
    check_rc(mmu_update1(ptr, pte_make(mfn, PTE_RW & ~_PAGE_DIRTY)), 0);
    check_rc(mmu_update1(ptr, pte_make(mfn, PTE_RW)), 0);
    target[0] = 1;
    test_success();
}
