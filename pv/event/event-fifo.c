/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The FIFO ABI (Xen's event_fifo.c): one event word per port in event
 * array pages the guest adds (EVTCHNOP_expand_array), and per vCPU a
 * control block (EVTCHNOP_init_control) with a ready bit and a queue head
 * for each of 16 priorities.  A pending, unmasked port is LINKED onto the
 * tail of its queue; the guest unlinks it.  Every guest frame used here is
 * the guest's own, held with a writable type reference (so it can't be a
 * page table or descriptor page meanwhile) and reached by the directmap.
 */
#include "pv/event/private.h"
#include <xen/errno.h>
#include "arch/x86/layout.h"
#include "pv/mm/mm.h"
#include "shim/console.h"

#define WORDS_PER_PAGE  (PAGE_SIZE / sizeof(event_word_t))

/*
 * A send (no domain lock) may look while EVTCHNOP_expand_array adds a
 * page: the page is in fifo_array[] before fifo_num_evtchns covers it.
 */
static event_word_t *word_from_port(const struct domain *d, unsigned int port)
{
    if ( port >= __atomic_load_n(&d->fifo_num_evtchns, __ATOMIC_ACQUIRE) )
        return NULL;
    return d->fifo_array[port / WORDS_PER_PAGE] + port % WORDS_PER_PAGE;
}

static bool word_test(const event_word_t *w, unsigned int bit)
{
    return (ACCESS_ONCE(*w) >> bit) & 1;
}

static bool word_test_and_set(event_word_t *w, unsigned int bit)
{
    return (__atomic_fetch_or(w, 1u << bit, __ATOMIC_SEQ_CST) >> bit) & 1;
}

static void word_clear(event_word_t *w, unsigned int bit)
{
    __atomic_fetch_and(w, ~(1u << bit), __ATOMIC_SEQ_CST);
}

void evtchn_fifo_init(struct domain *d, struct evtchn *chn)
{
    event_word_t *w = word_from_port(d, evtchn_port(d, chn));

    chn->priority = EVTCHN_FIFO_PRIORITY_DEFAULT;
    if ( w && word_test(w, EVTCHN_FIFO_LINKED) )
        printk(XENLOG_DEBUG "d1: port %u already on a queue\n",
               evtchn_port(d, chn));
}

/*
 * Set the LINK field of a tail word iff it is still LINKED (the guest
 * may only set or clear MASKED, clear PENDING, or unlink it meanwhile).
 * BUSY stops the guest unmasking while we try; 1 linked, 0 not linked.
 */
static bool set_link(event_word_t *word, uint32_t link)
{
    event_word_t w = ACCESS_ONCE(*word), new;
    unsigned int try;

    for ( try = 0; try < 5; try++ )
    {
        if ( !(w & (1u << EVTCHN_FIFO_LINKED)) )
        {
            word_clear(word, EVTCHN_FIFO_BUSY);
            return false;
        }
        new = (w & ~((1u << EVTCHN_FIFO_BUSY) | EVTCHN_FIFO_LINK_MASK)) |
              link;
        if ( __atomic_compare_exchange_n(word, &w, new, false,
                                         __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) )
            return true;
        if ( !try )
            w = __atomic_or_fetch(word, 1u << EVTCHN_FIFO_BUSY,
                                  __ATOMIC_SEQ_CST);
    }
    printk(XENLOG_DEBUG "d1: port %u not linked\n", link);
    word_clear(word, EVTCHN_FIFO_BUSY);
    return true;
}

/*
 * Under the port's lock (which keeps its priority and last queue), both
 * its queues' locks, lower address first, held from before PENDING is
 * set until the port is linked, as Xen's evtchn_fifo_set_pending().  A
 * port moving queues (bind_vcpu, set_priority) may still be its old
 * queue's tail: until that tail is cleared, a port raised on the old
 * queue would link behind it, onto the new queue, and the old queue's
 * vCPU would never be told (a vCPU blocked on its own timer slept on).
 */
static void fifo_lock_queues(struct evtchn_fifo_queue *q,
                             struct evtchn_fifo_queue *old_q)
{
    if ( q == old_q )
        spin_lock(&q->lock);
    else if ( q < old_q )
    {
        spin_lock(&q->lock);
        spin_lock(&old_q->lock);
    }
    else
    {
        spin_lock(&old_q->lock);
        spin_lock(&q->lock);
    }
}

static void fifo_unlock_queues(struct evtchn_fifo_queue *q,
                               struct evtchn_fifo_queue *old_q)
{
    if ( q != old_q )
        spin_unlock(&old_q->lock);
    spin_unlock(&q->lock);
}

void __hot_text evtchn_fifo_set_pending(struct vcpu *v, struct evtchn *chn)
{
    struct domain *d = v->domain;
    unsigned int port = evtchn_port(d, chn);
    event_word_t *word = word_from_port(d, port), *tail;
    struct evtchn_fifo_queue *q, *old_q;
    bool was_pending, linked = true;

    if ( !word )
    {
        chn->pending = true;            /* raised again by expand_array */
        return;
    }
    q = &v->fifo_queue[chn->priority];
    old_q = &d->vcpu[chn->last_vcpu_id].fifo_queue[chn->last_priority];
    fifo_lock_queues(q, old_q);
    was_pending = word_test_and_set(word, EVTCHN_FIFO_PENDING);

    /* No control block: the guest may not unmask yet, the event waits. */
    if ( !__atomic_load_n(&v->fifo_control, __ATOMIC_ACQUIRE) )
        goto unlock;

    if ( !word_test(word, EVTCHN_FIFO_MASKED) &&
         !word_test_and_set(word, EVTCHN_FIFO_LINKED) )
    {
        /* Its old queue, if it was that one's tail, is empty now. */
        if ( old_q->tail == port )
            old_q->tail = 0;
        chn->last_vcpu_id = v->id;
        chn->last_priority = chn->priority;

        /*
         * Link behind the tail iff the tail is still linked (else the
         * queue is empty).  If the port was this queue's tail, the tail
         * was cleared above: it is the head now.
         */
        linked = false;
        if ( q->tail && (tail = word_from_port(d, q->tail)) )
            linked = set_link(tail, port);
        if ( !linked )
            __atomic_store_n(q->head, port, __ATOMIC_SEQ_CST);
        q->tail = port;
    }
 unlock:
    fifo_unlock_queues(q, old_q);

    if ( !linked &&
         !guest_test_and_set_bit(q - v->fifo_queue, &v->fifo_control->ready) )
        vcpu_mark_events_pending(v);
    if ( !was_pending )
        evtchn_check_pollers(d, port);
}

void evtchn_fifo_clear_pending(struct domain *d, struct evtchn *chn)
{
    event_word_t *w = word_from_port(d, evtchn_port(d, chn));

    /* The guest unlinks non-pending events itself. */
    if ( w )
        word_clear(w, EVTCHN_FIFO_PENDING);
}

void evtchn_fifo_unmask(struct domain *d, struct evtchn *chn)
{
    event_word_t *w = word_from_port(d, evtchn_port(d, chn));

    if ( !w )
        return;
    word_clear(w, EVTCHN_FIFO_MASKED);
    if ( word_test(w, EVTCHN_FIFO_PENDING) )
        evtchn_fifo_set_pending(&d->vcpu[chn->notify_vcpu_id], chn);
}

bool evtchn_fifo_is_pending(const struct domain *d, unsigned int port)
{
    const event_word_t *w = word_from_port(d, port);

    return w && word_test(w, EVTCHN_FIFO_PENDING);
}

bool evtchn_fifo_is_masked(const struct domain *d, unsigned int port)
{
    const event_word_t *w = word_from_port(d, port);

    return !w || word_test(w, EVTCHN_FIFO_MASKED);
}

bool evtchn_fifo_is_busy(const struct domain *d, unsigned int port)
{
    const event_word_t *w = word_from_port(d, port);

    return w && word_test(w, EVTCHN_FIFO_LINKED);
}

/* Xen's evtchn_fifo_print_state(): BUSY and the LINK, for the 'e' key. */
void evtchn_fifo_print_state(const struct domain *d, unsigned int port,
                             char *buf, size_t len)
{
    const event_word_t *w = word_from_port(d, port);
    event_word_t v;

    if ( !w )
    {
        snprintf(buf, len, "?     ");
        return;
    }
    v = ACCESS_ONCE(*w);
    if ( (v >> EVTCHN_FIFO_LINKED) & 1 )
        snprintf(buf, len, "%c %-4u", (v >> EVTCHN_FIFO_BUSY) & 1 ? 'B' : ' ',
                 v & EVTCHN_FIFO_LINK_MASK);
    else
        snprintf(buf, len, "%c -   ", (v >> EVTCHN_FIFO_BUSY) & 1 ? 'B' : ' ');
}

int evtchn_fifo_set_priority(struct domain *d, struct evtchn *chn,
                             unsigned int priority)
{
    if ( priority > EVTCHN_FIFO_PRIORITY_MIN )
        return -XEN_EINVAL;
    chn->priority = priority;           /* for future events */
    return 0;
}

/* Xen's map_guest_page(): the guest's frame, as a writable page. */
static void *map_guest_frame(uint64_t gfn, int *rc)
{
    if ( gfn >= frame_table_nr || get_page_and_type(gfn, PGT_WRITABLE) )
    {
        *rc = -XEN_EINVAL;
        return NULL;
    }
    *rc = 0;
    return __va(gfn << PAGE_SHIFT);
}

/* The queues first: a send (no domain lock) looks at fifo_control. */
static void map_control_block(struct vcpu *v, uint64_t gfn, void *page,
                              uint32_t offset)
{
    evtchn_fifo_control_block_t *cb = page + offset;
    unsigned int i;

    v->fifo_control_mfn = gfn;
    for ( i = 0; i < EVTCHN_FIFO_MAX_QUEUES; i++ )
    {
        spin_lock(&v->fifo_queue[i].lock);
        v->fifo_queue[i].head = &cb->head[i];
        v->fifo_queue[i].tail = 0;
        spin_unlock(&v->fifo_queue[i].lock);
    }
    __atomic_store_n(&v->fifo_control, cb, __ATOMIC_RELEASE);
}

/* Ports bound before the switch keep their pending state, at priority 7. */
static void setup_ports(struct domain *d)
{
    unsigned int port;

    for ( port = 1; port_is_valid(d, port); port++ )
    {
        struct evtchn *chn = evtchn_from_port(d, port);

        spin_lock(&chn->lock);
        if ( guest_test_bit(port, d->shared_info->evtchn_pending) )
            chn->pending = true;
        chn->priority = EVTCHN_FIFO_PRIORITY_DEFAULT;
        spin_unlock(&chn->lock);
    }
}

long evtchn_fifo_init_control(struct evtchn_init_control *init)
{
    struct domain *d = &dom;
    struct vcpu *v;
    void *page;
    int rc;

    ASSERT(spin_is_locked_by_me(&d->event_lock));
    init->link_bits = EVTCHN_FIFO_LINK_BITS;
    if ( init->vcpu >= d->max_vcpus )
        return -XEN_ENOENT;
    v = &d->vcpu[array_index_nospec(init->vcpu, d->max_vcpus)];
    /* Within one page, 8-byte aligned. */
    if ( init->offset > PAGE_SIZE - sizeof(evtchn_fifo_control_block_t) ||
         (init->offset & 7) )
        return -XEN_EINVAL;
    if ( v->fifo_control )
        return -XEN_EINVAL;
    if ( !(page = map_guest_frame(init->control_gfn, &rc)) )
        return rc;
    map_control_block(v, init->control_gfn, page, init->offset);
    if ( !d->evtchn_fifo )
    {
        d->evtchn_fifo = true;
        setup_ports(d);
    }
    return 0;
}

long evtchn_fifo_expand_array(const struct evtchn_expand_array *expand)
{
    struct domain *d = &dom;
    unsigned int slot = d->fifo_num_evtchns / WORDS_PER_PAGE, port;
    void *page;
    int rc;

    ASSERT(spin_is_locked_by_me(&d->event_lock));
    if ( !d->evtchn_fifo )
        return -XEN_EOPNOTSUPP;
    if ( slot >= EVTCHN_FIFO_MAX_ARRAY_PAGES )
        return -XEN_ENOSPC;
    if ( !(page = map_guest_frame(expand->array_gfn, &rc)) )
        return rc;
    d->fifo_array[slot] = page;
    d->fifo_array_mfn[slot] = expand->array_gfn;
    port = d->fifo_num_evtchns;
    __atomic_store_n(&d->fifo_num_evtchns, port + WORDS_PER_PAGE,
                     __ATOMIC_RELEASE);

    /* Raise what was sent while this page was missing. */
    for ( ; port < d->fifo_num_evtchns && port_is_valid(d, port); port++ )
    {
        struct evtchn *chn = evtchn_from_port(d, port);

        spin_lock(&chn->lock);
        if ( chn->pending )
        {
            chn->pending = false;
            evtchn_fifo_set_pending(&d->vcpu[chn->notify_vcpu_id], chn);
        }
        spin_unlock(&chn->lock);
    }
    return 0;
}

/*
 * EVTCHNOP_reset (under event_lock): drop the frames, back to the 2-level
 * ABI.  Every port was closed first, each under its lock, so no send
 * links a port through these frames any more; but an unmask, a poll or a
 * set_pending already inside a port's lock may still be reading or
 * writing them (an unmask needs no open port).  So the ABI says 2-level
 * first, which every such path reads under its port's lock, then each
 * port's lock is taken once, waiting out those in flight, and only then
 * do the frames' references go: nothing writes through a frame the guest
 * may make a page table next (XSA-343's race, Xen's
 * evtchn_fifo_destroy() after evtchn_reset()'s closes).
 */
void evtchn_fifo_destroy(struct domain *d)
{
    unsigned int i, pages = d->fifo_num_evtchns / WORDS_PER_PAGE, port;

    ASSERT(spin_is_locked_by_me(&d->event_lock));
    __atomic_store_n(&d->evtchn_fifo, false, __ATOMIC_SEQ_CST);
    for ( port = 0; port_is_valid(d, port); port++ )
    {
        struct evtchn *chn = evtchn_from_port(d, port);

        spin_lock(&chn->lock);
        spin_unlock(&chn->lock);
    }
    /*
     * Only now: a set_pending in flight looks up its queue's tail word
     * after its own (evtchn_fifo_set_pending()), and must find it.
     */
    __atomic_store_n(&d->fifo_num_evtchns, 0, __ATOMIC_SEQ_CST);

    for ( i = 0; i < d->max_vcpus; i++ )
    {
        struct vcpu *v = &d->vcpu[i];
        unsigned int q;

        if ( v->fifo_control )
            put_page_and_type(v->fifo_control_mfn);
        v->fifo_control = NULL;
        for ( q = 0; q < EVTCHN_FIFO_MAX_QUEUES; q++ )
        {
            v->fifo_queue[q].head = NULL;
            v->fifo_queue[q].tail = 0;
        }
    }
    for ( i = 0; i < pages; i++ )
    {
        put_page_and_type(d->fifo_array_mfn[i]);
        d->fifo_array[i] = NULL;
    }
}
