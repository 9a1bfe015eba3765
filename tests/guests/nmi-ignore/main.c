/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nmi=ignore: the host's NMI is said on the console and goes no further
 * (Xen's nmi=ignore).  The host then presses the power button, which the
 * shim passes on through xenstore after the NMI's softirq has run: by
 * then an NMI handed on would have reached vCPU 0 (its callback runs at
 * the next exit, and the wait below is all hypercalls).
 */
#include "guest.h"
#include "event.h"
#include "xs.h"

const char test_title[] = "nmi=ignore: the host's NMI stays in the shim";

void test_main(void)
{
    if ( map_shared_info() )
        return test_error("can't map shared_info");
    check_rc(nmi_init(), 0);
    if ( !xs_init() )
        return test_error("no xenstore");

    printf("nmi-ignore: waiting for the host's NMI, then its power button\n");
    if ( !xs_wait_value("control/shutdown", "poweroff", 120) )
        return test_fail("no power button in 120 s");
    if ( nmi_count )
        return test_fail("vCPU 0 took %u NMIs", nmi_count);
    if ( shared_info->arch.nmi_reason )
        return test_fail("shared_info's nmi_reason is %#lx",
                         (unsigned long)shared_info->arch.nmi_reason);
    test_success();
}
