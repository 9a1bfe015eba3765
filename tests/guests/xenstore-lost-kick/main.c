/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xenstore when the guest's notification is lost.  Linux's xb_write()
 * and xb_read() notify only if, having published their index, they read
 * the store's and find it caught up (or the ring it read full); they
 * read it with no barrier after their store, so on x86 both sides can
 * miss each other and no notification comes (a 4-vCPU Linux's xenwatch
 * once waited for good on its reply so).  The store must look at the
 * ring again of its own accord:
 *
 *   - a request whose header came with a notification and whose payload
 *     came, once the header was consumed, with none: answered;
 *   - replies bigger than the ring, the ring emptied once full with no
 *     notification: the rest of them come.
 *
 * Here the guest never notifies after the header: only the store's own
 * second look can end each wait (10 seconds of system time at most).
 */
#include "guest.h"
#include "event.h"
#include "xs.h"

const char test_title[] = "xenstore: requests and replies whose notifications are lost";

#define ACCESS_ONCE(x)  (*(volatile typeof(x) *)&(x))
#define WAIT_NS         (10 * 1000000000ULL)

static void put_quiet(const void *data, unsigned int len)
{
    const char *p = data;
    XENSTORE_RING_IDX prod = xs_intf->req_prod;

    while ( len-- )
        xs_intf->req[MASK_XENSTORE_IDX(prod++)] = *p++;
    asm volatile ( "" ::: "memory" );
    ACCESS_ONCE(xs_intf->req_prod) = prod;
}

/* Yield until the shim has taken every request byte; false after WAIT_NS. */
static bool wait_consumed(void)
{
    uint64_t start = system_time();

    while ( ACCESS_ONCE(xs_intf->req_cons) != ACCESS_ONCE(xs_intf->req_prod) )
    {
        if ( system_time() - start > WAIT_NS )
            return false;
        hypercall_sched_op(SCHEDOP_yield, NULL);
    }
    return true;
}

/*
 * @len bytes of the response stream into @buf, yielding while none are
 * there and never notifying; false after WAIT_NS without a byte.
 */
static bool get_quiet(void *buf, unsigned int len)
{
    char *p = buf;
    uint64_t start = system_time();

    while ( len )
    {
        XENSTORE_RING_IDX cons = xs_intf->rsp_cons;

        if ( ACCESS_ONCE(xs_intf->rsp_prod) == cons )
        {
            if ( system_time() - start > WAIT_NS )
                return false;
            hypercall_sched_op(SCHEDOP_yield, NULL);
            continue;
        }
        asm volatile ( "" ::: "memory" );
        *p++ = xs_intf->rsp[MASK_XENSTORE_IDX(cons)];
        asm volatile ( "" ::: "memory" );
        ACCESS_ONCE(xs_intf->rsp_cons) = cons + 1;
        len--;
        start = system_time();
    }
    return true;
}

static bool reply_quiet(struct xsd_sockmsg *hdr, char *body)
{
    if ( !get_quiet(hdr, sizeof(*hdr)) || hdr->len > XENSTORE_PAYLOAD_MAX ||
         !get_quiet(body, hdr->len) )
        return false;
    body[hdr->len] = '\0';
    return true;
}

static void payload_unannounced(void)
{
    static const char body[] = "data/lost\0" "written";
    static char reply[XENSTORE_PAYLOAD_MAX + 1];
    struct xsd_sockmsg hdr = {
        .type = XS_WRITE, .req_id = 77, .len = sizeof(body) - 1,
    }, r;

    put_quiet(&hdr, sizeof(hdr));
    xs_kick();
    if ( !wait_consumed() )
        return test_fail("the header was not consumed");
    put_quiet(body, sizeof(body) - 1);  /* no notification */
    if ( !reply_quiet(&r, reply) )
        return test_fail("no reply to a payload written unannounced "
                         "(req %u/%u)", xs_intf->req_cons, xs_intf->req_prod);
    if ( r.type != XS_WRITE || r.req_id != 77 || strcmp(reply, "OK") )
        return test_fail("reply type %u id %u \"%s\"", r.type, r.req_id,
                         reply);
    if ( strcmp(xs_read_str("data/lost"), "written") )
        test_fail("data/lost reads \"%s\"", xs_read_str("data/lost"));
}

static void room_unannounced(void)
{
    static char value[1001], reply[XENSTORE_PAYLOAD_MAX + 1];
    static const char path[] = "data/big";
    struct xsd_sockmsg hdr = { .type = XS_READ, .len = sizeof(path) }, r;
    uint64_t start;
    unsigned int i;

    memset(value, 'b', sizeof(value) - 1);
    if ( strcmp(xs_write(0, path, value), "OK") )
        return test_error("writing %s", path);
    /* Three replies of 1016 bytes: the 1 KiB ring holds the first's only. */
    for ( i = 0; i < 3; i++ )
    {
        hdr.req_id = 100 + i;
        xs_put_raw(&hdr, sizeof(hdr));
        xs_put_raw(path, sizeof(path));
    }
    start = system_time();
    while ( ACCESS_ONCE(xs_intf->rsp_prod) - xs_intf->rsp_cons !=
            XENSTORE_RING_SIZE )
    {
        if ( system_time() - start > WAIT_NS )
            return test_fail("the response ring did not fill (rsp %u/%u)",
                             xs_intf->rsp_cons, xs_intf->rsp_prod);
        hypercall_sched_op(SCHEDOP_yield, NULL);
    }
    /* Emptied, and every reply read, with no notification. */
    for ( i = 0; i < 3; i++ )
    {
        if ( !reply_quiet(&r, reply) )
            return test_fail("reply %u of 3 did not come once the ring had "
                             "room (rsp %u/%u)", i + 1, xs_intf->rsp_cons,
                             xs_intf->rsp_prod);
        if ( r.type != XS_READ || r.req_id != 100 + i ||
             strcmp(reply, value) )
            return test_fail("reply %u: type %u id %u, %u bytes", i + 1,
                             r.type, r.req_id, r.len);
    }
}

void test_main(void)
{
    if ( !xs_init() )
        return test_error("xenstore page not in the p2m");
    if ( event_init() )
        return test_error("event_init failed");       /* system time */
    payload_unannounced();
    room_unannounced();
    test_success();
}
