/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A blkfront for test kernels (blkfront.h): the handshake as Linux's
 * xen-blkfront talk_to_blkback() does it, requests one at a time.
 */
#include "blkfront.h"

static char buf[XENSTORE_PAYLOAD_MAX + 1];

bool blk_test_init(void)
{
    if ( event_init() )
    {
        test_error("event_init failed");
        return false;
    }
    if ( !xs_init() )
    {
        test_error("no xenstore ring");
        return false;
    }
    gnt_setup(1);
    return true;
}

static const char *node(const char *dir, const char *name)
{
    static char p[2][80];
    static unsigned int i;

    i ^= 1;
    snprintf(p[i], sizeof(p[i]), "%s/%s", dir, name);
    return p[i];
}

const char *blk_fe(const struct blkfront *d, const char *name)
{
    return node(d->fe, name);
}

const char *blk_be(const struct blkfront *d, const char *name)
{
    return node(d->be, name);
}

const char *blk_xs_read(const char *path)
{
    const char *r = xs_req_str(XS_READ, 0, path);
    size_t n = strlen(r);

    memcpy(buf, r, n < sizeof(buf) ? n + 1 : sizeof(buf));
    return buf;
}

void blk_expect_node(const char *path, const char *want)
{
    const char *got = blk_xs_read(path);

    if ( strcmp(got, want) )
        test_fail("%s: \"%s\", expected \"%s\"", path, got, want);
}

bool blk_wait_be_state(struct blkfront *d, unsigned int want)
{
    uint64_t start = system_time();
    char w[4];

    snprintf(w, sizeof(w), "%u", want);
    while ( !blk_waited_long(start) )
    {
        if ( !strcmp(blk_xs_read(blk_be(d, "state")), w) )
            return true;
        blk_yield();
    }
    test_fail("backend state %s, waited for %s", buf, w);
    return false;
}

void blk_fe_state(struct blkfront *d, unsigned int s)
{
    char v[4];

    snprintf(v, sizeof(v), "%u", s);
    if ( strcmp(xs_write(0, blk_fe(d, "state"), v), "OK") )
        test_fail("writing %s", blk_fe(d, "state"));
}

void blk_grant(grant_ref_t ref, void *page, uint16_t extra)
{
    gnt_grant(1, ref, 0, virt_to_mfn(page), extra);
}

void blk_connect(struct blkfront *d)
{
    evtchn_alloc_unbound_t a = { .dom = DOMID_SELF, .remote_dom = 0 };
    struct blkif_sring *s = (void *)d->ring_page;
    char v[16];

    check_rc(evtchn_op(EVTCHNOP_alloc_unbound, &a), 0);
    d->port = a.port;
    memset(d->ring_page, 0, PAGE_SIZE);
    SHARED_RING_INIT(s);
    FRONT_RING_INIT(&d->ring, s, PAGE_SIZE);
    blk_grant(d->ref_ring, d->ring_page, 0);
    snprintf(v, sizeof(v), "%u", d->ref_ring);
    xs_write(0, blk_fe(d, "ring-ref"), v);
    snprintf(v, sizeof(v), "%u", d->port);
    xs_write(0, blk_fe(d, "event-channel"), v);
    xs_write(0, blk_fe(d, "protocol"), XEN_IO_PROTO_ABI_NATIVE);
    blk_fe_state(d, XenbusStateInitialised);
    blk_wait_be_state(d, XenbusStateConnected);
    blk_fe_state(d, XenbusStateConnected);
}

void blk_disconnect(struct blkfront *d, const char *why)
{
    evtchn_status_t st;

    blk_fe_state(d, XenbusStateClosing);
    blk_wait_be_state(d, XenbusStateClosing);
    blk_fe_state(d, XenbusStateClosed);
    blk_wait_be_state(d, XenbusStateClosed);
    check_rc(gnt_status_bits(1, d->ref_ring), 0);
    /* The backend let go of our port: it is unbound for domain 0 again. */
    check_rc(evtchn_status_of(d->port, &st), 0);
    if ( st.status != EVTCHNSTAT_unbound || st.u.unbound.dom != 0 )
        test_fail("%s: port %u status %u after the backend closed", why,
                  d->port, st.status);
    check_rc(evtchn_close(d->port), 0);
    blk_fe_state(d, XenbusStateInitialising);
    blk_wait_be_state(d, XenbusStateInitWait);
}

void blk_ring_put(struct blkif_front_ring *ring, uint64_t id, uint8_t op,
                  uint64_t sector, unsigned int nseg,
                  const struct blkif_request_segment *seg)
{
    struct blkif_request *r = RING_GET_REQUEST(ring, ring->req_prod_pvt);
    unsigned int i, n = nseg > BLKIF_MAX_SEGMENTS_PER_REQUEST
                        ? BLKIF_MAX_SEGMENTS_PER_REQUEST : nseg;

    r->operation = op;
    r->nr_segments = nseg;
    r->handle = 0;
    r->id = id;
    r->sector_number = sector;
    for ( i = 0; i < n; i++ )
        r->seg[i] = seg[i];
    ring->req_prod_pvt++;
}

void blk_push_only(struct blkfront *d, uint8_t op, uint64_t sector,
                   unsigned int nseg, const struct blkif_request_segment *seg)
{
    blk_ring_put(&d->ring, ++d->id, op, sector, nseg, seg);
}

void blk_push(struct blkfront *d, uint8_t op, uint64_t sector,
              unsigned int nseg, const struct blkif_request_segment *seg)
{
    int notify;

    blk_push_only(d, op, sector, nseg, seg);
    RING_PUSH_REQUESTS_AND_CHECK_NOTIFY(&d->ring, notify);
    if ( notify )
        evtchn_send(d->port);
}

bool blk_response(struct blkfront *d, struct blkif_response *rsp)
{
    uint64_t start = system_time();

    while ( !RING_HAS_UNCONSUMED_RESPONSES(&d->ring) &&
            !blk_waited_long(start) )
        blk_yield();
    if ( !RING_HAS_UNCONSUMED_RESPONSES(&d->ring) )
    {
        test_fail("no response after request %llx",
                  (unsigned long long)d->id);
        return false;
    }
    *rsp = *RING_GET_RESPONSE(&d->ring, d->ring.rsp_cons);
    d->ring.rsp_cons++;
    return true;
}

int blk_rq(struct blkfront *d, uint8_t op, uint64_t sector,
           unsigned int nseg, const struct blkif_request_segment *seg)
{
    struct blkif_response rsp;

    blk_push(d, op, sector, nseg, seg);
    if ( !blk_response(d, &rsp) )
        return -99;
    if ( rsp.id != d->id || rsp.operation != op )
        test_fail("response id %llx op %u for %llx op %u",
                  (unsigned long long)rsp.id, rsp.operation,
                  (unsigned long long)d->id, op);
    return rsp.status;
}

bool blk_holds(const uint8_t *p, unsigned int off, uint64_t n)
{
    const volatile uint64_t *w = (const void *)(p + off);
    unsigned int i;

    for ( i = 0; i < 64; i++ )
        if ( w[i] != n )
            return false;
    return true;
}

void blk_read_page(struct blkfront *d, grant_ref_t ref, uint8_t *page,
                   uint64_t sector, const char *when)
{
    struct blkif_request_segment seg = blk_seg(ref, 0, 7);

    memset(page, 0xaa, PAGE_SIZE);
    check_rc(blk_rq(d, BLKIF_OP_READ, sector, 1, &seg), BLKIF_RSP_OKAY);
    if ( !blk_holds(page, 0, sector) )
        test_fail("%s: sector %llu read wrong", when,
                  (unsigned long long)sector);
}
