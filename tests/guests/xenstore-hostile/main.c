/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A hostile xenstore client: a flood of requests while not reading the
 * replies (none lost, none overwritten, all in order), garbage types, a
 * request changed after it was sent, a message split across kicks, then
 * a header with a huge length (the connection stops with the page's
 * error field set) and a reconnection that brings it back.
 */
#include "guest.h"
#include "xs.h"

const char test_title[] = "xenstore: flood, garbage, changed and huge requests";

#define FLOOD 8000

static char body[XENSTORE_PAYLOAD_MAX + 1];

/* One byte of the responses if there is one; no waiting. */
static bool try_byte(char *c)
{
    XENSTORE_RING_IDX cons = xs_intf->rsp_cons;

    if ( *(volatile XENSTORE_RING_IDX *)&xs_intf->rsp_prod == cons )
        return false;
    asm volatile ( "" ::: "memory" );
    *c = xs_intf->rsp[MASK_XENSTORE_IDX(cons)];
    asm volatile ( "" ::: "memory" );
    xs_intf->rsp_cons = cons + 1;
    return true;
}

static void flood(void)
{
    struct xsd_sockmsg hdr = { XS_READ, 0, 0, sizeof("domid") };
    struct xsd_sockmsg *r = (void *)body;
    unsigned int sent = 0, got = 0, used = 0, spins = 0;

    while ( got < FLOOD && spins < 1000000 )
    {
        spins++;
        /* Pile requests up while there is room... */
        while ( sent < FLOOD &&
                XENSTORE_RING_SIZE - (xs_intf->req_prod - xs_intf->req_cons)
                >= sizeof(hdr) + hdr.len )
        {
            hdr.req_id = 1000 + sent++;
            xs_put_raw(&hdr, sizeof(hdr));
            xs_put_raw("domid", hdr.len);
        }
        /* ... and read replies only now and then. */
        if ( spins % 4 )
        {
            xs_kick();
            continue;
        }
        while ( try_byte(body + used) )
            if ( ++used >= sizeof(*r) && used == sizeof(*r) + r->len )
            {
                if ( r->type != XS_READ || r->req_id != 1000 + got ||
                     r->len != 1 || body[sizeof(*r)] != '1' )
                    return test_fail("flood: reply %u is wrong", got);
                got++;
                used = 0;
            }
        xs_kick();
    }
    if ( got != FLOOD )
        test_fail("flood: %u of %u replies", got, FLOOD);
}

static void garbage(void)
{
    static const uint32_t types[] = { XS_WATCH_EVENT, XS_ERROR, 27, 1000,
                                      0xffffffff };
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(types); i++ )
        if ( xs_request(types[i], 0, "x", 2, body, NULL) != XS_ERROR ||
             strcmp(body, "EINVAL") )
            test_fail("type %u: \"%s\"", types[i], body);
    if ( xs_request(XS_WRITE, 0, "nonul", 5, body, NULL) != XS_ERROR ||
         strcmp(body, "EINVAL") )
        test_fail("WRITE without a path: \"%s\"", body);
}

static void changed_and_split(void)
{
    struct xsd_sockmsg hdr = { XS_READ, 77, 0, sizeof("domid") }, r;
    XENSTORE_RING_IDX start = xs_intf->req_prod;
    unsigned int i;

    /* Sent and kicked; then the guest scribbles over what it sent. */
    xs_put_raw(&hdr, sizeof(hdr));
    xs_put_raw("domid", hdr.len);
    for ( i = 0; i < sizeof(hdr) + hdr.len; i++ )
        xs_intf->req[MASK_XENSTORE_IDX(start + i)] = 0xff;
    if ( xs_reply(&r, body) != XS_READ || r.req_id != 77 ||
         strcmp(body, "1") )
        test_fail("changed request: \"%s\"", body);

    /* A message in pieces, a kick after each. */
    hdr.req_id = 78;
    for ( i = 0; i < sizeof(hdr); i++ )
        xs_put_raw((char *)&hdr + i, 1);
    xs_put_raw("dom", 3);
    xs_put_raw("id", 3);
    if ( xs_reply(&r, body) != XS_READ || r.req_id != 78 ||
         strcmp(body, "1") )
        test_fail("split request: \"%s\"", body);
}

static void huge_then_reconnect(void)
{
    struct xsd_sockmsg hdr = { XS_READ, 1, 0, 0x7fffffff }, r;
    unsigned int i;

    if ( !(xs_intf->server_features & XENSTORE_SERVER_FEATURE_RECONNECTION) )
        return test_fail("no reconnection feature");
    xs_put_raw(&hdr, sizeof(hdr));
    for ( i = 0; i < 10; i++ )
        xs_kick();
    if ( xs_intf->error != XENSTORE_ERROR_PROTO )
        test_fail("error field %u after a huge length", xs_intf->error);
    if ( xs_intf->rsp_prod != xs_intf->rsp_cons )
        test_fail("a reply to a huge length");

    xs_intf->connection = XENSTORE_RECONNECT;
    xs_kick();
    if ( xs_intf->connection != XENSTORE_CONNECTED ||
         xs_intf->error != XENSTORE_ERROR_NONE || xs_intf->req_prod ||
         xs_intf->rsp_prod )
        test_fail("reconnection left the page %u/%u", xs_intf->connection,
                  xs_intf->error);
    if ( xs_request(XS_READ, 0, "domid", 6, body, NULL) != XS_READ ||
         strcmp(body, "1") )
        test_fail("after reconnecting: \"%s\"", body);
    (void)r;

    /* A producer index the ring cannot hold. */
    xs_intf->req_prod += XENSTORE_RING_SIZE * 3;
    xs_kick();
    if ( xs_intf->error != XENSTORE_ERROR_RINGIDX )
        test_fail("error field %u after a bad index", xs_intf->error);
}

void test_main(void)
{
    if ( !xs_init() )
        return test_error("xenstore page not in the p2m");
    flood();
    garbage();
    changed_and_split();
    huge_then_reconnect();
    test_success();
}
