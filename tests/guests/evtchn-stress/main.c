/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Seeded random sends, masks, unmasks, priority changes, closes and
 * rebinds on both ABIs, checked against a model after every delivery:
 * each port that is pending and unmasked is delivered exactly once; a
 * masked one stays pending.  On FIFO the order is checked too: queues by
 * priority (the one a port had when it was linked), each in link order;
 * on 2-level, by port number.  Guest command line: seed=N rounds=N.
 */
#include "guest.h"
#include "fuzz.h"
#include "event.h"

const char test_title[] = "Event channels: random operations against a model";

#define NR_PORTS    48

static struct port {
    long port;
    bool pending, masked, linked;
    unsigned int prio;              /* current priority (FIFO) */
} ports[NR_PORTS];

/* FIFO model: linked ports per queue, in link order. */
static long queue[EVTCHN_FIFO_MAX_QUEUES][NR_PORTS];
static unsigned int queue_len[EVTCHN_FIFO_MAX_QUEUES];
static bool fifo;

/* The port became pending and unmasked: FIFO links it at its priority. */
static void link(struct port *p)
{
    if ( fifo && !p->linked )
    {
        queue[p->prio][queue_len[p->prio]++] = p->port;
        p->linked = true;
    }
}

static struct port *find(long port)
{
    unsigned int i;

    for ( i = 0; i < NR_PORTS; i++ )
        if ( ports[i].port == port )
            return &ports[i];
    return NULL;
}

/* What the next delivery must log, in order; the model moves on. */
static unsigned int expect(uint32_t *want)
{
    unsigned int n = 0, q, i;

    if ( fifo )
    {
        for ( q = 0; q < EVTCHN_FIFO_MAX_QUEUES; q++ )
        {
            for ( i = 0; i < queue_len[q]; i++ )
            {
                struct port *p = find(queue[q][i]);

                p->linked = false;
                if ( p->pending && !p->masked )
                {
                    want[n++] = p->port;
                    p->pending = false;
                }
            }
            queue_len[q] = 0;
        }
        return n;
    }
    for ( i = 1; i < 4096 && n < NR_PORTS; i++ )
    {
        struct port *p = find(i);

        if ( p && p->pending && !p->masked )
        {
            want[n++] = p->port;
            p->pending = false;
        }
    }
    return n;
}

static bool deliver_and_check(unsigned long round)
{
    uint32_t want[NR_PORTS];
    unsigned int n = expect(want), i;

    event_log_reset();
    events_enable();
    hypercall_xen_version(XENVER_version, NULL);
    events_disable();
    if ( event_log_nr != n )
    {
        test_fail("round %lu: %u events delivered, model says %u", round,
                  event_log_nr, n);
        return false;
    }
    for ( i = 0; i < n; i++ )
        if ( event_log[i] != want[i] )
        {
            test_fail("round %lu: event %u is port %u, model says %u",
                      round, i, event_log[i], want[i]);
            return false;
        }
    return true;
}

static void one_op(struct port *p)
{
    evtchn_set_priority_t sp;

    switch ( rnd() % 8 )
    {
    case 0: case 1: case 2:
        check_rc(evtchn_send(p->port), 0);
        if ( !p->pending )
        {
            p->pending = true;
            if ( !p->masked )
                link(p);
        }
        break;
    case 3:
        evtchn_mask(p->port);
        p->masked = true;
        break;
    case 4:
        check_rc(evtchn_unmask(p->port), 0);
        p->masked = false;
        if ( p->pending )
            link(p);
        break;
    case 5:
        if ( !fifo )
            break;
        sp.port = p->port;
        sp.priority = rnd() % EVTCHN_FIFO_MAX_QUEUES;
        check_rc(evtchn_op(EVTCHNOP_set_priority, &sp), 0);
        p->prio = sp.priority;
        break;
    case 6:
        /* Close (pending cleared) and bind again: a new, unmasked port. */
        if ( fifo && p->linked )
            break;                      /* busy until delivered */
        check_rc(evtchn_close(p->port), 0);
        evtchn_mask(p->port);           /* clean for its next user */
        p->port = evtchn_bind_ipi_on(0);
        check_rc(evtchn_unmask(p->port), 0);
        p->pending = p->masked = false;
        p->prio = EVTCHN_FIFO_PRIORITY_DEFAULT;
        break;
    }
}

static void run(unsigned long rounds)
{
    unsigned long r;
    unsigned int i;

    for ( i = 0; i < NR_PORTS; i++ )
    {
        ports[i].port = evtchn_bind_ipi_on(0);
        ports[i].prio = EVTCHN_FIFO_PRIORITY_DEFAULT;
        ports[i].pending = ports[i].masked = ports[i].linked = false;
    }
    for ( r = 0; r < rounds; r++ )
    {
        for ( i = rnd() % 12; i; i-- )
            one_op(&ports[rnd() % NR_PORTS]);
        if ( !deliver_and_check(r) )
            return;
    }
}

void test_main(void)
{
    unsigned long rounds = cmdline_ulong("rounds", 400);
    evtchn_reset_t r = { .dom = DOMID_SELF };

    rnd_seed(cmdline_ulong("seed", 1));
    if ( event_init() )
        return test_error("event_init failed");

    run(rounds);

    /* The same on FIFO, from a clean table. */
    check_rc(evtchn_op(EVTCHNOP_reset, &r), 0);
    memset(shared_info->evtchn_pending, 0, sizeof(shared_info->evtchn_pending));
    memset(shared_info->evtchn_mask, 0, sizeof(shared_info->evtchn_mask));
    check_rc(fifo_init(), 0);
    fifo = true;
    run(rounds);
    test_success();
}
