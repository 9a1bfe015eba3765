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
#include "grant.h"
#include "event.h"
#include "xs.h"

/* ring.h's barriers for the guest library's interface version. */
#define xen_mb()    __sync_synchronize()
#define xen_rmb()   asm volatile ( "" ::: "memory" )
#define xen_wmb()   asm volatile ( "" ::: "memory" )
#include <xen/io/ring.h>
#include <xen/io/blkif.h>
#include <xen/io/protocols.h>
#include <xen/io/xenbus.h>
#include <xen/memory.h>

const char test_title[] = "blkback: xvda through a blkfront of our own";

#define NDATA   12
#define REF_DATA 9                      /* data page i: REF_DATA + i */
#define REF_RING 30                     /* xvda's ring; xvdb's is 31 */

/* A frontend: xvda (virtio-blk, 4 MiB) or xvdb (NVMe, 1 MiB, vbd=:ro). */
static struct vbd {
    const char *fe, *be;
    unsigned long sectors;
    grant_ref_t ref_ring;
    uint8_t *ring_page;
    struct blkif_front_ring ring;
    evtchn_port_t port;
} *d;

static uint8_t ring_pages[2][PAGE_SIZE] __gnt_page;
static uint8_t data[NDATA][PAGE_SIZE] __gnt_page;
static char buf[XENSTORE_PAYLOAD_MAX + 1];

static struct vbd xvda = {
    .fe = "device/vbd/51712", .be = "/local/domain/0/backend/vbd/1/51712",
    .sectors = 8192, .ref_ring = REF_RING, .ring_page = ring_pages[0],
};
static struct vbd xvdb = {
    .fe = "device/vbd/51728", .be = "/local/domain/0/backend/vbd/1/51728",
    .sectors = 2048, .ref_ring = REF_RING + 1, .ring_page = ring_pages[1],
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
    unsigned int i;

    snprintf(w, sizeof(w), "%u", want);
    for ( i = 0; i < 2000; i++ )
    {
        if ( !strcmp(rd(be("state")), w) )
            return true;
        yield();
    }
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

/* Allocate a port for domain 0, set the ring up, Initialised, Connected. */
static void connect(void)
{
    evtchn_alloc_unbound_t a = { .dom = DOMID_SELF, .remote_dom = 0 };
    struct blkif_sring *s = (void *)d->ring_page;
    char v[16];

    check_rc(evtchn_op(EVTCHNOP_alloc_unbound, &a), 0);
    d->port = a.port;
    memset(d->ring_page, 0, PAGE_SIZE);
    SHARED_RING_INIT(s);
    FRONT_RING_INIT(&d->ring, s, PAGE_SIZE);
    grant_page(d->ref_ring, d->ring_page, 0);
    snprintf(v, sizeof(v), "%u", d->ref_ring);
    xs_write(0, fe("ring-ref"), v);
    snprintf(v, sizeof(v), "%u", d->port);
    xs_write(0, fe("event-channel"), v);
    xs_write(0, fe("protocol"), XEN_IO_PROTO_ABI_NATIVE);
    fe_state(XenbusStateInitialised);
    wait_be_state(XenbusStateConnected);
    fe_state(XenbusStateConnected);
}

/* One request; its response's status (or -99 if none came). */
static int rq(uint8_t op, uint64_t sector, unsigned int nseg,
              const struct blkif_request_segment *seg)
{
    struct blkif_request *r = RING_GET_REQUEST(&d->ring,
                                               d->ring.req_prod_pvt);
    struct blkif_response rsp;
    static uint64_t id = 0x1000;
    unsigned int i, n = nseg > BLKIF_MAX_SEGMENTS_PER_REQUEST
                        ? BLKIF_MAX_SEGMENTS_PER_REQUEST : nseg;
    int notify;

    r->operation = op;
    r->nr_segments = nseg;
    r->handle = 0;
    r->id = ++id;
    r->sector_number = sector;
    for ( i = 0; i < n; i++ )
        r->seg[i] = seg[i];
    d->ring.req_prod_pvt++;
    RING_PUSH_REQUESTS_AND_CHECK_NOTIFY(&d->ring, notify);
    if ( notify )
        evtchn_send(d->port);
    for ( i = 0; i < 100000 && !RING_HAS_UNCONSUMED_RESPONSES(&d->ring); i++ )
        yield();
    if ( !RING_HAS_UNCONSUMED_RESPONSES(&d->ring) )
    {
        test_fail("no response to op %u sector %llu", op,
                  (unsigned long long)sector);
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

static struct blkif_request_segment sg(grant_ref_t ref, uint8_t first,
                                       uint8_t last)
{
    return (struct blkif_request_segment){ .gref = ref, .first_sect = first,
                                           .last_sect = last };
}

/* Sector @n's contents, as made, in page @p at byte @off. */
static bool holds(const uint8_t *p, unsigned int off, uint64_t n)
{
    const volatile uint64_t *w = (const void *)(p + off);
    unsigned int i;

    for ( i = 0; i < 64; i++ )
        if ( w[i] != n )
            return false;
    return true;
}

static void reads(void)
{
    struct blkif_request_segment s[BLKIF_MAX_SEGMENTS_PER_REQUEST];
    unsigned int i, j;

    grant_page(REF_DATA, data[0], 0);
    check_rc(rq(BLKIF_OP_READ, 0, 1, (s[0] = sg(REF_DATA, 0, 7), s)),
             BLKIF_RSP_OKAY);
    for ( i = 0; i < 8; i++ )
        if ( !holds(data[0], i * 512, i) )
            test_fail("read of sectors 0-7: sector %u wrong", i);
    check_rc(gnt_status_bits(1, REF_DATA), 0);

    /* 11 segments, partial pages: sectors 1000 on, 2 per page at 3-4. */
    for ( i = 0; i < 11; i++ )
    {
        memset(data[i], 0xee, PAGE_SIZE);
        grant_page(REF_DATA + i, data[i], 0);
        s[i] = sg(REF_DATA + i, 3, 4);
    }
    check_rc(rq(BLKIF_OP_READ, 1000, 11, s), BLKIF_RSP_OKAY);
    for ( i = 0; i < 11; i++ )
    {
        for ( j = 0; j < 2; j++ )
            if ( !holds(data[i], (3 + j) * 512, 1000 + 2 * i + j) )
                test_fail("11-segment read: segment %u sector %u", i, j);
        if ( data[i][0] != 0xee || data[i][5 * 512] != 0xee )
            test_fail("11-segment read wrote outside segment %u", i);
        check_rc(gnt_status_bits(1, REF_DATA + i), 0);
    }
    /* The last sector of the disk. */
    check_rc(rq(BLKIF_OP_READ, SECTORS - 1, 1, (s[0] = sg(REF_DATA, 7, 7), s)),
             BLKIF_RSP_OKAY);
    if ( !holds(data[0], 7 * 512, SECTORS - 1) )
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
    s[0] = sg(REF_DATA + 1, 2, 3);
    check_rc(rq(BLKIF_OP_WRITE, 50, 1, s), BLKIF_RSP_OKAY);
    memset(data[2], 0, PAGE_SIZE);
    grant_page(REF_DATA + 2, data[2], 0);
    s[0] = sg(REF_DATA + 2, 0, 3);
    check_rc(rq(BLKIF_OP_READ, 48, 1, s), BLKIF_RSP_OKAY);
    if ( !holds(data[2], 0, 48) || !holds(data[2], 512, 49) ||
         memcmp(data[2] + 1024, data[1] + 1024, 1024) )
        test_fail("sectors 48-51 not as written");
    check_rc(rq(BLKIF_OP_FLUSH_DISKCACHE, 0, 0, s), BLKIF_RSP_OKAY);
    /* A barrier write: the write, then a flush. */
    grant_page(REF_DATA + 1, data[1], 0);
    s[0] = sg(REF_DATA + 1, 0, 0);
    check_rc(rq(BLKIF_OP_WRITE_BARRIER, 60, 1, s), BLKIF_RSP_OKAY);
    s[0] = sg(REF_DATA + 2, 0, 0);
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
        s[i] = sg(REF_DATA, 0, 0);
    check_rc(rq(BLKIF_OP_READ, 0, 0, s), BLKIF_RSP_ERROR);
    check_rc(rq(BLKIF_OP_READ, 0, 12, s), BLKIF_RSP_ERROR);
    check_rc(rq(BLKIF_OP_WRITE, 0, 0, s), BLKIF_RSP_ERROR);
    check_rc(rq(BLKIF_OP_READ, 0, 1, (s[0] = sg(REF_DATA, 4, 3), s)),
             BLKIF_RSP_ERROR);
    check_rc(rq(BLKIF_OP_READ, 0, 1, (s[0] = sg(REF_DATA, 0, 8), s)),
             BLKIF_RSP_ERROR);
    /* Past the end, and wrapping round. */
    check_rc(rq(BLKIF_OP_READ, SECTORS - 1, 1, (s[0] = sg(REF_DATA, 0, 1), s)),
             BLKIF_RSP_ERROR);
    check_rc(rq(BLKIF_OP_READ, ~0ULL, 1, (s[0] = sg(REF_DATA, 0, 0), s)),
             BLKIF_RSP_ERROR);
    /* A ref past the table, and one granted to nobody. */
    check_rc(rq(BLKIF_OP_READ, 0, 1, (s[0] = sg(4000, 0, 0), s)),
             BLKIF_RSP_ERROR);
    gnt_v1[REF_DATA + 5].flags = 0;
    check_rc(rq(BLKIF_OP_READ, 0, 1, (s[0] = sg(REF_DATA + 5, 0, 0), s)),
             BLKIF_RSP_ERROR);
    /* Granted to another domain. */
    gnt_grant(1, REF_DATA + 5, 7, virt_to_mfn(data[5]), 0);
    check_rc(rq(BLKIF_OP_READ, 0, 1, (s[0] = sg(REF_DATA + 5, 0, 0), s)),
             BLKIF_RSP_ERROR);
    /* A read-only grant for a read: the device would write into it. */
    memset(data[5], 0xaa, PAGE_SIZE);
    grant_page(REF_DATA + 5, data[5], GTF_readonly);
    check_rc(rq(BLKIF_OP_READ, 0, 1, (s[0] = sg(REF_DATA + 5, 0, 0), s)),
             BLKIF_RSP_ERROR);
    if ( data[5][0] != 0xaa )
        test_fail("a refused read wrote into a read-only grant");
    /* A page table as a read's destination: no writable type for it. */
    gnt_grant(1, REF_DATA + 6, 0, pt_base_mfn(), 0);
    check_rc(rq(BLKIF_OP_READ, 0, 1, (s[0] = sg(REF_DATA + 6, 0, 0), s)),
             BLKIF_RSP_ERROR);
    check_rc(gnt_status_bits(1, REF_DATA + 6), 0);
    /* Segments mapped before a bad one are released. */
    s[0] = sg(REF_DATA, 0, 0);
    s[1] = sg(REF_DATA + 5, 0, 0);
    check_rc(rq(BLKIF_OP_READ, 0, 2, s), BLKIF_RSP_ERROR);
    check_rc(gnt_status_bits(1, REF_DATA), 0);
    check_rc(rq(99, 0, 1, (s[0] = sg(REF_DATA, 0, 0), s)),
             BLKIF_RSP_EOPNOTSUPP);
    /* And the ring still works. */
    check_rc(rq(BLKIF_OP_READ, 5, 1, (s[0] = sg(REF_DATA, 0, 0), s)),
             BLKIF_RSP_OKAY);
    if ( !holds(data[0], 0, 5) )
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
    struct blkif_request_segment s = sg(REF_DATA, 0, 0);

    memset(data[0], 0, 512);
    check_rc(rq(BLKIF_OP_READ, 5, 1, &s), BLKIF_RSP_OKAY);
    if ( !holds(data[0], 0, 5) )
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
        s[i] = sg(REF_DATA + i, 2, 5);
    }
    check_rc(rq(BLKIF_OP_READ, 300, 3, s), BLKIF_RSP_OKAY);
    for ( i = 0; i < 12; i++ )
        if ( !holds(data[i / 4], (2 + i % 4) * 512, 300 + i) )
            test_fail("xvdb: split read: sector %u", 300 + i);
    check_rc(rq(BLKIF_OP_WRITE, 300, 1, s), BLKIF_RSP_ERROR);
    check_rc(rq(BLKIF_OP_READ, 300, 1, (s[0] = sg(REF_DATA, 0, 0), s)),
             BLKIF_RSP_OKAY);
    if ( !holds(data[0], 0, 300) )
        test_fail("xvdb: a refused write changed sector 300");
    reconnect("xvdb");
    check_read_5("xvdb after reconnecting");
    d = &xvda;
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

void test_main(void)
{
    if ( event_init() )
        return test_error("event_init failed");
    if ( !xs_init() )
        return test_error("no xenstore ring");
    gnt_setup(1);
    d = &xvda;
    entries("xvda", false);
    expect_node(be("feature-flush-cache"), "1");
    connect();
    ring_held();
    reads();
    writes();
    hostile();
    reconnect("after a close");
    check_read_5("after reconnecting");
    broken_ring();
    port_closed();
    nvme_ro();
    ring_given_back();
    test_success();
}
