/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Event channels and time for test kernels: the hypercalls, an event
 * callback that acknowledges what is pending (2-level or FIFO) and records
 * each port it saw, and a reader of the PV clock.
 */
#ifndef GUEST_EVENT_H
#define GUEST_EVENT_H

#include "guest.h"
#include <xen/event_channel.h>
#include <xen/vcpu.h>
#include <xen/callback.h>

static inline long evtchn_op(int cmd, void *arg)
{
    return HYPERCALL(__HYPERVISOR_event_channel_op, cmd, arg, 0, 0, 0);
}

static inline long vcpu_op(int cmd, unsigned int vcpu, void *arg)
{
    return HYPERCALL(__HYPERVISOR_vcpu_op, cmd, vcpu, arg, 0, 0);
}

static inline long set_timer_op(uint64_t timeout)
{
    return HYPERCALL_N(__HYPERVISOR_set_timer_op, HC_U64(timeout));
}

/*
 * Map shared_info, register the library's event callback, and point
 * event_vcpu_info at vCPU 0's vcpu_info (in shared_info).  Events stay
 * masked (evtchn_upcall_mask) until events_enable().
 */
extern vcpu_info_t *event_vcpu_info;
long event_init(void);

static inline void events_enable(void)
{
    event_vcpu_info->evtchn_upcall_mask = 0;
    asm volatile ( "" ::: "memory" );
}

static inline void events_disable(void)
{
    event_vcpu_info->evtchn_upcall_mask = 1;
    asm volatile ( "" ::: "memory" );
}

/* What the callback saw: upcalls taken, and ports in the order acked. */
#define EVENT_LOG_MAX 256
extern volatile unsigned int upcall_count;
extern volatile unsigned int event_log_nr;
extern volatile uint32_t event_log[EVENT_LOG_MAX];
/* evtchn_upcall_mask as the callback found it on its last entry (1). */
extern volatile uint8_t upcall_mask_seen;
void event_log_reset(void);
/* How many times @port was acknowledged since the last reset. */
unsigned int event_seen(uint32_t port);

/*
 * NMIs (VCPUOP_send_nmi): nmi_init() registers the library's NMI
 * callback, which counts in nmi_count.
 */
extern volatile unsigned int nmi_count;
extern volatile uint8_t nmi_mask_seen;     /* upcall mask in the handler */
long nmi_init(void);

/* Used by the callback: the FIFO ABI once fifo_init() succeeded. */
extern evtchn_fifo_control_block_t *fifo_control;
extern event_word_t *fifo_array;        /* the first event array page */
long fifo_init(void);

/*
 * 2-level helpers on shared_info's bitmaps (or the FIFO event words):
 * EVTCHN_WORD_BITS ports a word, 64 or, for a 32-bit guest, 32.
 */
#define EVTCHN_WORD_BITS    (sizeof(xen_ulong_t) * 8)
void evtchn_mask(uint32_t port);
void evtchn_clear_pending(uint32_t port);
bool evtchn_test_pending(uint32_t port);
bool evtchn_test_masked(uint32_t port);
long evtchn_unmask(uint32_t port);

/* Convenience: a new port of each kind, or a negative error. */
long evtchn_alloc_unbound_self(void);
long evtchn_bind_virq_on(uint32_t virq, uint32_t vcpu);
long evtchn_bind_ipi_on(uint32_t vcpu);
long evtchn_send(uint32_t port);
long evtchn_close(uint32_t port);
long evtchn_status_of(uint32_t port, evtchn_status_t *st);

/* System time (ns) from the vcpu_time_info @t, version protocol. */
uint64_t pvclock_read(const volatile struct vcpu_time_info *t);
static inline uint64_t system_time(void)
{
    return pvclock_read(&event_vcpu_info->time);
}

/* SCHEDOP_poll on @nr ports until absolute system time @timeout (0: none). */
long sched_poll(evtchn_port_t *ports, unsigned int nr, uint64_t timeout);

#endif /* GUEST_EVENT_H */
