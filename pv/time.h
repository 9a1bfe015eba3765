/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest's time (pv/time.c): vcpu_time_info kept current with the
 * version protocol, the wallclock in shared_info, and the guest's timers
 * (set_timer_op, VCPUOP singleshot and periodic) raising VIRQ_TIMER.
 */
#ifndef PV_TIME_H
#define PV_TIME_H

#include "pv/domain.h"

/* Rewrite @v's vcpu_time_info (and its registered copy, if any). */
void pv_update_vcpu_system_time(struct vcpu *v);

#endif /* PV_TIME_H */
