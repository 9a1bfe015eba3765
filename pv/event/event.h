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

/* Builder: port 0 reserved, xenstore and console ports bound to us. */
void pv_evtchn_init(struct domain *d);

/* Raise @virq (VIRQ_TIMER, ...) on @v, if the guest bound it there. */
/*
 * For mm-audit: did this CPU's last EVTCHNOP take or drop frame
 * references (init_control, expand_array)?
 */
bool pv_evtchn_changed_refs(void);
void send_guest_vcpu_virq(struct vcpu *v, unsigned int virq);
/* A global VIRQ (VIRQ_CONSOLE, ...): on the vCPU it is bound to. */
void send_guest_global_virq(struct domain *d, unsigned int virq);

/*
 * backend-batch (pv/event/event-channel.c): the block and network
 * backends' softirqs the guest's vCPU on a CPU notified, to run there,
 * that wait for it to give the CPU back: at its next HYPERVISOR_iret or
 * sched_op (or a millisecond at most).  Called there; one test when
 * nothing waits.
 */
extern unsigned long evtchn_batched[NR_CPUS];
void evtchn_release_batched_slow(void);
static inline void evtchn_release_batched(void)
{
    if ( unlikely(ACCESS_ONCE(evtchn_batched[smp_processor_id()])) )
        evtchn_release_batched_slow();
}

/* The 'e' debug key (pv/event/event-dump.c). */
void pv_dump_evtchn_info(unsigned char key);

/* For SCHEDOP_poll: is @port pending (1, 0), or no port (-EINVAL)? */
int pv_evtchn_poll_port(struct domain *d, unsigned int port);

/* Would @v take an upcall now (pending and not masked)? */
static inline bool vcpu_event_pending(const struct vcpu *v)
{
    return ACCESS_ONCE(v->vcpu_info->evtchn_upcall_pending) &&
           !ACCESS_ONCE(v->vcpu_info->evtchn_upcall_mask);
}

/*
 * On the return path, interrupts off: a pending NMI (VCPUOP_send_nmi) goes
 * to the guest's NMI callback first; else, if @v has an unmasked upcall
 * pending, bounce the guest to its event callback with events masked.
 * Inline: on the hot path it is one test of the rare work and one of the
 * upcall.
 */
void pv_deliver_events_slow(struct vcpu *v, struct cpu_regs *regs);
static always_inline void pv_deliver_events(struct cpu_regs *regs)
{
    struct vcpu *v = current_vcpu();

    if ( unlikely(v->nmi_pending) ||
         unlikely(vcpu_event_pending(v)) )
        pv_deliver_events_slow(v, regs);
}

/*
 * HYPERVISOR_iret: the NMI callback (if that is what returns) may take the
 * next NMI (Xen's async_exception_cleanup()).
 */
void pv_async_exception_cleanup(struct vcpu *v);

/*
 * pv/vcpu/sched.c: wake @v from SCHEDOP_block or SCHEDOP_poll (an event, a
 * polled port, the poll timeout); no effect on a running vCPU.
 */
void vcpu_unblock(struct vcpu *v);
void pv_sched_init(struct vcpu *v);

/*
 * pv/vcpu/vcpu.c: the runstate (running, blocked) changes, and the guest's
 * registered copy of it is rewritten (XEN_RUNSTATE_UPDATE around the
 * write if it asked); a copy that faults in user mode is retried when the
 * guest next enters its kernel (pv_toggle_guest_mode()).
 */
void vcpu_runstate_change(struct vcpu *v, int new_state);
void pv_update_runstate_area(struct vcpu *v);

#endif /* PV_EVENT_H */
