/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * MMU_PT_UPDATE_PRESERVE_AD against another vCPU's page walk: the update
 * keeps the entry's Accessed and Dirty bits, including a Dirty bit the
 * CPU sets while the update runs.  Each round vCPU 0 makes the target's
 * L1 entry clean (Dirty clear) and flushes every TLB; then vCPU 1
 * writes the page (its walk sets Dirty in the entry) while vCPU 0
 * rewrites the entry with PRESERVE_AD and a clean value.  However the
 * two fall, the written page's entry must end dirty: a read of the old
 * entry and a plain store of the new one (not Xen's update_intpte()
 * cmpxchg loop) loses the Dirty bit set between them.  Each side waits
 * a varying few cycles to sweep the other's window.  A 64-bit and a
 * 32-bit PAE guest alike (entries are 64 bits in both).
 */
#include "guest.h"
#include "fuzz.h"
#include "mm.h"
#include "smp.h"

const char test_title[] = "MMU_PT_UPDATE_PRESERVE_AD keeps a Dirty bit "
                          "another vCPU's walk sets meanwhile";

static uint8_t target[PAGE_SIZE] __page_aligned;
static unsigned int go, wrote, stop;
static unsigned int spins1;

static void spin(unsigned int n)
{
    while ( n-- )
        asm volatile ( "pause" ::: "memory" );
}

/* vCPU 1: each round, a varying wait, then one write to the page. */
static void writer(unsigned int id)
{
    unsigned int r = 0;

    for ( ;; )
    {
        while ( LOAD(go) == r )
        {
            if ( LOAD(stop) )
                return;
            cpu_relax();
        }
        r = LOAD(go);
        spin(LOAD(spins1));
        ((volatile uint8_t *)target)[r % PAGE_SIZE] = (uint8_t)r;
        STORE(wrote, r);
    }
}

void test_main(void)
{
    unsigned long va = (unsigned long)target;
    uint64_t ptr = pt_entry_maddr(va, 1);
    const volatile uint64_t *e = (const volatile uint64_t *)pt_entry(va, 1);
    unsigned long mfn = virt_to_mfn(target);
    unsigned long rounds = cmdline_ulong("rounds", 2000), r;
    uint64_t clean = pte_make(mfn, PTE_RW & ~_PAGE_DIRTY);
    unsigned long lost = 0;
    long rc;

    if ( !ptr || !e )
        return test_error("no L1 entry for the target page");
    if ( vcpu_op(VCPUOP_is_up, 1, NULL) == -XEN_ENOENT )
        return test_skip("needs 2 vCPUs");
    if ( (rc = smp_start_vcpu(1, writer)) )
        return test_error("vCPU 1 didn't start: %ld", rc);

    for ( r = 1; r <= rounds; r++ )
    {
        /* Clean, and no TLB anywhere still holding it dirty. */
        if ( (rc = mmu_update1(ptr, clean)) ||
             (rc = mmuext1(MMUEXT_TLB_FLUSH_ALL, 0)) )
            return test_fail("round %lu: making it clean: %ld", r, rc);
        if ( *e & _PAGE_DIRTY )
            return test_fail("round %lu: still dirty after the update", r);

        STORE(spins1, (unsigned int)(r * 7) % 97);
        STORE(go, (unsigned int)r);
        spin((unsigned int)(r * 13) % 61);
        rc = mmu_update1(ptr | MMU_PT_UPDATE_PRESERVE_AD, clean);
        if ( rc )
            return test_fail("round %lu: PRESERVE_AD: %ld", r, rc);
        while ( LOAD(wrote) != (unsigned int)r )
            cpu_relax();
        /* The write is done: its walk set Dirty, before or after ours. */
        if ( !(*e & _PAGE_DIRTY) )
        {
            if ( !lost++ )
                printf("pte-preserve-ad: round %lu: the entry %#llx lost "
                       "the Dirty bit of a write\n", r,
                       (unsigned long long)*e);
        }
        else if ( pte_mfn(*e) != mfn )
            return test_fail("round %lu: entry %#llx", r,
                             (unsigned long long)*e);
    }
    STORE(stop, 1);
    printf("pte-preserve-ad: %lu rounds, %lu lost Dirty bits\n", r - 1,
           lost);
    if ( lost )
        return test_fail("%lu of %lu writes lost their Dirty bit to "
                         "PRESERVE_AD", lost, r - 1);
    if ( (rc = mmu_update1(ptr, pte_make(mfn, PTE_RW))) )
        return test_fail("restoring the entry: %ld", rc);
    test_success();
}
