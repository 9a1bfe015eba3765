/* SPDX-License-Identifier: GPL-2.0-only */
/* XEN_SYSCTL_lockprof_op for test kernels (lockprof.h). */
#include "lockprof.h"

long lockprof_op(struct xen_sysctl *op, uint32_t cmd, uint32_t max_elem,
                 void *buf)
{
    memset(op, 0, sizeof(*op));
    op->cmd = XEN_SYSCTL_lockprof_op;
    op->interface_version = XEN_SYSCTL_INTERFACE_VERSION;
    op->u.lockprof_op.cmd = cmd;
    op->u.lockprof_op.max_elem = max_elem;
    op->u.lockprof_op.nr_elem = 0xdead;
    set_xen_guest_handle(op->u.lockprof_op.data, buf);
    return HYPERCALL(__HYPERVISOR_sysctl, op, 0, 0, 0, 0);
}

long lockprof_find(const char *name, int32_t type,
                   struct xen_sysctl_lockprof_data *out)
{
    static struct xen_sysctl_lockprof_data all[256];
    static struct xen_sysctl op;
    unsigned int i;
    long rc = lockprof_op(&op, XEN_SYSCTL_LOCKPROF_query, ARRAY_SIZE(all),
                          all);

    if ( rc )
        return rc;
    for ( i = 0; i < op.u.lockprof_op.nr_elem && i < ARRAY_SIZE(all); i++ )
        if ( !strcmp(all[i].name, name) && all[i].type == type )
        {
            if ( out )
                *out = all[i];
            return 1;
        }
    return 0;
}
