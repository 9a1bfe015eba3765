/* SPDX-License-Identifier: GPL-2.0-only */
/* HYPERVISOR_grant_table_op: placeholder until grant tables land. */
#include "pv/hypercall.h"
#include <xen/errno.h>

long do_grant_table_op(unsigned long cmd, unsigned long uop,
                       unsigned long count)
{
    return -XEN_ENOSYS;
}
