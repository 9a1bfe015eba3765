/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The flush_lock benchmark's guest (tests/bench/flush-lock.sh): every
 * vCPU, for a fixed time, alternates the two kinds of work that make the
 * shim flush other CPUs' TLBs: a global flush request (MMUEXT_TLB_FLUSH_ALL)
 * and a page-table update that needs one (update_va_mapping of its own
 * window page, writable then read-only, UVMF_INVLPG | UVMF_ALL).  It
 * prints how many of each were made and what one took on average (the
 * guest's system time around each hypercall).
 *
 * Command line: vcpus=N (default: every vCPU the shim gives), ms=N (how
 * long, default 1000), linger_ms=N (how long to stay up after "done", for
 * the bench to read the lock profile through the debug keys), bringup=1
 * (no storm: each vCPU comes up and goes down at once, the waiting vCPUs
 * halted rather than spinning, for a boot test of many vCPUs).
 */
#include "guest.h"
#include "event.h"
#include "fuzz.h"
#include "mm.h"
#include "vcpu.h"

const char test_title[] = "flush storm: global flushes and PTE updates";

#define MAX_STORM_VCPUS 64
#define STACK_BYTES     8192

static struct vcpu_guest_context ctx;
static uint8_t stacks[MAX_STORM_VCPUS][STACK_BYTES]
    __attribute__((aligned(16)));
static uint8_t windows[MAX_STORM_VCPUS][PAGE_SIZE]
    __attribute__((aligned(PAGE_SIZE)));
/* vcpu_info for the vCPUs shared_info has no slot for (32 and up). */
static vcpu_info_t vinfo[MAX_STORM_VCPUS] __attribute__((aligned(PAGE_SIZE)));

static volatile unsigned int go, finished, bringup_only;
static volatile uint64_t deadline;
static volatile unsigned long flushes[MAX_STORM_VCPUS], updates[MAX_STORM_VCPUS];
static volatile uint64_t flush_ns[MAX_STORM_VCPUS], update_ns[MAX_STORM_VCPUS];
static volatile long failed_rc[MAX_STORM_VCPUS];

/* One vCPU's storm, until the deadline. */
static void storm(unsigned int id)
{
    unsigned long va = (unsigned long)windows[id];
    unsigned long mfn = virt_to_mfn(windows[id]);
    unsigned long nf = 0, nu = 0;
    uint64_t t = system_time(), t1, tf = 0, tu = 0;
    long rc = 0;

    while ( !rc && t < deadline )
    {
        rc = mmuext1(MMUEXT_TLB_FLUSH_ALL, 0);
        t1 = system_time();
        tf += t1 - t;
        nf++;
        if ( rc )
            break;
        rc = hypercall_update_va_mapping(va, pte_make(mfn, nu & 1 ? PTE_RW
                                                              : 0),
                                         UVMF_INVLPG | UVMF_ALL);
        t = system_time();
        tu += t - t1;
        nu++;
    }
    flushes[id] = nf;
    updates[id] = nu;
    flush_ns[id] = tf;
    update_ns[id] = tu;
    failed_rc[id] = rc;
}

static void __attribute__((used, noreturn)) vcpu_main(unsigned long id)
{
    /* bringup: only come up and go down again (no spinning vCPUs). */
    if ( !bringup_only )
    {
        while ( !go )
            ;
        storm(id);
    }
    __atomic_add_fetch(&finished, 1, __ATOMIC_SEQ_CST);
    vcpu_op(VCPUOP_down, id, NULL);
    for ( ;; )
        ;
}

static long start_vcpu(unsigned int id)
{
    long rc;

    vcpu_ctx_init(&ctx, (unsigned long)vcpu_main, id,
                  stacks[id] + STACK_BYTES, true);
    if ( id < XEN_LEGACY_MAX_VCPUS )
        shared_info->vcpu_info[id].evtchn_upcall_mask = 1;
    else
    {
        struct vcpu_register_vcpu_info info = {
            .mfn = virt_to_mfn(&vinfo[id]),
            .offset = (unsigned long)&vinfo[id] & (PAGE_SIZE - 1),
        };

        vinfo[id].evtchn_upcall_mask = 1;
        if ( (rc = vcpu_op(VCPUOP_register_vcpu_info, id, &info)) )
            return rc;
    }
    rc = vcpu_op(VCPUOP_initialise, id, &ctx);
    return rc ? rc : vcpu_op(VCPUOP_up, id, NULL);
}

void test_main(void)
{
    unsigned long want = cmdline_ulong("vcpus", MAX_STORM_VCPUS);
    unsigned long ms = cmdline_ulong("ms", 1000);
    unsigned long linger = cmdline_ulong("linger_ms", 0);

    bringup_only = cmdline_ulong("bringup", 0);
    if ( event_init() )
        return test_error("event_init failed");
    unsigned long nf = 0, nu = 0, i;
    uint64_t tf = 0, tu = 0;
    unsigned int n = 1;
    uint64_t t0, end;
    long rc;

    /* As many vCPUs as asked and the shim has. */
    while ( n < want && n < MAX_STORM_VCPUS &&
            vcpu_op(VCPUOP_is_up, n, NULL) != -XEN_ENOENT )
        n++;
    for ( i = 1; i < n; i++ )
        if ( (rc = start_vcpu(i)) )
            return test_fail("vCPU %lu: %ld", i, rc);

    if ( bringup_only )
    {
        end = system_time() + 60000000000ULL;
        while ( finished < n - 1 && system_time() < end )
            ;
        if ( finished < n - 1 )
            return test_fail("%u of %u vCPUs came up", finished + 1, n);
        printf("flush-storm: brought up %u vCPUs\n", n);
        test_success();
        return;
    }
    printf("flush-storm: start %u vCPUs, %lu ms\n", n, ms);
    t0 = system_time();
    deadline = t0 + ms * 1000000ULL;
    go = 1;
    storm(0);
    end = system_time() + 10000000000ULL;
    while ( finished < n - 1 && system_time() < end )
        ;
    if ( finished < n - 1 )
        return test_fail("%u of %u vCPUs finished", finished + 1, n);
    for ( i = 0; i < n; i++ )
    {
        if ( failed_rc[i] )
            test_fail("vCPU %lu: an operation returned %ld", i,
                      failed_rc[i]);
        nf += flushes[i];
        nu += updates[i];
        tf += flush_ns[i];
        tu += update_ns[i];
    }
    printf("flush-storm: done %u vCPUs %lu ms: %lu flush-all (%lu ns each),"
           " %lu pte-update-all (%lu ns each)\n", n, ms, nf,
           nf ? (unsigned long)(tf / nf) : 0, nu,
           nu ? (unsigned long)(tu / nu) : 0);
    end = system_time() + linger * 1000000ULL;
    while ( system_time() < end )
        ;
    test_success();
}
