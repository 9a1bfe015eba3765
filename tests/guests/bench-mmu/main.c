/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Benchmark: PV MMU costs, timed with fenced rdtsc (under QEMU's
 * -icount shift=0, instructions retired): an mmu_update of one L1 entry,
 * a #PF bounced to the guest's handler and its iret back (what a guest
 * pays for each fault of its own: Linux's every page fault), an xchg of
 * one L1 entry emulated as a writable page-table write (Linux's munmap
 * clears each PTE so; 64-bit only), and pinning then unpinning an L4 whose
 * tree holds 64 full L1 tables (32768 validated entries).  Command line:
 * iterations=N (default 200).
 */
#include "guest.h"
#include "mm.h"

#define NR_L1    64

const char test_title[] = "bench: mmu_update and pin/unpin";

static uint64_t page[512] __page_aligned;
static uint32_t samples[4096];

static inline uint64_t rdtsc_fenced(void)
{
    uint32_t lo, hi;

    asm volatile ( "lfence; rdtsc; lfence" : "=a" (lo), "=d" (hi)
                   :: "memory" );
    return ((uint64_t)hi << 32) | lo;
}

static unsigned long iterations(void)
{
    const char *p = strstr((const char *)start_info->cmd_line,
                           "iterations=");
    unsigned long n = 0;

    for ( p = p ? p + 11 : ""; *p >= '0' && *p <= '9'; p++ )
        n = n * 10 + (*p - '0');
    n = n ? n : 200;
    return n > ARRAY_SIZE(samples) ? ARRAY_SIZE(samples) : n;
}

static void report(const char *what, unsigned long n)
{
    unsigned long i, j;
    uint32_t t;

    for ( i = 1; i < n; i++ )           /* small n: insertion sort */
        for ( j = i; j && samples[j - 1] > samples[j]; j-- )
        {
            t = samples[j]; samples[j] = samples[j - 1]; samples[j - 1] = t;
        }
    printf("bench: %-22s n=%lu median=%u p10=%u p90=%u min=%u\n", what, n,
           samples[n / 2], samples[n / 10], samples[n * 9 / 10], samples[0]);
}

#ifdef __x86_64__
#define TOP         "L4"
#else
#define TOP         "L3"
#endif

/*
 * An L4 -> L3 -> L2 (a PAE L3 -> L2) -> NR_L1 full L1s, every entry
 * mapping data read-only; the top level's frame.
 */
static unsigned long build_tree(void)
{
    unsigned long data[8], l1[NR_L1], l2, top;
    unsigned int i, j;

    for ( i = 0; i < ARRAY_SIZE(data); i++ )
        data[i] = alloc_frame();
    for ( i = 0; i < NR_L1; i++ )
    {
        l1[i] = alloc_frame();
        for ( j = 0; j < 512; j++ )
            page[j] = pte_make(data[j % ARRAY_SIZE(data)], PTE_RO);
        frame_write(l1[i], 0, page, sizeof(page));
    }
    l2 = alloc_frame();
    memset(page, 0, sizeof(page));
    for ( i = 0; i < NR_L1; i++ )
        page[i] = pte_make(l1[i], PTE_TABLE);
    frame_write(l2, 0, page, sizeof(page));
#ifdef __x86_64__
    {
        unsigned long l3 = alloc_frame();

        frame_set_pte(l3, 0, pte_make(l2, PTE_TABLE));
        top = alloc_frame();
        frame_set_pte(top, 0, pte_make(l3, PTE_TABLE));
    }
#else
    top = root_frame();
    frame_set_pte(top, 0, pte_make(l2, PTE_TABLE));
#endif
    return top;
}

void test_main(void)
{
    unsigned long n = iterations(), i, a = alloc_frame(), b = alloc_frame();
    unsigned long va = initial_mapping_end() - PAGE_SIZE, l4;
    uint64_t ptr = pt_entry_maddr(va, 1), t0;

    if ( !ptr )
        return test_error("no L1 entry for %#lx", va);

    for ( i = 0; i < n; i++ )
    {
        uint64_t val = pte_make(i & 1 ? a : b, PTE_RO);

        t0 = rdtsc_fenced();
        check_rc(mmu_update1(ptr, val), 0);
        samples[i] = rdtsc_fenced() - t0;
    }
    report("mmu_update, one L1e", n);
    check_rc(remap_initial(va), 0);

    {
        const void *hole = (const void *)(initial_mapping_end() +
                                          16 * PAGE_SIZE);
        exinfo_t ex = probe_read(hole); /* through the handler and iret */

        if ( exinfo_vector(ex) != X86_EXC_PF )
            return test_error("%p: exinfo %#lx, not a #PF", hole, ex);
        for ( i = 0; i < n; i++ )
        {
            t0 = rdtsc_fenced();
            ex = probe_read(hole);
            samples[i] = rdtsc_fenced() - t0;
        }
        if ( exinfo_vector(ex) != X86_EXC_PF )
            return test_fail("%p: exinfo %#lx, not a #PF", hole, ex);
        report("#PF bounced, iret", n);
    }

#ifdef __x86_64__
    {
        volatile uint64_t *e = (volatile uint64_t *)pt_entry(va, 1);
        uint64_t v;

        check_rc(hypercall_vm_assist(VMASST_CMD_enable,
                                     VMASST_TYPE_writable_pagetables), 0);
        for ( i = 0; i < n; i++ )
        {
            v = pte_make(i & 1 ? a : b, PTE_RO);
            t0 = rdtsc_fenced();
            check_rc(probe_xchg(e, &v), 0);  /* Linux's ptep_get_and_clear() */
            samples[i] = rdtsc_fenced() - t0;
        }
        report("ptwr xchg, one L1e", n);
        check_rc(hypercall_vm_assist(VMASST_CMD_disable,
                                     VMASST_TYPE_writable_pagetables), 0);
        check_rc(remap_initial(va), 0);
    }
#endif

    l4 = build_tree();
    n = n > 50 ? 50 : n;
    for ( i = 0; i < n; i++ )
    {
        t0 = rdtsc_fenced();
        check_rc(pin_table(PT_LEVELS, l4), 0);
        samples[i] = rdtsc_fenced() - t0;
        check_rc(unpin_table(l4), 0);
    }
    report("pin " TOP " (64 full L1s)", n);
    for ( i = 0; i < n; i++ )
    {
        check_rc(pin_table(PT_LEVELS, l4), 0);
        t0 = rdtsc_fenced();
        check_rc(unpin_table(l4), 0);
        samples[i] = rdtsc_fenced() - t0;
    }
    report("unpin " TOP " (64 full L1s)", n);
    test_success();
}
