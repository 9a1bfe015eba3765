/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fuzz guest for the PV MMU: random mmu_update / mmuext_op /
 * update_va_mapping calls, valid and invalid, from a fixed seed, over a
 * small pool of frames (fresh ones that become tables or data, the
 * windows' own frames, our bootstrap tables, two L4s to switch between,
 * and frames that aren't ours).  It never changes what maps the kernel:
 * only the windows' L1 entries, unused L2/L3/L4 slots, the pool's
 * entries and the second L4's slots other than 0; NEW_BASEPTR only to
 * the two L4s that map the kernel.
 *
 * Guest command line: seed=N iterations=N verbose.  The expect file runs
 * it, with the pass's number as its seed (each pass its own), under the
 * shim's mm-audit, which checks the frame table after every MMU
 * hypercall: reaching "mm-fuzz: done" with the shim alive means every
 * invariant held.  Here the guest checks only what it sees: each return
 * code is one Xen could give, and *pdone agrees with it.
 */
#include "guest.h"
#include "fuzz.h"
#include "mm.h"

const char test_title[] =
    "PV MMU fuzz: random mmu_update, mmuext_op, update_va_mapping";

#define NR_WIN      4
#define NR_POOL     12
#define MAX_BATCH   8

static uint8_t win[NR_WIN][PAGE_SIZE] __page_aligned;
#define W(i)        ((unsigned long)win[i])

static unsigned long pool[NR_POOL], bogus[4];
static unsigned long boot_l4, clone_l4, hole;  /* hole: unused L2 slots */
static unsigned long one_vcpu = 1;
static bool verbose;
static unsigned long calls, refused;

/* Any frame of the pool, including ones that aren't ours. */
static unsigned long any_frame(void)
{
    unsigned long first_pt = start_info->pt_base >> PAGE_SHIFT;

    switch ( rnd_below(10) )
    {
    case 0 ... 5:
        return PICK(pool);
    case 6:
        return pfn_to_mfn(W(rnd_below(NR_WIN)) >> PAGE_SHIFT);
    case 7:
        return pfn_to_mfn(first_pt + rnd_below(start_info->nr_pt_frames));
    case 8:
        return rnd_below(2) ? boot_l4 : clone_l4;
    default:
        return PICK(bogus);
    }
}

/* A frame that may be cleared or copied over: never one mapping us. */
static unsigned long scratch_frame(void)
{
    switch ( rnd_below(4) )
    {
    case 0:
        return pfn_to_mfn(W(rnd_below(NR_WIN)) >> PAGE_SHIFT);
    case 1:
        return PICK(bogus);
    default:
        return PICK(pool);
    }
}

/*
 * A value for an entry.  Our two L4s are only ever mapped read-only: a
 * writable mapping (legal while one isn't in use) would keep us from
 * switching back to it.
 */
static uint64_t any_pte(void)
{
    static const uint64_t flags[] = {
        PTE_RO, PTE_RW, PTE_TABLE, PTE_RO | _PAGE_NX, PTE_RO | _PAGE_GLOBAL,
        PTE_TABLE | _PAGE_PSE, PTE_RW | _PAGE_PCD, _PAGE_PRESENT,
        PTE_RO | _PAGE_USER,
    };
    unsigned long mfn = any_frame();
    uint64_t f;

    switch ( rnd_below(12) )
    {
    case 0:
        return 0;
    case 1:
        return rnd() & ~_PAGE_PRESENT;                  /* not present */
    case 2:
        f = rnd() & UINT64_C(0xfff0000000000fff);
        break;
    default:
        f = PICK(flags);
        break;
    }
    if ( mfn == boot_l4 || mfn == clone_l4 )
        f &= ~_PAGE_RW;
    return pte_make(mfn, f);
}

/*
 * Slots of our top level that the fuzz may write: unused, or the
 * hypervisor's (L4 256-271; a PAE L3's slots past 3, which validation
 * clears).  Not a PAE L3's slot 3: while the fuzz has left our L3
 * without its type, a write there would land, and nothing could put
 * back the L2 it must hold for the L3 to validate again.
 */
#ifdef __x86_64__
static const unsigned int l4_slots[] = { 1, 200, 255, 256, 263, 271, 272,
                                         511 };
#define GUEST_TOP_SLOT(s)   ((s) < 256 || (s) > 271)
#else
static const unsigned int l4_slots[] = { 1, 2, 4, 200, 511 };
#define GUEST_TOP_SLOT(s)   ((s) < 3)
#endif

/* An entry we may change without unmapping ourselves. */
static uint64_t any_entry(void)
{
    uint64_t boot = (uint64_t)boot_l4 << PAGE_SHIFT;
    unsigned int slot = rnd_below(2) ? rnd_below(8) : rnd_below(512);

    switch ( rnd_below(8) )
    {
    case 0 ... 2:
        return ((uint64_t)PICK(pool) << PAGE_SHIFT) + slot * 8;
    case 3:
        return pt_entry_maddr(W(rnd_below(NR_WIN)), 1);
    case 4:
        return pt_entry_maddr(hole, 2) + rnd_below(4) * 8;
    case 5:
        /* The L3 under slot 0 (PAE: the top level, not its slot 3). */
        return rnd_below(2) ? pt_entry_maddr(0, 3) +
                              (1 + rnd_below(PT_LEVELS == 4 ? 3 : 2)) * 8
                            : boot + PICK(l4_slots) * 8;
    case 6:
        return ((uint64_t)clone_l4 << PAGE_SHIFT) + (1 + slot % 511) * 8;
    default:                                    /* and other commands */
        return ((uint64_t)scratch_frame() << PAGE_SHIFT) + slot * 8 +
               (rnd_below(4) ? 0 : 1 + rnd_below(7));
    }
}

/* Every return code must be one of Xen's for these calls. */
static void check_known(const char *what, long rc)
{
    switch ( rc )
    {
    case 0: case -XEN_EINVAL: case -XEN_EBUSY: case -XEN_EPERM:
    case -XEN_EFAULT: case -XEN_ENOSYS: case -XEN_ESRCH: case -XEN_EACCES:
    case -XEN_EOPNOTSUPP:
        break;
    default:
        test_fail("call %lu: %s returned %ld", calls, what, rc);
    }
    refused += !!rc;
}

static void fuzz_mmu_update(void)
{
    mmu_update_t reqs[MAX_BATCH];
    unsigned int n = rnd_below(2) ? 1 : 1 + rnd_below(MAX_BATCH), done = ~0u;
    long rc;

    for ( unsigned int i = 0; i < n; i++ )
    {
        if ( rnd_below(8) )
            reqs[i] = (mmu_update_t){ any_entry(), any_pte() };
        else                                    /* an M2P entry */
            reqs[i] = (mmu_update_t){
                ((uint64_t)PICK(pool) << PAGE_SHIFT) | MMU_MACHPHYS_UPDATE,
                rnd_below(0x10000) };
    }
    rc = hypercall_mmu_update(reqs, n, &done,
                              rnd_below(32) ? DOMID_SELF : rnd_below(8));
    if ( verbose )
        printf("  mmu_update x%u [0] %#llx <- %#llx: %ld, done %u\n", n,
               (unsigned long long)reqs[0].ptr,
               (unsigned long long)reqs[0].val, rc, done);
    if ( rc ? done >= n : done != n )
        test_fail("call %lu: mmu_update of %u: rc %ld but done %u", calls, n,
                  rc, done);
    check_known("mmu_update", rc);
}

static void any_mmuext(mmuext_op_t *op)
{
    static const unsigned int flushes[] = {
        MMUEXT_TLB_FLUSH_LOCAL, MMUEXT_INVLPG_LOCAL, MMUEXT_TLB_FLUSH_ALL,
        MMUEXT_INVLPG_ALL, MMUEXT_TLB_FLUSH_MULTI, MMUEXT_INVLPG_MULTI,
        MMUEXT_FLUSH_CACHE, MMUEXT_FLUSH_CACHE_GLOBAL, MMUEXT_MARK_SUPER,
        14, 21, 0x80000000u,
    };

    *op = (mmuext_op_t){ .cmd = MMUEXT_UNPIN_TABLE };
    switch ( rnd_below(12) )
    {
    case 0 ... 3:
        op->cmd = MMUEXT_PIN_L1_TABLE + rnd_below(4);
        /* fall through */
    case 4 ... 5:
        op->arg1.mfn = any_frame();
        break;
    case 6:
        op->cmd = MMUEXT_NEW_BASEPTR;
        op->arg1.mfn = rnd_below(4) ? (rnd_below(2) ? boot_l4 : clone_l4)
                                    : PICK(bogus);
        break;
    case 7:
        op->cmd = MMUEXT_NEW_USER_BASEPTR;
        op->arg1.mfn = rnd_below(4) ? any_frame() : 0;
        break;
    case 8:
        op->cmd = rnd_below(2) ? MMUEXT_CLEAR_PAGE : MMUEXT_COPY_PAGE;
        op->arg1.mfn = scratch_frame();
        op->arg2.src_mfn = any_frame();
        break;
    case 9:
        op->cmd = MMUEXT_SET_LDT;
        op->arg1.linear_addr = W(rnd_below(NR_WIN)) + (rnd_below(4) ? 0 : 8);
        op->arg2.nr_ents = rnd_below(4) ? rnd_below(17) : 9000;
        break;
    default:
        op->cmd = PICK(flushes);
        op->arg1.linear_addr = W(rnd_below(NR_WIN));
        set_xen_guest_handle(op->arg2.vcpumask,
                             rnd_below(4) ? &one_vcpu : BAD_UNMAPPED);
        break;
    }
}

static void fuzz_mmuext_op(void)
{
    mmuext_op_t ops[MAX_BATCH];
    unsigned int n = rnd_below(2) ? 1 : 1 + rnd_below(MAX_BATCH), done = ~0u;
    long rc;

    for ( unsigned int i = 0; i < n; i++ )
        any_mmuext(&ops[i]);
    rc = hypercall_mmuext_op(ops, n, &done, DOMID_SELF);
    if ( verbose )
        printf("  mmuext_op x%u [0] cmd %u %#lx: %ld, done %u\n", n,
               ops[0].cmd, ops[0].arg1.mfn, rc, done);
    if ( rc ? done >= n : done != n )
        test_fail("call %lu: mmuext_op of %u: rc %ld but done %u", calls, n,
                  rc, done);
    check_known("mmuext_op", rc);
}

static void fuzz_update_va_mapping(void)
{
    const unsigned long vas[] = {
        W(0), W(1), W(2), W(3), hole, hole + PAGE_SIZE, hole + (1UL << 21),
        (unsigned long)BAD_XEN, (unsigned long)BAD_UNMAPPED, 1UL << 30,
    };
    const unsigned long flags[] = {
        UVMF_NONE, UVMF_INVLPG, UVMF_TLB_FLUSH, UVMF_INVLPG | UVMF_ALL,
        UVMF_TLB_FLUSH | (unsigned long)&one_vcpu,
        UVMF_INVLPG | (unsigned long)BAD_UNMAPPED, UVMF_FLUSHTYPE_MASK,
    };
    unsigned long va = PICK(vas), f = PICK(flags);
    uint64_t pte = any_pte();
    long rc;

    if ( rnd_below(16) )
        rc = hypercall_update_va_mapping(va, pte, f);
    else
        rc = hypercall_update_va_mapping_otherdomain(
            va, pte, f, rnd_below(2) ? DOMID_SELF : rnd_below(8));
    if ( verbose )
        printf("  update_va_mapping %#lx <- %#llx, %#lx: %ld\n", va,
               (unsigned long long)pte, f, rc);
    check_known("update_va_mapping", rc);

    /* Whatever it did, reading there may fault but never hurts. */
    probe_read((void *)W(rnd_below(NR_WIN)));
}

static void setup(void)
{
    const uint64_t *l4 = (const uint64_t *)start_info->pt_base;

    for ( unsigned int i = 0; i < NR_POOL; i++ )
        pool[i] = alloc_frame();
    bogus[0] = hypervisor_frame();
    bogus[1] = 0x200;                           /* the shim image */
    bogus[2] = maximum_ram_page();
    bogus[3] = 0;
    boot_l4 = pt_base_mfn();
    hole = (initial_mapping_end() + (1UL << 21) - 1) & ~((1UL << 21) - 1);

    /* A second top level mapping the kernel as ours, switched to and fro. */
    clone_l4 = root_frame();
    frame_set_pte(clone_l4, 0, l4[0]);
}

void test_main(void)
{
    unsigned long seed = cmdline_ulong("seed", 1);
    unsigned long iterations = cmdline_ulong("iterations", 200);

    verbose = strstr((const char *)start_info->cmd_line, "verbose");
    rnd_seed(seed);
    printf("  seed %lu, %lu iterations\n", seed, iterations);
    setup();

    for ( calls = 0; calls < iterations; calls++ )
        switch ( rnd_below(3) )
        {
        case 0:
            fuzz_mmu_update();
            break;
        case 1:
            fuzz_mmuext_op();
            break;
        default:
            fuzz_update_va_mapping();
            break;
        }

    /*
     * Back to where we started, and still alive.  Our L4 may have been
     * unpinned and left for the other: empty the slots the fuzz wrote, so
     * that it validates again.
     */
    for ( unsigned int i = 0; i < ARRAY_SIZE(l4_slots); i++ )
        if ( GUEST_TOP_SLOT(l4_slots[i]) )
            check_rc(mmu_update1(((uint64_t)boot_l4 << PAGE_SHIFT) +
                                 l4_slots[i] * 8, 0), 0);
    /*
     * The second top level's slots and the pool's pins: a table the fuzz
     * linked there may hold one of our bootstrap tables as another type
     * (a plain L2 where a PAE L3's slot 3 needs its own kind, which one
     * L3 only may have).  Unpinned, a pool table lets go of its tables.
     */
    static uint64_t top[512];

    frame_read(clone_l4, 0, top, sizeof(top));
    for ( unsigned int i = 1; i < 512; i++ )
        if ( top[i] && GUEST_TOP_SLOT(i) )
            (void)mmu_update1(((uint64_t)clone_l4 << PAGE_SHIFT) + i * 8, 0);
    for ( unsigned int i = 0; i < NR_POOL; i++ )
        (void)mmuext1(MMUEXT_UNPIN_TABLE, pool[i]);
    /*
     * While our top level was left without its type (unpinned, not in
     * use), the fuzz may have pinned it, or the tables under it, as other
     * types: unpin every bootstrap table, whatever it is now, so that the
     * tree validates again (as a PAE L3's slot 3 must be its own kind of
     * L2).
     */
    for ( unsigned int i = 0; i < start_info->nr_pt_frames; i++ )
        (void)mmuext1(MMUEXT_UNPIN_TABLE,
                      pfn_to_mfn((start_info->pt_base >> PAGE_SHIFT) + i));
    check_rc(mmuext1(MMUEXT_NEW_BASEPTR, boot_l4), 0);
    /* (A 32-bit guest has no user base pointer: always -EINVAL.) */
    check_rc(mmuext1(MMUEXT_NEW_USER_BASEPTR, 0),
             PT_LEVELS == 4 ? 0 : -XEN_EINVAL);
    check_rc(mmuext1(MMUEXT_SET_LDT, 0), 0);
    check_rc(tlb_flush_local(), 0);
    printf("mm-fuzz: done %lu ops (%lu refused)\n", calls, refused);
    test_success();
}
