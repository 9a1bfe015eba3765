/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The domain's life cycle (pv/domain.c): its vCPUs' identities before
 * anything else, each CPU's set-up for running the guest, and the two
 * ways it ends, an orderly shutdown or a crash with a reason.
 */
#ifndef PV_LIFECYCLE_H
#define PV_LIFECYCLE_H

#include "shim/lib.h"

/* The command line's max-vcpus, bounded by the CPUs up. */
unsigned int pv_max_vcpus(void);
/* Before anything else of the domain: its vCPUs' identities. */
void pv_domain_init(unsigned int max_vcpus);
/* This CPU's entries for the guest (syscall MSRs and the like). */
void pv_cpu_init(void);

/*
 * The guest asked to stop (SCHEDOP_shutdown, the last vCPU down), with a
 * SHUTDOWN_* @reason; or it broke a rule the shim can't answer with an
 * error: the reason logged, its registers dumped, the VM ended.
 */
noreturn void domain_shutdown(unsigned int reason);
/* The domain's SCHEDOP_watchdog timers (pv/vcpu/sched.c), once. */
struct domain;
void pv_watchdog_init(struct domain *d);
noreturn void domain_crash(const char *fmt, ...) __printf(1, 2);

#endif /* PV_LIFECYCLE_H */
