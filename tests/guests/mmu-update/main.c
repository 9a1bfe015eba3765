/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_mmu_update as Xen's do_mmu_update() (arch/x86/mm.c) answers a
 * 64-bit PV domU: MMU_NORMAL_PT_UPDATE at L1 and L2 with the state it
 * leaves, PRESERVE_AD, MACHPHYS_UPDATE, NO_TRANSLATE (a normal update for
 * PV), -ENOSYS for commands 4-7, a plain store into a frame that is no
 * page table, batch semantics (*pdone, -EFAULT, foreigndom), and long
 * batches of mmu_update and mmuext_op that the hypervisor may preempt and
 * continue.  mmu-update-preempt runs this again with hypercall-batch=7.
 */
#include "guest.h"
#include "mm.h"

#ifndef TEST_TITLE
#define TEST_TITLE "mmu_update: updates, M2P, batches, long batches"
#endif
const char test_title[] = TEST_TITLE;

static uint8_t win[4][PAGE_SIZE] __page_aligned;
#define W(i)        ((unsigned long)win[i])

/* Data frames, each filled with its own byte: frame i reads as PAT(i). */
#define NR_DATA     3
static unsigned long data[NR_DATA];
#define PAT(i)      (UINT64_C(0x0101010101010101) * (0xd0 + (i)))

static unsigned long shim_mfn;          /* a frame the guest doesn't own */

#define LONG_BATCH  4000
static mmu_update_t reqs[LONG_BATCH];
static mmuext_op_t ops[LONG_BATCH + 1];

/* @e (an L1 entry) maps @mfn with @flags, give or take PTE_HV_BITS. */
static bool pte_is(uint64_t e, unsigned long mfn, uint64_t flags)
{
    return (e & ~PTE_HV_BITS) == (pte_make(mfn, flags) & ~PTE_HV_BITS);
}

static void check_no_mapping(const char *what, unsigned long va)
{
    if ( exinfo_vector(probe_read((void *)va)) != X86_EXC_PF )
        test_fail("%s: %#lx still mapped", what, va);
}

static void test_normal_update(void)
{
    uint64_t ptr = pt_entry_maddr(W(0), 1);
    const uint64_t *e = pt_entry(W(0), 1);
    const uint64_t junk = UINT64_C(0xfff0000000000ffe);    /* not present */

    check_rc(mmu_update1(ptr, pte_make(data[0], PTE_RW)), 0);
    check_rc(invlpg_local(W(0)), 0);
    check_reads("L1 update", W(0), PAT(0));
    if ( !pte_is(*e, data[0], PTE_RW) )
        test_fail("L1 entry %#llx after the update", (unsigned long long)*e);

    /* MMU_PT_UPDATE_NO_TRANSLATE: a normal update for a PV guest. */
    check_rc(mmu_update1(ptr | MMU_PT_UPDATE_NO_TRANSLATE,
                         pte_make(data[1], PTE_RO)), 0);
    check_rc(invlpg_local(W(0)), 0);
    check_reads("NO_TRANSLATE update", W(0), PAT(1));
    if ( exinfo_vector(probe_write(win[0])) != X86_EXC_PF )
        test_fail("read-only mapping is writable");

    /* Commands 4-7 don't exist: nothing changes. */
    for ( unsigned int cmd = 4; cmd < 8; cmd++ )
        check_rc(mmu_update1(ptr | cmd, pte_make(data[0], PTE_RW)),
                 -XEN_ENOSYS);
    if ( !pte_is(*e, data[1], PTE_RO) )
        test_fail("L1 entry %#llx after unknown commands",
                  (unsigned long long)*e);

    /* A non-present entry is stored as given, whatever its other bits. */
    check_rc(mmu_update1(ptr, junk), 0);
    check_rc(invlpg_local(W(0)), 0);
    if ( *e != junk )
        test_fail("non-present entry reads %#llx, wrote %#llx",
                  (unsigned long long)*e, (unsigned long long)junk);
    check_no_mapping("non-present entry", W(0));
    check_rc(remap_initial(W(0)), 0);
}

/* MMU_PT_UPDATE_PRESERVE_AD ORs the old entry's A/D into the new one. */
static void test_preserve_ad(void)
{
    uint64_t ptr = pt_entry_maddr(W(1), 1);
    const uint64_t *e = pt_entry(W(1), 1);
    const uint64_t ad = _PAGE_ACCESSED | _PAGE_DIRTY;
    const uint64_t prw = _PAGE_PRESENT | _PAGE_RW;

    check_rc(mmu_update1(ptr, pte_make(data[0], prw | ad)), 0);
    check_rc(mmu_update1(ptr | MMU_PT_UPDATE_PRESERVE_AD,
                         pte_make(data[0], prw)), 0);
    if ( (*e & ad) != ad )
        test_fail("PRESERVE_AD lost A/D: %#llx", (unsigned long long)*e);
    check_rc(mmu_update1(ptr | MMU_PT_UPDATE_PRESERVE_AD,
                         pte_make(data[1], prw)), 0);
    if ( (*e & ad) != ad || pte_mfn(*e) != data[1] )
        test_fail("PRESERVE_AD to another frame: %#llx",
                  (unsigned long long)*e);
    check_rc(invlpg_local(W(1)), 0);
    check_reads("PRESERVE_AD update", W(1), PAT(1));

    /*
     * A normal update takes A/D as given.  (Only D is checked: a CPU may
     * set A for a speculative walk.)
     */
    check_rc(mmu_update1(ptr, pte_make(data[1], prw)), 0);
    if ( *e & _PAGE_DIRTY )
        test_fail("normal update kept D: %#llx", (unsigned long long)*e);
    check_rc(remap_initial(W(1)), 0);
}

static void test_machphys(void)
{
    unsigned long mfn = data[2], pfn = mfn_to_pfn(mfn);
    uint64_t ptr = ((uint64_t)mfn << PAGE_SHIFT) | 0x808 | MMU_MACHPHYS_UPDATE;
    unsigned long shim_m2p = mfn_to_pfn(shim_mfn);

    check_rc(mmu_update1(ptr, 0x12345), 0);
    check_rc(mfn_to_pfn(mfn), 0x12345);
    check_rc(mmu_update1(ptr, pfn), 0);
    check_rc(mfn_to_pfn(mfn), pfn);

    /* Only the guest's own frames. */
    check_rc(mmu_update1(((uint64_t)shim_mfn << PAGE_SHIFT) |
                         MMU_MACHPHYS_UPDATE, 0x12345), -XEN_EINVAL);
    check_rc(mfn_to_pfn(shim_mfn), shim_m2p);
}

/*
 * A frame with no page-table type is just memory: Xen stores the value
 * (the PGT_writable_page case of do_mmu_update()).
 */
static void test_data_frame(void)
{
    uint64_t ptr = ((uint64_t)data[2] << PAGE_SHIFT) + 0x10;

    check_rc(mmu_update1(ptr, UINT64_C(0x1122334455667788)), 0);
    check_rc(frame_get_pte(data[2], 2), UINT64_C(0x1122334455667788));
    check_rc(mmu_update1(((uint64_t)shim_mfn << PAGE_SHIFT) + 0x10, 0),
             -XEN_EINVAL);
}

/*
 * An L2 update hooks a fresh frame in as an L1 (validated on the way);
 * while it is hooked it can't be mapped writable; unhooked, it is plain
 * memory again.
 */
static void test_l2_update(void)
{
    unsigned long va = (initial_mapping_end() + (1UL << 21) - 1) &
                       ~((1UL << 21) - 1);
    uint64_t l2e = pt_entry_maddr(va, 2);
    unsigned long l1 = alloc_frame();

    if ( !l2e || (*pt_entry(va, 2) & _PAGE_PRESENT) )
        return test_error("no free L2 slot at %#lx", va);

    check_rc(mmu_update1(l2e, pte_make(l1, PTE_TABLE)), 0);
    check_rc(map_frame_at(W(3), l1, PTE_RW), -XEN_EBUSY);
    check_rc(map_frame_at(va, data[0], PTE_RO), 0);
    check_reads("through the new L1", va, PAT(0));
    check_rc(mmu_update1(((uint64_t)l1 << PAGE_SHIFT) + 8,
                         pte_make(data[1], PTE_RO)), 0);
    check_reads("through the new L1's entry 1", va + PAGE_SIZE, PAT(1));

    check_rc(mmu_update1(l2e, 0), 0);
    check_rc(tlb_flush_local(), 0);
    check_no_mapping("unhooked L1", va);
    check_rc(map_frame_at(W(3), l1, PTE_RW), 0);
    if ( !pte_is(peek(W(3)), data[0], PTE_RO) )
        test_fail("old L1's entry 0: %#llx", (unsigned long long)peek(W(3)));
    check_rc(remap_initial(W(3)), 0);
}

static void test_batch_errors(void)
{
    mmu_update_t b[4] = {
        { pt_entry_maddr(W(0), 1), pte_make(data[0], PTE_RO) },
        { pt_entry_maddr(W(1), 1), pte_make(data[1], PTE_RO) },
        { (uint64_t)shim_mfn << PAGE_SHIFT, 0 },
        { pt_entry_maddr(W(2), 1), pte_make(data[2], PTE_RO) },
    };
    unsigned int done = 0xdead;

    /* The first two are applied, the third fails, the fourth isn't tried. */
    check_rc(hypercall_mmu_update(b, 4, &done, DOMID_SELF), -XEN_EINVAL);
    check_rc(done, 2);
    check_rc(tlb_flush_local(), 0);
    check_reads("batch entry 0", W(0), PAT(0));
    check_reads("batch entry 1", W(1), PAT(1));
    check_rc(virt_to_mfn(win[2]), pfn_to_mfn(W(2) >> PAGE_SHIFT));

    /* A list outside guest space: nothing done, *pdone untouched. */
    done = 0xdead;
    check_rc(hypercall_mmu_update(BAD_XEN, 1, &done, DOMID_SELF), -XEN_EFAULT);
    check_rc(hypercall_mmu_update(BAD_NONCANONICAL, 1, &done, DOMID_SELF),
             -XEN_EFAULT);
#ifdef __x86_64__
    check_rc(done, 0xdead);
#else
    /*
     * A 32-bit guest's every address is Xen's __addr_ok(), and
     * mmu_update has no compat wrapper: the list is read, faults at
     * entry 0, and *pdone says so.
     */
    check_rc(done, 0);
#endif
    /* In guest space but unmapped: -EFAULT at entry 0. */
    check_rc(hypercall_mmu_update(BAD_UNMAPPED, 1, &done, DOMID_SELF),
             -XEN_EFAULT);
    check_rc(done, 0);
    check_rc(hypercall_mmu_update(b, 0, &done, DOMID_SELF), 0);
    check_rc(done, 0);

    /* A bad *pdone is ignored: the update is done, the call succeeds. */
    check_rc(hypercall_mmu_update(&b[3], 1, BAD_UNMAPPED, DOMID_SELF), 0);
    check_rc(hypercall_mmu_update(&b[3], 1, BAD_XEN, DOMID_SELF), 0);
    check_rc(invlpg_local(W(2)), 0);
    check_reads("batch with a bad pdone", W(2), PAT(2));

    /*
     * Foreign domains (get_pg_owner(), then XSM's dummy policy): dom0
     * exists but isn't ours (-EPERM), so are DOMID_XEN's frames; no domain
     * 7 (-ESRCH).  Bits 16-31 name a page-table owner + 1.
     */
    check_rc(hypercall_mmu_update(b, 1, &done, 0), -XEN_EPERM);
    check_rc(done, 0);
    check_rc(hypercall_mmu_update(b, 1, NULL, DOMID_XEN), -XEN_EPERM);
    check_rc(hypercall_mmu_update(b, 1, &done, 7), -XEN_ESRCH);
    check_rc(done, 0);
    check_rc(hypercall_mmu_update(b, 1, NULL, (1 << 16) | DOMID_SELF),
             -XEN_EPERM);
    done = 0xdead;
    check_rc(hypercall_mmu_update(b, 1, &done, (8 << 16) | DOMID_SELF),
             -XEN_ESRCH);
    check_rc(done, 0xdead);

    for ( unsigned int i = 0; i < 3; i++ )
        check_rc(remap_initial(W(i)), 0);
}

/* Entry k of a long batch: slot k % 512 of @l1, one of three values. */
static void fill_long_batch(unsigned long l1, unsigned int salt)
{
    for ( unsigned int k = 0; k < LONG_BATCH; k++ )
    {
        reqs[k].ptr = ((uint64_t)l1 << PAGE_SHIFT) + (k % 512) * 8;
        reqs[k].val = (k + salt) % 7 ? pte_make(data[(k + salt) % NR_DATA],
                                                PTE_RO) : 0;
    }
}

/* The first @n entries of reqs[] applied to @state, as a table. */
static void apply(uint64_t state[512], unsigned int n)
{
    for ( unsigned int k = 0; k < n; k++ )
        state[(reqs[k].ptr & (PAGE_SIZE - 1)) / 8] = reqs[k].val;
}

static void check_table(unsigned long l1, const uint64_t state[512])
{
    unsigned int bad = 0;

    check_rc(map_frame_at(W(3), l1, PTE_RO), 0);
    for ( unsigned int s = 0; s < 512; s++ )
    {
        uint64_t got = peek(W(3) + s * 8);

        if ( state[s] ? !pte_is(got, pte_mfn(state[s]), PTE_RO) : got )
            bad++;
    }
    if ( bad )
        test_fail("%u of 512 entries wrong after a long batch", bad);
    check_rc(remap_initial(W(3)), 0);
}

static void test_long_batches(void)
{
    static uint64_t state[512];
    unsigned long l1 = new_table(1, 0, 0), l1b = alloc_frame();
    unsigned int done = 0, k;
    multicall_entry_t mc;

    fill_long_batch(l1, 0);
    check_rc(hypercall_mmu_update(reqs, LONG_BATCH, &done, DOMID_SELF), 0);
    check_rc(done, LONG_BATCH);
    apply(state, LONG_BATCH);
    check_table(l1, state);

    /* Failing at entry 3001: 3001 done, the rest not. */
    fill_long_batch(l1, 1);
    reqs[3001].ptr = (uint64_t)shim_mfn << PAGE_SHIFT;
    check_rc(hypercall_mmu_update(reqs, LONG_BATCH, &done, DOMID_SELF),
             -XEN_EINVAL);
    check_rc(done, 3001);
    apply(state, 3001);
    check_table(l1, state);

    /* Inside a multicall: the same result. */
    fill_long_batch(l1, 2);
    mc = (multicall_entry_t){
        .op = __HYPERVISOR_mmu_update,
        .args = { (unsigned long)reqs, LONG_BATCH, (unsigned long)&done,
                  DOMID_SELF },
    };
    check_rc(hypercall_multicall(&mc, 1), 0);
    check_rc(mc.result, 0);
    check_rc(done, LONG_BATCH);
    apply(state, LONG_BATCH);
    check_table(l1, state);
    check_rc(unpin_table(l1), 0);

    /* mmuext_op: pin, unpin, ... an odd number of times ends pinned. */
    for ( k = 0; k <= LONG_BATCH; k++ )
        ops[k] = (mmuext_op_t){
            .cmd = k & 1 ? MMUEXT_UNPIN_TABLE : MMUEXT_PIN_L1_TABLE,
            .arg1.mfn = l1b,
        };
    check_rc(hypercall_mmuext_op(ops, LONG_BATCH + 1, &done, DOMID_SELF), 0);
    check_rc(done, LONG_BATCH + 1);
    check_rc(pin_table(1, l1b), -XEN_EINVAL);           /* still pinned */
    check_rc(unpin_table(l1b), 0);

    /* An even number leaves it unpinned: a last unpin fails there. */
    ops[LONG_BATCH].cmd = MMUEXT_UNPIN_TABLE;
    check_rc(hypercall_mmuext_op(ops, LONG_BATCH + 1, &done, DOMID_SELF),
             -XEN_EINVAL);
    check_rc(done, LONG_BATCH);
    check_rc(map_frame_at(W(3), l1b, PTE_RW), 0);       /* no type left */
    check_rc(remap_initial(W(3)), 0);
}

void test_main(void)
{
    for ( unsigned int i = 0; i < NR_DATA; i++ )
    {
        data[i] = alloc_frame();
        frame_fill(data[i], 0xd0 + i);
    }
    shim_mfn = hypervisor_frame();

    test_normal_update();
    test_preserve_ad();
    test_machphys();
    test_data_frame();
    test_l2_update();
    test_batch_errors();
    test_long_batches();

    test_success();
}
