/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The connection on the xenstore ring page (xen/io/xs_wire.h,
 * docs/misc/xenstore-ring.txt): requests are copied out of the shared
 * page as they arrive, possibly in pieces across the ring's wrap, and run
 * once whole; replies and watch events wait in a queue of ours until the
 * response ring has room.  A stream that cannot be parsed (a bad index, a
 * payload over XENSTORE_PAYLOAD_MAX) stops the connection with the
 * page's error field set, as xenstored ignores such a client, until the
 * guest asks for a reconnection.
 */
#include "backends/xenstore/xs.h"
#include "arch/x86/barrier.h"

#define MSG_MAX         (sizeof(struct xsd_sockmsg) + XENSTORE_PAYLOAD_MAX)
#define OUTQ_SIZE       (64u << 10)
#define REQS_PER_RUN    8               /* bounded work per softirq */

static struct xenstore_domain_interface *intf;
static char in_buf[MSG_MAX + 1];
static unsigned int in_used;
static char outq[OUTQ_SIZE];
static unsigned int outq_head, outq_tail; /* free-running byte counts */
static bool ignored;
static unsigned long dropped_events;

unsigned long xs_dropped_events(void)
{
    return dropped_events;
}

/* For the backends' debug key: where the connection stands. */
void xs_ring_state(struct xs_ring_state *s)
{
    *s = (struct xs_ring_state){ .attached = intf };
    if ( !intf )
        return;
    s->req_cons = ACCESS_ONCE(intf->req_cons);
    s->req_prod = ACCESS_ONCE(intf->req_prod);
    s->rsp_cons = ACCESS_ONCE(intf->rsp_cons);
    s->rsp_prod = ACCESS_ONCE(intf->rsp_prod);
    s->connection = ACCESS_ONCE(intf->connection);
    s->error = ACCESS_ONCE(intf->error);
    s->in_used = in_used;
    s->queued = outq_tail - outq_head;
    s->ignored = ignored;
    s->dropped_events = dropped_events;
}

/* A message onto the queue, @keep bytes of it left free after. */
static bool enqueue(uint32_t type, uint32_t req_id, uint32_t tx_id,
                    const void *a, unsigned int alen,
                    const void *b, unsigned int blen, unsigned int keep)
{
    struct xsd_sockmsg hdr = {
        .type = type, .req_id = req_id, .tx_id = tx_id, .len = alen + blen,
    };
    const char *parts[] = { (const char *)&hdr, a, b };
    unsigned int lens[] = { sizeof(hdr), alen, blen }, i, j;

    if ( alen + blen > XENSTORE_PAYLOAD_MAX )
    {
        static const char e2big[] = "E2BIG";

        /* An event too big for a message is no answer to anything. */
        if ( type == XS_WATCH_EVENT )
            return false;
        return enqueue(XS_ERROR, req_id, tx_id, e2big, sizeof(e2big),
                       NULL, 0, keep);
    }
    if ( OUTQ_SIZE - (outq_tail - outq_head) < sizeof(hdr) + hdr.len + keep )
        return false;
    for ( i = 0; i < ARRAY_SIZE(parts); i++ )
        for ( j = 0; j < lens[i]; j++ )
            outq[outq_tail++ % OUTQ_SIZE] = parts[i][j];
    return true;
}

bool xs_queue_reply(uint32_t type, uint32_t req_id, uint32_t tx_id,
                    const void *body, unsigned int len)
{
    return enqueue(type, req_id, tx_id, body, len, NULL, 0, 0);
}

/*
 * A watch event: dropped (and counted) if the guest lets the queue fill,
 * which events do only to a message's room short of full, so the reply
 * of the request that fired them always fits (xs_ring_run() takes a
 * request only with room for two); or if path and token are too long
 * for one message.
 */
bool xs_queue_event(const char *path, const char *token)
{
    if ( enqueue(XS_WATCH_EVENT, 0, 0, path, strlen(path) + 1,
                 token, strlen(token) + 1, MSG_MAX) )
        return true;
    dropped_events++;
    return false;
}

/*
 * Move what fits from our queue to the response ring.  Linux's xb_read()
 * notifies only if, once it has moved rsp_cons, it finds the ring it
 * read full: were our last look at rsp_cons older than its move, and our
 * rsp_prod too new for its look, neither would see the other and the
 * rest would wait for good.  So after publishing rsp_prod we look at
 * rsp_cons again (a full barrier between: a store and a later load), as
 * xenstored's loop looks at every ring once more.  Each pass moves a
 * byte at least or ends: bounded by our queue, whatever the guest does.
 */
static bool flush(void)
{
    XENSTORE_RING_IDX cons, prod = intf->rsp_prod;
    bool moved = false;

    while ( outq_head != outq_tail )
    {
        cons = ACCESS_ONCE(intf->rsp_cons);
        barrier();                      /* rsp_cons, then the replies */
        /* The guest owns rsp_cons: a bogus one just limits what we send. */
        if ( prod - cons >= XENSTORE_RING_SIZE )
            break;
        while ( outq_head != outq_tail &&
                prod - cons < XENSTORE_RING_SIZE )
        {
            intf->rsp[MASK_XENSTORE_IDX(prod++)] =
                outq[outq_head++ % OUTQ_SIZE];
            moved = true;
        }
        smp_wmb();                      /* the replies, then rsp_prod */
        ACCESS_ONCE(intf->rsp_prod) = prod;
        smp_mb();
    }
    return moved;
}

static void fail(unsigned int error)
{
    ignored = true;
    ACCESS_ONCE(intf->error) = error;
}

/*
 * Copy in up to what the current message still needs; true once it is
 * whole in in_buf.  Errors stop the connection.  Linux's xb_write()
 * notifies only if it finds its previous req_prod consumed after it
 * published the new one: were our look at req_prod older than its
 * publication, and our req_cons too new for its look, the rest of the
 * request would wait for good (a 4-vCPU Linux stalled in its boot so).
 * So after publishing req_cons we look at req_prod again, with a full
 * barrier between.  Each pass takes a byte at least or ends: bounded by
 * the message, whatever the guest does.
 */
static bool read_message(bool *consumed)
{
    XENSTORE_RING_IDX cons = intf->req_cons, prod;
    const struct xsd_sockmsg *hdr = (const void *)in_buf;
    unsigned int want;

    for ( ;; )
    {
        prod = ACCESS_ONCE(intf->req_prod);
        smp_rmb();                      /* req_prod, then the requests */
        if ( prod - cons > XENSTORE_RING_SIZE )
        {
            fail(XENSTORE_ERROR_RINGIDX);
            return false;
        }
        if ( prod == cons )
            break;
        for ( ;; )
        {
            want = in_used < sizeof(*hdr) ? sizeof(*hdr)
                                          : sizeof(*hdr) + hdr->len;
            if ( in_used == want || cons == prod )
                break;
            in_buf[in_used++] = intf->req[MASK_XENSTORE_IDX(cons++)];
            *consumed = true;
            if ( in_used == sizeof(*hdr) && hdr->len > XENSTORE_PAYLOAD_MAX )
            {
                fail(XENSTORE_ERROR_PROTO);
                break;
            }
        }
        barrier();                      /* the requests read, then req_cons */
        ACCESS_ONCE(intf->req_cons) = cons;
        smp_mb();
        if ( ignored || (in_used >= sizeof(*hdr) &&
                         in_used == sizeof(*hdr) + hdr->len) )
            break;
    }
    return !ignored && in_used >= sizeof(*hdr) &&
           in_used == sizeof(*hdr) + hdr->len;
}

/*
 * One bounded run: returns true if requests are left for another run.
 * *@notify: the guest should hear of a reply or of freed request space;
 * that is, the run moved bytes one way or the other.  Such a run must be
 * followed by another a little later, whether the guest notifies or not
 * (backend.c): Linux's xb_write() and xb_read() publish their index and
 * then read ours with no barrier between (xenbus_comms.c), and x86 lets
 * that read pass the store.  So a guest publishing while we publish may
 * read our index as it was and skip its notification, while our second
 * look, though after a full barrier, still misses its store: the request
 * or the room it made waits, and the guest with it, until something else
 * brings us here.  A later look sees both stores.
 */
bool xs_ring_run(bool *notify)
{
    struct xsd_sockmsg hdr;
    bool consumed = false;
    unsigned int n;

    *notify = false;
    if ( !intf )
        return false;
    if ( ACCESS_ONCE(intf->connection) == XENSTORE_RECONNECT )
    {
        xs_conn_reset();
        *notify = true;
        return false;
    }
    if ( ignored )
        return false;
    *notify = flush();
    for ( n = 0; n < REQS_PER_RUN; n++ )
    {
        /* Room for the biggest reply first: else it waits in the ring. */
        if ( OUTQ_SIZE - (outq_tail - outq_head) < 2 * MSG_MAX )
            break;
        if ( !read_message(&consumed) )
            break;
        memcpy(&hdr, in_buf, sizeof(hdr));
        in_buf[in_used] = '\0';
        in_used = 0;
        xs_process(&hdr, in_buf + sizeof(hdr));
    }
    *notify |= flush() | consumed;
    return !ignored && n == REQS_PER_RUN &&
           ACCESS_ONCE(intf->req_prod) != intf->req_cons;
}

/*
 * True while the connection waits on the guest: part of a request in,
 * or replies queued for room in the ring.  A guest that writes the rest
 * or makes room without notifying (the race above, or never) is looked
 * at again, less and less often (backend.c).
 */
bool xs_ring_waiting(void)
{
    return intf && !ignored && (in_used || outq_head != outq_tail);
}

/* Forget the connection's state (RESET by reconnection, or a new page). */
void xs_conn_reset(void)
{
    xs_watch_reset();
    xs_trans_reset();
    in_used = 0;
    outq_head = outq_tail = 0;
    ignored = false;
    if ( !intf )
        return;
    intf->req_cons = intf->req_prod = 0;
    intf->rsp_cons = intf->rsp_prod = 0;
    intf->error = XENSTORE_ERROR_NONE;
    smp_wmb();
    ACCESS_ONCE(intf->connection) = XENSTORE_CONNECTED;
}

void xs_ring_attach(struct xenstore_domain_interface *page)
{
    intf = page;
    in_used = 0;
    outq_head = outq_tail = 0;
    ignored = false;
    intf->server_features = XENSTORE_SERVER_FEATURE_RECONNECTION |
                            XENSTORE_SERVER_FEATURE_ERROR;
}
