/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SCHEDOP_watchdog as Xen's domain_watchdog(): two timers, set up by id
 * 0 (each one's id back, then -ENOSPC), poked and taken down by id, an
 * id not set up or past the last refused; a timer poked in time, or
 * taken down, never fires; and one left to run out shuts the domain down
 * (SHUTDOWN_watchdog: exit status 3, "Watchdog timer 0 fired for d1"),
 * which the expect file checks.  Linux's xen_wdt uses it so.
 */
#include "guest.h"
#include "event.h"

const char test_title[] = "SCHEDOP_watchdog: set up, poked, taken down, fired";

#define MS      1000000ULL
#define SEC     1000000000ULL

static long wd(uint32_t id, uint32_t timeout)
{
    struct sched_watchdog w = { .id = id, .timeout = timeout };

    return hypercall_sched_op(SCHEDOP_watchdog, &w);
}

/* Busy in hypercalls for @ns of system time. */
static void spin_for(uint64_t ns)
{
    uint64_t end = system_time() + ns;

    while ( system_time() < end )
        hypercall_xen_version(XENVER_version, NULL);
}

void test_main(void)
{
    unsigned int i;

    if ( event_init() )
        return test_error("event_init failed");

    check_rc(hypercall_sched_op(SCHEDOP_watchdog, BAD_XEN), -XEN_EFAULT);
    check_rc(wd(1, 10), -XEN_EINVAL);           /* not set up */
    check_rc(wd(3, 10), -XEN_EINVAL);           /* past the last */
    check_rc(wd(~0u, 10), -XEN_EINVAL);
    check_rc(wd(0, 60), 1);
    check_rc(wd(0, 60), 2);
    check_rc(wd(0, 60), -XEN_ENOSPC);
    check_rc(wd(1, 0), 0);                      /* taken down */
    check_rc(wd(1, 60), -XEN_EINVAL);           /* so not there to poke */
    check_rc(wd(0, 60), 1);                     /* the first free again */
    check_rc(wd(2, 0), 0);
    check_rc(wd(1, 0), 0);

    /*
     * A 6 s timer poked after half a second for a minute outlives its
     * first timeout, and poked a few times more it stays set up (a host
     * would have to stall the guest for 5.5 s to fire it); one taken
     * down at once never fires.
     */
    check_rc(wd(0, 6), 1);
    spin_for(500 * MS);
    for ( i = 0; i < 3; i++ )
        check_rc(wd(1, 60), 0);
    spin_for(6 * SEC);
    check_rc(wd(1, 0), 0);
    check_rc(wd(0, 1), 1);
    check_rc(wd(1, 0), 0);
    spin_for(2 * SEC);

    printf("sched-watchdog: one left to run out\n");
    check_rc(wd(0, 1), 1);
    spin_for(60 * SEC);
    test_fail("the watchdog never fired");
}
