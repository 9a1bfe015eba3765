/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Taking a vCPU down and up again while it is the target of other vCPUs'
 * events and TLB flushes: vCPU 1 spins making hypercalls; vCPU 2 keeps
 * sending it IPI events, flushing every vCPU's TLB (MMUEXT_TLB_FLUSH_ALL,
 * MMUEXT_INVLPG_MULTI aimed at vCPU 1) and changing a PTE with UVMF_ALL;
 * vCPU 0 downs vCPU 1 (VCPUOP_down on another vCPU, as Linux's CPU
 * hot-unplug does), waits until it is off its CPU, and brings it up
 * again, many times.  Every hypercall must succeed as on Xen, vCPU 1 must
 * resume each time where it stopped, events sent while it was down must
 * be pending for it, and the frame table must audit clean (mm-audit).
 * vCPU 1 must leave at its next exit after the down's kick, though its
 * xen_version takes no lock and its events are masked: a few hypercalls
 * later at most, not at a timer of the shim's a second on.
 */
#include "guest.h"
#include "event.h"
#include "mm.h"
#include "vcpu.h"

const char test_title[] = "VCPUOP_down/up racing events and flushes";

#define ROUNDS      40
#define TIMEOUT_NS  10000000000ULL
#define MAX_AFTER_DOWN  1000    /* vCPU 1's hypercalls after a down */

static struct vcpu_guest_context ctx;
static uint8_t stacks[3][8192] __attribute__((aligned(16)));
static uint8_t window[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));
static volatile unsigned long v1_count, v2_rounds;
static volatile long v1_bad, v2_bad;
static volatile bool stop;
static volatile uint32_t ipi_port;

static void __attribute__((used, noreturn)) vcpu1_main(unsigned long n)
{
    long rc;

    for ( ;; )
    {
        rc = hypercall_xen_version(XENVER_version, NULL);
        if ( rc <= 0 && !v1_bad )
            v1_bad = rc ? rc : -1;
        v1_count++;
    }
}

static void __attribute__((used, noreturn)) vcpu2_main(unsigned long n)
{
    unsigned long w = (unsigned long)window, mask = 1UL << 1;
    long rc;

    while ( !stop )
    {
        rc = evtchn_send(ipi_port);
        if ( !rc )
            rc = mmuext1(MMUEXT_TLB_FLUSH_ALL, 0);
        if ( !rc )
            rc = mmuext_flush(MMUEXT_INVLPG_MULTI, w, &mask);
        if ( !rc )
            rc = hypercall_update_va_mapping(
                w, ((uint64_t)virt_to_mfn(window) << PAGE_SHIFT) | 7,
                UVMF_ALL | UVMF_TLB_FLUSH);
        if ( rc && !v2_bad )
            v2_bad = rc;
        v2_rounds++;
    }
    vcpu_op(VCPUOP_down, n, NULL);
    for ( ;; )
        ;
}

static bool wait_for(volatile unsigned long *counter, unsigned long past)
{
    uint64_t end = system_time() + TIMEOUT_NS;

    while ( *counter <= past && system_time() < end )
        cpu_relax();
    return *counter > past;
}

/* VCPUOP_is_up says "down" at once; runstate offline means off its CPU. */
static bool wait_offline(unsigned int n)
{
    uint64_t end = system_time() + TIMEOUT_NS;
    struct vcpu_runstate_info r;

    do {
        if ( vcpu_op(VCPUOP_get_runstate_info, n, &r) )
            return false;
        if ( r.state == RUNSTATE_offline )
            return true;
        cpu_relax();
    } while ( system_time() < end );
    return false;
}

void test_main(void)
{
    unsigned long seen, after_down, most_after_down = 0;
    unsigned int i;
    long rc;

    if ( event_init() )
        return test_error("event_init failed");
    if ( vcpu_op(VCPUOP_is_up, 2, NULL) == -XEN_ENOENT )
        return test_skip("fewer than 3 vCPUs");
    rc = evtchn_bind_ipi_on(1);
    if ( rc < 0 )
        return test_fail("bind_ipi: %ld", rc);
    ipi_port = rc;
    shared_info->vcpu_info[1].evtchn_upcall_mask = 1;   /* no callback */

    vcpu_ctx_init(&ctx, (unsigned long)vcpu1_main, 1, stacks[1] + 8192, true);
    check_rc(vcpu_op(VCPUOP_initialise, 1, &ctx), 0);
    vcpu_ctx_init(&ctx, (unsigned long)vcpu2_main, 2, stacks[2] + 8192, true);
    check_rc(vcpu_op(VCPUOP_initialise, 2, &ctx), 0);
    check_rc(vcpu_op(VCPUOP_up, 1, NULL), 0);
    if ( !wait_for(&v1_count, 0) )
        return test_fail("vCPU 1 never ran");
    check_rc(vcpu_op(VCPUOP_up, 2, NULL), 0);
    if ( !wait_for(&v2_rounds, 0) )
        return test_fail("vCPU 2 never ran");

    for ( i = 0; i < ROUNDS; i++ )
    {
        check_rc(vcpu_op(VCPUOP_down, 1, NULL), 0);
        after_down = v1_count;
        check_rc(vcpu_op(VCPUOP_is_up, 1, NULL), 0);
        if ( !wait_offline(1) )
            return test_fail("round %u: vCPU 1 never left its CPU", i);
        if ( v1_count - after_down > most_after_down )
            most_after_down = v1_count - after_down;
        /* Down: it makes no progress, while vCPU 2 keeps at it. */
        seen = v1_count;
        if ( !wait_for(&v2_rounds, v2_rounds + 2) )
            return test_fail("round %u: vCPU 2 stalled", i);
        if ( v1_count != seen )
            return test_fail("round %u: vCPU 1 ran while down", i);
        if ( !evtchn_test_pending(ipi_port) )
            test_fail("round %u: no event pending for the downed vCPU", i);
        /* Cleared for the next round, as a guest's handler would. */
        evtchn_clear_pending(ipi_port);
        check_rc(vcpu_op(VCPUOP_up, 1, NULL), 0);
        if ( !wait_for(&v1_count, seen) )
            return test_fail("round %u: vCPU 1 never resumed", i);
    }
    stop = true;
    if ( v1_bad || v2_bad )
        test_fail("a hypercall failed: vCPU 1 %ld, vCPU 2 %ld", v1_bad, v2_bad);
    if ( most_after_down > MAX_AFTER_DOWN )
        test_fail("vCPU 1 made %lu hypercalls after a down (at most %u)",
                  most_after_down, MAX_AFTER_DOWN);
    printf("vcpu-down-race: vCPU 1 went down and up %u times under events "
           "and flushes (%lu rounds of vCPU 2's, at most %lu hypercalls "
           "after a down)\n", ROUNDS, v2_rounds, most_after_down);
    test_success();
}
