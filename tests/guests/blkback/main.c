/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The shim's block backend through a blkfront of our own: xvda's
 * xenstore entries as libxl writes them, the XenbusState handshake, a
 * ring in the guest's own ABI (x86_64-abi, or x86_32-abi for the 32-bit
 * kernel), reads checked against the disk image (sector n holds n in
 * each of its 64-bit words), writes read back, flushes, grants released
 * after each response; and a hostile frontend: bad grant refs, foreign
 * and read-only grants, a page table as a read's destination,
 * nr_segments 0 and 12, bad first/last sectors, a sector past the disk,
 * an unknown operation, a closed and reconnected frontend, a port closed
 * and reused, and req_prod far past the ring (the backend closes, the
 * guest and the shim go on, and a reconnect works).  xvdb is a read-only
 * (vbd=...:ro) NVMe namespace, read in partial pages (one device request
 * each: NVMe's PRPs) and refused a write.
 */
#include "blkfront.h"
#include "fuzz.h"
#include "smp.h"

/* ring.h's barriers for the guest library's interface version. */
#include <xen/memory.h>

const char test_title[] = "blkback: xvda through a blkfront of our own";

#define NDATA   12
#define REF_DATA 9                      /* data page i: REF_DATA + i */
#define REF_RING 30                     /* xvda's ring; xvdb's 31, xvdc's 32 */
#define REF_MRING 40                    /* a multi-page ring's page i */
#define REF_IND 50                      /* indirect page i */
#define NBIG    32                      /* pages for indirect requests */
#define REF_BIG 60                      /* big page i: REF_BIG + i */
#define MRING_ORDER 2

/* A frontend: xvda (virtio-blk, 4 MiB) or xvdb (NVMe, 1 MiB, vbd=:ro). */
static struct vbd {
    const char *fe, *be;
    unsigned long sectors;
    grant_ref_t ref_ring;
    uint8_t *ring_page;
    struct blkif_front_ring ring;
    evtchn_port_t port;
    int order;                          /* ring-page-order; -1: none */
} *d;

static uint8_t ring_pages[3][PAGE_SIZE] __gnt_page;
static uint8_t mring[1 << MRING_ORDER][PAGE_SIZE] __gnt_page;
static uint8_t data[NDATA][PAGE_SIZE] __gnt_page;
static uint8_t big[NBIG][PAGE_SIZE] __gnt_page;
static struct blkif_request_segment ind[PAGE_SIZE / 8] __gnt_page;
static char buf[XENSTORE_PAYLOAD_MAX + 1];

static struct vbd xvda = {
    .fe = "device/vbd/51712", .be = "/local/domain/0/backend/vbd/1/51712",
    .sectors = 8192, .ref_ring = REF_RING, .ring_page = ring_pages[0],
    .order = -1,
};
static struct vbd xvdb = {
    .fe = "device/vbd/51728", .be = "/local/domain/0/backend/vbd/1/51728",
    .sectors = 2048, .ref_ring = REF_RING + 1, .ring_page = ring_pages[1],
    .order = -1,
};
/* A virtio disk of 4 KiB logical blocks: still 512-byte blkif sectors. */
static struct vbd xvdc = {
    .fe = "device/vbd/51744", .be = "/local/domain/0/backend/vbd/1/51744",
    .sectors = 2048, .ref_ring = REF_RING + 2, .ring_page = ring_pages[2],
    .order = -1,
};
#define SECTORS (d->sectors)

/* d's frontend or backend node @name. */
static const char *fe(const char *name)
{
    static char p[2][80];
    static unsigned int i;

    i ^= 1;
    snprintf(p[i], sizeof(p[i]), "%s/%s", d->fe, name);
    return p[i];
}

static const char *be(const char *name)
{
    static char p[2][80];
    static unsigned int i;

    i ^= 1;
    snprintf(p[i], sizeof(p[i]), "%s/%s", d->be, name);
    return p[i];
}

static const char *rd(const char *path)
{
    const char *r = xs_req_str(XS_READ, 0, path);

    size_t n = strlen(r);

    memcpy(buf, r, n < sizeof(buf) ? n + 1 : sizeof(buf));
    return buf;
}

static void expect_node(const char *path, const char *want)
{
    const char *got = rd(path);

    if ( strcmp(got, want) )
        test_fail("%s: \"%s\", expected \"%s\"", path, got, want);
}

static void yield(void)
{
    hypercall_sched_op(SCHEDOP_yield, NULL);
}

/* Wait for the backend's state to become @want. */
static bool wait_be_state(unsigned int want)
{
    char w[4];
    uint64_t start = system_time();

    snprintf(w, sizeof(w), "%u", want);
    do {
        if ( !strcmp(rd(be("state")), w) )
            return true;
        yield();
    } while ( !blk_waited_long(start) );
    test_fail("backend state %s, waited for %s", buf, w);
    return false;
}

static void fe_state(unsigned int s)
{
    char v[4];

    snprintf(v, sizeof(v), "%u", s);
    if ( strcmp(xs_write(0, fe("state"), v), "OK") )
        test_fail("writing %s", fe("state"));
}

static void grant_page(grant_ref_t ref, void *page, uint16_t extra)
{
    gnt_grant(1, ref, 0, virt_to_mfn(page), extra);
}

/*
 * The ring's nodes: ring-ref, or with d->order >= 0 (ring-page-order)
 * ring-ref0..N for the pages of mring, REF_MRING on.
 */
static struct blkif_sring *ring_nodes(void)
{
    unsigned int i, n = d->order < 0 ? 1 : 1u << d->order;
    uint8_t *page = d->order < 0 ? d->ring_page : mring[0];
    char v[16], name[16];

    memset(page, 0, n * PAGE_SIZE);
    if ( d->order < 0 )
    {
        grant_page(d->ref_ring, page, 0);
        snprintf(v, sizeof(v), "%u", d->ref_ring);
        xs_write(0, fe("ring-ref"), v);
        xs_req_str(XS_RM, 0, fe("ring-page-order"));
        return (void *)page;
    }
    snprintf(v, sizeof(v), "%d", d->order);
    xs_write(0, fe("ring-page-order"), v);
    for ( i = 0; i < n; i++ )
    {
        grant_page(REF_MRING + i, mring[i], 0);
        snprintf(name, sizeof(name), "ring-ref%u", i);
        snprintf(v, sizeof(v), "%u", REF_MRING + i);
        xs_write(0, fe(name), v);
    }
    return (void *)page;
}

/* Allocate a port for domain 0, set the ring up (Initialised: offer()). */
static void offer_nodes(void)
{
    evtchn_alloc_unbound_t a = { .dom = DOMID_SELF, .remote_dom = 0 };
    struct blkif_sring *s;
    char v[16];

    check_rc(evtchn_op(EVTCHNOP_alloc_unbound, &a), 0);
    d->port = a.port;
    s = ring_nodes();
    SHARED_RING_INIT(s);
    FRONT_RING_INIT(&d->ring, s, d->order < 0 ? PAGE_SIZE
                                              : PAGE_SIZE << d->order);
    snprintf(v, sizeof(v), "%u", d->port);
    xs_write(0, fe("event-channel"), v);
    xs_write(0, fe("protocol"), XEN_IO_PROTO_ABI_NATIVE);
}

static void offer(void)
{
    offer_nodes();
    fe_state(XenbusStateInitialised);
}

/* ... and Connected. */
static void connect(void)
{
    offer();
    wait_be_state(XenbusStateConnected);
    fe_state(XenbusStateConnected);
}

static uint64_t id = 0x1000;

/* Push what is queued, then the response to request @id, op @op. */
static int await(uint8_t op)
{
    struct blkif_response rsp;
    uint64_t start = system_time();
    int notify;

    RING_PUSH_REQUESTS_AND_CHECK_NOTIFY(&d->ring, notify);
    if ( notify )
        evtchn_send(d->port);
    while ( !RING_HAS_UNCONSUMED_RESPONSES(&d->ring) &&
            !blk_waited_long(start) )
        yield();
    if ( !RING_HAS_UNCONSUMED_RESPONSES(&d->ring) )
    {
        test_fail("no response to op %u id %llx", op,
                  (unsigned long long)id);
        return -99;
    }
    rsp = *RING_GET_RESPONSE(&d->ring, d->ring.rsp_cons);
    d->ring.rsp_cons++;
    if ( rsp.id != id || rsp.operation != op )
        test_fail("response id %llx op %u for %llx op %u",
                  (unsigned long long)rsp.id, rsp.operation,
                  (unsigned long long)id, op);
    return rsp.status;
}

/* One request; its response's status (or -99 if none came). */
static int rq(uint8_t op, uint64_t sector, unsigned int nseg,
              const struct blkif_request_segment *seg)
{
    blk_ring_put(&d->ring, ++id, op, sector, nseg, seg);
    return await(op);
}

static void reads(void)
{
    struct blkif_request_segment s[BLKIF_MAX_SEGMENTS_PER_REQUEST];
    unsigned int i, j;

    grant_page(REF_DATA, data[0], 0);
    check_rc(rq(BLKIF_OP_READ, 0, 1, (s[0] = blk_seg(REF_DATA, 0, 7), s)),
             BLKIF_RSP_OKAY);
    for ( i = 0; i < 8; i++ )
        if ( !blk_holds(data[0], i * 512, i) )
            test_fail("read of sectors 0-7: sector %u wrong", i);
    check_rc(gnt_status_bits(1, REF_DATA), 0);

    /* 11 segments, partial pages: sectors 1000 on, 2 per page at 3-4. */
    for ( i = 0; i < 11; i++ )
    {
        memset(data[i], 0xee, PAGE_SIZE);
        grant_page(REF_DATA + i, data[i], 0);
        s[i] = blk_seg(REF_DATA + i, 3, 4);
    }
    check_rc(rq(BLKIF_OP_READ, 1000, 11, s), BLKIF_RSP_OKAY);
    for ( i = 0; i < 11; i++ )
    {
        for ( j = 0; j < 2; j++ )
            if ( !blk_holds(data[i], (3 + j) * 512, 1000 + 2 * i + j) )
                test_fail("11-segment read: segment %u sector %u", i, j);
        if ( data[i][0] != 0xee || data[i][5 * 512] != 0xee )
            test_fail("11-segment read wrote outside segment %u", i);
        check_rc(gnt_status_bits(1, REF_DATA + i), 0);
    }
    /* The last sector of the disk. */
    check_rc(rq(BLKIF_OP_READ, SECTORS - 1, 1, (s[0] = blk_seg(REF_DATA, 7, 7), s)),
             BLKIF_RSP_OKAY);
    if ( !blk_holds(data[0], 7 * 512, SECTORS - 1) )
        test_fail("the last sector read wrong");
}

static void writes(void)
{
    struct blkif_request_segment s[2];
    unsigned int i;

    for ( i = 0; i < PAGE_SIZE; i++ )
        data[1][i] = i * 7 + 1;
    /* The source only needs reading: a read-only grant will do. */
    grant_page(REF_DATA + 1, data[1], GTF_readonly);
    s[0] = blk_seg(REF_DATA + 1, 2, 3);
    check_rc(rq(BLKIF_OP_WRITE, 50, 1, s), BLKIF_RSP_OKAY);
    memset(data[2], 0, PAGE_SIZE);
    grant_page(REF_DATA + 2, data[2], 0);
    s[0] = blk_seg(REF_DATA + 2, 0, 3);
    check_rc(rq(BLKIF_OP_READ, 48, 1, s), BLKIF_RSP_OKAY);
    if ( !blk_holds(data[2], 0, 48) || !blk_holds(data[2], 512, 49) ||
         memcmp(data[2] + 1024, data[1] + 1024, 1024) )
        test_fail("sectors 48-51 not as written");
    check_rc(rq(BLKIF_OP_FLUSH_DISKCACHE, 0, 0, s), BLKIF_RSP_OKAY);
    /* A barrier write: the write, then a flush. */
    grant_page(REF_DATA + 1, data[1], 0);
    s[0] = blk_seg(REF_DATA + 1, 0, 0);
    check_rc(rq(BLKIF_OP_WRITE_BARRIER, 60, 1, s), BLKIF_RSP_OKAY);
    /* feature-barrier: with no segments, a flush alone. */
    expect_node(be("feature-barrier"), "1");
    check_rc(rq(BLKIF_OP_WRITE_BARRIER, 0, 0, s), BLKIF_RSP_OKAY);
    s[0] = blk_seg(REF_DATA + 2, 0, 0);
    check_rc(rq(BLKIF_OP_READ, 60, 1, s), BLKIF_RSP_OKAY);
    if ( memcmp(data[2], data[1], 512) )
        test_fail("sector 60 not as written by the barrier");
    check_rc(gnt_status_bits(1, REF_DATA + 1), 0);
}

static void hostile(void)
{
    struct blkif_request_segment s[12];
    unsigned int i;

    grant_page(REF_DATA, data[0], 0);
    for ( i = 0; i < 12; i++ )
        s[i] = blk_seg(REF_DATA, 0, 0);
    check_rc(rq(BLKIF_OP_READ, 0, 0, s), BLKIF_RSP_ERROR);
    check_rc(rq(BLKIF_OP_READ, 0, 12, s), BLKIF_RSP_ERROR);
    check_rc(rq(BLKIF_OP_WRITE, 0, 0, s), BLKIF_RSP_ERROR);
    check_rc(rq(BLKIF_OP_READ, 0, 1, (s[0] = blk_seg(REF_DATA, 4, 3), s)),
             BLKIF_RSP_ERROR);
    check_rc(rq(BLKIF_OP_READ, 0, 1, (s[0] = blk_seg(REF_DATA, 0, 8), s)),
             BLKIF_RSP_ERROR);
    /* Past the end, and wrapping round. */
    check_rc(rq(BLKIF_OP_READ, SECTORS - 1, 1, (s[0] = blk_seg(REF_DATA, 0, 1), s)),
             BLKIF_RSP_ERROR);
    check_rc(rq(BLKIF_OP_READ, ~0ULL, 1, (s[0] = blk_seg(REF_DATA, 0, 0), s)),
             BLKIF_RSP_ERROR);
    /* A ref past the table, and one granted to nobody. */
    check_rc(rq(BLKIF_OP_READ, 0, 1, (s[0] = blk_seg(4000, 0, 0), s)),
             BLKIF_RSP_ERROR);
    gnt_v1[REF_DATA + 5].flags = 0;
    check_rc(rq(BLKIF_OP_READ, 0, 1, (s[0] = blk_seg(REF_DATA + 5, 0, 0), s)),
             BLKIF_RSP_ERROR);
    /* Granted to another domain. */
    gnt_grant(1, REF_DATA + 5, 7, virt_to_mfn(data[5]), 0);
    check_rc(rq(BLKIF_OP_READ, 0, 1, (s[0] = blk_seg(REF_DATA + 5, 0, 0), s)),
             BLKIF_RSP_ERROR);
    /* A read-only grant for a read: the device would write into it. */
    memset(data[5], 0xaa, PAGE_SIZE);
    grant_page(REF_DATA + 5, data[5], GTF_readonly);
    check_rc(rq(BLKIF_OP_READ, 0, 1, (s[0] = blk_seg(REF_DATA + 5, 0, 0), s)),
             BLKIF_RSP_ERROR);
    if ( data[5][0] != 0xaa )
        test_fail("a refused read wrote into a read-only grant");
    /* A page table as a read's destination: no writable type for it. */
    gnt_grant(1, REF_DATA + 6, 0, pt_base_mfn(), 0);
    check_rc(rq(BLKIF_OP_READ, 0, 1, (s[0] = blk_seg(REF_DATA + 6, 0, 0), s)),
             BLKIF_RSP_ERROR);
    check_rc(gnt_status_bits(1, REF_DATA + 6), 0);
    /* Segments mapped before a bad one are released. */
    s[0] = blk_seg(REF_DATA, 0, 0);
    s[1] = blk_seg(REF_DATA + 5, 0, 0);
    check_rc(rq(BLKIF_OP_READ, 0, 2, s), BLKIF_RSP_ERROR);
    check_rc(gnt_status_bits(1, REF_DATA), 0);
    check_rc(rq(99, 0, 1, (s[0] = blk_seg(REF_DATA, 0, 0), s)),
             BLKIF_RSP_EOPNOTSUPP);
    /* And the ring still works. */
    check_rc(rq(BLKIF_OP_READ, 5, 1, (s[0] = blk_seg(REF_DATA, 0, 0), s)),
             BLKIF_RSP_OKAY);
    if ( !blk_holds(data[0], 0, 5) )
        test_fail("read of sector 5 after the hostile requests");
}

/* Closing and coming back, as a driver reload or kexec does. */
static void reconnect(const char *why)
{
    evtchn_status_t st;

    fe_state(XenbusStateClosing);
    wait_be_state(XenbusStateClosing);
    fe_state(XenbusStateClosed);
    wait_be_state(XenbusStateClosed);
    check_rc(gnt_status_bits(1, d->ref_ring), 0);
    /* The backend let go of our port: it is unbound for domain 0 again. */
    check_rc(evtchn_status_of(d->port, &st), 0);
    if ( st.status != EVTCHNSTAT_unbound || st.u.unbound.dom != 0 )
        test_fail("%s: port %u status %u after the backend closed", why,
                  d->port, st.status);
    check_rc(evtchn_close(d->port), 0);
    fe_state(XenbusStateInitialising);
    wait_be_state(XenbusStateInitWait);
    connect();
}

static void check_read_5(const char *why)
{
    struct blkif_request_segment s = blk_seg(REF_DATA, 0, 0);

    memset(data[0], 0, 512);
    check_rc(rq(BLKIF_OP_READ, 5, 1, &s), BLKIF_RSP_OKAY);
    if ( !blk_holds(data[0], 0, 5) )
        test_fail("%s: read of sector 5", why);
}

static void broken_ring(void)
{
    struct blkif_sring *s = (void *)d->ring_page;

    /* Far more requests than a ring holds: the backend gives up on it. */
    s->req_prod = d->ring.req_prod_pvt + 1000;
    evtchn_send(d->port);
    wait_be_state(XenbusStateClosing);
    reconnect("after a broken ring");
    check_read_5("after a broken ring");
}

/* The guest closes its port while connected, then reuses the number. */
static void port_closed(void)
{
    evtchn_alloc_unbound_t a = { .dom = DOMID_SELF, .remote_dom = 0 };
    evtchn_status_t st;
    uint32_t old = d->port;

    check_rc(evtchn_close(d->port), 0);
    check_rc(evtchn_op(EVTCHNOP_alloc_unbound, &a), 0);
    d->port = a.port;
    if ( d->port != old )
        test_fail("port %u not reused (%u)", old, d->port);
    fe_state(XenbusStateClosing);
    wait_be_state(XenbusStateClosing);
    fe_state(XenbusStateClosed);
    wait_be_state(XenbusStateClosed);
    /* The backend's unbind left the new port alone. */
    check_rc(evtchn_status_of(d->port, &st), 0);
    if ( st.status != EVTCHNSTAT_unbound || evtchn_test_pending(d->port) )
        test_fail("the reused port %u was touched: status %u", d->port,
                  st.status);
    check_rc(evtchn_close(d->port), 0);
    fe_state(XenbusStateInitialising);
    wait_be_state(XenbusStateInitWait);
    connect();
    check_read_5("after closing the port");
}

static void entries(const char *name, bool ro)
{
    char s[64];

    expect_node(fe("backend"), d->be);
    expect_node(fe("backend-id"), "0");
    expect_node(fe("virtual-device"), d->fe + strlen("device/vbd/"));
    expect_node(fe("device-type"), "disk");
    expect_node(fe("state"), "1");
    snprintf(s, sizeof(s), "/local/domain/1/%s", d->fe);
    expect_node(be("frontend"), s);
    expect_node(be("frontend-id"), "1");
    expect_node(be("dev"), name);
    expect_node(be("mode"), ro ? "r" : "w");
    expect_node(be("type"), "phy");
    expect_node(be("device-type"), "disk");
    expect_node(be("online"), "1");
    wait_be_state(XenbusStateInitWait);
    snprintf(s, sizeof(s), "%lu", SECTORS);
    expect_node(be("sectors"), s);
    expect_node(be("sector-size"), "512");
    expect_node(be("physical-sector-size"), "512");
    expect_node(be("info"), ro ? "4" : "0");    /* VDISK_READONLY */
    /* The guest may read, not write, its backend's directory. */
    if ( strcmp(xs_write(0, be("state"), "4"), "EACCES") )
        test_fail("the guest wrote its backend's state");
}

/* Queue an indirect request of @nseg segments, those in ind[] (@ref). */
static void put_ind(uint8_t op, uint64_t sector, unsigned int nseg,
                    grant_ref_t ref)
{
    struct blkif_request_indirect *r =
        (void *)RING_GET_REQUEST(&d->ring, d->ring.req_prod_pvt);

    memset(r, 0, sizeof(*r));
    r->operation = BLKIF_OP_INDIRECT;
    r->indirect_op = op;
    r->nr_segments = nseg;
    r->id = ++id;
    r->sector_number = sector;
    r->indirect_grefs[0] = ref;
    d->ring.req_prod_pvt++;
}

/* One indirect request; its response's status (or -99 if none came). */
static int rq_ind(uint8_t op, uint64_t sector, unsigned int nseg,
                  grant_ref_t ref)
{
    put_ind(op, sector, nseg, ref);
    return await(op);
}

/*
 * Push what is queued and take @n responses, ids @first on, each @op and
 * OKAY; the test fails if one isn't, or if they don't all come.
 */
static void await_all(uint64_t first, unsigned int n, uint8_t op,
                      const char *why)
{
    struct blkif_response rsp;
    uint64_t start = system_time();
    unsigned int got = 0;
    int notify;

    RING_PUSH_REQUESTS_AND_CHECK_NOTIFY(&d->ring, notify);
    if ( notify )
        evtchn_send(d->port);
    while ( got < n && !blk_waited_long(start) )
    {
        if ( !RING_HAS_UNCONSUMED_RESPONSES(&d->ring) )
        {
            yield();
            continue;
        }
        rsp = *RING_GET_RESPONSE(&d->ring, d->ring.rsp_cons++);
        if ( rsp.status != BLKIF_RSP_OKAY || rsp.id < first ||
             rsp.id >= first + n || rsp.operation != op )
            test_fail("%s: response id %llx status %d", why,
                      (unsigned long long)rsp.id, rsp.status);
        got++;
    }
    if ( got != n )
        test_fail("%s: %u responses of %u", why, got, n);
}

static int rq_discard(uint64_t sector, uint64_t nr, uint8_t flag)
{
    struct blkif_request_discard *r =
        (void *)RING_GET_REQUEST(&d->ring, d->ring.req_prod_pvt);

    memset(r, 0, sizeof(*r));
    r->operation = BLKIF_OP_DISCARD;
    r->flag = flag;
    r->id = ++id;
    r->sector_number = sector;
    r->nr_sectors = nr;
    d->ring.req_prod_pvt++;
    return await(BLKIF_OP_DISCARD);
}

/*
 * xvdb: an NVMe namespace, read-only by vbd=: reads (segments in the
 * middle of pages: one device request each, for NVMe's PRPs), writes
 * refused, and the image untouched.
 */
static void nvme_ro(void)
{
    struct blkif_request_segment s[3];
    unsigned int i;

    d = &xvdb;
    entries("xvdb", true);
    connect();
    check_read_5("xvdb");
    for ( i = 0; i < 3; i++ )
    {
        memset(data[i], 0xee, PAGE_SIZE);
        grant_page(REF_DATA + i, data[i], 0);
        s[i] = blk_seg(REF_DATA + i, 2, 5);
    }
    check_rc(rq(BLKIF_OP_READ, 300, 3, s), BLKIF_RSP_OKAY);
    for ( i = 0; i < 12; i++ )
        if ( !blk_holds(data[i / 4], (2 + i % 4) * 512, 300 + i) )
            test_fail("xvdb: split read: sector %u", 300 + i);
    check_rc(rq(BLKIF_OP_WRITE, 300, 1, s), BLKIF_RSP_ERROR);
    check_rc(rq(BLKIF_OP_FLUSH_DISKCACHE, 0, 0, s), BLKIF_RSP_ERROR);
    /* No discard-enable for a read-only disk, so no feature-discard. */
    expect_node(be("discard-enable"), "0");
    check_rc(rq_discard(300, 8, 0), BLKIF_RSP_EOPNOTSUPP);
    check_rc(rq(BLKIF_OP_READ, 300, 1, (s[0] = blk_seg(REF_DATA, 0, 0), s)),
             BLKIF_RSP_OKAY);
    if ( !blk_holds(data[0], 0, 300) )
        test_fail("xvdb: a refused write changed sector 300");
    reconnect("xvdb");
    check_read_5("xvdb after reconnecting");
    d = &xvda;
}

static void big_pages(uint8_t fill)
{
    unsigned int i;

    for ( i = 0; i < NBIG; i++ )
    {
        memset(big[i], fill, PAGE_SIZE);
        grant_page(REF_BIG + i, big[i], 0);
    }
}

/* Indirect requests whose segments or pages are wrong: each an error. */
static void indirect_hostile(void)
{
    unsigned int i;

    big_pages(0xee);
    for ( i = 0; i < NBIG; i++ )
        ind[i] = blk_seg(REF_BIG + i, 0, 7);
    check_rc(rq_ind(BLKIF_OP_READ, 0, 0, REF_IND), BLKIF_RSP_ERROR);
    check_rc(rq_ind(BLKIF_OP_READ, 0, 257, REF_IND), BLKIF_RSP_ERROR);
    check_rc(rq_ind(BLKIF_OP_FLUSH_DISKCACHE, 0, 1, REF_IND),
             BLKIF_RSP_ERROR);
    check_rc(rq_ind(99, 0, 1, REF_IND), BLKIF_RSP_ERROR);
    /* The indirect page: past the table, not granted. */
    check_rc(rq_ind(BLKIF_OP_READ, 0, 4, 4000), BLKIF_RSP_ERROR);
    gnt_v1[REF_IND + 1].flags = 0;
    check_rc(rq_ind(BLKIF_OP_READ, 0, 4, REF_IND + 1), BLKIF_RSP_ERROR);
    /* Past the disk's end. */
    check_rc(rq_ind(BLKIF_OP_READ, SECTORS - 8, 2, REF_IND), BLKIF_RSP_ERROR);
    /* A segment's sectors out of the page, or backwards. */
    ind[3] = blk_seg(REF_BIG + 3, 0, 8);
    check_rc(rq_ind(BLKIF_OP_READ, 0, 4, REF_IND), BLKIF_RSP_ERROR);
    ind[3] = blk_seg(REF_BIG + 3, 5, 4);
    check_rc(rq_ind(BLKIF_OP_READ, 0, 4, REF_IND), BLKIF_RSP_ERROR);
    /* A bad grant after good ones: those mapped are released. */
    ind[3] = blk_seg(4000, 0, 7);
    check_rc(rq_ind(BLKIF_OP_READ, 0, 4, REF_IND), BLKIF_RSP_ERROR);
    for ( i = 0; i < 4; i++ )
        check_rc(gnt_status_bits(1, REF_BIG + i), 0);
    check_rc(gnt_status_bits(1, REF_IND), 0);
    if ( big[0][0] != 0xee )
        test_fail("a refused indirect read wrote page 0");
}

/*
 * @copies indirect reads (page REF_IND) queued at once, each of the same
 * 256 one-sector segments at @sector, each in the middle of a big page,
 * backwards in it; every one answered OKAY, every sector checked (the
 * copies write the same bytes, whichever finishes last).
 */
static void read_256_pieces(uint64_t sector, unsigned int copies,
                            const char *what)
{
    uint64_t first = id + 1;
    unsigned int k;

    for ( k = 0; k < 256; k++ )
        ind[k] = blk_seg(REF_BIG + k / 8, 7 - k % 8, 7 - k % 8);
    for ( k = 0; k < copies; k++ )
        put_ind(BLKIF_OP_READ, sector, 256, REF_IND);
    await_all(first, copies, BLKIF_OP_READ, what);
    for ( k = 0; k < 256; k++ )
        if ( !blk_holds(big[k / 8], (7 - k % 8) * 512, sector + k) )
            test_fail("%s: sector %llu wrong", what,
                      (unsigned long long)(sector + k));
}

/*
 * feature-max-indirect-segments: 32 whole pages, 256 one-sector
 * segments (the device takes them in several requests), a write read
 * back, then the hostile ones.
 */
static void indirect(void)
{
    struct blkif_request_segment s[2];
    unsigned int i, k;

    expect_node(be("feature-max-indirect-segments"), "256");
    grant_page(REF_IND, ind, GTF_readonly);
    big_pages(0xee);
    for ( i = 0; i < NBIG; i++ )
        ind[i] = blk_seg(REF_BIG + i, 0, 7);
    check_rc(rq_ind(BLKIF_OP_READ, 2000, NBIG, REF_IND), BLKIF_RSP_OKAY);
    for ( k = 0; k < NBIG * 8; k++ )
        if ( !blk_holds(big[k / 8], k % 8 * 512, 2000 + k) )
            test_fail("indirect read: sector %u wrong", 2000 + k);
    for ( i = 0; i < NBIG; i++ )
        check_rc(gnt_status_bits(1, REF_BIG + i), 0);
    check_rc(gnt_status_bits(1, REF_IND), 0);

    big_pages(0);
    read_256_pieces(3000, 1, "256-segment read");

    for ( i = 0; i < 2; i++ )
    {
        for ( k = 0; k < PAGE_SIZE; k++ )
            big[i][k] = k * 3 + i;
        ind[i] = blk_seg(REF_BIG + i, 0, 7);
    }
    check_rc(rq_ind(BLKIF_OP_WRITE, 4000, 2, REF_IND), BLKIF_RSP_OKAY);
    grant_page(REF_DATA, data[0], 0);
    grant_page(REF_DATA + 1, data[1], 0);
    s[0] = blk_seg(REF_DATA, 0, 7);
    s[1] = blk_seg(REF_DATA + 1, 0, 7);
    check_rc(rq(BLKIF_OP_READ, 4000, 2, s), BLKIF_RSP_OKAY);
    if ( memcmp(data[0], big[0], PAGE_SIZE) ||
         memcmp(data[1], big[1], PAGE_SIZE) )
        test_fail("indirect write not read back");
    indirect_hostile();
}

/*
 * xvdb (NVMe, still connected): an indirect read of 256 one-sector
 * segments, each in the middle of its page and so an NVMe command of its
 * own: more than the device's queue holds (63), so the rest must wait
 * for the request's own first completions, with nothing else in flight
 * to wake the ring.
 */
static void nvme_pieces(void)
{
    d = &xvdb;
    grant_page(REF_IND, ind, GTF_readonly);
    big_pages(0xee);
    read_256_pieces(400, 1, "xvdb: 256-piece read");
    d = &xvda;
}

/*
 * A ring full of the largest requests the backend offers: 256 segments
 * each, far more grants in flight than the shim maps at once for a disk
 * (the rest must wait for the first ones' completions, never fail).
 */
static void ring_of_256(void)
{
    unsigned int k;

    grant_page(REF_IND, ind, GTF_readonly);
    big_pages(0xee);
    read_256_pieces(5000, RING_SIZE(&d->ring), "a ring of 256-segment reads");
    for ( k = 0; k < NBIG; k++ )
        check_rc(gnt_status_bits(1, REF_BIG + k), 0);
}

/*
 * backend-batch: a request announced by a guest that then spins without
 * entering the shim at all (no hypercall, no iret; events stay masked,
 * so no upcall either) is still served: the shim's own timer releases
 * the notification it held, within a millisecond, never leaves it.
 */
static void served_while_spinning(void)
{
    struct blkif_request_segment s = blk_seg(REF_DATA, 0, 7);
    struct blkif_response rsp;
    uint64_t start, took;
    unsigned int i;
    int notify;

    memset(data[0], 0xee, PAGE_SIZE);
    grant_page(REF_DATA, data[0], 0);
    blk_ring_put(&d->ring, ++id, BLKIF_OP_READ, 16, 1, &s);
    RING_PUSH_REQUESTS_AND_CHECK_NOTIFY(&d->ring, notify);
    if ( !notify )
        test_fail("an idle ring's backend asked for no notification");
    evtchn_send(d->port);
    start = system_time();
    while ( !RING_HAS_UNCONSUMED_RESPONSES(&d->ring) &&
            !blk_waited_long(start) )
        asm volatile ( "pause" ::: "memory" );
    took = system_time() - start;
    if ( !RING_HAS_UNCONSUMED_RESPONSES(&d->ring) )
    {
        test_fail("no response while the guest spun for %llu ms",
                  (unsigned long long)(took / 1000000));
        return;
    }
    rsp = *RING_GET_RESPONSE(&d->ring, d->ring.rsp_cons++);
    if ( rsp.id != id || rsp.status != BLKIF_RSP_OKAY )
        test_fail("spinning: response id %llx status %d",
                  (unsigned long long)rsp.id, rsp.status);
    for ( i = 0; i < 8; i++ )
        if ( !blk_holds(data[0], i * 512, 16 + i) )
            test_fail("spinning: sector %u wrong", 16 + i);
    printf("served while the guest spun, after %llu us\n",
           (unsigned long long)(took / 1000));
}

/* From Connected back to InitWait, the port closed. */
static void start_over(void)
{
    fe_state(XenbusStateClosing);
    wait_be_state(XenbusStateClosing);
    fe_state(XenbusStateClosed);
    wait_be_state(XenbusStateClosed);
    check_rc(evtchn_close(d->port), 0);
    fe_state(XenbusStateInitialising);
    wait_be_state(XenbusStateInitWait);
}

/*
 * @n reads queued (not pushed), one sector each, sectors 300 on into
 * the eight sectors of data[0] in turn; the first one's id.
 */
static uint64_t queue_reads(unsigned int n)
{
    struct blkif_request *r;
    uint64_t first = id + 1;
    unsigned int i;

    for ( i = 0; i < n; i++ )
    {
        r = RING_GET_REQUEST(&d->ring, d->ring.req_prod_pvt++);
        r->operation = BLKIF_OP_READ;
        r->nr_segments = 1;
        r->handle = 0;
        r->id = ++id;
        r->sector_number = 300 + i;
        r->seg[0] = blk_seg(REF_DATA, i % 8, i % 8);
    }
    return first;
}

/*
 * 100 reads (or a ring's worth) queued at once, each of one sector from
 * 300 on, all answered.
 */
static void many_reads(const char *why)
{
    unsigned int i, n = RING_SIZE(&d->ring) < 100 ? RING_SIZE(&d->ring) : 100;
    uint64_t first;

    grant_page(REF_DATA, data[0], 0);
    first = queue_reads(n);
    await_all(first, n, BLKIF_OP_READ, why);
    for ( i = n - 8; i < n; i++ )
        if ( !blk_holds(data[0], i % 8 * 512, 300 + i) )
            test_fail("%s: sector %u wrong", why, 300 + i);
}

/* A 4-page ring whose ring-ref2 is past the grant table, offered. */
static void offer_bad_page(void)
{
    d->order = MRING_ORDER;
    offer_nodes();
    xs_write(0, fe("ring-ref2"), "4000");
    fe_state(XenbusStateInitialised);
    d->order = -1;
}

/*
 * max-ring-page-order: a ring of 4 pages holds 128 requests, and 100
 * queued at once are all answered (the backend takes 32 at a time),
 * their entries crossing the pages.  An order above the maximum is
 * refused (Closing, with the reason in "error"), and the frontend
 * comes back with a one-page ring.
 */
static void multi_page(void)
{
    evtchn_alloc_unbound_t a = { .dom = DOMID_SELF, .remote_dom = 0 };
    char v[16];

    expect_node(be("max-ring-page-order"), "4");
    d->order = MRING_ORDER;
    reconnect("to a 4-page ring");
    check_rc(RING_SIZE(&d->ring), 128);
    many_reads("4-page ring");
    check_read_5("on a 4-page ring");

    /* ring-ref2 not a grant: the two pages mapped before it let go. */
    start_over();
    offer_bad_page();
    wait_be_state(XenbusStateClosing);
    expect_node(be("error"), "mapping ring");
    check_rc(gnt_status_bits(1, REF_MRING), 0);
    check_rc(gnt_status_bits(1, REF_MRING + 1), 0);
    fe_state(XenbusStateClosed);
    wait_be_state(XenbusStateClosed);
    check_rc(evtchn_close(d->port), 0);
    fe_state(XenbusStateInitialising);
    wait_be_state(XenbusStateInitWait);

    check_rc(evtchn_op(EVTCHNOP_alloc_unbound, &a), 0);
    d->port = a.port;
    snprintf(v, sizeof(v), "%u", d->port);
    xs_write(0, fe("event-channel"), v);
    xs_write(0, fe("ring-page-order"), "5");
    fe_state(XenbusStateInitialised);
    wait_be_state(XenbusStateClosing);
    expect_node(be("error"), "ring-page-order above max-ring-page-order");
    fe_state(XenbusStateClosed);
    wait_be_state(XenbusStateClosed);
    check_rc(evtchn_close(d->port), 0);
    fe_state(XenbusStateInitialising);
    wait_be_state(XenbusStateInitWait);
    d->order = -1;
    connect();
    many_reads("one-page ring");
    check_read_5("after ring-page-order 5");
}

/*
 * Two queues, queue-1's ring-ref not a grant: the connection fails
 * (Closing, "mapping ring") and queue 0's ring and port, already taken,
 * are let go too.  Back to InitWait afterwards.
 */
static void bad_second_queue(void)
{
    evtchn_alloc_unbound_t a = { .dom = DOMID_SELF, .remote_dom = 0 };
    struct blkif_sring *sr = (void *)mring[0];
    evtchn_status_t st;
    char v[16];

    check_rc(evtchn_op(EVTCHNOP_alloc_unbound, &a), 0);
    memset(mring[0], 0, PAGE_SIZE);
    SHARED_RING_INIT(sr);
    grant_page(REF_MRING, mring[0], 0);
    snprintf(v, sizeof(v), "%u", REF_MRING);
    xs_write(0, fe("queue-0/ring-ref"), v);
    xs_write(0, fe("queue-1/ring-ref"), "4000");
    snprintf(v, sizeof(v), "%u", a.port);
    xs_write(0, fe("queue-0/event-channel"), v);
    xs_write(0, fe("queue-1/event-channel"), v);
    xs_write(0, fe("multi-queue-num-queues"), "2");
    fe_state(XenbusStateInitialised);
    wait_be_state(XenbusStateClosing);
    expect_node(be("error"), "mapping ring");
    check_rc(gnt_status_bits(1, REF_MRING), 0);
    check_rc(evtchn_status_of(a.port, &st), 0);
    if ( st.status != EVTCHNSTAT_unbound || st.u.unbound.dom != 0 )
        test_fail("queue 0's port %u status %u after a failed connect",
                  a.port, st.status);
    fe_state(XenbusStateClosed);
    wait_be_state(XenbusStateClosed);
    check_rc(evtchn_close(a.port), 0);
    fe_state(XenbusStateInitialising);
    wait_be_state(XenbusStateInitWait);
}

/*
 * Both rings full at once (32 reads each, one sector each), announced
 * together: 64 requests against the disk's 32 slots, so a ring runs out
 * and waits until the other's completions, on the other CPU, give slots
 * back and raise it (the shim's log at the disconnect counts each
 * ring's waits: at least one in every run seen, but timing decides).
 * Every request is answered.
 */
static void both_rings_full(struct blkif_front_ring *qring,
                            const evtchn_port_t *qport)
{
    uint64_t first[2];
    unsigned int q, n = RING_SIZE(&qring[0]);

    for ( q = 0; q < 2; q++ )
    {
        d->ring = qring[q];
        first[q] = queue_reads(n);
        RING_PUSH_REQUESTS(&d->ring);
        qring[q] = d->ring;
    }
    for ( q = 0; q < 2; q++ )
        evtchn_send(qport[q]);
    for ( q = 0; q < 2; q++ )
    {
        d->ring = qring[q];
        d->port = qport[q];
        await_all(first[q], n, BLKIF_OP_READ,
                  q ? "both rings full: queue 1" : "both rings full: queue 0");
        qring[q] = d->ring;
    }
}

/*
 * multi-queue-max-queues (the device's queues, QEMU's one per vCPU, at
 * most the vCPUs): two rings, queue-0 and queue-1, each with its own
 * port, served at once, each on its own CPU (the shim's log at the
 * disconnect says where, checked by the expect file), both full at
 * once; queue 1's ring broken closes the vbd; more queues than offered refused (Closing, the
 * reason in "error"), and the frontend back on one ring.
 */
static void multi_queue(void)
{
    evtchn_alloc_unbound_t a = { .dom = DOMID_SELF, .remote_dom = 0 };
    struct blkif_front_ring qring[2];
    evtchn_port_t qport[2];
    struct blkif_request_segment s;
    char v[16], name[32];
    unsigned int q, max = smp_nr_vcpus(8);

    snprintf(v, sizeof(v), "%u", max);
    expect_node(be("multi-queue-max-queues"), v);
    start_over();
    for ( q = 0; q < 2; q++ )
    {
        struct blkif_sring *sr = (void *)mring[q];

        check_rc(evtchn_op(EVTCHNOP_alloc_unbound, &a), 0);
        qport[q] = a.port;
        memset(mring[q], 0, PAGE_SIZE);
        SHARED_RING_INIT(sr);
        FRONT_RING_INIT(&qring[q], sr, PAGE_SIZE);
        grant_page(REF_MRING + q, mring[q], 0);
        snprintf(name, sizeof(name), "queue-%u/ring-ref", q);
        snprintf(v, sizeof(v), "%u", REF_MRING + q);
        xs_write(0, fe(name), v);
        snprintf(name, sizeof(name), "queue-%u/event-channel", q);
        snprintf(v, sizeof(v), "%u", qport[q]);
        xs_write(0, fe(name), v);
    }
    xs_req_str(XS_RM, 0, fe("ring-page-order"));
    xs_write(0, fe("multi-queue-num-queues"), "2");
    fe_state(XenbusStateInitialised);
    wait_be_state(XenbusStateConnected);
    fe_state(XenbusStateConnected);
    grant_page(REF_DATA, data[0], 0);
    for ( q = 0; q < 2; q++ )
    {
        d->ring = qring[q];
        d->port = qport[q];
        s = blk_seg(REF_DATA, 0, 0);
        memset(data[0], 0, 512);
        check_rc(rq(BLKIF_OP_READ, 10 + q, 1, &s), BLKIF_RSP_OKAY);
        if ( !blk_holds(data[0], 0, 10 + q) )
            test_fail("queue %u: read of sector %u", q, 10 + q);
        qring[q] = d->ring;
    }
    both_rings_full(qring, qport);

    /*
     * Queue 1's ring broken: its CPU (1) finds it, CPU 0 writes Closing
     * (xenstore is served there) and the vbd stays closed.
     */
    ((struct blkif_sring *)mring[1])->req_prod = qring[1].req_prod_pvt + 1000;
    evtchn_send(qport[1]);
    wait_be_state(XenbusStateClosing);

    /* More queues than offered. */
    fe_state(XenbusStateClosing);
    wait_be_state(XenbusStateClosing);
    fe_state(XenbusStateClosed);
    wait_be_state(XenbusStateClosed);
    for ( q = 0; q < 2; q++ )
        check_rc(evtchn_close(qport[q]), 0);
    fe_state(XenbusStateInitialising);
    wait_be_state(XenbusStateInitWait);
    snprintf(v, sizeof(v), "%u", max + 1);
    xs_write(0, fe("multi-queue-num-queues"), v);
    fe_state(XenbusStateInitialised);
    wait_be_state(XenbusStateClosing);
    expect_node(be("error"),
                "multi-queue-num-queues above multi-queue-max-queues");
    fe_state(XenbusStateClosed);
    wait_be_state(XenbusStateClosed);
    fe_state(XenbusStateInitialising);
    wait_be_state(XenbusStateInitWait);
    bad_second_queue();
    xs_req_str(XS_RM, 0, fe("multi-queue-num-queues"));
    connect();
    check_read_5("back on one ring");
}

/*
 * feature-discard (QEMU's discard=unmap: the file gets a hole, read
 * back as zeroes); a secure discard (discard-secure 0), a range past the
 * end and one that wraps refused; an empty one done.
 */
static void discard(void)
{
    struct blkif_request_segment s = blk_seg(REF_DATA, 0, 7);
    unsigned int i;

    expect_node(be("discard-enable"), "1");
    expect_node(be("feature-discard"), "1");
    expect_node(be("discard-alignment"), "0");
    expect_node(be("discard-secure"), "0");
    check_rc(rq_discard(96, 8, 0), BLKIF_RSP_OKAY);
    grant_page(REF_DATA, data[0], 0);
    memset(data[0], 0xee, PAGE_SIZE);
    check_rc(rq(BLKIF_OP_READ, 96, 1, &s), BLKIF_RSP_OKAY);
    for ( i = 0; i < PAGE_SIZE; i++ )
        if ( data[0][i] )
        {
            test_fail("discarded sectors 96-103 don't read as zeroes");
            break;
        }
    check_rc(rq_discard(0, 0, 0), BLKIF_RSP_OKAY);
    check_rc(rq_discard(SECTORS - 4, 8, 0), BLKIF_RSP_ERROR);
    check_rc(rq_discard(~0ULL - 2, 8, 0), BLKIF_RSP_ERROR);
    check_rc(rq_discard(200, 8, BLKIF_DISCARD_SECURE), BLKIF_RSP_EOPNOTSUPP);
    check_rc(rq(BLKIF_OP_READ, 200, 1, &s), BLKIF_RSP_OKAY);
    if ( !blk_holds(data[0], 0, 200) )
        test_fail("a refused discard changed sector 200");
}

/*
 * xvdc: 4 KiB logical blocks (sector-size 4096), still counted in
 * 512-byte sectors: whole blocks read and written, a request not on a
 * block's start or of part of one refused.
 */
static void sectors_4k(void)
{
    struct blkif_request_segment s[2];
    unsigned int i;

    d = &xvdc;
    expect_node(be("sector-size"), "4096");
    expect_node(be("physical-sector-size"), "4096");
    expect_node(be("sectors"), "2048");
    connect();
    grant_page(REF_DATA, data[0], 0);
    grant_page(REF_DATA + 1, data[1], 0);
    s[0] = blk_seg(REF_DATA, 0, 7);
    s[1] = blk_seg(REF_DATA + 1, 0, 7);
    check_rc(rq(BLKIF_OP_READ, 16, 2, s), BLKIF_RSP_OKAY);
    for ( i = 0; i < 16; i++ )
        if ( !blk_holds(data[i / 8], i % 8 * 512, 16 + i) )
            test_fail("xvdc: sector %u wrong", 16 + i);
    check_rc(rq(BLKIF_OP_READ, 4, 1, s), BLKIF_RSP_ERROR);
    s[0] = blk_seg(REF_DATA, 0, 3);
    check_rc(rq(BLKIF_OP_READ, 8, 1, s), BLKIF_RSP_ERROR);
    s[0] = blk_seg(REF_DATA, 4, 7);
    check_rc(rq(BLKIF_OP_READ, 8, 1, s), BLKIF_RSP_ERROR);
    for ( i = 0; i < PAGE_SIZE; i++ )
        data[1][i] = i * 5 + 3;
    s[0] = blk_seg(REF_DATA + 1, 0, 7);
    check_rc(rq(BLKIF_OP_WRITE, 64, 1, s), BLKIF_RSP_OKAY);
    s[0] = blk_seg(REF_DATA, 0, 7);
    check_rc(rq(BLKIF_OP_READ, 64, 1, s), BLKIF_RSP_OKAY);
    if ( memcmp(data[0], data[1], PAGE_SIZE) )
        test_fail("xvdc: block 8 not as written");
    d = &xvda;
}

/*
 * A frontend reconnecting in a loop (a hostile one, or a driver reloaded
 * again and again): every connection works, and the backend's lines
 * about them stop at the disk's log budget (shim/log-budget.h; the
 * expect file's log-max), where each would have been a line again.
 */
static void reconnect_flood(void)
{
    unsigned int i;

    for ( i = 0; i < 80; i++ )
        reconnect("in a loop");
    check_read_5("after reconnecting in a loop");
}

/*
 * While connected the backend holds the ring: the grant in use (the
 * guest can't end access, nor switch versions), and a frame the guest
 * gives back stays the ring's, not reused, until the backend lets go.
 */
static void ring_held(void)
{
    check_rc(gnt_status_bits(1, d->ref_ring), GTF_reading | GTF_writing);
    check_rc(gnt_set_version(2), -XEN_EBUSY);
}

static void ring_given_back(void)
{
    xen_pfn_t mfn = virt_to_mfn(d->ring_page);
    struct xen_memory_reservation r = {
        .nr_extents = 1, .domid = DOMID_SELF,
    };

    set_xen_guest_handle(r.extent_start, &mfn);
    check_rc(HYPERCALL(__HYPERVISOR_memory_op, XENMEM_decrease_reservation,
                       &r, 0, 0, 0), 1);
    check_read_5("with the ring's frame given back");
    ring_held();
}

/*
 * poweroff-writes=1 (tests/boot/run.sh checks the image afterwards):
 * 32 whole-page writes at sector 5000 on, the first 16 announced, the
 * rest only on the ring, no flush, and the guest powers off without
 * waiting for a response: the shim completes them all and flushes
 * before QEMU ends.  Page i's byte k is (i * 13 + k * 7 + 1) & 0xff.
 */
static void poweroff_writes(void)
{
    struct sched_shutdown off = { .reason = SHUTDOWN_poweroff };
    struct blkif_request *r;
    unsigned int i, k;
    int notify;

    d = &xvda;
    wait_be_state(XenbusStateInitWait);
    connect();
    for ( i = 0; i < NBIG; i++ )
    {
        for ( k = 0; k < PAGE_SIZE; k++ )
            big[i][k] = i * 13 + k * 7 + 1;
        grant_page(REF_BIG + i, big[i], GTF_readonly);
        r = RING_GET_REQUEST(&d->ring, d->ring.req_prod_pvt++);
        r->operation = BLKIF_OP_WRITE;
        r->nr_segments = 1;
        r->handle = 0;
        r->id = i;
        r->sector_number = 5000 + 8 * i;
        r->seg[0] = blk_seg(REF_BIG + i, 0, 7);
        if ( i == NBIG / 2 - 1 )
        {
            RING_PUSH_REQUESTS_AND_CHECK_NOTIFY(&d->ring, notify);
            evtchn_send(d->port);
        }
    }
    RING_PUSH_REQUESTS_AND_CHECK_NOTIFY(&d->ring, notify);
    (void)notify;
    printf("blkback: 32 writes queued, powering off\n");
    hypercall_sched_op(SCHEDOP_shutdown, &off);
}

void test_main(void)
{
    if ( event_init() )
        return test_error("event_init failed");
    if ( !xs_init() )
        return test_error("no xenstore ring");
    gnt_setup(1);
    if ( cmdline_ulong("poweroff-writes", 0) )
        return poweroff_writes();
    d = &xvda;
    entries("xvda", false);
    expect_node(be("feature-flush-cache"), "1");
    connect();
    ring_held();
    reads();
    served_while_spinning();
    writes();
    hostile();
    reconnect("after a close");
    check_read_5("after reconnecting");
    broken_ring();
    port_closed();
    nvme_ro();
    indirect();
    ring_of_256();
    nvme_pieces();
    discard();
    multi_page();
    multi_queue();
    sectors_4k();
    reconnect_flood();
    ring_given_back();
    test_success();
}
