/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Long multicall batches.  Xen preempts a long batch with a continuation
 * the guest never sees; pvshim continues one every hypercall-batch
 * entries (7 here, see expect, so every batch below crosses several).  Batches
 * of any length must complete with every entry's result in place, the
 * errors of entries past a continuation included, and an array whose size
 * overflows is -EFAULT as in Xen (which has taken nr_calls as an unsigned
 * long since 4.19; a 32-bit guest's can't overflow).  An entry's own long
 * call (an mmu_update or mmuext_op of more than 7 requests) continues
 * itself inside the batch, as on Xen: its rewritten arguments go back
 * into the entry, the batch continues from it, and the entries after it
 * run once it is done.
 */
#include "guest.h"
#include "mm.h"

const char test_title[] = "multicall: long batches across continuations";

#define NR 300

static multicall_entry_t mc[NR];

static void fill(unsigned int nr)
{
    unsigned int i;

    for ( i = 0; i < nr; i++ )
        mc[i] = (multicall_entry_t){
            .op = __HYPERVISOR_xen_version, .result = 0x5a5a5a5a,
            .args = { XENVER_pagesize },
        };
    for ( ; i < NR; i++ )
        mc[i] = (multicall_entry_t){ .op = 60, .result = 0x5a5a5a5a };
}

static unsigned int check(unsigned int nr, unsigned int bad, long bad_rc)
{
    unsigned int i, wrong = 0;

    for ( i = 0; i < NR; i++ )
    {
        long want = i >= nr ? 0x5a5a5a5a : i == bad ? bad_rc : (long)PAGE_SIZE;

        if ( (long)mc[i].result != want && !wrong++ )
            test_fail("batch of %u: entry %u result %ld, expected %ld",
                      nr, i, (long)mc[i].result, want);
    }
    return wrong;
}

static void run(unsigned int nr)
{
    fill(nr);
    check_rc(hypercall_multicall(mc, nr), 0);
    if ( !check(nr, ~0u, 0) )
        printf("  batch of %3u: every result in place\n", nr);
}

#define NREQ    30

/*
 * A batch of an mmu_update of NREQ requests (each the M2P entry of one
 * of our frames, set to what it is), an mmuext_op of NREQ local flushes,
 * and a xen_version: each long call continues itself in the batch.
 */
static void long_entries(void)
{
    static mmu_update_t req[NREQ];
    static mmuext_op_t ops[NREQ];
    static unsigned int done_mmu, done_ext;
    unsigned long mfn = virt_to_mfn(req);
    unsigned int i;

    for ( i = 0; i < NREQ; i++ )
    {
        req[i].ptr = (uint64_t)mfn << PAGE_SHIFT | MMU_MACHPHYS_UPDATE;
        req[i].val = (unsigned long)req >> PAGE_SHIFT;
        ops[i].cmd = MMUEXT_TLB_FLUSH_LOCAL;
    }
    done_mmu = done_ext = 0;
    mc[0] = (multicall_entry_t){
        .op = __HYPERVISOR_mmu_update, .result = 0x5a5a5a5a,
        .args = { (unsigned long)req, NREQ, (unsigned long)&done_mmu,
                  DOMID_SELF },
    };
    mc[1] = (multicall_entry_t){
        .op = __HYPERVISOR_mmuext_op, .result = 0x5a5a5a5a,
        .args = { (unsigned long)ops, NREQ, (unsigned long)&done_ext,
                  DOMID_SELF },
    };
    mc[2] = (multicall_entry_t){
        .op = __HYPERVISOR_xen_version, .result = 0x5a5a5a5a,
        .args = { XENVER_pagesize },
    };
    check_rc(hypercall_multicall(mc, 3), 0);
    check_rc(mc[0].result, 0);
    check_rc(mc[1].result, 0);
    check_rc(mc[2].result, PAGE_SIZE);
    check_rc(done_mmu, NREQ);
    check_rc(done_ext, NREQ);
    /* Continued in the batch: the entries hold their last arguments. */
    if ( !(mc[0].args[1] & (1U << 31)) || mc[0].args[0] == (unsigned long)req )
        test_fail("mmu_update of %u in a batch not continued: args %#lx "
                  "%#lx", NREQ, (unsigned long)mc[0].args[0],
                  (unsigned long)mc[0].args[1]);
    if ( !(mc[1].args[1] & (1U << 31)) )
        test_fail("mmuext_op of %u in a batch not continued: args %#lx "
                  "%#lx", NREQ, (unsigned long)mc[1].args[0],
                  (unsigned long)mc[1].args[1]);
    printf("  an mmu_update and an mmuext_op of %u in a batch, continued\n",
           NREQ);
}

/*
 * A console write longer than hypercall-batch bytes continues itself
 * too (Xen's does between chunks): in a batch, its entry's count and
 * buffer move on; the line comes out whole (expect).
 */
static void long_console_write(void)
{
#define LINE(n) "multicall-long: one console write across chunks, line " #n \
                ": ..........................................\n"
    /* Over 128 bytes, the chunk it is read in, and hypercall-batch. */
    static const char text[] = LINE(1) LINE(2) LINE(3);
    const unsigned int len = sizeof(text) - 1;

    mc[0] = (multicall_entry_t){
        .op = __HYPERVISOR_console_io, .result = 0x5a5a5a5a,
        .args = { CONSOLEIO_write, len, (unsigned long)text },
    };
    check_rc(hypercall_multicall(mc, 1), 0);
    check_rc(mc[0].result, 0);
    if ( mc[0].args[1] == len || mc[0].args[2] == (unsigned long)text )
        test_fail("a console write of %u bytes in a batch not continued: "
                  "args %#lx %#lx", len, (unsigned long)mc[0].args[1],
                  (unsigned long)mc[0].args[2]);
}

void test_main(void)
{
    long_entries();
    long_console_write();
    run(1);
    run(63);
    run(64);
    run(65);
    run(128);
    run(129);
    run(NR);

    /* Errors after a continuation stay with their own entry. */
    fill(NR);
    mc[100].op = __HYPERVISOR_multicall;
    mc[100].args[0] = (unsigned long)mc;
    mc[100].args[1] = 1;
    check_rc(hypercall_multicall(mc, NR), 0);
    check(NR, 100, -XEN_EINVAL);

    fill(NR);
    mc[200].args[0] = XENVER_extraversion;
    mc[200].args[1] = (unsigned long)BAD_UNMAPPED;
    check_rc(hypercall_multicall(mc, NR), 0);
    check(NR, 200, -XEN_EFAULT);

    fill(NR);
#ifdef __x86_64__
    /* A size whose bytes overflow: refused before any entry runs. */
    check_rc(hypercall_multicall(mc, 1UL << (sizeof(long) * 8 - 5)),
             -XEN_EFAULT);
    check_rc(hypercall_multicall(mc, ~0UL), -XEN_EFAULT);
#else
    /*
     * A 32-bit count can't overflow Xen's 64-bit size, and __addr_ok()
     * takes any 32-bit list: a long batch runs until an entry can't be
     * read (whatever follows the array would run too).  An unreadable
     * list is -EFAULT at its first entry.
     */
    check_rc(hypercall_multicall(BAD_UNMAPPED, 1UL << 27), -XEN_EFAULT);
    check_rc(hypercall_multicall(BAD_UNMAPPED, ~0UL), -XEN_EFAULT);
#endif
    check(0, ~0u, 0);

    test_success();
}
