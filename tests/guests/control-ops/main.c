/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The toolstack's and dom0's hypercalls from an unprivileged domU, as
 * Xen 4.17 answers them under its default XSM policy: platform_op, sysctl
 * and domctl read the argument (-EFAULT), check the interface version
 * (-EACCES), domctl looks up the domain (-ESRCH; DOMID_SELF names none
 * there), then -EPERM; xenpmu_op is -EOPNOTSUPP (vPMU off).
 */
#define __XEN_TOOLS__ 1
#include "guest.h"
#include <xen/platform.h>
#include <xen/domctl.h>
#include <xen/sysctl.h>
#include <xen/pmu.h>

const char test_title[] = "platform_op, sysctl, domctl, xenpmu_op: refused";

static long platform_op(const void *op)
{
    return HYPERCALL(__HYPERVISOR_platform_op, op, 0, 0, 0, 0);
}

static long sysctl(const void *op)
{
    return HYPERCALL(__HYPERVISOR_sysctl, op, 0, 0, 0, 0);
}

static long domctl(const void *op)
{
    return HYPERCALL(__HYPERVISOR_domctl, op, 0, 0, 0, 0);
}

static void test_platform_op(void)
{
    static struct xen_platform_op op;

    op.interface_version = XENPF_INTERFACE_VERSION;
    op.cmd = XENPF_settime64;
    check_rc(platform_op(&op), -XEN_EPERM);
    op.cmd = XENPF_get_cpuinfo;
    check_rc(platform_op(&op), -XEN_EPERM);
    op.cmd = ~0u;
    check_rc(platform_op(&op), -XEN_EPERM);
    op.interface_version = XENPF_INTERFACE_VERSION - 1;
    check_rc(platform_op(&op), -XEN_EACCES);
    check_rc(platform_op(BAD_UNMAPPED), -XEN_EFAULT);
    check_rc(platform_op(BAD_XEN), -XEN_EFAULT);
    check_rc(platform_op(BAD_NONCANONICAL), -XEN_EFAULT);
}

static void test_sysctl(void)
{
    static struct xen_sysctl op;

    op.interface_version = XEN_SYSCTL_INTERFACE_VERSION;
    op.cmd = XEN_SYSCTL_physinfo;
    check_rc(sysctl(&op), -XEN_EPERM);
    op.cmd = XEN_SYSCTL_readconsole;
    check_rc(sysctl(&op), -XEN_EPERM);
    op.cmd = ~0u;
    check_rc(sysctl(&op), -XEN_EPERM);
    /* Lock profiling too, unless lock-profile-guest (see lockprof/). */
    op.cmd = XEN_SYSCTL_lockprof_op;
    op.u.lockprof_op.cmd = XEN_SYSCTL_LOCKPROF_reset;
    check_rc(sysctl(&op), -XEN_EPERM);
    op.u.lockprof_op.cmd = XEN_SYSCTL_LOCKPROF_query;
    check_rc(sysctl(&op), -XEN_EPERM);
    op.interface_version = 0;
    check_rc(sysctl(&op), -XEN_EACCES);
    check_rc(sysctl(BAD_UNMAPPED), -XEN_EFAULT);
    check_rc(sysctl(BAD_XEN), -XEN_EFAULT);
}

static long domctl_for(uint32_t cmd, domid_t domid, uint32_t version)
{
    static struct xen_domctl op;

    memset(&op, 0, sizeof(op));
    op.cmd = cmd;
    op.domain = domid;
    op.interface_version = version;
    return domctl(&op);
}

static void test_domctl(void)
{
    const uint32_t v = XEN_DOMCTL_INTERFACE_VERSION;

    /* Our own domain and dom0 exist: refused by XSM. */
    check_rc(domctl_for(XEN_DOMCTL_getdomaininfo, 1, v), -XEN_EPERM);
    check_rc(domctl_for(XEN_DOMCTL_getdomaininfo, 0, v), -XEN_EPERM);
    check_rc(domctl_for(XEN_DOMCTL_pausedomain, 1, v), -XEN_EPERM);
    check_rc(domctl_for(XEN_DOMCTL_memory_mapping, 1, v), -XEN_EPERM);
    check_rc(domctl_for(~0u, 0, v), -XEN_EPERM);
    /* No such domain: DOMID_SELF names none for domctl. */
    check_rc(domctl_for(XEN_DOMCTL_getdomaininfo, DOMID_SELF, v),
             -XEN_ESRCH);
    check_rc(domctl_for(XEN_DOMCTL_destroydomain, 5, v), -XEN_ESRCH);
    check_rc(domctl_for(XEN_DOMCTL_setvcpuaffinity, DOMID_IO, v),
             -XEN_ESRCH);
    /* Commands that need no domain (only createdomain) reach XSM. */
    check_rc(domctl_for(XEN_DOMCTL_createdomain, 5, v), -XEN_EPERM);
    check_rc(domctl_for(XEN_DOMCTL_gdbsx_guestmemio, 5, v), -XEN_ESRCH);
    check_rc(domctl_for(XEN_DOMCTL_gdbsx_guestmemio, 1, v), -XEN_EPERM);
    check_rc(domctl_for(XEN_DOMCTL_assign_device, DOMID_IO, v), -XEN_EPERM);
    check_rc(domctl_for(XEN_DOMCTL_assign_device, DOMID_INVALID, v),
             -XEN_ESRCH);
    check_rc(domctl_for(XEN_DOMCTL_test_assign_device, DOMID_INVALID, v),
             -XEN_EPERM);
    check_rc(domctl_for(XEN_DOMCTL_test_assign_device, 5, v), -XEN_ESRCH);
    /* The version is checked before the domain. */
    check_rc(domctl_for(XEN_DOMCTL_getdomaininfo, 5, v + 1), -XEN_EACCES);
    check_rc(domctl(BAD_UNMAPPED), -XEN_EFAULT);
    check_rc(domctl(BAD_XEN), -XEN_EFAULT);
}

static void test_xenpmu_op(void)
{
    static struct xen_pmu_params p = { .version.maj = XENPMU_VER_MAJ };

    check_rc(HYPERCALL(__HYPERVISOR_xenpmu_op, XENPMU_init, &p, 0, 0, 0),
             -XEN_EOPNOTSUPP);
    check_rc(HYPERCALL(__HYPERVISOR_xenpmu_op, XENPMU_mode_get, &p, 0, 0, 0),
             -XEN_EOPNOTSUPP);
    check_rc(HYPERCALL(__HYPERVISOR_xenpmu_op, ~0ul, BAD_UNMAPPED, 0, 0, 0),
             -XEN_EOPNOTSUPP);
}

void test_main(void)
{
    test_platform_op();
    test_sysctl();
    test_domctl();
    test_xenpmu_op();
    test_success();
}
