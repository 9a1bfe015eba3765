/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Flushes of a halted vCPU's CPU.  The shim doesn't wake a CPU whose
 * vCPU is blocked to flush it: it owes it the flush, which the CPU does
 * as it wakes, before the guest runs again (pv/mm/guest-flush.c).  Here
 * vCPU 1 caches a translation of a window, then halts in SCHEDOP_poll;
 * vCPU 0, once vCPU 1's runstate says blocked, changes the window's
 * mapping with one of the flushes the ABI gives it, and wakes vCPU 1 by
 * its event channel.  vCPU 1 must find nothing of the old translation:
 *
 *   - a writable one of a frame vCPU 0 then pins as an L1 (unmapped
 *     with no flush: the shim's own type-change flush): the write faults
 *     and the L1 stays empty;
 *   - a read-only one of frame A, pointed at frame B and flushed by
 *     MMUEXT_TLB_FLUSH_MULTI, MMUEXT_INVLPG_MULTI or update_va_mapping's
 *     UVMF_INVLPG and UVMF_TLB_FLUSH with a vcpumask of vCPU 1 alone,
 *     or by MMUEXT_TLB_FLUSH_ALL: it reads B.
 *
 * And the control: pointed at B with no flush at all, vCPU 1 must still
 * read A (TCG keeps a translation until something flushes it), or the
 * test could not see a flush that never came.
 */
#include "guest.h"
#include "mm.h"
#include "smp.h"

const char test_title[] = "TLB flushes of a halted vCPU";

#define ROUNDS      8                   /* each method this many times */
#define PAT_A       UINT64_C(0xaaaaaaaaaaaaaaaa)
#define PAT_B       UINT64_C(0xbbbbbbbbbbbbbbbb)

enum method { M_NONE, M_PIN, M_FLUSH_MULTI, M_INVLPG_MULTI, M_UVMF_INVLPG,
              M_UVMF_FLUSH, M_FLUSH_ALL, NR_METHODS };
static const char *const method_name[NR_METHODS] = {
    "no flush", "pin as an L1", "MMUEXT_TLB_FLUSH_MULTI",
    "MMUEXT_INVLPG_MULTI", "UVMF_INVLPG | vcpumask",
    "UVMF_TLB_FLUSH | vcpumask", "MMUEXT_TLB_FLUSH_ALL",
};

static uint8_t win[PAGE_SIZE] __page_aligned;
#define W           ((unsigned long)win)

/* vCPU 0 -> 1: the round's number and method; 1 -> 0: what it found. */
static volatile unsigned int cmd_round, cmd_method, ack_round, done_round;
static volatile uint64_t seen;
static volatile exinfo_t probe;
static evtchn_port_t wake_port;         /* bound to vCPU 1 */
static unsigned long vcpu1_mask = 2;

static void vcpu1(unsigned int id)
{
    unsigned int r;

    (void)id;
    for ( r = 1; r <= ROUNDS * NR_METHODS; r++ )
    {
        smp_wait_count(&cmd_round, r, SMP_WAIT_NS, "vCPU 1 got a round");
        /* A translation of the window, cached in this CPU's TLB. */
        check_rc(mmuext1(MMUEXT_INVLPG_LOCAL, W), 0);
        if ( cmd_method == M_PIN )
            ((volatile uint64_t *)win)[0] = 0;
        else
            seen = peek(W);
        STORE(ack_round, r);
        /* Halted until vCPU 0 has changed the mapping and sends. */
        sched_poll(&wake_port, 1, smp_time() + 20000000000ULL);
        evtchn_clear_pending(wake_port);
        if ( cmd_method == M_PIN )
            probe = probe_write(&((uint64_t *)win)[5]);
        else
            seen = peek(W);
        STORE(done_round, r);
    }
}

/* Until vCPU 1 sleeps: the flush must find its CPU halted. */
static void wait_blocked(unsigned int r)
{
    uint64_t end = smp_time() + 20000000000ULL;
    struct vcpu_runstate_info ri;

    do {
        check_rc(vcpu_op(VCPUOP_get_runstate_info, 1, &ri), 0);
        if ( ri.state == RUNSTATE_blocked )
            return;
        cpu_relax();
    } while ( smp_time() < end );
    test_fail("vCPU 1 never blocked (round %u)", r);
}

static void change(enum method m, unsigned long frame_b, unsigned long l1)
{
    uint64_t b = pte_make(frame_b, PTE_RO);

    switch ( m )
    {
    case M_NONE:
        check_rc(hypercall_update_va_mapping(W, b, UVMF_NONE), 0);
        break;
    case M_PIN:
        check_rc(hypercall_update_va_mapping(W, 0, UVMF_NONE), 0);
        check_rc(pin_table(1, l1), 0);
        break;
    case M_FLUSH_MULTI:
    case M_INVLPG_MULTI:
    case M_FLUSH_ALL:
        check_rc(hypercall_update_va_mapping(W, b, UVMF_NONE), 0);
        check_rc(mmuext_flush(m == M_FLUSH_MULTI ? MMUEXT_TLB_FLUSH_MULTI :
                              m == M_INVLPG_MULTI ? MMUEXT_INVLPG_MULTI :
                              MMUEXT_TLB_FLUSH_ALL, W, &vcpu1_mask), 0);
        break;
    case M_UVMF_INVLPG:
    case M_UVMF_FLUSH:
        check_rc(hypercall_update_va_mapping(W, b,
                     (m == M_UVMF_INVLPG ? UVMF_INVLPG : UVMF_TLB_FLUSH) |
                     (unsigned long)&vcpu1_mask), 0);
        break;
    default:
        break;
    }
}

void test_main(void)
{
    unsigned long frame_a = alloc_frame(), frame_b = alloc_frame(), l1;
    unsigned int r, stale[NR_METHODS] = {};
    enum method m;
    uint64_t e;
    long rc;

    if ( smp_nr_vcpus(2) < 2 )
        return test_skip("one vCPU only");
    if ( event_init() )
        return test_error("event_init failed");
    rc = evtchn_bind_ipi_on(1);
    if ( rc < 0 )
        return test_fail("bind_ipi on vCPU 1: %ld", rc);
    wake_port = rc;
    evtchn_mask(wake_port);             /* polled for, never an upcall */
    frame_fill(frame_a, 0xaa);
    frame_fill(frame_b, 0xbb);
    check_rc(smp_start_vcpu(1, vcpu1), 0);

    for ( r = 1; r <= ROUNDS * NR_METHODS; r++ )
    {
        m = (r - 1) % NR_METHODS;
        l1 = 0;
        if ( m == M_PIN )
        {
            l1 = alloc_frame();
            frame_fill(l1, 0);
            check_rc(map_frame_at(W, l1, PTE_RW), 0);
        }
        else
            check_rc(map_frame_at(W, frame_a, PTE_RO), 0);
        cmd_method = m;
        STORE(cmd_round, r);
        smp_wait_count(&ack_round, r, SMP_WAIT_NS,
                       "vCPU 1 cached its translation");
        if ( m != M_PIN && seen != PAT_A )
            test_error("vCPU 1 read %#llx, not frame A",
                       (unsigned long long)seen);
        wait_blocked(r);
        change(m, frame_b, l1);
        check_rc(evtchn_send(wake_port), 0);
        smp_wait_count(&done_round, r, SMP_WAIT_NS, "vCPU 1 woke");

        if ( m == M_PIN )
        {
            if ( !probe )
                test_fail("round %u: vCPU 1 wrote through a stale "
                          "translation into an L1", r);
            else if ( exinfo_vector(probe) != X86_EXC_PF )
                test_fail("round %u: vCPU 1's stale write: vector %u", r,
                          exinfo_vector(probe));
            frame_read(l1, 5 * 8, &e, sizeof(e));
            if ( e )
                test_fail("round %u: the pinned L1 changed: entry 5 is "
                          "%#llx", r, (unsigned long long)e);
            check_rc(unpin_table(l1), 0);
        }
        else if ( seen == PAT_A )
            stale[m]++;
        else if ( seen != PAT_B )
            test_fail("round %u, %s: vCPU 1 read %#llx", r, method_name[m],
                      (unsigned long long)seen);
        check_rc(remap_initial(W), 0);
    }

    for ( m = M_PIN + 1; m < NR_METHODS; m++ )
        if ( stale[m] )
            test_fail("%s: vCPU 1 read the old frame after %u of %u wakes",
                      method_name[m], stale[m], ROUNDS);
    printf("flush-halted: with no flush vCPU 1 read the old frame after "
           "%u of %u wakes\n", stale[M_NONE], ROUNDS);
    if ( !stale[M_NONE] )
        test_fail("with no flush vCPU 1 never read the old frame: the "
                  "test can't see a missing flush");
    test_success();
}
