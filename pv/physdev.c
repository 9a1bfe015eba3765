/* SPDX-License-Identifier: GPL-2.0-only */
/* PHYSDEVOP_*: placeholder until the user-mode work lands. */
#include "pv/hypercall.h"
#include <xen/errno.h>

long do_physdev_op(unsigned long cmd, unsigned long arg)
{
    return -XEN_ENOSYS;
}
