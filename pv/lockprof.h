/* SPDX-License-Identifier: GPL-2.0-only */
/* XEN_SYSCTL_lockprof_op for the guest (pv/lockprof.c). */
#ifndef PV_LOCKPROF_H
#define PV_LOCKPROF_H

#include "shim/lib.h"

struct domain;
struct xen_sysctl_lockprof_op;

/*
 * The domain's locks, listed for the lock profile ("Domain 1 <name>");
 * with lock-order-selftest, taken out of order (a debug build panics).
 */
void pv_domain_locks_init(struct domain *d);

/* lock-profile-guest: the guest may read and reset the lock profile. */
extern bool opt_lock_profile_guest;

/* Xen's spinlock_profile_control(): reset, or query into the guest. */
long pv_sysctl_lockprof(struct xen_sysctl_lockprof_op *pc);

#endif /* PV_LOCKPROF_H */
