/* SPDX-License-Identifier: GPL-2.0-only */
/* VCPUOP_*: placeholder until the events-and-time work lands. */
#include "pv/hypercall.h"
#include <xen/errno.h>

long do_vcpu_op(unsigned long cmd, unsigned long vcpuid, unsigned long arg)
{
    return -XEN_ENOSYS;
}
