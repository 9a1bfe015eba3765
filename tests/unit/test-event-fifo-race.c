/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pv/event/event-fifo.c's linking under real concurrency: a port moving
 * to another vCPU's queue, raised there, while another CPU raises a port
 * on the queue the first one left.  The moved port was that queue's
 * tail (the guest had consumed it, so it was no longer LINKED); the
 * mover sets LINKED again before it can clear the old queue's tail, so
 * unless the old queue's lock is held from before LINKED is set until
 * the tail is cleared (Xen's evtchn_fifo_set_pending()), the other
 * CPU's port links behind the moved one, onto the new vCPU's queue: the
 * old vCPU is never told of it (smp-stress once saw vCPU 0 blocked on
 * its own timer for good).  Each round, after both raises, the "guest"
 * consumes both vCPUs' queues as Linux's events_fifo.c does and checks
 * that each port was found on its own vCPU's queue, that vCPU told.
 * Probabilistic by nature: the raiser waits a random few cycles to
 * sweep the mover's window; without the old queue's lock the case
 * fails within the first few thousand of its rounds (5 runs of 5).
 */
#include "tests/unit/unit.h"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <pthread.h>
#include <sched.h>
#include "../../shim/spinlock.c"
#include "../../pv/event/event-fifo.c"

#define ROUNDS          100000
#define PORT_MOVED      5
#define PORT_OTHER      9

struct domain dom;
uint64_t frame_table_nr;
static event_word_t words[WORDS_PER_PAGE] __attribute__((aligned(4096)));
static evtchn_fifo_control_block_t ctl[2];
#define chans dom.evtchn
#define NR_PORTS 16
static int told[2];                     /* upcalls raised, per vCPU */
static int warnings;

uint64_t now_ns(void)
{
    return 0;
}

void printk(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    __atomic_fetch_add(&warnings, 1, __ATOMIC_SEQ_CST);
}

int get_page_and_type(unsigned long mfn, enum page_type type)
{
    return -1;
}

void put_page_and_type(unsigned long mfn)
{
}

void vcpu_mark_events_pending(struct vcpu *v)
{
    __atomic_store_n(&told[v->id], 1, __ATOMIC_SEQ_CST);
}

void evtchn_check_pollers(struct domain *d, unsigned int port)
{
}

static void setup(void)
{
    unsigned int i, q;

    memset(&dom, 0, sizeof(dom));
    memset(words, 0, sizeof(words));
    memset(ctl, 0, sizeof(ctl));
    dom.max_vcpus = 2;
    dom.valid_evtchns = NR_PORTS;
    dom.evtchn_fifo = true;
    dom.fifo_array[0] = words;
    dom.fifo_num_evtchns = WORDS_PER_PAGE;
    for ( i = 0; i < 2; i++ )
    {
        dom.vcpu[i].id = i;
        dom.vcpu[i].domain = &dom;
        for ( q = 0; q < EVTCHN_FIFO_MAX_QUEUES; q++ )
            spin_lock_init(&dom.vcpu[i].fifo_queue[q].lock,
                           LOCK_RANK_EVTCHN_FIFO_QUEUE);
        map_control_block(&dom.vcpu[i], 0, &ctl[i], 0);
    }
    for ( i = 0; i < NR_PORTS; i++ )
    {
        spin_lock_init(&chans[i].lock, LOCK_RANK_EVTCHN);
        evtchn_fifo_init(&dom, &chans[i]);
    }
}

/* A port raised on the vCPU it is bound to, under its lock (as a send). */
static void raise(unsigned int port)
{
    struct evtchn *chn = &chans[port];

    spin_lock(&chn->lock);
    evtchn_fifo_set_pending(&dom.vcpu[chn->notify_vcpu_id], chn);
    spin_unlock(&chn->lock);
}

/*
 * The guest's upcall on vCPU @id, as Linux's consume_one_event(): each
 * ready queue from its head, each port unlinked and its PENDING taken;
 * each port found is recorded with the vCPU that found it.
 */
static uint32_t heads[2][EVTCHN_FIFO_MAX_QUEUES];
static int found_on[NR_PORTS];

static void consume(unsigned int id)
{
    uint32_t ready = __atomic_exchange_n(&ctl[id].ready, 0, __ATOMIC_SEQ_CST);

    __atomic_store_n(&told[id], 0, __ATOMIC_SEQ_CST);
    while ( ready )
    {
        unsigned int q = __builtin_ctz(ready);
        uint32_t port = heads[id][q];
        event_word_t *w, old, new;

        if ( !port )
            port = __atomic_load_n(&ctl[id].head[q], __ATOMIC_ACQUIRE);
        w = &words[port];
        old = __atomic_load_n(w, __ATOMIC_SEQ_CST);
        do
            new = old & ~((1u << EVTCHN_FIFO_LINKED) | EVTCHN_FIFO_LINK_MASK);
        while ( !__atomic_compare_exchange_n(w, &old, new, false,
                                             __ATOMIC_SEQ_CST,
                                             __ATOMIC_SEQ_CST) );
        heads[id][q] = old & EVTCHN_FIFO_LINK_MASK;
        if ( !heads[id][q] )
            ready &= ~(1u << q);
        if ( __atomic_fetch_and(w, ~(1u << EVTCHN_FIFO_PENDING),
                                __ATOMIC_SEQ_CST) &
             (1u << EVTCHN_FIFO_PENDING) )
            found_on[port] = id;
    }
}

/* Both sides start each round together; the other one a little later. */
static unsigned int go_round, done_round;

/*
 * Wait for @what to reach @r: spinning at first, so both sides run at
 * once when each has a CPU, then giving the CPU away on a loaded host.
 */
static void wait_for(const unsigned int *what, unsigned int r)
{
    unsigned int spins = 0;

    while ( __atomic_load_n(what, __ATOMIC_ACQUIRE) != r )
        if ( ++spins < 20000 )
            __builtin_ia32_pause();
        else
            sched_yield();
}

static void *other_side(void *arg)
{
    unsigned int r, spins, seed = 1;

    for ( r = 1; r <= ROUNDS; r++ )
    {
        wait_for(&go_round, r);
        seed = seed * 1103515245 + 12345;
        for ( spins = (seed >> 16) % 64; spins; spins-- )
            __builtin_ia32_pause();
        raise(PORT_OTHER);
        __atomic_store_n(&done_round, r, __ATOMIC_RELEASE);
    }
    return NULL;
}

/*
 * Each round: the moved port raised and consumed on vCPU 0 (so it is
 * vCPU 0's queue's unlinked tail), moved to vCPU 1; then it is raised
 * there while the other port is raised on vCPU 0.  vCPU 0 must be told
 * and find the other port; vCPU 1 the moved one.
 */
static void move_while_raising(void)
{
    pthread_t t;
    unsigned int r, bad = 0;
    int was_told[2] = { 0, 0 };

    setup();
    chans[PORT_MOVED].notify_vcpu_id = 0;
    chans[PORT_OTHER].notify_vcpu_id = 0;
    CHECK(!pthread_create(&t, NULL, other_side, NULL));
    for ( r = 1; r <= ROUNDS && !bad; r++ )
    {
        chans[PORT_MOVED].notify_vcpu_id = 0;
        raise(PORT_MOVED);
        consume(0);
        found_on[PORT_MOVED] = found_on[PORT_OTHER] = -1;

        spin_lock(&chans[PORT_MOVED].lock);     /* EVTCHNOP_bind_vcpu */
        chans[PORT_MOVED].notify_vcpu_id = 1;
        spin_unlock(&chans[PORT_MOVED].lock);
        __atomic_store_n(&go_round, r, __ATOMIC_RELEASE);
        raise(PORT_MOVED);
        wait_for(&done_round, r);

        was_told[0] = __atomic_load_n(&told[0], __ATOMIC_SEQ_CST);
        was_told[1] = __atomic_load_n(&told[1], __ATOMIC_SEQ_CST);
        if ( !was_told[0] || !was_told[1] )
            bad = r;
        consume(0);
        consume(1);
        if ( found_on[PORT_OTHER] != 0 || found_on[PORT_MOVED] != 1 )
            bad = r;
    }
    if ( bad )
        printf("FAIL: %s: round %u: vCPU 0 %s told, vCPU 1 %s; the other "
               "port found on vCPU %d, the moved one on vCPU %d\n",
               unit_case_name, bad, was_told[0] ? "was" : "wasn't",
               was_told[1] ? "was" : "wasn't", found_on[PORT_OTHER],
               found_on[PORT_MOVED]);
    unit_case_failed |= !!bad;
    /* After a failure, the other side runs out its rounds alone. */
    for ( r = bad + 1; bad && r <= ROUNDS; r++ )
    {
        __atomic_store_n(&go_round, r, __ATOMIC_RELEASE);
        wait_for(&done_round, r);
    }
    pthread_join(t, NULL);
    CHECK_EQ(warnings, 0);
}

int main(void)
{
    RUN(move_while_raising);
    UNIT_EXIT();
}
