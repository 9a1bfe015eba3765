/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * XEN_SYSCTL_lockprof_op for test kernels (the shim answers it with
 * lock-profile and lock-profile-guest on its command line).
 */
#ifndef GUEST_LOCKPROF_H
#define GUEST_LOCKPROF_H

/* sysctl.h's types need it before xen.h is first included. */
#if defined(__XEN_PUBLIC_XEN_H__) && !defined(__XEN_TOOLS__)
#error "lockprof.h: include it first, or define __XEN_TOOLS__ first"
#endif
#ifndef __XEN_TOOLS__
#define __XEN_TOOLS__ 1
#endif
#include "guest.h"
#include <xen/sysctl.h>

/*
 * Sub-op @cmd with at most @max_elem elements into @buf; @op (zeroed
 * first, nr_elem 0xdead) holds what came back.
 */
long lockprof_op(struct xen_sysctl *op, uint32_t cmd, uint32_t max_elem,
                 void *buf);

/*
 * Whether the profile lists a lock @name of @type (LOCKPROF_TYPE_*):
 * 1, its element in *@out if @out; 0 if not; a query's error.
 */
long lockprof_find(const char *name, int32_t type,
                   struct xen_sysctl_lockprof_data *out);

#endif /* GUEST_LOCKPROF_H */
