/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Several vCPUs in one test kernel (smp.h): their stacks and start, a
 * barrier, and the event and NMI callbacks every vCPU takes on its own
 * vcpu_info or FIFO control block, as Linux's events_2l.c and
 * events_fifo.c consume events on any CPU.
 */
#include "smp.h"
#include "mm.h"
#include "vcpu.h"

#define SMP_STACK_BYTES 16384
#define SMP_BARRIER_SPINS 20000         /* about a millisecond under TCG */

/* vCPU n > 0 runs on stack n - 1; vCPU 0 on the boot stack. */
static uint8_t smp_stacks[SMP_MAX_VCPUS - 1][SMP_STACK_BYTES]
    __attribute__((aligned(16)));
static void (*smp_fn[SMP_MAX_VCPUS])(unsigned int id);
static struct vcpu_guest_context smp_ctx;

volatile uint32_t smp_port_events[SMP_EVENT_PORTS];
volatile unsigned int smp_upcalls[SMP_MAX_VCPUS];
volatile unsigned int smp_nmis[SMP_MAX_VCPUS];
volatile unsigned int smp_bad_ports;

/* FIFO: each vCPU's control block, and its own copy of the queue heads. */
static evtchn_fifo_control_block_t *smp_fifo_ctl[SMP_MAX_VCPUS];
static uint32_t smp_fifo_head[SMP_MAX_VCPUS][EVTCHN_FIFO_MAX_QUEUES];
static uint8_t smp_fifo_pages[SMP_MAX_VCPUS - 1][PAGE_SIZE] __page_aligned;

void smp_upcall_entry(void);
void smp_nmi_entry(void);

unsigned int smp_id(void)
{
    unsigned long here = (unsigned long)&here;
    unsigned long off = here - (unsigned long)smp_stacks;

    return off < sizeof(smp_stacks) ? off / SMP_STACK_BYTES + 1 : 0;
}

unsigned int smp_nr_vcpus(unsigned int max)
{
    unsigned int n = 1;

    while ( n < max && n < SMP_MAX_VCPUS &&
            vcpu_op(VCPUOP_is_up, n, NULL) != -XEN_ENOENT )
        n++;
    return n;
}

static void __attribute__((used, noreturn)) smp_vcpu_main(unsigned long id)
{
    smp_fn[id](id);
    vcpu_op(VCPUOP_down, id, NULL);
    for ( ;; )
        hypercall_sched_op(SCHEDOP_yield, NULL);
}

long smp_start_vcpu(unsigned int id, void (*fn)(unsigned int id))
{
    long rc;

    if ( id < 1 || id >= SMP_MAX_VCPUS )
        return -XEN_EINVAL;
    smp_fn[id] = fn;
    vcpu_ctx_init(&smp_ctx, (unsigned long)smp_vcpu_main, id,
                  smp_stacks[id - 1] + SMP_STACK_BYTES, true);
    shared_info->vcpu_info[id].evtchn_upcall_mask = 1;
    rc = vcpu_op(VCPUOP_initialise, id, &smp_ctx);
    return rc ? rc : vcpu_op(VCPUOP_up, id, NULL);
}

uint64_t smp_time(void)
{
    return pvclock_read(&shared_info->vcpu_info[smp_id()].time);
}

void smp_sleep(uint64_t ns)
{
    sched_poll(NULL, 0, smp_time() + ns);
}

void smp_wait_count(const volatile unsigned int *p, unsigned int want,
                    uint64_t timeout_ns, const char *what)
{
    uint64_t end = smp_time() + timeout_ns;

    while ( LOAD(*p) < want )
    {
        if ( smp_time() > end )
        {
            test_fail("%s: never (count %u)", what, want);
            test_error("giving up");
        }
        cpu_relax();
    }
}

bool smp_barrier_wait(struct smp_barrier *b, unsigned int n,
                      uint64_t timeout_ns, unsigned long *late)
{
    unsigned int gen = LOAD(b->gen), i;
    uint64_t end = smp_time() + timeout_ns;

    STORE(b->at[smp_id()], gen + 1);
    if ( ADD(b->count, 1) == n )
    {
        STORE(b->count, 0);
        STORE(b->gen, gen + 1);
        return true;
    }
    /* A moment's spin first: the vCPUs leave together, to race. */
    for ( i = 0; i < SMP_BARRIER_SPINS && LOAD(b->gen) == gen; i++ )
        asm volatile ( "pause" );
    while ( LOAD(b->gen) == gen )
    {
        if ( smp_time() > end )
        {
            *late = 0;
            for ( i = 0; i < n; i++ )
                if ( LOAD(b->at[i]) != gen + 1 )
                    *late |= 1UL << i;
            return false;
        }
        smp_sleep(200000);
    }
    return true;
}

/* ------------------------------------------------------------- events */

static void count_port(uint32_t port)
{
    if ( port < SMP_EVENT_PORTS )
        __atomic_fetch_add(&smp_port_events[port], 1, __ATOMIC_SEQ_CST);
    else
        __atomic_fetch_add(&smp_bad_ports, 1, __ATOMIC_SEQ_CST);
}

/*
 * 2-level: the words this vCPU's selector names, each port pending and
 * unmasked in them taken off with one atomic AND (another vCPU may take
 * it first: then it isn't counted here).
 */
static void upcall_2l(vcpu_info_t *vi)
{
    xen_ulong_t sel = __atomic_exchange_n(&vi->evtchn_pending_sel, 0,
                                          __ATOMIC_SEQ_CST);

    while ( sel )
    {
        unsigned int w = __builtin_ctzl(sel);
        xen_ulong_t bits, bit, old;

        sel &= sel - 1;
        bits = shared_info->evtchn_pending[w] & ~shared_info->evtchn_mask[w];
        while ( bits )
        {
            bit = bits & -bits;
            bits &= bits - 1;
            old = __atomic_fetch_and(&shared_info->evtchn_pending[w], ~bit,
                                     __ATOMIC_SEQ_CST);
            if ( old & bit )
                count_port(w * EVTCHN_WORD_BITS + __builtin_ctzl(bit));
        }
    }
}

/* Unlink an event word: clear LINKED and LINK together, return LINK. */
static uint32_t clear_linked(event_word_t *w)
{
    event_word_t old = __atomic_load_n(w, __ATOMIC_SEQ_CST), new;

    do
        new = old & ~((1u << EVTCHN_FIFO_LINKED) | EVTCHN_FIFO_LINK_MASK);
    while ( !__atomic_compare_exchange_n(w, &old, new, false,
                                         __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) );
    return old & EVTCHN_FIFO_LINK_MASK;
}

/*
 * FIFO, as Linux's consume_one_event(): the head of each ready queue is
 * this vCPU's own copy, taken from the control block only after the
 * tail was reached (the hypervisor writes the block's head only when it
 * links into an empty queue, so writing it here could lose an event).
 */
static void upcall_fifo(unsigned int id)
{
    evtchn_fifo_control_block_t *ctl = smp_fifo_ctl[id];
    uint32_t ready = __atomic_exchange_n(&ctl->ready, 0, __ATOMIC_SEQ_CST);
    uint32_t *heads = smp_fifo_head[id];

    while ( ready )
    {
        unsigned int q = __builtin_ctz(ready);
        uint32_t port = heads[q], next;
        event_word_t *w, old;

        if ( !port )
            port = __atomic_load_n(&ctl->head[q], __ATOMIC_ACQUIRE);
        if ( !port || port >= SMP_EVENT_PORTS )
        {
            if ( port )
                count_port(port);       /* counted as bad */
            heads[q] = 0;
            ready &= ~(1u << q);
            continue;
        }
        w = &fifo_array[port];
        next = clear_linked(w);
        if ( !next )
            ready &= ~(1u << q);
        if ( !(*w & (1u << EVTCHN_FIFO_MASKED)) )
        {
            old = __atomic_fetch_and(w, ~(1u << EVTCHN_FIFO_PENDING),
                                     __ATOMIC_SEQ_CST);
            if ( old & (1u << EVTCHN_FIFO_PENDING) )
                count_port(port);
        }
        heads[q] = next;
    }
}

void do_smp_upcall(void)
{
    unsigned int id = smp_id();
    vcpu_info_t *vi = &shared_info->vcpu_info[id];

    smp_upcalls[id]++;
    vi->evtchn_upcall_pending = 0;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if ( smp_fifo_ctl[id] )
        upcall_fifo(id);
    else
        upcall_2l(vi);
}

void do_smp_nmi(void)
{
    smp_nmis[smp_id()]++;
}

long smp_event_init(void)
{
    struct callback_register ev = {
        .type = CALLBACKTYPE_event,
        .address = XEN_CALLBACK(smp_upcall_entry),
    };
    struct callback_register nmi = {
        .type = CALLBACKTYPE_nmi,
        .address = XEN_CALLBACK(smp_nmi_entry),
    };
    long rc;

    if ( !shared_info )
        return -XEN_EINVAL;
    rc = HYPERCALL(__HYPERVISOR_callback_op, CALLBACKOP_register, &ev,
                   0, 0, 0);
    return rc ? rc : HYPERCALL(__HYPERVISOR_callback_op,
                               CALLBACKOP_register, &nmi, 0, 0, 0);
}

void smp_events_enable(void)
{
    vcpu_info_t *vi = &shared_info->vcpu_info[smp_id()];

    __atomic_store_n(&vi->evtchn_upcall_mask, 0, __ATOMIC_SEQ_CST);
    if ( __atomic_load_n(&vi->evtchn_upcall_pending, __ATOMIC_SEQ_CST) )
        hypercall_xen_version(XENVER_version, NULL);    /* take it now */
}

void smp_events_disable(void)
{
    __atomic_store_n(&shared_info->vcpu_info[smp_id()].evtchn_upcall_mask,
                     1, __ATOMIC_SEQ_CST);
}

long smp_fifo_init(unsigned int nr)
{
    struct evtchn_init_control init = { 0 };
    unsigned int v;
    long rc;

    if ( nr > SMP_MAX_VCPUS )
        return -XEN_EINVAL;
    memset(smp_fifo_head, 0, sizeof(smp_fifo_head));
    if ( (rc = fifo_init()) )
        return rc;
    for ( v = 1; v < nr; v++ )
    {
        memset(smp_fifo_pages[v - 1], 0, PAGE_SIZE);
        init.control_gfn = virt_to_mfn(smp_fifo_pages[v - 1]);
        init.offset = 0;
        init.vcpu = v;
        if ( (rc = evtchn_op(EVTCHNOP_init_control, &init)) )
            return rc;
        smp_fifo_ctl[v] = (void *)smp_fifo_pages[v - 1];
    }
    smp_fifo_ctl[0] = fifo_control;
    return 0;
}
