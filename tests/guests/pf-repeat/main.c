/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A kernel that takes the same #PF again and again (here: a store to a
 * page it mapped read-only, its handler resuming at the store each
 * time, as a kernel that takes a fault as spurious would) is stuck;
 * the shim bounces every one, as Xen does, and after 100000 in a row
 * says so once on its console with the CPU's walk of the address (the
 * expect file looks for it).  The guest then moves on: nothing else
 * changes.
 */
#include "guest.h"
#include "mm.h"

const char test_title[] = "a kernel #PF taken again and again is reported";

#define FAULTS      100005

static uint8_t win[1][PAGE_SIZE] __page_aligned;

void test_main(void)
{
    unsigned long va = (unsigned long)win[0], left = FAULTS;
    exinfo_t ex = 0;

    check_rc(map_frame_at(va, virt_to_mfn(win[0]), PTE_RO), 0);
    /* Each #PF resumes at 2:, which tries the store again. */
    asm volatile ( "1: movb $1, (%[p]); jmp 3f\n\t"
                   "2: xor %%eax, %%eax; dec %[left]; jnz 1b\n\t"
                   "3:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex), [left] "+r" (left) : [p] "r" (va)
                   : "memory" );
    if ( left )
        test_fail("the store went through with %lu faults to go", left);
    check_rc(remap_initial(va), 0);
    check_rc(TRY("movb $1, (%[p])", [p] "r" (va)), 0);
    test_success();
}
