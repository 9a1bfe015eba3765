/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An upcall due with no event callback registered: Xen's bounce-frame
 * code crashes the domain rather than send the guest to address 0.
 */
#include "guest.h"
#include "event.h"

const char test_title[] = "Event upcall with no callback crashes the guest";

void test_main(void)
{
    long ipi;

    if ( map_shared_info() )
        return test_error("map_shared_info failed");
    event_vcpu_info = &shared_info->vcpu_info[0];
    ipi = evtchn_bind_ipi_on(0);
    check_rc(evtchn_send(ipi), 0);              /* masked: nothing yet */
    printf("evtchn-no-callback: unmasking with no callback\n");
    events_enable();
    hypercall_xen_version(XENVER_version, NULL);
    test_fail("the upcall was not refused");
}
