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
#include <xen/memory.h>

const char test_title[] = "blkback: xvda through a blkfront of our own";

#define NDATA   12
#define REF_DATA 9                      /* data page i: REF_DATA + i */
#define REF_RING 30                     /* xvda's ring; xvdb's is 31 */

/* A frontend: xvda (virtio-blk, 4 MiB) or xvdb (NVMe, 1 MiB, vbd=:ro). */
static struct blkfront *d;

static uint8_t ring_pages[2][PAGE_SIZE] __gnt_page;
static uint8_t data[NDATA][PAGE_SIZE] __gnt_page;

static struct blkfront xvda = {
    .fe = "device/vbd/51712", .be = "/local/domain/0/backend/vbd/1/51712",
    .sectors = 8192, .ref_ring = REF_RING, .ring_page = ring_pages[0],
};
static struct blkfront xvdb = {
    .fe = "device/vbd/51728", .be = "/local/domain/0/backend/vbd/1/51728",
    .sectors = 2048, .ref_ring = REF_RING + 1, .ring_page = ring_pages[1],
};
#define SECTORS (d->sectors)

/* A request of one segment: ref's sectors first to last. */
static int rq1(uint8_t op, uint64_t sector, grant_ref_t ref, uint8_t first,
               uint8_t last)
{
    struct blkif_request_segment s = blk_seg(ref, first, last);

    return blk_rq(d, op, sector, 1, &s);
}

static void reads(void)
{
    struct blkif_request_segment s[BLKIF_MAX_SEGMENTS_PER_REQUEST];
    unsigned int i, j;

    blk_grant(REF_DATA, data[0], 0);
    check_rc(rq1(BLKIF_OP_READ, 0, REF_DATA, 0, 7),
             BLKIF_RSP_OKAY);
    for ( i = 0; i < 8; i++ )
        if ( !blk_holds(data[0], i * 512, i) )
            test_fail("read of sectors 0-7: sector %u wrong", i);
    check_rc(gnt_status_bits(1, REF_DATA), 0);

    /* 11 segments, partial pages: sectors 1000 on, 2 per page at 3-4. */
    for ( i = 0; i < 11; i++ )
    {
        memset(data[i], 0xee, PAGE_SIZE);
        blk_grant(REF_DATA + i, data[i], 0);
        s[i] = blk_seg(REF_DATA + i, 3, 4);
    }
    check_rc(blk_rq(d, BLKIF_OP_READ, 1000, 11, s), BLKIF_RSP_OKAY);
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
    check_rc(rq1(BLKIF_OP_READ, SECTORS - 1, REF_DATA, 7, 7),
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
    blk_grant(REF_DATA + 1, data[1], GTF_readonly);
    s[0] = blk_seg(REF_DATA + 1, 2, 3);
    check_rc(blk_rq(d, BLKIF_OP_WRITE, 50, 1, s), BLKIF_RSP_OKAY);
    memset(data[2], 0, PAGE_SIZE);
    blk_grant(REF_DATA + 2, data[2], 0);
    s[0] = blk_seg(REF_DATA + 2, 0, 3);
    check_rc(blk_rq(d, BLKIF_OP_READ, 48, 1, s), BLKIF_RSP_OKAY);
    if ( !blk_holds(data[2], 0, 48) || !blk_holds(data[2], 512, 49) ||
         memcmp(data[2] + 1024, data[1] + 1024, 1024) )
        test_fail("sectors 48-51 not as written");
    check_rc(blk_rq(d, BLKIF_OP_FLUSH_DISKCACHE, 0, 0, s), BLKIF_RSP_OKAY);
    /* A barrier write: the write, then a flush. */
    blk_grant(REF_DATA + 1, data[1], 0);
    s[0] = blk_seg(REF_DATA + 1, 0, 0);
    check_rc(blk_rq(d, BLKIF_OP_WRITE_BARRIER, 60, 1, s), BLKIF_RSP_OKAY);
    s[0] = blk_seg(REF_DATA + 2, 0, 0);
    check_rc(blk_rq(d, BLKIF_OP_READ, 60, 1, s), BLKIF_RSP_OKAY);
    if ( memcmp(data[2], data[1], 512) )
        test_fail("sector 60 not as written by the barrier");
    check_rc(gnt_status_bits(1, REF_DATA + 1), 0);
}

static void hostile(void)
{
    struct blkif_request_segment s[12];
    unsigned int i;

    blk_grant(REF_DATA, data[0], 0);
    for ( i = 0; i < 12; i++ )
        s[i] = blk_seg(REF_DATA, 0, 0);
    check_rc(blk_rq(d, BLKIF_OP_READ, 0, 0, s), BLKIF_RSP_ERROR);
    check_rc(blk_rq(d, BLKIF_OP_READ, 0, 12, s), BLKIF_RSP_ERROR);
    check_rc(blk_rq(d, BLKIF_OP_WRITE, 0, 0, s), BLKIF_RSP_ERROR);
    check_rc(rq1(BLKIF_OP_READ, 0, REF_DATA, 4, 3),
             BLKIF_RSP_ERROR);
    check_rc(rq1(BLKIF_OP_READ, 0, REF_DATA, 0, 8),
             BLKIF_RSP_ERROR);
    /* Past the end, and wrapping round. */
    check_rc(rq1(BLKIF_OP_READ, SECTORS - 1, REF_DATA, 0, 1),
             BLKIF_RSP_ERROR);
    check_rc(rq1(BLKIF_OP_READ, ~0ULL, REF_DATA, 0, 0),
             BLKIF_RSP_ERROR);
    /* A ref past the table, and one granted to nobody. */
    check_rc(rq1(BLKIF_OP_READ, 0, 4000, 0, 0),
             BLKIF_RSP_ERROR);
    gnt_v1[REF_DATA + 5].flags = 0;
    check_rc(rq1(BLKIF_OP_READ, 0, REF_DATA + 5, 0, 0),
             BLKIF_RSP_ERROR);
    /* Granted to another domain. */
    gnt_grant(1, REF_DATA + 5, 7, virt_to_mfn(data[5]), 0);
    check_rc(rq1(BLKIF_OP_READ, 0, REF_DATA + 5, 0, 0),
             BLKIF_RSP_ERROR);
    /* A read-only grant for a read: the device would write into it. */
    memset(data[5], 0xaa, PAGE_SIZE);
    blk_grant(REF_DATA + 5, data[5], GTF_readonly);
    check_rc(rq1(BLKIF_OP_READ, 0, REF_DATA + 5, 0, 0),
             BLKIF_RSP_ERROR);
    if ( data[5][0] != 0xaa )
        test_fail("a refused read wrote into a read-only grant");
    /* A page table as a read's destination: no writable type for it. */
    gnt_grant(1, REF_DATA + 6, 0, pt_base_mfn(), 0);
    check_rc(rq1(BLKIF_OP_READ, 0, REF_DATA + 6, 0, 0),
             BLKIF_RSP_ERROR);
    check_rc(gnt_status_bits(1, REF_DATA + 6), 0);
    /* Segments mapped before a bad one are released. */
    s[0] = blk_seg(REF_DATA, 0, 0);
    s[1] = blk_seg(REF_DATA + 5, 0, 0);
    check_rc(blk_rq(d, BLKIF_OP_READ, 0, 2, s), BLKIF_RSP_ERROR);
    check_rc(gnt_status_bits(1, REF_DATA), 0);
    check_rc(rq1(99, 0, REF_DATA, 0, 0),
             BLKIF_RSP_EOPNOTSUPP);
    /* And the ring still works. */
    check_rc(rq1(BLKIF_OP_READ, 5, REF_DATA, 0, 0),
             BLKIF_RSP_OKAY);
    if ( !blk_holds(data[0], 0, 5) )
        test_fail("read of sector 5 after the hostile requests");
}

/* Closing and coming back, as a driver reload or kexec does. */
static void reconnect(const char *why)
{
    blk_disconnect(d, why);
    blk_connect(d);
}

static void check_read_5(const char *why)
{
    struct blkif_request_segment s = blk_seg(REF_DATA, 0, 0);

    memset(data[0], 0, 512);
    check_rc(blk_rq(d, BLKIF_OP_READ, 5, 1, &s), BLKIF_RSP_OKAY);
    if ( !blk_holds(data[0], 0, 5) )
        test_fail("%s: read of sector 5", why);
}

static void broken_ring(void)
{
    struct blkif_sring *s = (void *)d->ring_page;

    /* Far more requests than a ring holds: the backend gives up on it. */
    s->req_prod = d->ring.req_prod_pvt + 1000;
    evtchn_send(d->port);
    blk_wait_be_state(d, XenbusStateClosing);
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
    blk_fe_state(d, XenbusStateClosing);
    blk_wait_be_state(d, XenbusStateClosing);
    blk_fe_state(d, XenbusStateClosed);
    blk_wait_be_state(d, XenbusStateClosed);
    /* The backend's unbind left the new port alone. */
    check_rc(evtchn_status_of(d->port, &st), 0);
    if ( st.status != EVTCHNSTAT_unbound || evtchn_test_pending(d->port) )
        test_fail("the reused port %u was touched: status %u", d->port,
                  st.status);
    check_rc(evtchn_close(d->port), 0);
    blk_fe_state(d, XenbusStateInitialising);
    blk_wait_be_state(d, XenbusStateInitWait);
    blk_connect(d);
    check_read_5("after closing the port");
}

static void entries(const char *name, bool ro)
{
    char s[64];

    blk_expect_node(blk_fe(d, "backend"), d->be);
    blk_expect_node(blk_fe(d, "backend-id"), "0");
    blk_expect_node(blk_fe(d, "virtual-device"),
                    d->fe + strlen("device/vbd/"));
    blk_expect_node(blk_fe(d, "device-type"), "disk");
    blk_expect_node(blk_fe(d, "state"), "1");
    snprintf(s, sizeof(s), "/local/domain/1/%s", d->fe);
    blk_expect_node(blk_be(d, "frontend"), s);
    blk_expect_node(blk_be(d, "frontend-id"), "1");
    blk_expect_node(blk_be(d, "dev"), name);
    blk_expect_node(blk_be(d, "mode"), ro ? "r" : "w");
    blk_expect_node(blk_be(d, "type"), "phy");
    blk_expect_node(blk_be(d, "device-type"), "disk");
    blk_expect_node(blk_be(d, "online"), "1");
    blk_wait_be_state(d, XenbusStateInitWait);
    snprintf(s, sizeof(s), "%lu", SECTORS);
    blk_expect_node(blk_be(d, "sectors"), s);
    blk_expect_node(blk_be(d, "sector-size"), "512");
    blk_expect_node(blk_be(d, "physical-sector-size"), "512");
    blk_expect_node(blk_be(d, "info"), ro ? "4" : "0");    /* VDISK_READONLY */
    /* The guest may read, not write, its backend's directory. */
    if ( strcmp(xs_write(0, blk_be(d, "state"), "4"), "EACCES") )
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
    blk_connect(d);
    check_read_5("xvdb");
    for ( i = 0; i < 3; i++ )
    {
        memset(data[i], 0xee, PAGE_SIZE);
        blk_grant(REF_DATA + i, data[i], 0);
        s[i] = blk_seg(REF_DATA + i, 2, 5);
    }
    check_rc(blk_rq(d, BLKIF_OP_READ, 300, 3, s), BLKIF_RSP_OKAY);
    for ( i = 0; i < 12; i++ )
        if ( !blk_holds(data[i / 4], (2 + i % 4) * 512, 300 + i) )
            test_fail("xvdb: split read: sector %u", 300 + i);
    check_rc(blk_rq(d, BLKIF_OP_WRITE, 300, 1, s), BLKIF_RSP_ERROR);
    check_rc(rq1(BLKIF_OP_READ, 300, REF_DATA, 0, 0),
             BLKIF_RSP_OKAY);
    if ( !blk_holds(data[0], 0, 300) )
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
    if ( !blk_test_init() )
        return;
    d = &xvda;
    entries("xvda", false);
    blk_expect_node(blk_be(d, "feature-flush-cache"), "1");
    blk_connect(d);
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
