/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Writable page tables against a page walk: a CPU sets an entry's
 * Accessed and Dirty bits whenever it likes, with a locked write, also
 * between the hypervisor's read of the entry and its emulated write.
 * The write must go only over the entry it read (Xen commits by
 * cmpxchg and emulates again): a locked read-modify-write keeps a Dirty
 * bit set meanwhile, and an xchg hands back the entry with it (Linux's
 * ptep_get_and_clear() in zap_pte_range() then knows the page is dirty).
 * Lost, the page would be taken for clean and its data dropped.  The
 * shim's ptwr-ad-race sets the bits as each emulated write first commits,
 * as a walk on another CPU may.
 */
#include "guest.h"
#include "mm.h"

const char test_title[] = "Writable page tables: A/D bits set mid-write survive";

static uint8_t target[PAGE_SIZE] __page_aligned;
static volatile uint64_t *e;            /* the L1 entry that maps target */

/* The entry without what the hypervisor adds (Accessed is ours here). */
static uint64_t entry(void)
{
    return *e & ~(PTE_HV_BITS & ~_PAGE_ACCESSED);
}

/*
 * Write the whole entry: a 32-bit guest's by its two halves, the upper
 * first, so that the last store is the one with the flags.
 */
static exinfo_t store_entry(uint64_t v)
{
#ifdef __x86_64__
    return TRY("movq %[v], (%[p])", [p] "r" (e), [v] "r" (v));
#else
    exinfo_t ex = TRY("movl %[v], 4(%[p])", [p] "r" (e),
                      [v] "r" ((uint32_t)(v >> 32)));

    return ex ? ex : TRY("movl %[v], (%[p])", [p] "r" (e),
                         [v] "r" ((uint32_t)v));
#endif
}

/* An entry's frame address. */
static uint64_t frame_of(uint64_t pte)
{
    return pte & UINT64_C(0x000ffffffffff000);
}

void test_main(void)
{
    unsigned long a = alloc_frame(), got;
    uint64_t orig, rw;
    exinfo_t ex = 0;

    e = (volatile uint64_t *)pt_entry((unsigned long)target, 1);
    if ( !e || a == INVALID_MFN )
        return test_error("no L1 entry or no free frame");
    orig = *e;
    rw = pte_make(a, PTE_RW) & ~(uint64_t)_PAGE_DIRTY;      /* clean */
    check_rc(HYPERCALL(__HYPERVISOR_vm_assist, VMASST_CMD_enable,
                       VMASST_TYPE_writable_pagetables, 0, 0, 0), 0);

    /* A plain store goes over the walk's bits, as on hardware. */
    check_rc(store_entry(rw), 0);
    if ( entry() & _PAGE_DIRTY )
        test_fail("a store of a clean entry left it dirty: %#llx",
                  (unsigned long long)entry());

    /* ptep_set_wrprotect(): the Dirty bit set meanwhile stays. */
    asm volatile ( "1: lock andb $0xfd, (%[p]); 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex) : [p] "r" (e) : "memory", "cc" );
    if ( ex )
        test_fail("lock andb: exinfo %#lx", (unsigned long)ex);
    else if ( entry() != ((rw & ~(uint64_t)_PAGE_RW) | _PAGE_DIRTY) )
        test_fail("lock andb: entry %#llx, wanted %#llx (the walk's Dirty "
                  "bit kept)", (unsigned long long)entry(),
                  (unsigned long long)((rw & ~(uint64_t)_PAGE_RW) |
                                       _PAGE_DIRTY));

    /* ptep_get_and_clear(): the xchg returns the entry the walk left. */
    check_rc(store_entry(rw), 0);
    got = 0;
    asm volatile ( "1: xchg %[v], (%[p]); 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex), [v] "+r" (got) : [p] "r" (e) : "memory" );
    if ( ex )
        test_fail("xchg: exinfo %#lx", (unsigned long)ex);
    else if ( !(got & _PAGE_DIRTY) || frame_of(got) != frame_of(rw) )
        test_fail("xchg handed back %#lx, wanted the entry with the walk's "
                  "Dirty bit", got);
    else if ( entry() & _PAGE_PRESENT )
        test_fail("xchg left the entry %#llx, wanted it clear",
                  (unsigned long long)entry());

    check_rc(store_entry(orig), 0);
    invlpg_local((unsigned long)target);
    check_rc(HYPERCALL(__HYPERVISOR_vm_assist, VMASST_CMD_disable,
                       VMASST_TYPE_writable_pagetables, 0, 0, 0), 0);
    printf("ptwr-ad-race: the walk's Dirty bit kept and handed back\n");
    test_success();
}
