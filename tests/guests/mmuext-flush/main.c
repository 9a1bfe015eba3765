/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TLB flushes a PV guest asks for, and that it gets: mmuext_op's
 * TLB_FLUSH_LOCAL / INVLPG_LOCAL / TLB_FLUSH_MULTI / INVLPG_MULTI /
 * TLB_FLUSH_ALL / INVLPG_ALL and update_va_mapping's UVMF_* flags.
 *
 * Each case first makes the TLB stale: map frame A at a page, read it,
 * then point the L1 entry at frame B with mmu_update and no flush.  A TLB
 * that kept the old translation still reads A (QEMU's TCG keeps one until
 * something flushes it).  After the flush under test the page must read
 * B.  A hypervisor that skipped the flush fails; one that flushes more
 * than asked passes, which is allowed.  How often the stale read was seen
 * is printed, not checked: nothing guarantees a TLB keeps an entry.
 *
 * Errors as Xen's do_mmuext_op() and __do_update_va_mapping() give them:
 * an unreadable vcpumask is -EINVAL from mmuext_op but -EFAULT from
 * update_va_mapping, which has changed the entry by then.
 */
#include "guest.h"
#include "mm.h"

const char test_title[] = "TLB flushes: mmuext_op and UVMF flags";

static uint8_t win[1][PAGE_SIZE] __page_aligned;
#define W           ((unsigned long)win[0])
#define PAT_A       UINT64_C(0xaaaaaaaaaaaaaaaa)
#define PAT_B       UINT64_C(0xbbbbbbbbbbbbbbbb)

static unsigned long frame_a, frame_b;
static uint64_t l1e;                    /* W's L1 entry, machine address */
static unsigned long vcpu0 = 1, all_vcpus = ~0UL;
static unsigned int stale_seen, primed;

/* Map A at W and read it, then switch the entry to B without a flush. */
static void prime(uint64_t flags)
{
    check_rc(map_frame_at(W, frame_a, flags), 0);
    if ( peek(W) != PAT_A )
        test_error("frame A not mapped: %#llx", (unsigned long long)peek(W));
    check_rc(mmu_update1(l1e, pte_make(frame_b, flags)), 0);
    primed++;
    stale_seen += peek(W) == PAT_A;
}

static void check_flushed(const char *what)
{
    uint64_t v = peek(W);

    if ( v == PAT_A )
        test_fail("%s: stale translation, still reads frame A", what);
    else if ( v != PAT_B )
        test_fail("%s: reads %#llx", what, (unsigned long long)v);
}

static void test_mmuext_flushes(void)
{
    static const struct {
        const char *name;
        unsigned int cmd;
        const unsigned long *mask;
    } cases[] = {
        { "TLB_FLUSH_LOCAL", MMUEXT_TLB_FLUSH_LOCAL, NULL },
        { "INVLPG_LOCAL", MMUEXT_INVLPG_LOCAL, NULL },
        { "TLB_FLUSH_MULTI", MMUEXT_TLB_FLUSH_MULTI, &vcpu0 },
        { "INVLPG_MULTI", MMUEXT_INVLPG_MULTI, &vcpu0 },
        { "INVLPG_MULTI, all bits", MMUEXT_INVLPG_MULTI, &all_vcpus },
        { "TLB_FLUSH_ALL", MMUEXT_TLB_FLUSH_ALL, NULL },
        { "INVLPG_ALL", MMUEXT_INVLPG_ALL, NULL },
    };

    for ( unsigned int i = 0; i < ARRAY_SIZE(cases); i++ )
    {
        prime(PTE_RO);
        check_rc(mmuext_flush(cases[i].cmd, W, cases[i].mask), 0);
        check_flushed(cases[i].name);
    }

    /*
     * A _PAGE_GLOBAL kernel mapping: Xen's full flush is global too
     * (flushtlb.c do_tlb_flush() toggles CR4.PGE or uses INVPCID).
     */
    prime(PTE_RO | _PAGE_GLOBAL);
    check_rc(tlb_flush_local(), 0);
    check_flushed("TLB_FLUSH_LOCAL of a global mapping");
    prime(PTE_RO | _PAGE_GLOBAL);
    check_rc(invlpg_local(W), 0);
    check_flushed("INVLPG_LOCAL of a global mapping");

    /* An INVLPG of a non-canonical address is no error, and no flush. */
    check_rc(mmuext_flush(MMUEXT_INVLPG_LOCAL, (unsigned long)BAD_NONCANONICAL,
                          NULL), 0);
    check_rc(mmuext_flush(MMUEXT_INVLPG_ALL, (unsigned long)BAD_NONCANONICAL,
                          NULL), 0);
    check_rc(mmuext_flush(MMUEXT_INVLPG_MULTI, (unsigned long)BAD_XEN,
                          &vcpu0), 0);

    /* An unreadable vcpumask (vcpumask_to_pcpumask() fails): -EINVAL. */
    check_rc(mmuext_flush(MMUEXT_TLB_FLUSH_MULTI, 0, BAD_UNMAPPED),
             -XEN_EINVAL);
    check_rc(mmuext_flush(MMUEXT_INVLPG_MULTI, W, BAD_XEN), -XEN_EINVAL);
    check_rc(mmuext_flush(MMUEXT_TLB_FLUSH_MULTI, 0, BAD_NONCANONICAL),
             -XEN_EINVAL);
}

static void test_uvm_flushes(void)
{
    const struct {
        const char *name;
        unsigned long flags;
    } cases[] = {
        { "UVMF_INVLPG | UVMF_LOCAL", UVMF_INVLPG | UVMF_LOCAL },
        { "UVMF_INVLPG | UVMF_ALL", UVMF_INVLPG | UVMF_ALL },
        { "UVMF_INVLPG | vcpumask", UVMF_INVLPG | (unsigned long)&vcpu0 },
        { "UVMF_TLB_FLUSH | UVMF_LOCAL", UVMF_TLB_FLUSH | UVMF_LOCAL },
        { "UVMF_TLB_FLUSH | UVMF_ALL", UVMF_TLB_FLUSH | UVMF_ALL },
        { "UVMF_TLB_FLUSH | vcpumask",
          UVMF_TLB_FLUSH | (unsigned long)&all_vcpus },
    };
    const uint64_t pte_b = pte_make(frame_b, PTE_RO);

    for ( unsigned int i = 0; i < ARRAY_SIZE(cases); i++ )
    {
        /* Make sure A is in the TLB, then replace it with the flag. */
        check_rc(map_frame_at(W, frame_a, PTE_RO), 0);
        if ( peek(W) != PAT_A )
            test_error("frame A not mapped");
        check_rc(hypercall_update_va_mapping(W, pte_b, cases[i].flags), 0);
        check_flushed(cases[i].name);
    }

    /* No flush asked for (UVMF_NONE, or both type bits): the guest's job. */
    for ( unsigned long type = UVMF_NONE; type <= 3; type += 3 )
    {
        check_rc(map_frame_at(W, frame_a, PTE_RO), 0);
        if ( peek(W) != PAT_A )
            test_error("frame A not mapped");
        check_rc(hypercall_update_va_mapping(W, pte_b, type), 0);
        primed++;
        stale_seen += peek(W) == PAT_A;
        check_rc(invlpg_local(W), 0);
        check_flushed("UVMF_NONE, then INVLPG_LOCAL");
    }

    /*
     * An unreadable vcpumask: -EFAULT, but only after the entry has been
     * written (the flush comes last in __do_update_va_mapping()).
     */
    check_rc(map_frame_at(W, frame_a, PTE_RO), 0);
    check_rc(hypercall_update_va_mapping(W, pte_b, UVMF_TLB_FLUSH |
                                         (unsigned long)BAD_UNMAPPED),
             -XEN_EFAULT);
    check_rc(pte_mfn(*pt_entry(W, 1)), frame_b);
    check_rc(hypercall_update_va_mapping(W, pte_make(frame_a, PTE_RO),
                                         UVMF_INVLPG | (unsigned long)BAD_XEN),
             -XEN_EFAULT);
    check_rc(pte_mfn(*pt_entry(W, 1)), frame_a);
    check_rc(tlb_flush_local(), 0);

    /* With no flush type the vcpumask is never read. */
    check_rc(hypercall_update_va_mapping(W, pte_b,
                                         (unsigned long)BAD_UNMAPPED), 0);
    check_rc(invlpg_local(W), 0);
    check_flushed("no flush type, bad vcpumask");
}

void test_main(void)
{
    frame_a = alloc_frame();
    frame_b = alloc_frame();
    frame_fill(frame_a, 0xaa);
    frame_fill(frame_b, 0xbb);
    l1e = pt_entry_maddr(W, 1);

    test_mmuext_flushes();
    test_uvm_flushes();
    check_rc(remap_initial(W), 0);

    printf("  stale translation seen in %u of %u cases before the flush\n",
           stale_seen, primed);
    if ( !stale_seen )
        printf("  (this TLB kept none: the flush checks above prove "
               "nothing here)\n");
    test_success();
}
