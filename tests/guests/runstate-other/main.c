/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * VCPUOP_get_runstate_info of another vCPU while that vCPU blocks and
 * wakes on its own CPU: the copy is one of its states, never half of a
 * change (Xen reads it under the vCPU's scheduler lock).  A torn copy
 * shows as time going backwards between two reads: a state's time
 * counted twice (its interval added, the old state still current) or
 * not at all (the new state current, the interval not yet added).
 */
#include "guest.h"
#include "event.h"
#include "smp.h"

const char test_title[] = "Runstate of another vCPU changing meanwhile";

#define READS       200000
#define READ_NS     3000000000ULL       /* or 3 s: mm-audit audits each */

static volatile unsigned int stop, naps;

static void sleeper(unsigned int id)
{
    (void)id;
    while ( !LOAD(stop) )
    {
        smp_sleep(2000);
        ADD(naps, 1);
    }
}

static uint64_t total(const struct vcpu_runstate_info *r)
{
    return r->time[RUNSTATE_running] + r->time[RUNSTATE_runnable] +
           r->time[RUNSTATE_blocked] + r->time[RUNSTATE_offline];
}

void test_main(void)
{
    struct vcpu_runstate_info r, last;
    unsigned int i, s, bad = 0;
    uint64_t end;

    if ( map_shared_info() )
        return test_error("can't map shared_info");
    if ( smp_nr_vcpus(2) < 2 )
        return test_skip("one vCPU only");
    check_rc(smp_start_vcpu(1, sleeper), 0);
    smp_wait_count(&naps, 1, SMP_WAIT_NS, "vCPU 1's first nap");

    check_rc(vcpu_op(VCPUOP_get_runstate_info, 1, &last), 0);
    end = smp_time() + READ_NS;
    for ( i = 0; i < READS && bad < 5 && smp_time() < end; i++ )
    {
        check_rc(vcpu_op(VCPUOP_get_runstate_info, 1, &r), 0);
        for ( s = RUNSTATE_running; s <= RUNSTATE_offline; s++ )
            if ( r.time[s] < last.time[s] )
            {
                test_fail("read %u: state %u's time went back from %llu "
                          "to %llu", i, s,
                          (unsigned long long)last.time[s],
                          (unsigned long long)r.time[s]);
                bad++;
            }
        if ( total(&r) < total(&last) )
        {
            test_fail("read %u: the total went back from %llu to %llu", i,
                      (unsigned long long)total(&last),
                      (unsigned long long)total(&r));
            bad++;
        }
        last = r;
    }
    STORE(stop, 1);
    printf("runstate-other: %u reads while vCPU 1 napped %u times, %s "
           "went back\n", i, LOAD(naps), bad ? "some" : "none");
    test_success();
}
