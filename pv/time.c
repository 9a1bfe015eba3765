/* SPDX-License-Identifier: GPL-2.0-only */
/* The guest's time: placeholder until the events-and-time work lands. */
#include "pv/time.h"
#include "pv/hypercall.h"
#include <xen/errno.h>

void pv_update_vcpu_system_time(struct vcpu *v)
{
}

long do_set_timer_op(uint64_t timeout)
{
    return -XEN_ENOSYS;
}
