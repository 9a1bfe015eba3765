/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside pv/event/: the port table (event-channel.c), the two ABIs that
 * keep a port's pending and masked bits in guest memory (event-2l.c,
 * event-fifo.c) and the step from "a port is pending" to "the vCPU takes
 * an upcall" (upcall.c), as Xen's event_channel.h splits them.
 */
#ifndef PV_EVENT_PRIVATE_H
#define PV_EVENT_PRIVATE_H

#include "shim/lib.h"
#include <xen/event_channel.h>
#include "pv/domain.h"
#include "pv/event/event.h"
#include "pv/pv.h"
#include "arch/x86/nospec.h"

/* The guest is domain 1; its backends (console, xenstore) are "dom0". */
#define PV_DOMID            1
#define BACKEND_DOMID       0

/* The most ports each ABI addresses (Xen's max_evtchns()). */
static inline unsigned int max_evtchns(const struct domain *d)
{
    if ( d->evtchn_fifo )
        return EVTCHN_FIFO_NR_CHANNELS;
    return d->compat ? 32 * 32 : EVTCHN_2L_NR_CHANNELS;
}

/* In an allocated bucket (Xen's port_is_valid()). */
static inline bool port_is_valid(const struct domain *d, unsigned int port)
{
    return port < d->valid_evtchns;
}

/* A port the guest named, checked by port_is_valid(): clamped as well. */
static inline struct evtchn *evtchn_from_port(struct domain *d,
                                              unsigned int port)
{
    return &d->evtchn[array_index_nospec(port, d->valid_evtchns)];
}

static inline unsigned int evtchn_port(const struct domain *d,
                                       const struct evtchn *chn)
{
    return chn - d->evtchn;
}

/* Xen's virq_is_global(): VIRQ_TIMER, DEBUG, XENOPROF, XENPMU are per vCPU. */
static inline bool virq_is_global(unsigned int virq)
{
    switch ( virq )
    {
    case VIRQ_TIMER:
    case VIRQ_DEBUG:
    case VIRQ_XENOPROF:
    case VIRQ_XENPMU:
        return false;
    default:
        return true;                    /* x86: the arch ones too */
    }
}

/* Atomic bit operations on guest-shared words. */
static inline bool guest_test_bit(unsigned int nr, const volatile void *p)
{
    const volatile unsigned long *w = p;

    return (w[nr / 64] >> (nr % 64)) & 1;
}

static inline bool guest_test_and_set_bit(unsigned int nr, volatile void *p)
{
    volatile unsigned long *w = (volatile unsigned long *)p + nr / 64;

    return (__atomic_fetch_or(w, 1UL << (nr % 64), __ATOMIC_SEQ_CST) >>
            (nr % 64)) & 1;
}

static inline bool guest_test_and_clear_bit(unsigned int nr,
                                            volatile void *p)
{
    volatile unsigned long *w = (volatile unsigned long *)p + nr / 64;

    return (__atomic_fetch_and(w, ~(1UL << (nr % 64)), __ATOMIC_SEQ_CST) >>
            (nr % 64)) & 1;
}

/* event-2l.c */
void evtchn_2l_set_pending(struct vcpu *v, struct evtchn *chn);
void evtchn_2l_clear_pending(struct domain *d, struct evtchn *chn);
void evtchn_2l_unmask(struct domain *d, struct evtchn *chn);
bool evtchn_2l_is_pending(const struct domain *d, unsigned int port);
bool evtchn_2l_is_masked(const struct domain *d, unsigned int port);

/* event-fifo.c */
void evtchn_fifo_init(struct domain *d, struct evtchn *chn);
void evtchn_fifo_set_pending(struct vcpu *v, struct evtchn *chn);
void evtchn_fifo_clear_pending(struct domain *d, struct evtchn *chn);
void evtchn_fifo_unmask(struct domain *d, struct evtchn *chn);
bool evtchn_fifo_is_pending(const struct domain *d, unsigned int port);
bool evtchn_fifo_is_masked(const struct domain *d, unsigned int port);
bool evtchn_fifo_is_busy(const struct domain *d, unsigned int port);
void evtchn_fifo_print_state(const struct domain *d, unsigned int port,
                             char *buf, size_t len);
int evtchn_fifo_set_priority(struct domain *d, struct evtchn *chn,
                             unsigned int priority);
long evtchn_fifo_init_control(struct evtchn_init_control *init);
long evtchn_fifo_expand_array(const struct evtchn_expand_array *expand);
void evtchn_fifo_destroy(struct domain *d);

/* The port operations, by ABI: direct calls, no ops table. */
static inline void evtchn_port_init(struct domain *d, struct evtchn *chn)
{
    if ( d->evtchn_fifo )
        evtchn_fifo_init(d, chn);
}

/* A port going pending: under its own lock, whoever raises it. */
static inline void evtchn_port_set_pending(struct domain *d,
                                           unsigned int vcpu_id,
                                           struct evtchn *chn)
{
    struct vcpu *v = &d->vcpu[vcpu_id];

    ASSERT(spin_is_locked_by_me(&chn->lock));
    if ( d->evtchn_fifo )
        evtchn_fifo_set_pending(v, chn);
    else
        evtchn_2l_set_pending(v, chn);
}

static inline void evtchn_port_clear_pending(struct domain *d,
                                             struct evtchn *chn)
{
    if ( d->evtchn_fifo )
        evtchn_fifo_clear_pending(d, chn);
    else
        evtchn_2l_clear_pending(d, chn);
}

static inline void evtchn_port_unmask(struct domain *d, struct evtchn *chn)
{
    if ( d->evtchn_fifo )
        evtchn_fifo_unmask(d, chn);
    else
        evtchn_2l_unmask(d, chn);
}

static inline bool evtchn_port_is_pending(const struct domain *d,
                                          unsigned int port)
{
    return d->evtchn_fifo ? evtchn_fifo_is_pending(d, port)
                          : evtchn_2l_is_pending(d, port);
}

static inline bool evtchn_port_is_busy(const struct domain *d,
                                       unsigned int port)
{
    return d->evtchn_fifo && evtchn_fifo_is_busy(d, port);
}

/*
 * Two ports' locks, the lower address first, as Xen's
 * double_evtchn_lock(): a loopback interdomain pair binds, closes and
 * sends under both.
 */
static inline void double_evtchn_lock(struct evtchn *a, struct evtchn *b)
{
    if ( a > b )
    {
        struct evtchn *t = a;

        a = b;
        b = t;
    }
    spin_lock(&a->lock);
    if ( b != a )
        spin_lock(&b->lock);
}

static inline void double_evtchn_unlock(struct evtchn *a, struct evtchn *b)
{
    if ( b != a )
        spin_unlock(&b->lock);
    spin_unlock(&a->lock);
}

/* upcall.c: evtchn_upcall_pending, and waking a vCPU that waits for it. */
void vcpu_mark_events_pending(struct vcpu *v);
void evtchn_check_pollers(struct domain *d, unsigned int port);

/*
 * The shim's ends of interdomain channels ("domain 0"'s ports 1 to
 * NR_BACKEND_PORTS, entry port - 1): the guest port bound to it (0:
 * none), and the softirq a send from the guest raises, on CPU @cpu.
 */
#define NR_BACKEND_PORTS    PV_BACKEND_PORTS
struct backend_port {
    bool in_use;
    uint16_t guest_port;
    uint8_t softirq;
    uint8_t cpu;
};
extern struct backend_port backend_ports[NR_BACKEND_PORTS];
/*
 * Entry @i is one a backend bound (pv_evtchn_bind_backend(): the block
 * and network backends), not xenstore's or the console's fixed one.
 */
static inline bool backend_port_bound(int i)
{
    return i >= EVTCHN_CONSOLE_PORT;
}
/* The entry of backend port @port in use, or -1. */
int backend_index(unsigned int port);

/* event-channel.c */
int evtchn_close(struct domain *d, unsigned int port);
long evtchn_alloc_unbound(evtchn_alloc_unbound_t *alloc);
long evtchn_bind_interdomain(evtchn_bind_interdomain_t *bind);
long evtchn_bind_virq(evtchn_bind_virq_t *bind);
long evtchn_bind_ipi(evtchn_bind_ipi_t *bind);
long evtchn_send(struct domain *d, unsigned int port);

#endif /* PV_EVENT_PRIVATE_H */
