/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest's time (pv/vcpu/time.c): vcpu_time_info kept current with the
 * version protocol, the wallclock in shared_info, and the guest's timers
 * (set_timer_op, VCPUOP singleshot and periodic) raising VIRQ_TIMER.
 */
#ifndef PV_TIME_H
#define PV_TIME_H

#include "pv/domain.h"

/* Rewrite @v's vcpu_time_info (and its registered copy, if any). */
void pv_update_vcpu_system_time(struct vcpu *v);

/* Builder: the TSC scale, the wallclock from the RTC, vCPU 0's timers. */
void pv_time_init(struct domain *d);
/* @v starts running on its CPU (vCPU 0: from pv_time_init()). */
void pv_time_vcpu_start(struct vcpu *v);

/* The VCPUOPs' timers (pv/vcpu/vcpu.c checks the vCPU and copies arguments). */
long pv_set_singleshot_timer(struct vcpu *v, uint64_t timeout, bool future);
/* A guest's expiry for set_timer(): 2^63 ns on are past (Xen's signed). */
uint64_t pv_guest_expiry(uint64_t t);
void pv_stop_singleshot_timer(struct vcpu *v);
long pv_set_periodic_timer(struct vcpu *v, uint64_t period_ns);
void pv_stop_periodic_timer(struct vcpu *v);
/* VCPUOP_register_vcpu_time_memory_area: a second copy at guest @va. */
void pv_register_time_area(struct vcpu *v, unsigned long va);
/*
 * The guest entered its kernel: a second copy that could not be written
 * from user mode is written now (Xen's pending_system_time).
 */
void pv_update_secondary_time(struct vcpu *v);

#endif /* PV_TIME_H */
