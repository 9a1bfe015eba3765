/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Event channels for test kernels (event.h): the event callback for both
 * ABIs, as Linux's drivers/xen/events/events_{2l,fifo}.c consume them,
 * and thin wrappers of the EVTCHNOPs.
 */
#include "event.h"
#include "mm.h"

vcpu_info_t *event_vcpu_info;
volatile unsigned int upcall_count;
volatile unsigned int event_log_nr;
volatile uint32_t event_log[EVENT_LOG_MAX];
volatile uint8_t upcall_mask_seen;
evtchn_fifo_control_block_t *fifo_control;
event_word_t *fifo_array;

static uint8_t fifo_control_page[PAGE_SIZE] __page_aligned;
static uint8_t fifo_array_page[PAGE_SIZE] __page_aligned;

void event_upcall_entry(void);
void nmi_entry(void);
volatile unsigned int nmi_count;
volatile uint8_t nmi_mask_seen;

static void log_port(uint32_t port)
{
    if ( event_log_nr < EVENT_LOG_MAX )
        event_log[event_log_nr] = port;
    event_log_nr++;
}

void event_log_reset(void)
{
    event_log_nr = 0;
    upcall_count = 0;
}

unsigned int event_seen(uint32_t port)
{
    unsigned int i, n = 0;

    for ( i = 0; i < event_log_nr && i < EVENT_LOG_MAX; i++ )
        n += event_log[i] == port;
    return n;
}

/* 2-level: selector words, then pending & ~mask in each. */
static void upcall_2l(void)
{
    xen_ulong_t sel = __atomic_exchange_n(&event_vcpu_info->evtchn_pending_sel,
                                          0, __ATOMIC_SEQ_CST);

    while ( sel )
    {
        unsigned int w = __builtin_ctzl(sel);
        xen_ulong_t bits;

        sel &= sel - 1;
        bits = shared_info->evtchn_pending[w] & ~shared_info->evtchn_mask[w];
        while ( bits )
        {
            unsigned int b = __builtin_ctzl(bits);

            bits &= bits - 1;
            __atomic_fetch_and(&shared_info->evtchn_pending[w],
                               ~((xen_ulong_t)1 << b), __ATOMIC_SEQ_CST);
            log_port(w * EVTCHN_WORD_BITS + b);
        }
    }
}

/* FIFO: each ready queue, highest priority first, head to tail. */
static void upcall_fifo(void)
{
    uint32_t ready = __atomic_exchange_n(&fifo_control->ready, 0,
                                         __ATOMIC_SEQ_CST);

    while ( ready )
    {
        unsigned int q = __builtin_ctz(ready);
        uint32_t port = fifo_control->head[q];

        ready &= ready - 1;
        while ( port )
        {
            event_word_t *w = &fifo_array[port], old;
            uint32_t next;

            if ( port >= PAGE_SIZE / sizeof(event_word_t) )
                break;
            old = __atomic_fetch_and(w, ~((1u << EVTCHN_FIFO_LINKED) |
                                          EVTCHN_FIFO_LINK_MASK),
                                     __ATOMIC_SEQ_CST);
            next = old & EVTCHN_FIFO_LINK_MASK;
            fifo_control->head[q] = next;
            if ( (old & (1u << EVTCHN_FIFO_PENDING)) &&
                 !(old & (1u << EVTCHN_FIFO_MASKED)) )
            {
                __atomic_fetch_and(w, ~(1u << EVTCHN_FIFO_PENDING),
                                   __ATOMIC_SEQ_CST);
                log_port(port);
            }
            port = next;
        }
    }
}

void do_event_upcall(void)
{
    upcall_count++;
    upcall_mask_seen = event_vcpu_info->evtchn_upcall_mask;
    event_vcpu_info->evtchn_upcall_pending = 0;
    asm volatile ( "" ::: "memory" );
    if ( fifo_control )
        upcall_fifo();
    else
        upcall_2l();
}

long event_init(void)
{
    struct callback_register cb = {
        .type = CALLBACKTYPE_event,
        .address = XEN_CALLBACK(event_upcall_entry),
    };
    long rc;

    if ( !shared_info && (rc = map_shared_info()) )
        return rc;
    event_vcpu_info = &shared_info->vcpu_info[0];
    return HYPERCALL(__HYPERVISOR_callback_op, CALLBACKOP_register, &cb,
                     0, 0, 0);
}

void do_guest_nmi(void)
{
    nmi_count++;
    if ( event_vcpu_info )
        nmi_mask_seen = event_vcpu_info->evtchn_upcall_mask;
}

long nmi_init(void)
{
    struct callback_register cb = {
        .type = CALLBACKTYPE_nmi,
        .address = XEN_CALLBACK(nmi_entry),
    };

    return HYPERCALL(__HYPERVISOR_callback_op, CALLBACKOP_register, &cb,
                     0, 0, 0);
}

long fifo_init(void)
{
    struct evtchn_init_control init = {
        .control_gfn = virt_to_mfn(fifo_control_page),
        .vcpu = 0,
    };
    struct evtchn_expand_array expand = {
        .array_gfn = virt_to_mfn(fifo_array_page),
    };
    long rc;

    memset(fifo_control_page, 0, PAGE_SIZE);
    memset(fifo_array_page, 0, PAGE_SIZE);
    if ( (rc = evtchn_op(EVTCHNOP_init_control, &init)) )
        return rc;
    fifo_control = (void *)fifo_control_page;
    fifo_array = (void *)fifo_array_page;
    return evtchn_op(EVTCHNOP_expand_array, &expand);
}

void evtchn_mask(uint32_t port)
{
    if ( fifo_control )
        __atomic_fetch_or(&fifo_array[port], 1u << EVTCHN_FIFO_MASKED,
                          __ATOMIC_SEQ_CST);
    else
        __atomic_fetch_or(&shared_info->evtchn_mask[port / EVTCHN_WORD_BITS],
                          (xen_ulong_t)1 << (port % EVTCHN_WORD_BITS),
                          __ATOMIC_SEQ_CST);
}

void evtchn_clear_pending(uint32_t port)
{
    if ( fifo_control )
        __atomic_fetch_and(&fifo_array[port], ~(1u << EVTCHN_FIFO_PENDING),
                           __ATOMIC_SEQ_CST);
    else
        __atomic_fetch_and(&shared_info->evtchn_pending[port /
                                                        EVTCHN_WORD_BITS],
                           ~((xen_ulong_t)1 << (port % EVTCHN_WORD_BITS)),
                           __ATOMIC_SEQ_CST);
}

bool evtchn_test_pending(uint32_t port)
{
    if ( fifo_control )
        return (fifo_array[port] >> EVTCHN_FIFO_PENDING) & 1;
    return (shared_info->evtchn_pending[port / EVTCHN_WORD_BITS] >>
            (port % EVTCHN_WORD_BITS)) & 1;
}

bool evtchn_test_masked(uint32_t port)
{
    if ( fifo_control )
        return (fifo_array[port] >> EVTCHN_FIFO_MASKED) & 1;
    return (shared_info->evtchn_mask[port / EVTCHN_WORD_BITS] >>
            (port % EVTCHN_WORD_BITS)) & 1;
}

long evtchn_unmask(uint32_t port)
{
    evtchn_unmask_t u = { .port = port };

    return evtchn_op(EVTCHNOP_unmask, &u);
}

long evtchn_alloc_unbound_self(void)
{
    evtchn_alloc_unbound_t a = { .dom = DOMID_SELF, .remote_dom = DOMID_SELF };
    long rc = evtchn_op(EVTCHNOP_alloc_unbound, &a);

    return rc ? rc : (long)a.port;
}

long evtchn_bind_virq_on(uint32_t virq, uint32_t vcpu)
{
    evtchn_bind_virq_t b = { .virq = virq, .vcpu = vcpu };
    long rc = evtchn_op(EVTCHNOP_bind_virq, &b);

    return rc ? rc : (long)b.port;
}

long evtchn_bind_ipi_on(uint32_t vcpu)
{
    evtchn_bind_ipi_t b = { .vcpu = vcpu };
    long rc = evtchn_op(EVTCHNOP_bind_ipi, &b);

    return rc ? rc : (long)b.port;
}

long evtchn_send(uint32_t port)
{
    evtchn_send_t s = { .port = port };

    return evtchn_op(EVTCHNOP_send, &s);
}

long evtchn_close(uint32_t port)
{
    evtchn_close_t c = { .port = port };

    return evtchn_op(EVTCHNOP_close, &c);
}

long evtchn_status_of(uint32_t port, evtchn_status_t *st)
{
    memset(st, 0, sizeof(*st));
    st->dom = DOMID_SELF;
    st->port = port;
    return evtchn_op(EVTCHNOP_status, st);
}

static inline uint64_t rdtsc(void)
{
    uint32_t lo, hi;

    asm volatile ( "rdtsc" : "=a" (lo), "=d" (hi) );
    return ((uint64_t)hi << 32) | lo;
}

/*
 * (@delta * @mul) >> 32 for a 32-bit fraction @mul, without 128-bit
 * arithmetic (which a 32-bit guest lacks): the two 32-bit halves of
 * @delta, each product at most 64 bits.
 */
static uint64_t mul_frac(uint64_t delta, uint32_t mul)
{
    uint64_t lo = (uint64_t)(uint32_t)delta * mul;
    uint64_t hi = (delta >> 32) * mul;

    return hi + (lo >> 32);
}

uint64_t pvclock_read(const volatile struct vcpu_time_info *t)
{
    uint32_t version;
    uint64_t delta, time;

    do {
        version = t->version;
        asm volatile ( "" ::: "memory" );
        delta = rdtsc() - t->tsc_timestamp;
        if ( t->tsc_shift < 0 )
            delta >>= -t->tsc_shift;
        else
            delta <<= t->tsc_shift;
        time = t->system_time + mul_frac(delta, t->tsc_to_system_mul);
        asm volatile ( "" ::: "memory" );
    } while ( (version & 1) || version != t->version );
    return time;
}

long sched_poll(evtchn_port_t *ports, unsigned int nr, uint64_t timeout)
{
    struct sched_poll p = { .nr_ports = nr, .timeout = timeout };

    set_xen_guest_handle(p.ports, ports);
    return hypercall_sched_op(SCHEDOP_poll, &p);
}
