/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The FIFO ABI (Xen's event_fifo.c): the switch from 2-level keeps bound
 * ports and their pending state, events are LINKED onto per-priority
 * queues in send order and delivered highest priority first, a masked
 * event is linked when unmasked, and reset goes back to 2-level.
 */
#include "guest.h"
#include "event.h"
#include "mm.h"

const char test_title[] = "FIFO event channels: switch, queues, priorities";

#define W(p)    (fifo_array[p])

static void deliver(void)
{
    events_enable();
    hypercall_xen_version(XENVER_version, NULL);  /* the return delivers */
    events_disable();
}

static void check_log(const uint32_t *want, unsigned int n, const char *what)
{
    unsigned int i;

    if ( event_log_nr != n )
        return test_fail("%s: %u events, expected %u (first %u %u)", what,
                         event_log_nr, n, event_log[0], event_log[1]);
    for ( i = 0; i < n; i++ )
        if ( event_log[i] != want[i] )
            test_fail("%s: event %u is port %u, expected %u", what, i,
                      event_log[i], want[i]);
}

void test_main(void)
{
    evtchn_set_priority_t sp;
    evtchn_reset_t r = { .dom = DOMID_SELF };
    evtchn_status_t st;
    long a, b, c, d, e;

    if ( event_init() )
        return test_error("event_init failed");
    a = evtchn_bind_ipi_on(0);
    check_rc(evtchn_send(a), 0);                /* pending in 2-level */

    check_rc(fifo_init(), 0);
    /* a was pending: linked onto the default queue, queue 7 ready. */
    if ( !(W(a) & (1u << EVTCHN_FIFO_PENDING)) ||
         !(W(a) & (1u << EVTCHN_FIFO_LINKED)) )
        test_fail("port %ld carried over as %#x", a, W(a));
    if ( fifo_control->head[EVTCHN_FIFO_PRIORITY_DEFAULT] != (uint32_t)a ||
         !(fifo_control->ready & (1u << EVTCHN_FIFO_PRIORITY_DEFAULT)) )
        test_fail("queue 7: head %u ready %#x",
                  fifo_control->head[EVTCHN_FIFO_PRIORITY_DEFAULT],
                  fifo_control->ready);
    check_rc(evtchn_status_of(2, &st), 0);
    check_rc(st.status, EVTCHNSTAT_interdomain);
    event_log_reset();
    deliver();
    check_log((uint32_t[]){ a }, 1, "carried over");
    if ( upcall_mask_seen != 1 )
        test_fail("the upcall ran with events unmasked");

    /* Send order within a queue: the tail links to the next one. */
    b = evtchn_bind_ipi_on(0);
    c = evtchn_bind_ipi_on(0);
    d = evtchn_bind_ipi_on(0);
    event_log_reset();
    evtchn_send(b);
    evtchn_send(c);
    evtchn_send(d);
    if ( (W(b) & EVTCHN_FIFO_LINK_MASK) != (uint32_t)c ||
         (W(c) & EVTCHN_FIFO_LINK_MASK) != (uint32_t)d )
        test_fail("links %#x %#x", W(b), W(c));
    evtchn_send(c);                             /* already pending: once */
    deliver();
    check_log((uint32_t[]){ b, c, d }, 3, "one queue");

    /* Priorities: queue 2 before queue 7, whatever the send order. */
    sp.port = d;
    sp.priority = 2;
    check_rc(evtchn_op(EVTCHNOP_set_priority, &sp), 0);
    sp.priority = EVTCHN_FIFO_PRIORITY_MIN + 1;
    check_rc(evtchn_op(EVTCHNOP_set_priority, &sp), -XEN_EINVAL);
    sp.port = 100;
    sp.priority = 1;
    check_rc(evtchn_op(EVTCHNOP_set_priority, &sp), -XEN_EINVAL);
    event_log_reset();
    evtchn_send(b);
    evtchn_send(d);
    deliver();
    check_log((uint32_t[]){ d, b }, 2, "priorities");

    /* Masked: pending but not linked, until EVTCHNOP_unmask. */
    e = evtchn_bind_ipi_on(0);
    evtchn_mask(e);
    event_log_reset();
    evtchn_send(e);
    if ( !(W(e) & (1u << EVTCHN_FIFO_PENDING)) ||
         (W(e) & (1u << EVTCHN_FIFO_LINKED)) )
        test_fail("masked port %ld: word %#x", e, W(e));
    deliver();
    check_log(NULL, 0, "masked");
    check_rc(evtchn_unmask(e), 0);
    if ( (W(e) & (1u << EVTCHN_FIFO_MASKED)) ||
         !(W(e) & (1u << EVTCHN_FIFO_LINKED)) )
        test_fail("unmasked port %ld: word %#x", e, W(e));
    deliver();
    check_log((uint32_t[]){ e }, 1, "unmasked");

    /* Closing clears PENDING; the console port still works. */
    evtchn_send(b);
    check_rc(evtchn_close(b), 0);
    if ( W(b) & (1u << EVTCHN_FIFO_PENDING) )
        test_fail("close left port %ld pending", b);
    fifo_control->head[EVTCHN_FIFO_PRIORITY_DEFAULT] = 0;
    W(b) = 0;
    check_rc(evtchn_send(2), 0);

    /* A closed port still LINKED is busy: not handed out until unlinked. */
    c = evtchn_bind_ipi_on(0);
    event_log_reset();
    evtchn_send(c);
    check_rc(evtchn_close(c), 0);
    if ( !(W(c) & (1u << EVTCHN_FIFO_LINKED)) )
        test_fail("closed port %ld no longer linked: %#x", c, W(c));
    d = evtchn_bind_ipi_on(0);
    if ( d == c )
        test_fail("a still-linked port %ld was reused", c);
    deliver();                                  /* unlinks c, not pending */
    check_log(NULL, 0, "closed port");
    check_rc(evtchn_close(d), 0);
    check_rc(evtchn_bind_ipi_on(0), c);

    /* Reset: back to 2-level, and FIFO can be set up again. */
    check_rc(evtchn_op(EVTCHNOP_reset, &r), 0);
    fifo_control = NULL;
    check_rc(evtchn_op(EVTCHNOP_expand_array,
                       &(evtchn_expand_array_t){ .array_gfn = 0 }),
             -XEN_EOPNOTSUPP);
    /*
     * Port a's 2-level pending bit from the start is still set (FIFO never
     * touches the bitmap); Xen would carry it over again as pending.
     */
    memset(shared_info->evtchn_pending, 0, sizeof(shared_info->evtchn_pending));
    check_rc(fifo_init(), 0);
    a = evtchn_bind_ipi_on(0);
    event_log_reset();
    evtchn_send(a);
    deliver();
    check_log((uint32_t[]){ a }, 1, "after reset");
    test_success();
}
