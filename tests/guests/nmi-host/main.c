/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The host's NMI (QEMU's nmi monitor command, libvirt's inject-nmi),
 * which reaches every CPU of the VM, wherever each is (in the guest, in
 * the shim, halted): the shim goes on, and with nmi=guest (its default)
 * hands one NMI to the guest's vCPU 0, as Xen's `xl trigger nmi` does
 * to a domU, with its reason (unknown) in shared_info, as dom0's; the
 * first before the guest has an NMI callback, which it gets once it
 * registers one.  Twice: the second finds the first's IST stack free.
 * On every vCPU the test has, vCPU 1 halted in SCHEDOP_block meanwhile.
 */
#include "guest.h"
#include "event.h"
#include "smp.h"
#include <xen/nmi.h>

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

/* The reason the shim leaves in shared_info, read again each time. */
static unsigned long nmi_reason(void)
{
    return *(volatile unsigned long *)&shared_info->arch.nmi_reason;
}

void test_main(void)
{
    uint64_t end;

    if ( map_shared_info() )
        return test_error("can't map shared_info");
    if ( smp_nr_vcpus(2) >= 2 )
        check_rc(smp_start_vcpu(1, sleeper), 0);

    /*
     * No NMI callback yet: the first NMI is dropped but leaves its reason,
     * and registering the callback raises it again (Xen's
     * register_guest_nmi_callback(): the NMI edge lost).
     */
    printf("nmi-host: waiting for the host's first NMI\n");
    end = smp_time() + WAIT_NS;
    while ( !nmi_reason() && smp_time() < end )
        hypercall_xen_version(XENVER_version, NULL);
    /* QEMU's port 0x61 reads neither SERR nor IOCHK: "unknown", as dom0's. */
    if ( nmi_reason() != XEN_NMIREASON_unknown )
        return test_fail("shared_info's nmi_reason is %#lx, not %#lx",
                         nmi_reason(), (unsigned long)XEN_NMIREASON_unknown);
    check_rc(nmi_init(), 0);
    if ( !wait_nmis(1) )
        return test_fail("the first NMI didn't come again with the callback");

    printf("nmi-host: waiting for the host's second NMI\n");
    if ( !wait_nmis(2) )
        return test_fail("no second NMI in %llu s", WAIT_NS / 1000000000ULL);
    printf("nmi-host: vCPU 0 took %u NMIs\n", nmi_count);
    if ( nmi_reason() != XEN_NMIREASON_unknown )
        return test_fail("shared_info's nmi_reason is %#lx after two",
                         nmi_reason());
    test_success();
}
