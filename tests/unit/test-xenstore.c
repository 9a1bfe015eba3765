/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the xenstore backend through its ring: the seeded store,
 * every request type and its errors, permissions, quotas, watches and
 * transactions, as C xenstored answers a domU.
 */
#include "tests/unit/unit.h"
#include "tests/unit/test-xenstore-harness.h"
#include "backends/xenstore/shim-client.c"

/* backend.c's, without the ring page's event channel. */
void xenstore_ring_work(void)
{
    xs_run();
    xs_shim_watches_run();
}

int xs_shim_write(const char *path, const char *value)
{
    int rc = xs_shim_write_path(path, value);

    xenstore_ring_work();
    return rc;
}

static char rbody[XENSTORE_PAYLOAD_MAX + 1];
static unsigned int rlen;
static uint32_t rtype, next_req = 1;
static char events[64][2 * XENSTORE_PAYLOAD_MAX + 2];
static unsigned int nr_events;

/* Send one request, run the backend, collect the reply and events. */
static const char *rq(uint32_t type, uint32_t tx, const char *body,
                      unsigned int len)
{
    struct xsd_sockmsg hdr = { type, next_req++, tx, len }, m;
    static char buf[XENSTORE_PAYLOAD_MAX + 1];

    xs_put(&hdr, sizeof(hdr));
    xs_put(body, len);
    xs_run();
    rtype = XS_INVALID;
    while ( xs_get_msg(&m, buf) || (xs_run() && xs_get_msg(&m, buf)) )
    {
        if ( m.type == XS_WATCH_EVENT )
        {
            if ( nr_events < ARRAY_SIZE(events) )
                snprintf(events[nr_events++], sizeof(events[0]), "%s|%s",
                         buf, buf + strlen(buf) + 1);
            continue;
        }
        CHECK_EQ(m.req_id, hdr.req_id);
        rtype = m.type;
        rlen = m.len;
        memcpy(rbody, buf, m.len + 1);
    }
    return rbody;
}

/* A request of nul-separated strings, given as "a\0b" with its size. */
#define RQ(type, tx, lit) rq(type, tx, lit, sizeof(lit))
#define RQS(type, tx, s) rq(type, tx, s, strlen(s) + 1)

static const char *wr(const char *path, const char *val)
{
    char b[XENSTORE_PAYLOAD_MAX];
    size_t pl = strlen(path) + 1, vl = strlen(val);

    memcpy(b, path, pl);
    memcpy(b + pl, val, vl);
    return rq(XS_WRITE, 0, b, pl + vl);
}

static bool event_seen(const char *ev)
{
    unsigned int i;

    for ( i = 0; i < nr_events; i++ )
        if ( !strcmp(events[i], ev) )
            return true;
    return false;
}

static void reset(void)
{
    xs_harness_reset();
    nr_events = 0;
}

static void test_seeded(void)
{
    char target[32];

    reset();
    CHECK_STR(RQS(XS_READ, 0, "domid"), "1");
    CHECK_STR(RQS(XS_READ, 0, "/local/domain/1/name"), "guest");
    snprintf(target, sizeof(target), "%lu", SEED_PAGES * 4);
    CHECK_STR(RQS(XS_READ, 0, "memory/target"), target);
    CHECK_STR(RQS(XS_READ, 0, "cpu/1/availability"), "online");
    CHECK_STR(RQS(XS_READ, 0, "control/platform-feature-xs_reset_watches"),
              "1");
    CHECK_STR(RQS(XS_READ, 0, "store/port"), "1");
    CHECK_STR(RQS(XS_READ, 0, "control/shutdown"), "");
    CHECK_EQ(rtype, XS_READ);
    RQS(XS_DIRECTORY, 0, "device");
    CHECK_EQ(rtype, XS_DIRECTORY);
    CHECK_EQ(rlen, 0);
    RQS(XS_DIRECTORY, 0, "cpu");
    CHECK_EQ(rlen, 4);
    CHECK(!memcmp(rbody, "0\0001\0", 4));
    CHECK_STR(RQS(XS_GET_DOMAIN_PATH, 0, "1"), "/local/domain/1");
    CHECK_STR(RQS(XS_GET_DOMAIN_PATH, 0, "7"), "/local/domain/7");
}

static void test_write_read_rm(void)
{
    reset();
    CHECK_STR(wr("data/foo", "bar"), "OK");
    CHECK_EQ(rtype, XS_WRITE);
    CHECK_STR(RQS(XS_READ, 0, "/local/domain/1/data/foo"), "bar");
    CHECK_STR(wr("data/a/b/c", "deep"), "OK");
    RQS(XS_DIRECTORY, 0, "data/a");
    CHECK_EQ(rlen, 2);
    CHECK_STR(RQS(XS_READ, 0, "data/a/b"), "");
    CHECK_EQ(rtype, XS_READ);
    CHECK_STR(RQS(XS_RM, 0, "data/a"), "OK");
    CHECK_STR(RQS(XS_READ, 0, "data/a/b/c"), "ENOENT");
    CHECK_EQ(rtype, XS_ERROR);
    CHECK_STR(RQS(XS_RM, 0, "data/missing"), "OK");
    CHECK_STR(RQS(XS_RM, 0, "data/missing/child"), "ENOENT");
    CHECK_STR(RQS(XS_MKDIR, 0, "data/d"), "OK");
    CHECK_STR(RQS(XS_MKDIR, 0, "data/d"), "OK");
    CHECK_STR(wr("data/d", "v"), "OK");
    CHECK_STR(RQS(XS_MKDIR, 0, "data/d"), "OK");
    CHECK_STR(RQS(XS_READ, 0, "data/d"), "v");
    /* A value may hold any bytes, nuls too. */
    rq(XS_WRITE, 0, "data/bin\0a\0b", 12);
    RQS(XS_READ, 0, "data/bin");
    CHECK_EQ(rlen, 3);
    CHECK(!memcmp(rbody, "a\0b", 3));
}

static void test_bad_requests(void)
{
    reset();
    CHECK_STR(rq(XS_READ, 0, "domid", 5), "EINVAL");       /* no nul */
    CHECK_STR(rq(XS_READ, 0, "domid\0x", 8), "EINVAL");    /* two args */
    CHECK_STR(rq(XS_READ, 0, "", 0), "EINVAL");
    CHECK_STR(rq(XS_WRITE, 0, "data/x", 6), "EINVAL");
    CHECK_STR(RQS(XS_READ, 0, "data//x"), "EINVAL");
    CHECK_STR(RQS(XS_READ, 0, "data/x/"), "EINVAL");
    CHECK_STR(RQS(XS_READ, 0, "data/x y"), "EINVAL");
    CHECK_STR(RQS(XS_RM, 0, "/"), "EINVAL");
    CHECK_STR(RQS(99, 0, "x"), "EINVAL");
    CHECK_STR(RQS(XS_WATCH_EVENT, 0, "x"), "EINVAL");
    CHECK_STR(RQS(XS_ERROR, 0, "x"), "EINVAL");
    CHECK_STR(RQS(XS_CONTROL, 0, "print"), "EACCES");
    CHECK_STR(RQ(XS_INTRODUCE, 0, "2\0" "1\0" "1"), "EACCES");
    CHECK_STR(RQS(XS_RELEASE, 0, "1"), "EACCES");
    CHECK_STR(RQS(XS_IS_DOMAIN_INTRODUCED, 0, "1"), "EACCES");
    CHECK_STR(RQS(XS_RESUME, 0, "1"), "EACCES");
    CHECK_STR(RQ(XS_SET_TARGET, 0, "1\0" "2"), "EACCES");
    CHECK_STR(rq(XS_GET_DOMAIN_PATH, 0, "1", 1), "EINVAL");
    CHECK_STR(RQS(XS_READ, 77, "domid"), "ENOENT");        /* no such tx */
}

static void test_path_length(void)
{
    char p[XENSTORE_PAYLOAD_MAX];

    reset();
    unsigned int i;

    /* Short elements: neither the entry size nor the node quota bites. */
    for ( i = 0; i < sizeof(p); i++ )
        p[i] = i % 10 == 4 ? '/' : 'a';
    memcpy(p, "data", 4);
    p[XS_QUOTA_PATH_LEN] = '\0';                /* relative part 2048 */
    CHECK_STR(wr(p, "x"), "OK");
    p[XS_QUOTA_PATH_LEN] = 'a';
    p[XS_QUOTA_PATH_LEN + 1] = '\0';
    CHECK_STR(wr(p, "x"), "EINVAL");
}

static void test_permissions(void)
{
    reset();
    CHECK_STR(wr("foo", "x"), "EACCES");                    /* roperm dir */
    CHECK_STR(wr("name", "x"), "EACCES");
    CHECK_STR(RQS(XS_RM, 0, "domid"), "EACCES");
    CHECK_STR(RQS(XS_MKDIR, 0, "device/vif"), "EACCES");
    CHECK_STR(RQS(XS_READ, 0, "/local/domain/0/name"), "EACCES");
    CHECK_STR(RQS(XS_READ, 0, "/local/domain/0/none"), "EACCES");
    CHECK_STR(RQS(XS_READ, 0, "/libxl/1"), "EACCES");
    CHECK_STR(RQS(XS_DIRECTORY, 0, "/"), "EACCES");
    CHECK_STR(RQS(XS_WRITE, 0, "/x"), "EACCES");
    RQS(XS_GET_PERMS, 0, "name");
    CHECK_EQ(rlen, 6);
    CHECK(!memcmp(rbody, "n0\0r1\0", 6));
    RQS(XS_GET_PERMS, 0, "data");
    CHECK(!memcmp(rbody, "n1\0", 3));
    CHECK_STR(wr("control/shutdown", ""), "OK");
    /* The guest owns what it creates, with its parent's ACL. */
    CHECK_STR(wr("console/x", "1"), "OK");
    RQS(XS_GET_PERMS, 0, "console/x");
    CHECK_EQ(rlen, 6);
    CHECK(!memcmp(rbody, "n1\0r0\0", 6));
    CHECK_STR(RQ(XS_SET_PERMS, 0, "data\0n1\0r0\0b3"), "OK");
    RQS(XS_GET_PERMS, 0, "data");
    CHECK_EQ(rlen, 9);
    CHECK(!memcmp(rbody, "n1\0r0\0b3\0", 9));
    CHECK_STR(RQ(XS_SET_PERMS, 0, "data\0n0"), "EPERM");
    CHECK_STR(RQ(XS_SET_PERMS, 0, "name\0n1"), "EACCES");
    CHECK_STR(RQ(XS_SET_PERMS, 0, "data\0x1"), "EINVAL");
    CHECK_STR(RQS(XS_SET_PERMS, 0, "data"), "EINVAL");
    CHECK_STR(RQ(XS_SET_PERMS, 0, "data\0n1\0r2\0r3\0r4\0r5\0r6"), "ENOSPC");
    CHECK_STR(RQ(XS_SET_PERMS, 0, "data\0n1\0r2\0r3\0r4\0r5"), "OK");
    CHECK_STR(RQ(XS_SET_PERMS, 0, "data/none\0n1"), "ENOENT");
    /* Read-only to the guest: a node it owns can be made so. */
    CHECK_STR(wr("data/ro", "v"), "OK");
    CHECK_STR(RQ(XS_SET_PERMS, 0, "data/ro\0r1"), "OK");
    CHECK_STR(RQS(XS_READ, 0, "data/ro"), "v");             /* owner */
}

static void test_directory_part(void)
{
    char req[64];
    unsigned int i, n;

    reset();
    for ( i = 0; i < 3; i++ )
    {
        snprintf(req, sizeof(req), "data/n%u", i);
        wr(req, "");
    }
    n = snprintf(req, sizeof(req), "data%c0", 0) + 1;
    rq(XS_DIRECTORY_PART, 0, req, n);
    CHECK_EQ(rtype, XS_DIRECTORY_PART);
    i = strlen(rbody) + 1;                      /* the generation */
    CHECK_EQ(rlen, i + 10);
    CHECK(!memcmp(rbody + i, "n0\0n1\0n2\0\0", 10));
    n = snprintf(req, sizeof(req), "data%c6", 0) + 1;
    rq(XS_DIRECTORY_PART, 0, req, n);
    i = strlen(rbody) + 1;
    CHECK_EQ(rlen, i + 4);
    CHECK(!memcmp(rbody + i, "n2\0\0", 4));
    n = snprintf(req, sizeof(req), "data%c99", 0) + 1;
    rq(XS_DIRECTORY_PART, 0, req, n);
    CHECK_EQ(rlen, strlen(rbody) + 2);
    CHECK_STR(RQS(XS_DIRECTORY_PART, 0, "data"), "EINVAL");
}

static void test_watches(void)
{
    reset();
    CHECK_STR(RQ(XS_WATCH, 0, "data\0tok"), "OK");
    CHECK_EQ(rtype, XS_WATCH);
    CHECK_EQ(nr_events, 1);
    CHECK(event_seen("data|tok"));                          /* initial */
    wr("data/x", "1");
    CHECK(event_seen("data/x|tok"));                        /* relative */
    CHECK_STR(RQ(XS_WATCH, 0, "/local/domain/1/data/x\0abs"), "OK");
    CHECK(event_seen("/local/domain/1/data/x|abs"));
    nr_events = 0;
    wr("data/x/y", "2");
    CHECK_EQ(nr_events, 2);
    CHECK(event_seen("data/x/y|tok"));
    CHECK(event_seen("/local/domain/1/data/x/y|abs"));
    nr_events = 0;
    RQS(XS_RM, 0, "data/x");
    CHECK(event_seen("data/x|tok"));
    CHECK(event_seen("/local/domain/1/data/x|abs"));    /* from below */
    CHECK_STR(RQ(XS_WATCH, 0, "data\0tok"), "EEXIST");
    CHECK_STR(RQ(XS_WATCH, 0, "/local/domain/1/data\0tok"), "EEXIST");
    CHECK_STR(RQ(XS_UNWATCH, 0, "data\0tok"), "OK");
    CHECK_STR(RQ(XS_UNWATCH, 0, "data\0tok"), "ENOENT");
    CHECK_STR(RQ(XS_WATCH, 0, "data//x\0t"), "EINVAL");
    CHECK_STR(RQS(XS_WATCH, 0, "data"), "EINVAL");
    nr_events = 0;
    CHECK_STR(RQ(XS_WATCH, 0, "@releaseDomain\0r"), "OK");
    CHECK(event_seen("@releaseDomain|r"));
    CHECK_STR(RQ(XS_WATCH, 0, "@introduceDomain\0i"), "OK");
    /* Unreadable nodes fire the initial event only. */
    nr_events = 0;
    CHECK_STR(RQ(XS_WATCH, 0, "/local/domain/0\0d0"), "OK");
    CHECK_EQ(nr_events, 1);
    xs_shim_write_path("/local/domain/0/name", "x");
    CHECK_EQ(nr_events, 1);
    CHECK_STR(RQS(XS_RESET_WATCHES, 0, ""), "OK");
    nr_events = 0;
    wr("data/z", "1");
    CHECK_EQ(nr_events, 0);
}

static void test_watch_quota(void)
{
    char req[32];
    unsigned int i, n;

    reset();
    for ( i = 0; i <= XS_QUOTA_WATCHES; i++ )
    {
        n = snprintf(req, sizeof(req), "data%ct%u", 0, i) + 1;
        CHECK_STR(rq(XS_WATCH, 0, req, n), "OK");
    }
    n = snprintf(req, sizeof(req), "data%ct%u", 0, i) + 1;
    CHECK_STR(rq(XS_WATCH, 0, req, n), "E2BIG");
}

static void test_power_button(void)
{
    reset();
    CHECK_STR(RQ(XS_WATCH, 0, "control/shutdown\0sd"), "OK");
    nr_events = 0;
    CHECK_EQ(xs_shim_write_path("/local/domain/1/control/shutdown",
                                "poweroff"), 0);
    xs_run();
    RQS(XS_READ, 0, "control/shutdown");
    CHECK_STR(rbody, "poweroff");
    CHECK(event_seen("control/shutdown|sd"));
    CHECK_STR(wr("control/shutdown", ""), "OK");    /* the guest acks */
}

static unsigned int shim_fired;

static void shim_watch_any(const char *path, void *data)
{
    (void)path;
    (void)data;
}

static void shim_watch_fn(const char *path, void *data)
{
    char v[8];

    CHECK_STR(path, "/local/domain/1/device/vbd/51712/state");
    CHECK_EQ(*(int *)data, 42);
    shim_fired++;
    /* A watch's own write: no recursion, the run picks it up. */
    if ( !xs_shim_read(path, v, sizeof(v)) && strcmp(v, "5") )
        CHECK_EQ(xs_shim_write(path, "5"), 0);
}

/*
 * The shim as a backend's client: device directories with libxl's
 * permissions, reads, and its own watches (once when set, once for
 * several changes, on a removal above, not for a sibling, not after
 * removal; a callback's own write runs it again, not recursively).
 */
static void test_shim_client(void)
{
    const char *fe = "/local/domain/1/device/vbd/51712";
    const char *be = "/local/domain/0/backend/vbd/1/51712";
    char path[80], buf[8];
    int cookie = 42;

    reset();
    CHECK_EQ(xs_shim_mkdir(fe, 1, 0), 0);
    CHECK_EQ(xs_shim_mkdir(be, 0, 1), 0);
    snprintf(path, sizeof(path), "%s/state", be);
    CHECK_EQ(xs_shim_write_path(path, "2"), 0);
    CHECK_STR(wr(path, "4"), "EACCES");         /* the guest only reads */
    CHECK_STR(RQS(XS_READ, 0, path), "2");
    snprintf(path, sizeof(path), "%s/state", fe);
    CHECK_EQ(xs_shim_write_path(path, "1"), 0);
    CHECK_STR(wr("device/vbd/51712/state", "3"), "OK");    /* its own */
    CHECK_EQ(xs_shim_read(path, buf, sizeof(buf)), 0);
    CHECK_STR(buf, "3");
    CHECK_EQ(xs_shim_read(path, buf, 1), XEN_E2BIG);
    CHECK_EQ(xs_shim_read("/local/domain/1/nope", buf, sizeof(buf)),
             XEN_ENOENT);
    CHECK_EQ(xs_shim_read("bad//path", buf, sizeof(buf)), XEN_EINVAL);

    shim_fired = 0;
    CHECK_EQ(xs_shim_watch(path, shim_watch_fn, &cookie), 0);
    CHECK_EQ(shim_fired, 2);                    /* set, then its own write */
    CHECK_STR(wr("device/vbd/51712/state", "4"), "OK");
    CHECK_STR(wr("device/vbd/51712/state", "6"), "OK");
    CHECK_STR(wr("device/vbd/51712/ring-ref", "8"), "OK");
    CHECK_EQ(shim_fired, 2);                    /* not in the middle */
    xs_shim_watches_run();
    CHECK_EQ(shim_fired, 4);                    /* once, and its write */
    CHECK_STR(RQS(XS_READ, 0, "device/vbd/51712/state"), "5");
    CHECK_STR(RQS(XS_RM, 0, "device/vbd/51712"), "OK");
    xs_shim_watches_run();
    CHECK_EQ(shim_fired, 5);                    /* the removal above it */
    xs_shim_unwatch(path, shim_watch_fn, &cookie);
    CHECK_EQ(xs_shim_rm(be), 0);
    CHECK_EQ(xs_shim_write_path(path, "1"), 0);
    xs_shim_watches_run();
    CHECK_EQ(shim_fired, 5);

    /*
     * Room for every disk's and NIC's (26 + 8) and more; a full table and
     * a path longer than the shim's own are refused, not cut.
     */
    {
        char p[160];
        int i, n = 0;

        for ( i = 0; i < 64; i++ )
        {
            snprintf(p, sizeof(p), "/local/domain/1/device/vbd/%d/state", i);
            if ( xs_shim_watch(p, shim_watch_any, &cookie) )
                break;
            n++;
        }
        CHECK(n >= 34 && n < 64);
        CHECK_EQ(xs_shim_watch(p, shim_watch_any, &cookie), XEN_ENOSPC);
        for ( i = 0; i < n; i++ )
        {
            snprintf(p, sizeof(p), "/local/domain/1/device/vbd/%d/state", i);
            xs_shim_unwatch(p, shim_watch_any, &cookie);
        }
        memset(p, 'a', 140);
        memcpy(p, "/local/", 7);
        p[140] = '\0';
        CHECK_EQ(xs_shim_watch(p, shim_watch_any, &cookie), XEN_ENAMETOOLONG);
        CHECK_EQ(xs_shim_watch("/local/domain/1/device/vif/0/state",
                               shim_watch_any, &cookie), 0);
        xs_shim_unwatch("/local/domain/1/device/vif/0/state", shim_watch_any,
                        &cookie);
    }
}

/* The backends' helpers: a frontend's numbers, a node written by format. */
static void test_shim_numbers(void)
{
    const char *fe = "/local/domain/1/device/vif/0";
    unsigned long n = 7;

    reset();
    CHECK_EQ(xs_shim_mkdir(fe, 1, 0), 0);
    CHECK_EQ(xs_shim_writef(fe, "tx-ring-ref", "%u", 4096u), 0);
    CHECK_EQ(xs_shim_read_ulong(fe, "tx-ring-ref", &n), 0);
    CHECK_EQ(n, 4096);
    CHECK_STR(wr("device/vif/0/event-channel", "4294967296"), "OK");
    CHECK_EQ(xs_shim_read_ulong(fe, "event-channel", &n), 0);
    CHECK_EQ(n, 1UL << 32);
    CHECK_STR(wr("device/vif/0/event-channel", "99999999999999999999"),
              "OK");
    CHECK_EQ(xs_shim_read_ulong(fe, "event-channel", &n), XEN_ERANGE);
    /* The largest value there is, and one past it. */
    CHECK_STR(wr("device/vif/0/event-channel", "18446744073709551615"), "OK");
    CHECK_EQ(xs_shim_read_ulong(fe, "event-channel", &n), 0);
    CHECK_EQ(n, ~0UL);
    CHECK_STR(wr("device/vif/0/event-channel", "18446744073709551616"), "OK");
    CHECK_EQ(xs_shim_read_ulong(fe, "event-channel", &n), XEN_ERANGE);
    CHECK_STR(wr("device/vif/0/event-channel", "4294967296"), "OK");
    CHECK_EQ(xs_shim_read_ulong(fe, "event-channel", &n), 0);
    CHECK_STR(wr("device/vif/0/state", "4x"), "OK");
    CHECK_EQ(xs_shim_read_ulong(fe, "state", &n), XEN_EINVAL);
    CHECK_STR(wr("device/vif/0/state", ""), "OK");
    CHECK_EQ(xs_shim_read_ulong(fe, "state", &n), XEN_EINVAL);
    CHECK_STR(wr("device/vif/0/state", "-1"), "OK");
    CHECK_EQ(xs_shim_read_ulong(fe, "state", &n), XEN_EINVAL);
    CHECK_EQ(xs_shim_read_ulong(fe, "nope", &n), XEN_ENOENT);
    CHECK_EQ(n, 1UL << 32);                     /* untouched on failure */
    CHECK_EQ(xs_shim_writef(fe, "mac", "%02x:%02x", 0x52, 0x54), 0);
    CHECK_STR(RQS(XS_READ, 0, "device/vif/0/mac"), "52:54");
}

static uint32_t start(void)
{
    RQS(XS_TRANSACTION_START, 0, "");
    CHECK_EQ(rtype, XS_TRANSACTION_START);
    return strtoul(rbody, NULL, 10);
}

static void test_transactions(void)
{
    uint32_t t, t2;

    reset();
    wr("data/c", "0");
    CHECK_STR(RQ(XS_WATCH, 0, "data\0w"), "OK");
    t = start();
    CHECK(t != 0);
    CHECK_STR(rq(XS_WRITE, t, "data/c\0" "1", 8), "OK");
    CHECK_STR(RQS(XS_READ, t, "data/c"), "1");
    CHECK_STR(RQS(XS_READ, 0, "data/c"), "0");      /* not yet visible */
    CHECK_STR(RQS(XS_MKDIR, t, "data/t/u"), "OK");
    CHECK_STR(RQS(XS_RM, t, "data/t"), "OK");
    nr_events = 0;
    CHECK_STR(RQS(XS_TRANSACTION_END, t, "T"), "OK");
    CHECK(event_seen("data/c|w"));                  /* on commit only */
    CHECK_STR(RQS(XS_READ, 0, "data/c"), "1");
    CHECK_STR(RQS(XS_READ, 0, "data/t"), "ENOENT");
    CHECK_STR(RQS(XS_TRANSACTION_END, t, "T"), "ENOENT");

    /* Conflict: what it read changed under it. */
    t = start();
    CHECK_STR(RQS(XS_READ, t, "data/c"), "1");
    wr("data/c", "2");
    CHECK_STR(rq(XS_WRITE, t, "data/c\0" "3", 8), "OK");
    CHECK_STR(RQS(XS_TRANSACTION_END, t, "T"), "EAGAIN");
    CHECK_STR(RQS(XS_READ, 0, "data/c"), "2");
    /* A node it found missing was created meanwhile. */
    t = start();
    CHECK_STR(RQS(XS_READ, t, "data/new"), "ENOENT");
    wr("data/new", "x");
    CHECK_STR(RQS(XS_TRANSACTION_END, t, "T"), "EAGAIN");
    /* Unrelated changes do not conflict; abort discards. */
    t = start();
    t2 = start();
    CHECK(t != t2);
    CHECK_STR(rq(XS_WRITE, t, "data/p\0" "1", 8), "OK");
    CHECK_STR(rq(XS_WRITE, t2, "data/q\0" "1", 8), "OK");
    CHECK_STR(RQS(XS_TRANSACTION_END, t2, "T"), "OK");
    CHECK_STR(RQS(XS_TRANSACTION_END, t, "T"), "EAGAIN"); /* data changed */
    t = start();
    CHECK_STR(rq(XS_WRITE, t, "data/r\0" "1", 8), "OK");
    CHECK_STR(RQS(XS_TRANSACTION_END, t, "F"), "OK");
    CHECK_STR(RQS(XS_READ, 0, "data/r"), "ENOENT");
    t = start();
    CHECK_STR(RQS(XS_TRANSACTION_END, t, "X"), "EINVAL");
    CHECK_STR(RQ(XS_TRANSACTION_END, t, "TT"), "EINVAL");
    CHECK_STR(RQS(XS_TRANSACTION_START, t, ""), "EBUSY");
    CHECK_STR(RQS(XS_TRANSACTION_END, 0, "T"), "ENOENT");
    CHECK_STR(RQS(XS_TRANSACTION_END, t, "F"), "OK");
    CHECK_STR(wr("name", "x"), "EACCES");

    /*
     * A node removed and then its parent looked at, written under or
     * listed: the parent's change is the transaction's own, no conflict.
     */
    wr("data/x", "1");
    t = start();
    CHECK_STR(RQS(XS_RM, t, "data/x"), "OK");
    CHECK_STR(rq(XS_WRITE, t, "data/y\0" "1", 8), "OK");
    CHECK_STR(RQS(XS_TRANSACTION_END, t, "T"), "OK");
    CHECK_STR(RQS(XS_READ, 0, "data/x"), "ENOENT");
    CHECK_STR(RQS(XS_READ, 0, "data/y"), "1");
    t = start();
    CHECK_STR(RQS(XS_RM, t, "data/y"), "OK");
    RQS(XS_DIRECTORY, t, "data");
    CHECK_EQ(rtype, XS_DIRECTORY);
    CHECK_STR(RQS(XS_TRANSACTION_END, t, "T"), "OK");
    CHECK_STR(RQS(XS_READ, 0, "data/y"), "ENOENT");
    /* Another's change to the parent meanwhile still conflicts. */
    wr("data/x", "1");
    t = start();
    wr("data/z", "1");
    CHECK_STR(RQS(XS_RM, t, "data/x"), "OK");
    CHECK_STR(RQS(XS_TRANSACTION_END, t, "T"), "EAGAIN");
    CHECK_STR(RQS(XS_READ, 0, "data/x"), "1");
}

static void test_transaction_quota(void)
{
    unsigned int i;

    reset();
    for ( i = 0; i <= XS_QUOTA_TRANSACTIONS; i++ )
        CHECK(start() != 0);
    CHECK_STR(RQS(XS_TRANSACTION_START, 0, ""), "ENOSPC");
    CHECK_STR(RQS(XS_RESET_WATCHES, 0, ""), "OK");  /* ends them all */
    CHECK(start() != 0);
}

static void test_node_quota(void)
{
    char path[32], big[XS_QUOTA_ENTRY_SIZE];
    unsigned int i, made = 0;

    reset();
    for ( i = 0; i < XS_QUOTA_NODES + 10; i++ )
    {
        snprintf(path, sizeof(path), "data/n%u", i / 100);
        snprintf(path + strlen(path), 16, "/%u", i);
        if ( strcmp(wr(path, ""), "OK") )
            break;
        made++;
    }
    CHECK_STR(rbody, "ENOSPC");
    CHECK(made > XS_QUOTA_NODES - 40 && made < XS_QUOTA_NODES);
    CHECK(xs_main_tree.guest_nodes >= XS_QUOTA_NODES - 1);
    RQS(XS_RM, 0, "data/n0");
    CHECK_STR(wr("data/again", ""), "OK");

    reset();
    memset(big, 'v', sizeof(big));
    big[XS_QUOTA_ENTRY_SIZE - 1] = '\0';
    CHECK_STR(wr("data/big", big), "ENOSPC");
    big[1900] = '\0';
    CHECK_STR(wr("data/big", big), "OK");
}

/*
 * A commit whose requests fail in the store where they passed in the
 * transaction's copy (the node quota, filled meanwhile outside it)
 * applies none of them: before, the first was left in the store.
 */
static void test_commit_all_or_nothing(void)
{
    char path[32];
    unsigned int i;
    uint32_t t;

    reset();
    CHECK_STR(RQS(XS_MKDIR, 0, "data/a"), "OK");
    CHECK_STR(RQS(XS_MKDIR, 0, "data/b"), "OK");
    for ( i = 0; i < XS_QUOTA_NODES + 10; i++ )
    {
        snprintf(path, sizeof(path), "data/n%u/%u", i / 100, i);
        if ( strcmp(wr(path, ""), "OK") )
            break;
    }
    CHECK_STR(rbody, "ENOSPC");
    /* Room for two nodes exactly. */
    while ( XS_QUOTA_NODES - xs_main_tree.guest_nodes < 2 )
    {
        i--;
        snprintf(path, sizeof(path), "data/n%u/%u", i / 100, i);
        CHECK_STR(RQS(XS_RM, 0, path), "OK");
    }
    CHECK_EQ(XS_QUOTA_NODES - xs_main_tree.guest_nodes, 2);

    CHECK_STR(RQ(XS_WATCH, 0, "data/a\0w"), "OK");
    t = start();
    CHECK_STR(rq(XS_WRITE, t, "data/a/1\0" "1", 10), "OK");
    CHECK_STR(rq(XS_WRITE, t, "data/a/2\0" "2", 10), "OK");
    CHECK_STR(wr("data/b/1", "1"), "OK");          /* no conflict */
    nr_events = 0;
    CHECK_STR(RQS(XS_TRANSACTION_END, t, "T"), "ENOSPC");
    CHECK_STR(RQS(XS_READ, 0, "data/a/1"), "ENOENT");
    CHECK_STR(RQS(XS_READ, 0, "data/a/2"), "ENOENT");
    CHECK(!event_seen("data/a/1|w"));
    CHECK_EQ(XS_QUOTA_NODES - xs_main_tree.guest_nodes, 1);

    /* With the room, the same commit is whole, its watches fired. */
    CHECK_STR(RQS(XS_RM, 0, "data/b/1"), "OK");
    t = start();
    CHECK_STR(rq(XS_WRITE, t, "data/a/1\0" "1", 10), "OK");
    CHECK_STR(rq(XS_WRITE, t, "data/a/2\0" "2", 10), "OK");
    CHECK_STR(RQS(XS_TRANSACTION_END, t, "T"), "OK");
    CHECK_STR(RQS(XS_READ, 0, "data/a/1"), "1");
    CHECK_STR(RQS(XS_READ, 0, "data/a/2"), "2");
    CHECK(event_seen("data/a/1|w") && event_seen("data/a/2|w"));
}

static void test_ring_partial_and_wrap(void)
{
    struct xsd_sockmsg hdr = { XS_READ, 42, 0, 6 }, m;
    char buf[XENSTORE_PAYLOAD_MAX + 1];
    unsigned int i;

    reset();
    /* Indexes about to wrap, in the ring and in 32 bits. */
    xs_page.req_cons = xs_page.req_prod = 0xfffffffc;
    xs_page.rsp_cons = xs_page.rsp_prod = 0xfffffff0;
    for ( i = 0; i < sizeof(hdr); i++ )
    {
        xs_put((char *)&hdr + i, 1);
        xs_run();
        CHECK(!xs_get_msg(&m, buf));
    }
    xs_put("dom", 3);
    xs_run();
    CHECK(!xs_get_msg(&m, buf));
    xs_put("id\0", 3);
    xs_run();
    CHECK(xs_get_msg(&m, buf));
    CHECK_EQ(m.req_id, 42);
    CHECK_STR(buf, "1");
    CHECK_EQ(xs_page.req_cons, xs_page.req_prod);
    /* A reply longer than the ring comes out in pieces as it drains. */
    RQS(XS_READ, 0, "domid");
    CHECK_STR(rbody, "1");
}

static void test_ring_big_reply(void)
{
    char big[1900], buf[XENSTORE_PAYLOAD_MAX + 1];
    struct xsd_sockmsg hdr = { XS_READ, 7, 0, 0 }, m;
    unsigned int got = 0, rounds;

    reset();
    memset(big, 'q', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    CHECK_STR(wr("data/big", big), "OK");
    hdr.len = sizeof("data/big");
    xs_put(&hdr, sizeof(hdr));
    xs_put("data/big", hdr.len);
    /* Take the reply a few bytes at a time, kicking the backend. */
    for ( rounds = 0; rounds < 1000 && !got; rounds++ )
    {
        xs_run();
        if ( xs_get_msg(&m, buf) )
            got = m.len;
    }
    CHECK_EQ(got, sizeof(big) - 1);
    CHECK(!memcmp(buf, big, sizeof(big) - 1));
}

static void test_ring_flood(void)
{
    struct xsd_sockmsg hdr = { XS_READ, 0, 0, sizeof("domid") }, m;
    char buf[XENSTORE_PAYLOAD_MAX + 1];
    uint32_t sent = 0, seen = 0;
    unsigned int round;

    reset();
    /* Requests without reading replies: they wait, none is lost. */
    for ( round = 0; round < 2000; round++ )
    {
        while ( XENSTORE_RING_SIZE - (xs_page.req_prod - xs_page.req_cons) >=
                sizeof(hdr) + hdr.len )
        {
            hdr.req_id = sent++;
            xs_put(&hdr, sizeof(hdr));
            xs_put("domid", hdr.len);
        }
        xs_run();
        if ( round % 3 == 0 )
            while ( xs_get_msg(&m, buf) )
            {
                CHECK_EQ(m.req_id, seen);
                CHECK_STR(buf, "1");
                seen++;
            }
    }
    CHECK(seen > 1000);
    CHECK(sent - seen < 4000);
}

static void test_ring_hostile(void)
{
    struct xsd_sockmsg hdr = { XS_READ, 1, 0, XENSTORE_PAYLOAD_MAX + 1 }, m;
    char buf[XENSTORE_PAYLOAD_MAX + 1];

    reset();
    xs_put(&hdr, sizeof(hdr));
    xs_run();
    CHECK_EQ(xs_page.error, XENSTORE_ERROR_PROTO);
    CHECK(!xs_get_msg(&m, buf));
    RQS(XS_READ, 0, "domid");                       /* ignored now */
    CHECK_EQ(rtype, XS_INVALID);
    /* The guest asks for a reconnection: a fresh, empty connection. */
    xs_page.connection = XENSTORE_RECONNECT;
    xs_run();
    CHECK_EQ(xs_page.connection, XENSTORE_CONNECTED);
    CHECK_EQ(xs_page.error, XENSTORE_ERROR_NONE);
    CHECK_EQ(xs_page.req_prod | xs_page.req_cons | xs_page.rsp_prod |
             xs_page.rsp_cons, 0);
    CHECK_STR(RQS(XS_READ, 0, "domid"), "1");
    /* A producer index beyond the ring. */
    xs_page.req_prod = xs_page.req_cons + XENSTORE_RING_SIZE + 1;
    xs_run();
    CHECK_EQ(xs_page.error, XENSTORE_ERROR_RINGIDX);
    CHECK(xs_page.server_features & XENSTORE_SERVER_FEATURE_ERROR);
}

static void test_arena_bounded(void)
{
    unsigned int i;
    size_t before;

    reset();
    before = xs_arena_used();
    for ( i = 0; i < 20; i++ )
    {
        uint32_t t = start();

        CHECK_STR(rq(XS_WRITE, t, "data/x\0" "1", 8), "OK");
        CHECK_STR(RQS(XS_TRANSACTION_END, t, i & 1 ? "T" : "F"), "OK");
        wr("data/x", "");
    }
    RQS(XS_RM, 0, "data/x");
    CHECK_EQ(xs_arena_used(), before);
}

/*
 * Send one request and take everything that comes back, messages longer
 * than the ring included (rq() takes two ring-fuls at most): how many
 * watch events, and whether the request's own reply came, with its id.
 */
static bool rq_all(uint32_t type, const char *body, unsigned int len,
                   unsigned int *events_seen)
{
    struct xsd_sockmsg hdr = { type, next_req++, 0, len }, m;
    static char buf[XENSTORE_PAYLOAD_MAX + 1];
    bool replied = false;
    unsigned int round;

    xs_put(&hdr, sizeof(hdr));
    xs_put(body, len);
    for ( round = 0; round < 1000; round++ )
    {
        xs_run();
        while ( xs_get_msg(&m, buf) )
        {
            if ( m.type == XS_WATCH_EVENT )
                ++*events_seen;
            else
            {
                CHECK_EQ(m.req_id, hdr.req_id);
                CHECK_EQ(m.type, type);
                replied = true;
            }
        }
    }
    return replied;
}

/*
 * A write whose watch events would fill the output queue (twenty 4 KiB
 * events, the queue 64 KiB) still gets its reply, the events past the
 * room dropped; an event too long for one message (a 4072-byte token, a
 * 200-byte path) is dropped, never sent as an error with request id 0.
 */
static void test_events_leave_room(void)
{
    static char body[8 + 4096], path[256];
    unsigned int i, n = 0;

    reset();
    /* Each event on data/x 4096 bytes: sixteen fill the queue exactly. */
    for ( i = 0; i < 20; i++ )
    {
        memcpy(body, "data", 5);
        memset(body + 5, 'a' + i, 4072);
        body[5 + 4072] = '\0';
        CHECK(rq_all(XS_WATCH, body, 5 + 4073, &n));
    }
    n = 0;
    CHECK(rq_all(XS_WRITE, "data/x\0" "1", 8, &n));
    CHECK(n > 0 && n < 20);

    memset(path, 'p', sizeof(path));
    memcpy(path, "data/", 5);
    path[200] = '\0';
    CHECK(rq_all(XS_WRITE, path, 201, &n));
    reset();
}

/*
 * The shim's reserve is a place, not only a count: the guest fills the
 * arena with one size of block, frees it all, then takes every block of
 * another size it can get; the shim still gets the reserve's worth of
 * that size (before, the guest's freed blocks served only their own size
 * and it cut the new ones out of the reserve).
 */
static void test_arena_reserve(void)
{
    static void *p[8192];
    unsigned int n = 0, g = 0, s = 0, i;

    reset();
    while ( n < ARRAY_SIZE(p) && (p[n] = xs_alloc(2000)) )
        n++;
    CHECK(n > 1000 && n < ARRAY_SIZE(p));
    for ( i = 0; i < n; i++ )
        xs_free(p[i]);
    while ( g < ARRAY_SIZE(p) && (p[g] = xs_alloc(16)) )
        g++;
    CHECK(g < ARRAY_SIZE(p));
    while ( g + s < ARRAY_SIZE(p) && (p[g + s] = xs_alloc_shim(16)) )
        s++;
    /* 64 KiB of 32-byte blocks, less what the seed and the root hold. */
    CHECK(s >= 1900);
    for ( i = 0; i < g + s; i++ )
        xs_free(p[i]);
    reset();
}

int main(void)
{
    RUN(test_seeded);
    RUN(test_write_read_rm);
    RUN(test_bad_requests);
    RUN(test_path_length);
    RUN(test_permissions);
    RUN(test_directory_part);
    RUN(test_watches);
    RUN(test_watch_quota);
    RUN(test_power_button);
    RUN(test_shim_client);
    RUN(test_shim_numbers);
    RUN(test_transactions);
    RUN(test_transaction_quota);
    RUN(test_node_quota);
    RUN(test_commit_all_or_nothing);
    RUN(test_ring_partial_and_wrap);
    RUN(test_ring_big_reply);
    RUN(test_ring_flood);
    RUN(test_ring_hostile);
    RUN(test_arena_bounded);
    RUN(test_arena_reserve);
    RUN(test_events_leave_room);
    UNIT_EXIT();
}
