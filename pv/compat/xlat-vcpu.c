/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Translations for compat guests of the vCPU, callback, scheduler and
 * version structures that differ.  See pv/compat/xlat.h.
 */
#include "pv/compat/xlat.h"
#include <xen/errno.h>

void xlat_vcpu_runstate_info_to_compat(void *c,
                                       const struct vcpu_runstate_info *n)
{
    unsigned int i;

    BUILD_BUG_ON(COMPAT_NR(vcpu_runstate_info, time) != ARRAY_SIZE(n->time));
    memset(c, 0, COMPAT_SIZEOF(vcpu_runstate_info));
    compat_put(c, vcpu_runstate_info, state, n->state);
    compat_put(c, vcpu_runstate_info, state_entry_time, n->state_entry_time);
    for ( i = 0; i < ARRAY_SIZE(n->time); i++ )
        compat_put_idx(c, vcpu_runstate_info, time, i, n->time[i]);
}

void xlat_vcpu_register_runstate_memory_area_from_compat(
    struct vcpu_register_runstate_memory_area *n, const void *c)
{
    memset(n, 0, sizeof(*n));
    set_xen_guest_handle(n->addr.h,
        compat_get_handle(c, vcpu_register_runstate_memory_area, addr__h));
}

void xlat_vcpu_register_time_memory_area_from_compat(
    struct vcpu_register_time_memory_area *n, const void *c)
{
    memset(n, 0, sizeof(*n));
    set_xen_guest_handle(n->addr.h,
        compat_get_handle(c, vcpu_register_time_memory_area, addr__h));
}

void xlat_vcpu_set_singleshot_timer_from_compat(
    struct vcpu_set_singleshot_timer *n, const void *c)
{
    memset(n, 0, sizeof(*n));
    n->timeout_abs_ns = compat_get(c, vcpu_set_singleshot_timer,
                                   timeout_abs_ns);
    n->flags = compat_get(c, vcpu_set_singleshot_timer, flags);
}

void xlat_callback_register_from_compat(struct callback_register *n,
                                        unsigned int *cs, const void *c)
{
    memset(n, 0, sizeof(*n));
    n->type = compat_get(c, callback_register, type);
    n->flags = compat_get(c, callback_register, flags);
    n->address = compat_get(c, callback_register, address__eip);
    *cs = compat_get(c, callback_register, address__cs);
}

void xlat_sched_poll_from_compat(struct sched_poll *n, const void *c)
{
    memset(n, 0, sizeof(*n));
    set_xen_guest_handle(n->ports, compat_get_handle(c, sched_poll, ports));
    n->nr_ports = compat_get(c, sched_poll, nr_ports);
    n->timeout = compat_get(c, sched_poll, timeout);
}

int xlat_platform_parameters_to_compat(
    void *c, const struct xen_platform_parameters *n)
{
    memset(c, 0, COMPAT_SIZEOF(xen_platform_parameters));
    return compat_put_fit(c, xen_platform_parameters, virt_start,
                          n->virt_start) ? 0 : -XEN_ERANGE;
}
