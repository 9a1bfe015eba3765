/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * EVTCHNOP_reset of a FIFO domain while its other vCPUs unmask, send to
 * and poll its ports: neither reset nor they take the domain lock, so
 * the shim must wait out every port's lock before the FIFO frames go
 * (an unmask or poll reads and writes them under its port's lock only).
 * Each round vCPU 0 sets up the FIFO ABI, binds ports, lets vCPUs 1..n-1
 * hammer them and resets in the middle of it; then the array frame is
 * the guest's own again: pinned as an L1 table (no reference or type of
 * the shim's left on it), and the control block and array pages, zeroed
 * by the guest while the others keep at it, must stay zero (a write the
 * shim makes after the reset shows there only if it lands after the
 * zeroing: a stress, not a proof; the shim without that wait passed it
 * in 6 runs).  Every call
 * must give an answer Xen could give in that race: unmask and poll 0
 * (the ports stay valid after a reset), a send 0 or -EINVAL once its
 * port is closed.  With mm-audit the frame table is recounted after
 * each reset.
 */
#include "guest.h"
#include "event.h"
#include "mm.h"
#include "smp.h"

const char test_title[] = "EVTCHNOP_reset racing unmask, send and poll";

#define ROUNDS      30
#define NR_PORTS    8
#define MAX_VCPUS   4
#define TIMEOUT_NS  10000000000ULL

static evtchn_port_t ports[NR_PORTS];
static unsigned int go, done, stop, nr_vcpus;
static unsigned long calls[MAX_VCPUS], bad_rc[MAX_VCPUS];
static unsigned int bad_op[MAX_VCPUS];

/* Xorshift, per vCPU. */
static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void hammer(unsigned int id)
{
    uint64_t seed = 0x9e3779b97f4a7c15ULL * (id + 1);
    unsigned int seen = 0, op;
    evtchn_port_t port;
    long rc;

    for ( ;; )
    {
        while ( LOAD(go) == seen )
        {
            if ( LOAD(stop) )
                return;
            cpu_relax();
        }
        seen = LOAD(go);
        while ( LOAD(done) != seen )
        {
            port = ports[next(&seed) % NR_PORTS];
            op = next(&seed) % 3;
            switch ( op )
            {
            case 0:
                rc = evtchn_unmask(port);
                break;
            case 1:
                rc = evtchn_send(port);
                if ( rc == -XEN_EINVAL )
                    rc = 0;             /* closed by the reset */
                break;
            default:
                rc = sched_poll(&port, 1, 1);   /* timeout past: at once */
                break;
            }
            if ( rc && !bad_rc[id] )
            {
                bad_op[id] = op;
                STORE(bad_rc[id], (unsigned long)rc);
            }
            ADD(calls[id], 1);
        }
    }
}

static bool all_zero(const void *p)
{
    const uint64_t *w = p;
    unsigned int i;

    for ( i = 0; i < PAGE_SIZE / 8; i++ )
        if ( w[i] )
            return false;
    return true;
}

/* The array frame is the guest's again: it pins as an L1 and unpins. */
static bool array_frame_free(void *page, unsigned int round)
{
    unsigned long va = (unsigned long)page, mfn = virt_to_mfn(page);
    long rc;

    memset(page, 0, PAGE_SIZE);
    check_rc(map_frame_at(va, mfn, PTE_RO), 0);
    if ( (rc = mmuext1(MMUEXT_PIN_L1_TABLE, mfn)) )
    {
        test_fail("round %u: the array frame doesn't pin as an L1 after "
                  "the reset: %ld", round, rc);
        return false;
    }
    check_rc(mmuext1(MMUEXT_UNPIN_TABLE, mfn), 0);
    check_rc(remap_initial(va), 0);
    return true;
}

static void __attribute__((used)) vcpu_main(unsigned int id)
{
    hammer(id);
}

void test_main(void)
{
    evtchn_reset_t reset = { .dom = DOMID_SELF };
    unsigned long total = 0, before, at_go[MAX_VCPUS];
    void *control, *array;
    unsigned int r, i, v;
    long rc;

    nr_vcpus = smp_nr_vcpus(MAX_VCPUS);
    if ( nr_vcpus < 2 )
        return test_skip("one vCPU");
    if ( event_init() )
        return test_error("event_init failed");
    shared_info->vcpu_info[0].evtchn_upcall_mask = 1;   /* no callbacks */
    for ( v = 1; v < nr_vcpus; v++ )
        if ( (rc = smp_start_vcpu(v, vcpu_main)) )
            return test_fail("starting vCPU %u: %ld", v, rc);

    for ( r = 1; r <= ROUNDS; r++ )
    {
        /* A fresh FIFO table with ports pending and masked, and not. */
        check_rc(evtchn_op(EVTCHNOP_reset, &reset), 0);
        if ( (rc = fifo_init()) )
            return test_fail("round %u: fifo_init: %ld", r, rc);
        for ( i = 0; i < NR_PORTS; i++ )
        {
            if ( (rc = evtchn_bind_ipi_on(0)) < 0 )
                return test_fail("round %u: bind_ipi: %ld", r, rc);
            ports[i] = rc;
            if ( i & 1 )
                evtchn_mask(rc);
            check_rc(evtchn_send(rc), 0);
        }

        for ( v = 1; v < nr_vcpus; v++ )
            at_go[v] = LOAD(calls[v]);
        STORE(go, r);
        /* Until each of the others has made a few calls, then reset. */
        for ( v = 1; v < nr_vcpus; v++ )
        {
            uint64_t end = system_time() + TIMEOUT_NS;

            while ( LOAD(calls[v]) < at_go[v] + 4 + r % 8 )
            {
                if ( system_time() > end )
                    return test_fail("round %u: vCPU %u stalled", r, v);
                cpu_relax();
            }
        }
        check_rc(evtchn_op(EVTCHNOP_reset, &reset), 0);

        /* The frames are the guest's: zeroed, they stay zero. */
        control = fifo_control;
        array = fifo_array;
        memset(control, 0, PAGE_SIZE);
        if ( !array_frame_free(array, r) )
            break;
        before = LOAD(calls[1]);
        while ( LOAD(calls[1]) < before + 32 )
            cpu_relax();
        STORE(done, r);
        if ( !all_zero(control) || !all_zero(array) )
            return test_fail("round %u: the shim wrote a FIFO frame after "
                             "EVTCHNOP_reset", r);
        for ( v = 1; v < nr_vcpus; v++ )
            if ( LOAD(bad_rc[v]) )
                return test_fail("round %u: vCPU %u: %s gave %ld", r, v,
                                 (const char *[]){ "unmask", "send",
                                                   "poll" }[bad_op[v]],
                                 (long)bad_rc[v]);
    }
    STORE(stop, 1);
    for ( v = 1; v < nr_vcpus; v++ )
        total += LOAD(calls[v]);
    printf("evtchn-reset-race: %u resets under %lu unmasks, sends and "
           "polls from %u vCPUs\n", ROUNDS, total, nr_vcpus - 1);
    test_success();
}
