/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lock-profile-guest without lock-profile: the guest may ask, but there
 * is no profile, as a Xen built without CONFIG_DEBUG_LOCK_PROFILE
 * answers its control domain: -ENOSYS for query and reset alike.
 */
#define __XEN_TOOLS__ 1
#include "guest.h"
#include <xen/sysctl.h>

const char test_title[] = "sysctl lockprof_op: no lock profile";

void test_main(void)
{
    static struct xen_sysctl op;
    static struct xen_sysctl_lockprof_data data[4];

    op.cmd = XEN_SYSCTL_lockprof_op;
    op.interface_version = XEN_SYSCTL_INTERFACE_VERSION;
    op.u.lockprof_op.cmd = XEN_SYSCTL_LOCKPROF_query;
    op.u.lockprof_op.max_elem = 4;
    set_xen_guest_handle(op.u.lockprof_op.data, data);
    check_rc(HYPERCALL(__HYPERVISOR_sysctl, &op, 0, 0, 0, 0), -XEN_ENOSYS);
    op.u.lockprof_op.cmd = XEN_SYSCTL_LOCKPROF_reset;
    check_rc(HYPERCALL(__HYPERVISOR_sysctl, &op, 0, 0, 0, 0), -XEN_ENOSYS);
    op.interface_version = 0;
    check_rc(HYPERCALL(__HYPERVISOR_sysctl, &op, 0, 0, 0, 0), -XEN_EACCES);
    test_success();
}
