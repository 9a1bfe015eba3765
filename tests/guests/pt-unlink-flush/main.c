/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A page table that stops being one may still be walked by a CPU that
 * reached it before (its TLB; on hardware, its paging-structure caches)
 * until that CPU flushes, so before the frame is anything else the shim
 * flushes every CPU that may have reached it since the last time a walk
 * could (pv/mm/page-type.h: a table's flush_stamp is when the last entry
 * into it, or into a table above it, was removed, not when its type
 * ended).  Here L3 slot 1 -> L2 M -> L1 T -> data frame D, M and T held
 * by those entries alone; vCPU 1 reads D through them and keeps reading
 * (its TLB holds the translation), then vCPU 0 cuts the path with no
 * flush, T's type ends, and vCPU 0 maps T writable: the shim must flush
 * vCPU 1 first, so vCPU 1's next read of the address faults.  The path
 * is cut
 *
 *   - at T's own entry in M (mmu_update of M's slot 0): T's stamp is
 *     that removal's;
 *   - at M's entry in the L3: M's type ends, and T's with it, stamped
 *     as M was (the devalidation carries the stamp down).
 *
 * The control: right after the cut vCPU 1 still reads D (TCG keeps a
 * translation until something flushes it), or the round could not see a
 * flush that never came.  QEMU's soft TLB may also drop an entry to make
 * room for another: a round whose translation went before the retype
 * checks nothing, and most rounds must check.  A vCPU spinning, not
 * halted (flush-halted has those).
 */
#include "guest.h"
#include "mm.h"
#include "smp.h"

const char test_title[] = "A page table cut from the tree is flushed "
                          "before it is writable";

#define ROUNDS      16                  /* each way of cutting */
#define VA          (1UL << 30)         /* L3 slot 1: unused */
#define PAT         UINT64_C(0x5a5a5a5a5a5a5a5a)

enum cut { CUT_ENTRY, CUT_ANCESTOR, NR_CUTS };
static const char *const cut_name[NR_CUTS] = {
    "T's entry in M", "M's entry in the L3",
};

static uint8_t win[PAGE_SIZE] __page_aligned;

/* vCPU 0 -> 1: a command and its round; 1 -> 0: what it found. */
enum { CMD_CACHE = 1, CMD_READ, CMD_PROBE };
static unsigned int cmd, cmd_seq, ack_seq;
static unsigned long seen;
static exinfo_t probe;

/* One word at VA: 0 and *@val, or the fault. */
static exinfo_t read_va(unsigned long *val)
{
    exinfo_t ex = 0;
    unsigned long v = 0;

    asm volatile ( "1: mov (%[p]), %[v]; 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex), [v] "+r" (v) : [p] "r" (VA) : "memory" );
    *val = v;
    return ex;
}

static void vcpu1(unsigned int id)
{
    unsigned int s;

    (void)id;
    for ( s = 1; ; s++ )
    {
        smp_wait_count(&cmd_seq, s, SMP_WAIT_NS, "vCPU 0 asked");
        switch ( LOAD(cmd) )
        {
        case CMD_CACHE:
            /* A fresh translation of VA through this round's tables. */
            check_rc(mmuext1(MMUEXT_INVLPG_LOCAL, VA), 0);
            /* fall through */
        case CMD_READ:
        case CMD_PROBE:
            probe = read_va(&seen);
            break;
        }
        STORE(ack_seq, s);
    }
}

static unsigned int seq;

static void ask(unsigned int c)
{
    STORE(cmd, c);
    STORE(cmd_seq, ++seq);
    smp_wait_count(&ack_seq, seq, SMP_WAIT_NS, "vCPU 1 answered");
}

/* One round: build, cache on vCPU 1, cut, retype T, look again. */
static bool round(enum cut c, unsigned int r, unsigned int *checked)
{
    uint64_t l3e = pt_entry_maddr(VA, 3);
    unsigned long d = alloc_frame(), t, m;

    frame_fill(d, 0x5a);
    t = new_table(1, 0, pte_make(d, PTE_RO));
    m = new_table(2, 0, pte_make(t, PTE_TABLE));
    check_rc(mmu_update1(l3e, pte_make(m, PTE_TABLE)), 0);
    /* Held by the entries alone from here. */
    check_rc(unpin_table(t), 0);
    check_rc(unpin_table(m), 0);

    ask(CMD_CACHE);
    if ( probe || seen != (unsigned long)PAT )
    {
        test_fail("%s, round %u: vCPU 1 read %#lx through the new tables",
                  cut_name[c], r, (unsigned long)seen);
        return false;
    }

    /* The cut, with no flush: T's type ends (M's too, cut above it). */
    if ( c == CUT_ENTRY )
        check_rc(mmu_update1((uint64_t)m << PAGE_SHIFT, 0), 0);
    else
        check_rc(mmu_update1(l3e, 0), 0);
    ask(CMD_READ);
    if ( !probe && seen != (unsigned long)PAT )
    {
        test_fail("%s, round %u: vCPU 1 read %#lx after the cut",
                  cut_name[c], r, seen);
        return false;
    }

    /* T becomes writable: vCPU 1 flushed first. */
    check_rc(map_frame_at((unsigned long)win, t, PTE_RW), 0);
    if ( !probe )
    {
        /* The stale translation was there: it must be gone now. */
        (*checked)++;
        ask(CMD_PROBE);
        if ( exinfo_vector(probe) != X86_EXC_PF )
            test_fail("%s, round %u: T is writable, yet vCPU 1 %s",
                      cut_name[c], r,
                      probe ? "took another fault" : "still read through it");
    }

    check_rc(remap_initial((unsigned long)win), 0);
    if ( c == CUT_ENTRY )
        check_rc(mmu_update1(l3e, 0), 0);
    return true;
}

void test_main(void)
{
    unsigned int r, checked[NR_CUTS] = {};
    enum cut c;

    if ( smp_nr_vcpus(2) < 2 )
        return test_skip("one vCPU only");
    check_rc(smp_start_vcpu(1, vcpu1), 0);
    for ( r = 1; r <= ROUNDS; r++ )
        for ( c = 0; c < NR_CUTS; c++ )
            if ( !round(c, r, &checked[c]) )
                return;
    printf("pt-unlink-flush: %u and %u of %u rounds had the stale "
           "translation, flushed every time\n", checked[CUT_ENTRY],
           checked[CUT_ANCESTOR], ROUNDS);
    for ( c = 0; c < NR_CUTS; c++ )
        if ( checked[c] < ROUNDS / 2 )
            test_fail("%s: only %u of %u rounds kept the stale translation "
                      "to the retype: too few checked", cut_name[c],
                      checked[c], ROUNDS);
    test_success();
}
