/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_update_va_mapping and update_va_mapping_otherdomain as Xen's
 * __do_update_va_mapping() answers a 64-bit PV domU: a mapping appears and
 * disappears, with every UVMF flag; -EINVAL where there is no guest L1 to
 * change (hypervisor range, non-canonical, no L2/L3 entry); the walk uses
 * the page tables as they are now, even right after an mmu_update in the
 * same multicall (XTF's XSA-286 test); otherdomain with DOMID_SELF works,
 * any other domain is refused (-EPERM, or -ESRCH if it doesn't exist).
 */
#include "guest.h"
#include "mm.h"

const char test_title[] = "update_va_mapping: mappings, flags, bad addresses";

static uint8_t win[2][PAGE_SIZE] __page_aligned;
#define W(i)        ((unsigned long)win[i])

static unsigned long data[2];
#define PAT(i)      (UINT64_C(0x0101010101010101) * (0x3c + (i)))

static unsigned long vcpu0 = 1;

static void test_mappings(void)
{
    const uint64_t *e = pt_entry(W(0), 1);
    uint64_t rw = pte_make(data[0], PTE_RW);

    check_rc(hypercall_update_va_mapping(W(0), rw, UVMF_INVLPG), 0);
    check_rc(hypercall_update_va_mapping(W(0), rw, UVMF_INVLPG), 0);
    if ( (*e & ~PTE_HV_BITS) != (rw & ~PTE_HV_BITS) )
        test_fail("entry %#llx, expected %#llx", (unsigned long long)*e,
                  (unsigned long long)rw);
    check_reads("mapped writable", W(0), PAT(0));
    poke(W(0), UINT64_C(0x0123456789abcdef));

    /* A second, read-only mapping of the same frame sees the write. */
    check_rc(map_frame_at(W(1), data[0], PTE_RO), 0);
    check_reads("second mapping", W(1), UINT64_C(0x0123456789abcdef));
    if ( exinfo_vector(probe_write(win[1])) != X86_EXC_PF )
        test_fail("read-only mapping writable");
    poke(W(0), PAT(0));

    /* A global mapping is accepted. */
    check_rc(map_frame_at(W(1), data[1], PTE_RO | _PAGE_GLOBAL), 0);
    check_reads("global mapping", W(1), PAT(1));

    /* Unmapped. */
    check_rc(hypercall_update_va_mapping(W(0), 0, UVMF_INVLPG), 0);
    if ( exinfo_vector(probe_read(win[0])) != X86_EXC_PF )
        test_fail("unmapped page still readable");
    check_rc(*e, 0);

    check_rc(remap_initial(W(0)), 0);
    check_rc(remap_initial(W(1)), 0);
}

static void test_flags(void)
{
    const unsigned long flags[] = {
        UVMF_NONE, UVMF_INVLPG | UVMF_LOCAL, UVMF_INVLPG | UVMF_ALL,
        UVMF_INVLPG | (unsigned long)&vcpu0, UVMF_TLB_FLUSH | UVMF_LOCAL,
        UVMF_TLB_FLUSH | UVMF_ALL, UVMF_TLB_FLUSH | (unsigned long)&vcpu0,
        UVMF_FLUSHTYPE_MASK,            /* both type bits: no flush */
        (unsigned long)BAD_UNMAPPED,    /* no type: the mask isn't read */
    };

    for ( unsigned int i = 0; i < ARRAY_SIZE(flags); i++ )
    {
        unsigned int d = i & 1;
        long rc = hypercall_update_va_mapping(W(0), pte_make(data[d], PTE_RO),
                                              flags[i]);

        if ( rc )
            test_fail("update_va_mapping(flags %#lx): %ld", flags[i], rc);
        if ( !(flags[i] & UVMF_FLUSHTYPE_MASK) ||
             (flags[i] & UVMF_FLUSHTYPE_MASK) == UVMF_FLUSHTYPE_MASK )
            check_rc(invlpg_local(W(0)), 0);
        check_reads("UVMF flags", W(0), PAT(d));
    }

    /* An unreadable vcpumask: -EFAULT after the entry changed. */
    check_rc(hypercall_update_va_mapping(W(0), pte_make(data[1], PTE_RO),
                                         UVMF_INVLPG | (unsigned long)BAD_XEN),
             -XEN_EFAULT);
    check_rc(pte_mfn(*pt_entry(W(0), 1)), data[1]);

    /*
     * An update that fails: its error, with a vCPU bitmap too, readable
     * or not (Xen since XSA-279 skips the flush; it returned 0, or the
     * bitmap's -EFAULT, before).  The frame past RAM is -EPERM.
     */
    for ( unsigned int i = 0; i < 4; i++ )
    {
        unsigned long mask = i & 1 ? (unsigned long)&vcpu0
                                   : (unsigned long)BAD_XEN;
        unsigned long type = i & 2 ? UVMF_INVLPG : UVMF_TLB_FLUSH;

        check_rc(hypercall_update_va_mapping(W(0),
                     pte_make(maximum_ram_page() + 16, PTE_RO), type | mask),
                 -XEN_EPERM);
        check_rc(pte_mfn(*pt_entry(W(0), 1)), data[1]);
    }
    check_rc(remap_initial(W(0)), 0);
}

/* No guest L1 to change: -EINVAL, whatever the value. */
static void test_bad_va(void)
{
    unsigned long hole = (initial_mapping_end() + (1UL << 21) - 1) &
                         ~((1UL << 21) - 1);
    const unsigned long vas[] = {
        HYPERVISOR_VIRT_START, MACH2PHYS_VIRT_START + PAGE_SIZE,
#ifdef __x86_64__
        HYPERVISOR_VIRT_END - PAGE_SIZE,
        (unsigned long)BAD_NONCANONICAL, 1UL << 47,
        (unsigned long)BAD_UNMAPPED,    /* no L3 */
        1UL << 30,                      /* no L2 */
        hole,                           /* no L1 */
        HYPERVISOR_VIRT_END,            /* guest kernel range, nothing */
#else
        (unsigned long)BAD_NONCANONICAL, /* the hypervisor's, no L1 */
        (unsigned long)BAD_UNMAPPED,    /* no L2 */
        1UL << 30,                      /* no L2 */
        hole,                           /* no L1 */
#endif
    };

    for ( unsigned int i = 0; i < ARRAY_SIZE(vas); i++ )
    {
        long rc = hypercall_update_va_mapping(vas[i],
                                              pte_make(data[0], PTE_RO),
                                              UVMF_INVLPG);

        if ( rc != -XEN_EINVAL )
            test_fail("update_va_mapping(%#lx): %ld, expected -EINVAL",
                      vas[i], rc);
        rc = hypercall_update_va_mapping(vas[i], 0, UVMF_NONE);
        if ( rc != -XEN_EINVAL )
            test_fail("update_va_mapping(%#lx, 0): %ld, expected -EINVAL",
                      vas[i], rc);
    }
}

static void test_otherdomain(void)
{
    const struct {
        unsigned int domid;
        long rc;
    } doms[] = {
        { DOMID_SELF, 0 }, { 0, -XEN_EPERM }, { DOMID_XEN, -XEN_EPERM },
        { DOMID_IO, -XEN_EPERM }, { 7, -XEN_ESRCH },
    };

    for ( unsigned int i = 0; i < ARRAY_SIZE(doms); i++ )
    {
        unsigned int d = i & 1;
        long rc = hypercall_update_va_mapping_otherdomain(
            W(0), pte_make(data[d], PTE_RO), UVMF_INVLPG, doms[i].domid);

        if ( rc != doms[i].rc )
            test_fail("update_va_mapping_otherdomain(domid %#x): %ld, "
                      "expected %ld", doms[i].domid, rc, doms[i].rc);
        /* Only the DOMID_SELF case (data[0]) may change the mapping. */
        check_reads("after update_va_mapping_otherdomain", W(0), PAT(0));
    }
    check_rc(remap_initial(W(0)), 0);
}

/*
 * XTF's XSA-286 test: in one multicall, update_va_mapping at va, an
 * mmu_update that swaps the L2 under va, update_va_mapping at va again.
 * The second must edit the new L2's L1, not a stale one.
 */
static void test_fresh_walk(void)
{
    const unsigned long va = 1UL << 30;        /* L3 slot 1: unused */
    uint64_t l3e = pt_entry_maddr(va, 3);
    unsigned long l1a = new_table(1, 0, 0), l1b = new_table(1, 0, 0);
    unsigned long l2a = new_table(2, 0, pte_make(l1a, PTE_TABLE));
    unsigned long l2b = new_table(2, 0, pte_make(l1b, PTE_TABLE));
    mmu_update_t swap = { l3e, pte_make(l2b, PTE_TABLE) };
    uint64_t nl1e = pte_make(data[1], PTE_RW);

    for ( unsigned int i = 0; i < 8; i++ )
    {
        mmu_update_t reset[] = {
            { l3e, pte_make(l2a, PTE_TABLE) },
            { (uint64_t)l1a << PAGE_SHIFT, 0 },
            { (uint64_t)l1b << PAGE_SHIFT, 0 },
        };
        /* (The compat form of a PTE argument: two, low half first.) */
        multicall_entry_t mc[] = {
            { .op = __HYPERVISOR_update_va_mapping,
              .args = { va, HC_U64(0), UVMF_INVLPG } },
            { .op = __HYPERVISOR_mmu_update,
              .args = { (unsigned long)&swap, 1, 0, DOMID_SELF } },
            { .op = __HYPERVISOR_update_va_mapping,
              .args = { va, HC_U64(nl1e), UVMF_INVLPG } },
        };

        check_rc(hypercall_mmu_update(reset, 3, NULL, DOMID_SELF), 0);
        check_rc(hypercall_multicall(mc, ARRAY_SIZE(mc)), 0);
        for ( unsigned int j = 0; j < ARRAY_SIZE(mc); j++ )
            check_rc(mc[j].result, 0);
        if ( frame_get_pte(l1a, 0) )
            return test_fail("update_va_mapping edited the old L1: %#llx",
                             (unsigned long long)frame_get_pte(l1a, 0));
        check_rc(pte_mfn(frame_get_pte(l1b, 0)), data[1]);
        check_reads("through the swapped-in L2", va, PAT(1));
    }

    check_rc(mmu_update1(l3e, 0), 0);
    check_rc(tlb_flush_local(), 0);
    check_rc(unpin_table(l2a), 0);
    check_rc(unpin_table(l2b), 0);
    check_rc(unpin_table(l1a), 0);
    check_rc(unpin_table(l1b), 0);
}

void test_main(void)
{
    for ( unsigned int i = 0; i < ARRAY_SIZE(data); i++ )
    {
        data[i] = alloc_frame();
        frame_fill(data[i], 0x3c + i);
    }

    test_mappings();
    test_flags();
    test_bad_va();
    test_otherdomain();
    test_fresh_walk();

    test_success();
}
