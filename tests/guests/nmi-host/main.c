/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The host's NMI (QEMU's nmi monitor command, libvirt's inject-nmi),
 * which reaches every CPU of the VM, wherever each is (in the guest, in
 * the shim, halted): the shim goes on, and with nmi=guest (its default)
 * hands one NMI to the guest's vCPU 0, as Xen's `xl trigger nmi` does
 * to a domU.  Twice: the second finds the first's IST stack free.  On
 * every vCPU the test has, vCPU 1 halted in SCHEDOP_block meanwhile.
 */
#include "guest.h"
#include "event.h"
#include "smp.h"

const char test_title[] = "The host's NMI: to vCPU 0's NMI callback";

#define WAIT_NS     20000000000ULL

static void sleeper(unsigned int id)
{
    (void)id;
    for ( ;; )
        hypercall_sched_op(SCHEDOP_block, NULL);
}

static bool wait_nmis(unsigned int n)
{
    uint64_t end = smp_time() + WAIT_NS;

    while ( nmi_count < n && smp_time() < end )
        hypercall_xen_version(XENVER_version, NULL);
    return nmi_count >= n;
}

void test_main(void)
{
    if ( map_shared_info() )
        return test_error("can't map shared_info");
    check_rc(nmi_init(), 0);
    if ( smp_nr_vcpus(2) >= 2 )
        check_rc(smp_start_vcpu(1, sleeper), 0);

    printf("nmi-host: waiting for the host's first NMI\n");
    if ( !wait_nmis(1) )
        return test_fail("no NMI in %llu s", WAIT_NS / 1000000000ULL);
    printf("nmi-host: waiting for the host's second NMI\n");
    if ( !wait_nmis(2) )
        return test_fail("no second NMI in %llu s", WAIT_NS / 1000000000ULL);
    printf("nmi-host: vCPU 0 took %u NMIs\n", nmi_count);
    test_success();
}
