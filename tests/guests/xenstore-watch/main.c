/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xenstore watches and transactions through the ring: the initial firing,
 * events for a node and its children (relative and absolute), UNWATCH,
 * RESET_WATCHES; a transaction's writes seen only on commit, and EAGAIN
 * when what it read changed meanwhile.
 */
#include "guest.h"
#include "xs.h"

const char test_title[] = "xenstore: watches and transactions";

static void expect(const char *what, const char *got, const char *want)
{
    if ( strcmp(got, want) )
        test_fail("%s: got \"%s\", expected \"%s\"", what, got, want);
}

#define EXPECT(call, want) expect(#call, call, want)

static char reply[XENSTORE_PAYLOAD_MAX + 1];

static const char *req2(uint32_t type, uint32_t tx, const char *a,
                        const char *b)
{
    char buf[256];
    unsigned int al = strlen(a) + 1, bl = strlen(b) + 1;

    memcpy(buf, a, al);
    memcpy(buf + al, b, bl);
    if ( xs_request(type, tx, buf, al + bl, reply, NULL) < 0 )
        return "(no reply)";
    return reply;
}

static void watches(void)
{
    EXPECT(req2(XS_WATCH, 0, "data", "rel"), "OK");
    if ( !xs_wait_events(1) || !xs_event_seen("data|rel") )
        test_fail("no initial firing of the relative watch");
    EXPECT(req2(XS_WATCH, 0, "/local/domain/1/data/w", "abs"), "OK");
    if ( !xs_wait_events(2) || !xs_event_seen("/local/domain/1/data/w|abs") )
        test_fail("no initial firing of the absolute watch");
    EXPECT(xs_write(0, "data/w/x", "1"), "OK");
    if ( !xs_wait_events(4) || !xs_event_seen("data/w/x|rel") ||
         !xs_event_seen("/local/domain/1/data/w/x|abs") )
        test_fail("no events for a write below both watches");
    EXPECT(req2(XS_WATCH, 0, "data", "rel"), "EEXIST");
    EXPECT(req2(XS_UNWATCH, 0, "data", "rel"), "OK");
    EXPECT(req2(XS_UNWATCH, 0, "data", "rel"), "ENOENT");
    EXPECT(xs_req_str(XS_RM, 0, "data/w"), "OK");
    if ( !xs_wait_events(5) || !xs_event_seen("/local/domain/1/data/w|abs") )
        test_fail("no event for removing the watched node");
    EXPECT(req2(XS_WATCH, 0, "@releaseDomain", "rd"), "OK");
    if ( !xs_wait_events(6) || !xs_event_seen("@releaseDomain|rd") )
        test_fail("no initial firing of @releaseDomain");
    EXPECT(xs_req_str(XS_RESET_WATCHES, 0, ""), "OK");
    EXPECT(req2(XS_UNWATCH, 0, "@releaseDomain", "rd"), "ENOENT");
}

static uint32_t start(void)
{
    unsigned long id = 0;
    const char *p;

    if ( xs_request(XS_TRANSACTION_START, 0, "", 1, reply, NULL) !=
         XS_TRANSACTION_START )
        test_fail("TRANSACTION_START: %s", reply);
    for ( p = reply; *p >= '0' && *p <= '9'; p++ )
        id = id * 10 + *p - '0';
    return id;
}

static void transactions(void)
{
    uint32_t t;

    EXPECT(xs_write(0, "data/counter", "0"), "OK");
    t = start();
    EXPECT(xs_req_str(XS_READ, t, "data/counter"), "0");
    EXPECT(xs_write(t, "data/counter", "1"), "OK");
    EXPECT(xs_req_str(XS_READ, 0, "data/counter"), "0");
    EXPECT(xs_req_str(XS_TRANSACTION_END, t, "T"), "OK");
    EXPECT(xs_req_str(XS_READ, 0, "data/counter"), "1");

    /* Someone else changed what it read: EAGAIN, nothing applied. */
    t = start();
    EXPECT(xs_req_str(XS_READ, t, "data/counter"), "1");
    EXPECT(xs_write(0, "data/counter", "5"), "OK");
    EXPECT(xs_write(t, "data/counter", "2"), "OK");
    EXPECT(xs_req_str(XS_TRANSACTION_END, t, "T"), "EAGAIN");
    EXPECT(xs_req_str(XS_READ, 0, "data/counter"), "5");

    t = start();
    EXPECT(xs_write(t, "data/gone", "x"), "OK");
    EXPECT(xs_req_str(XS_TRANSACTION_END, t, "F"), "OK");
    EXPECT(xs_req_str(XS_READ, 0, "data/gone"), "ENOENT");
    EXPECT(xs_req_str(XS_TRANSACTION_END, t, "T"), "ENOENT");
    t = start();
    EXPECT(xs_req_str(XS_TRANSACTION_END, t, "maybe"), "EINVAL");
    EXPECT(xs_req_str(XS_TRANSACTION_END, t, "F"), "OK");
}

void test_main(void)
{
    if ( !xs_init() )
        return test_error("xenstore page not in the p2m");
    watches();
    transactions();
    test_success();
}
