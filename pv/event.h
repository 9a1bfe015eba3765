/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Event channels toward the rest of the shim (pv/event/): raising a VIRQ,
 * asking whether a vCPU has an event to take, and delivering the upcall
 * on the return path.  The ABI itself (EVTCHNOP_*, 2-level and FIFO) lives
 * behind this header.
 */
#ifndef PV_EVENT_H
#define PV_EVENT_H

#include "pv/domain.h"
#include "arch/x86/regs.h"

/* Raise @virq (VIRQ_TIMER, ...) on @v, if the guest bound it there. */
void send_guest_vcpu_virq(struct vcpu *v, unsigned int virq);
/* A global VIRQ (VIRQ_CONSOLE, ...): on the vCPU it is bound to. */
void send_guest_global_virq(struct domain *d, unsigned int virq);

/* Would @v take an upcall now (pending and not masked)? */
bool vcpu_event_pending(const struct vcpu *v);

/*
 * On the return path, interrupts off: if @v has an unmasked upcall
 * pending, bounce the guest to its event callback with events masked.
 */
void pv_deliver_events(struct cpu_regs *regs);

#endif /* PV_EVENT_H */
