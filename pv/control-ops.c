/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The toolstack's and dom0's hypercalls, refused as Xen 4.17 refuses them
 * to an unprivileged PV domU under its default (dummy) XSM policy:
 * platform_op, sysctl and domctl read the whole argument (-EFAULT),
 * check its interface version (-EACCES), domctl looks the domain up
 * (-ESRCH), then XSM says -EPERM; xenpmu_op is -EOPNOTSUPP while the
 * vPMU is off, Xen's default.  Linux calls xenpmu_op at boot on every
 * CPU ("VPMU disabled by hypervisor.").  The one exception is
 * XEN_SYSCTL_lockprof_op with lock-profile-guest (pv/lockprof.c).
 */
/*
 * domctl.h and sysctl.h want __XEN_TOOLS__, with which xen-compat.h sets
 * the interface version itself (the latest, 0x00040e00: ours too).
 */
#define __XEN_TOOLS__ 1
#undef __XEN_INTERFACE_VERSION__
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/errno.h>
#include <xen/platform.h>
#include <xen/domctl.h>
#include <xen/sysctl.h>
#include "shim/spinlock.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/lockprof.h"

/* Our domain's id (pv/event/private.h), and dom0's, as a domU sees it. */
#define SHIM_DOMID          1
#define DOM0_DOMID          0

/* Xen's xsm_default_action(XSM_PRIV, ...) for a domain that isn't dom0. */
#define XSM_REFUSAL         (-XEN_EPERM)

/*
 * Each argument is read whole (a header and a 128-byte union), as Xen's
 * copy_from_guest(op, u, 1) does, onto the stack: a fault anywhere in it
 * is -EFAULT.
 */
long do_platform_op(unsigned long u_op)
{
    struct xen_platform_op buf, *op = &buf;

    if ( copy_from_guest(op, u_op, sizeof(*op)) )
        return -XEN_EFAULT;
    if ( op->interface_version != XENPF_INTERFACE_VERSION )
        return -XEN_EACCES;
    return XSM_REFUSAL;                 /* xsm_platform_op(XSM_PRIV) */
}

/*
 * Past the XSM check, as Xen's do_sysctl(): one sysctl at a time, and the
 * whole argument written back on success.  Lock profiling is Xen's
 * CONFIG_DEBUG_LOCK_PROFILE; without it the command falls through to
 * arch_do_sysctl(), which knows it not: -ENOSYS.
 */
static long sysctl_lockprof(struct xen_sysctl *op, unsigned long u_op)
{
    static DEFINE_SPINLOCK(sysctl_lock, LOCK_RANK_SYSCTL);
    long rc;

    if ( !opt_lock_profile )
        return -XEN_ENOSYS;
    spin_lock(&sysctl_lock);
    rc = pv_sysctl_lockprof(&op->u.lockprof_op);
    spin_unlock(&sysctl_lock);
    if ( !rc && copy_to_guest(u_op, op, sizeof(*op)) )
        rc = -XEN_EFAULT;
    return rc;
}

long do_sysctl(unsigned long u_op)
{
    struct xen_sysctl buf, *op = &buf;

    if ( copy_from_guest(op, u_op, sizeof(*op)) )
        return -XEN_EFAULT;
    if ( op->interface_version != XEN_SYSCTL_INTERFACE_VERSION )
        return -XEN_EACCES;
    if ( op->cmd == XEN_SYSCTL_lockprof_op && opt_lock_profile_guest )
        return sysctl_lockprof(op, u_op);
    return XSM_REFUSAL;                 /* xsm_sysctl(XSM_PRIV) */
}

/*
 * rcu_lock_domain_by_id(): only real domain ids name a domain (not
 * DOMID_SELF); the domains a domU can see are dom0 and itself.
 */
static bool domain_exists(domid_t domid)
{
    return domid == DOM0_DOMID || domid == SHIM_DOMID;
}

long do_domctl(unsigned long u_op)
{
    struct xen_domctl buf, *op = &buf;

    if ( copy_from_guest(op, u_op, sizeof(*op)) )
        return -XEN_EFAULT;
    if ( op->interface_version != XEN_DOMCTL_INTERFACE_VERSION )
        return -XEN_EACCES;

    /* Xen's lookup before the XSM check: which commands name no domain. */
    switch ( op->cmd )
    {
    case XEN_DOMCTL_assign_device:
    case XEN_DOMCTL_deassign_device:
        if ( op->domain == DOMID_IO )
            break;                      /* dom_io */
        if ( op->domain == DOMID_INVALID )
            return -XEN_ESRCH;
        /* fall through */
    case XEN_DOMCTL_test_assign_device:
    case XEN_DOMCTL_vm_event_op:
        if ( op->domain == DOMID_INVALID )
            break;                      /* no domain */
        if ( !domain_exists(op->domain) )
            return -XEN_ESRCH;
        break;
    case XEN_DOMCTL_createdomain:
        break;
    default:
        if ( !domain_exists(op->domain) )
            return -XEN_ESRCH;
        break;
    }
    /*
     * xsm_domctl(XSM_OTHER): XSM_DM_PRIV for the device-model commands,
     * XSM_XS_PRIV for getdomaininfo, XSM_PRIV for the rest; a domU is
     * neither a device model, xenstore nor the control domain.
     */
    return XSM_REFUSAL;
}

long do_xenpmu_op(unsigned long op, unsigned long arg)
{
    return -XEN_EOPNOTSUPP;             /* !opt_vpmu_enabled */
}
