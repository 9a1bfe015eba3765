/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A hostile blkfront against the shim's block backend, each rule broken
 * answered as Linux's xen-blkback answers it (dispatch_rw_block_io():
 * BLKIF_RSP_ERROR; an unknown operation: BLKIF_RSP_EOPNOTSUPP; a bogus
 * req_prod, or xenstore keys it can't use: the device closes with a log
 * line), and nothing else touched: the disk around each refused request
 * is read back, the frames refused are unchanged, and the shim audits
 * its frame table after every hypercall (mm-audit).
 *
 * Requests: bad segment counts and sectors, past the disk's end, unknown
 * operations; page tables (pinned L1 to the top level) and a GDT frame
 * as a read's destination.  Mid-flight: ending a grant's access (as
 * Linux's gnttab_end_foreign_access_ref() does: refused while in use),
 * clearing the entry regardless, pinning the frame as an L1, and giving
 * the frame back (XENMEM_decrease_reservation) under a read and a
 * write.  The ring: a read into the ring's own page, a frontend that
 * never takes its responses, req_prod a ring and one ahead, going
 * backwards, 2^31 ahead.  xenstore: garbage ring-ref,
 * event-channel, protocol and state values, rings and ports that are
 * not usable; closing with requests in flight and reconnecting on a
 * new ring at once.
 */
#include "blkfront.h"
#include <xen/memory.h>

const char test_title[] = "blk-hostile: a blkfront that breaks the rules";

#define NDATA       BLKIF_MAX_SEGMENTS_PER_REQUEST
#define REF_DATA    9                   /* data page i: REF_DATA + i */
#define REF_X       24                  /* a frame of the test's choice */
#define REF_BAD     25                  /* an entry made unusable */
#define REF_RING    30                  /* the ring; 31 the second one */
#define SECTORS     8192                /* disk virtio 4M */
#define SEG_SECTORS (PAGE_SIZE / 512)

/* The rings: the first, and the page and grant after it. */
static uint8_t ring_pages[2][PAGE_SIZE] __gnt_page;
static uint8_t data[NDATA][PAGE_SIZE] __gnt_page;
static uint8_t victim[PAGE_SIZE] __gnt_page;
static uint8_t before[PAGE_SIZE], after[PAGE_SIZE];

static struct blkfront xvda = {
    .fe = "device/vbd/51712", .be = "/local/domain/0/backend/vbd/1/51712",
    .sectors = SECTORS, .ref_ring = REF_RING, .ring_page = ring_pages[0],
};
static struct blkfront *const d = &xvda;

/* Sectors the test writes on purpose, each range a byte repeated. */
static struct {
    uint64_t first, n;
    uint8_t byte;
} written[4];
static unsigned int nr_written;

static void wrote(uint64_t first, uint64_t n, uint8_t byte)
{
    written[nr_written].first = first;
    written[nr_written].n = n;
    written[nr_written++].byte = byte;
}

static bool sector_ok(const uint8_t *p, unsigned int off, uint64_t n)
{
    unsigned int i, j;

    for ( i = 0; i < nr_written; i++ )
    {
        if ( n < written[i].first || n >= written[i].first + written[i].n )
            continue;
        for ( j = 0; j < 512; j++ )
            if ( p[off + j] != written[i].byte )
                return false;
        return true;
    }
    return blk_holds(p, off, n);
}

/* The disk's sectors [@from, @to) as made, or as the test wrote them. */
static void check_disk(uint64_t from, uint64_t to, const char *why)
{
    struct blkif_request_segment s[NDATA];
    unsigned int i, n;
    uint64_t sec;

    for ( i = 0; i < NDATA; i++ )
    {
        blk_grant(REF_DATA + i, data[i], 0);
        s[i] = blk_seg(REF_DATA + i, 0, SEG_SECTORS - 1);
    }
    for ( sec = from; sec < to; sec += n * SEG_SECTORS )
    {
        n = (to - sec) / SEG_SECTORS;
        n = n > NDATA ? NDATA : n;
        check_rc(blk_rq(d, BLKIF_OP_READ, sec, n, s), BLKIF_RSP_OKAY);
        for ( i = 0; i < n * SEG_SECTORS; i++ )
            if ( !sector_ok(data[i / SEG_SECTORS], (i % SEG_SECTORS) * 512,
                            sec + i) )
            {
                test_fail("%s: sector %llu changed", why,
                          (unsigned long long)(sec + i));
                return;
            }
    }
}

/* One segment of @ref's sectors @first to @last. */
static int rq1(uint8_t op, uint64_t sector, grant_ref_t ref, uint8_t first,
               uint8_t last)
{
    struct blkif_request_segment s = blk_seg(ref, first, last);

    return blk_rq(d, op, sector, 1, &s);
}

/* ------------------------------------------------ requests refused */

static const struct bad_rq {
    uint8_t op;
    uint64_t sector;
    unsigned int nseg;
    uint8_t first, last;
    int16_t status;
    const char *what;
} bad_rqs[] = {
    { BLKIF_OP_WRITE, 100, 0, 0, 7, BLKIF_RSP_ERROR, "no segments" },
    { BLKIF_OP_WRITE, 100, 12, 0, 7, BLKIF_RSP_ERROR, "12 segments" },
    { BLKIF_OP_WRITE, 100, 255, 0, 7, BLKIF_RSP_ERROR, "255 segments" },
    { BLKIF_OP_WRITE, 100, 1, 5, 4, BLKIF_RSP_ERROR, "first > last" },
    { BLKIF_OP_WRITE, 100, 1, 0, 8, BLKIF_RSP_ERROR, "last 8" },
    { BLKIF_OP_WRITE, 100, 1, 200, 255, BLKIF_RSP_ERROR, "sectors 200-255" },
    { BLKIF_OP_WRITE, SECTORS - 4, 1, 0, 7, BLKIF_RSP_ERROR, "past the end" },
    { BLKIF_OP_WRITE, SECTORS, 1, 0, 0, BLKIF_RSP_ERROR, "at the end" },
    { BLKIF_OP_WRITE, ~0ULL - 3, 1, 0, 7, BLKIF_RSP_ERROR, "wrapping" },
    { BLKIF_OP_WRITE_BARRIER, SECTORS - 1, 1, 0, 1, BLKIF_RSP_ERROR,
      "a barrier past the end" },
    { BLKIF_OP_FLUSH_DISKCACHE, SECTORS, 1, 0, 7, BLKIF_RSP_ERROR,
      "a flush with data past the end" },
    { BLKIF_OP_READ, 100, 1, 7, 0, BLKIF_RSP_ERROR, "a read, first > last" },
    { BLKIF_OP_READ, SECTORS - 1, 11, 0, 7, BLKIF_RSP_ERROR,
      "a read past the end" },
    { 99, 100, 1, 0, 7, BLKIF_RSP_EOPNOTSUPP, "operation 99" },
    { 255, 100, 1, 0, 7, BLKIF_RSP_EOPNOTSUPP, "operation 255" },
    { BLKIF_OP_RESERVED_1, 100, 1, 0, 7, BLKIF_RSP_EOPNOTSUPP,
      "the reserved operation" },
};

static void bad_requests(void)
{
    struct blkif_request_segment s[NDATA];
    const struct bad_rq *b;
    unsigned int i, j;

    for ( b = bad_rqs; b < bad_rqs + ARRAY_SIZE(bad_rqs); b++ )
    {
        for ( i = 0; i < NDATA; i++ )
        {
            memset(data[i], 0x77, PAGE_SIZE);
            blk_grant(REF_DATA + i, data[i], 0);
            s[i] = blk_seg(REF_DATA + i, b->first, b->last);
        }
        if ( blk_rq(d, b->op, b->sector, b->nseg, s) != b->status )
            test_fail("%s: status not %d", b->what, b->status);
        for ( i = 0; i < NDATA; i++ )
        {
            if ( gnt_status_bits(1, REF_DATA + i) )
                test_fail("%s: grant %u still in use", b->what, i);
            for ( j = 0; j < PAGE_SIZE; j++ )
                if ( data[i][j] != 0x77 )
                {
                    test_fail("%s: page %u written", b->what, i);
                    break;
                }
        }
    }

    /* Ten good segments and a bad grant: none used, none kept. */
    gnt_v1[REF_BAD].flags = 0;
    for ( i = 0; i < NDATA; i++ )
        s[i] = blk_seg(REF_DATA + i, 0, 7);
    s[NDATA - 1].gref = REF_BAD;
    check_rc(blk_rq(d, BLKIF_OP_WRITE, 200, NDATA, s), BLKIF_RSP_ERROR);
    s[NDATA - 1].gref = 5000;           /* past the table */
    check_rc(blk_rq(d, BLKIF_OP_WRITE, 200, NDATA, s), BLKIF_RSP_ERROR);
    gnt_grant(1, REF_BAD, 7, virt_to_mfn(data[0]), 0);  /* not dom0's */
    s[NDATA - 1].gref = REF_BAD;
    check_rc(blk_rq(d, BLKIF_OP_READ, 200, NDATA, s), BLKIF_RSP_ERROR);
    blk_grant(REF_BAD, data[0], GTF_readonly);  /* the device writes */
    check_rc(blk_rq(d, BLKIF_OP_READ, 200, NDATA, s), BLKIF_RSP_ERROR);
    for ( i = 0; i < NDATA; i++ )
        if ( gnt_status_bits(1, REF_DATA + i) || data[i][0] != 0x77 )
            test_fail("a refused 11-segment request used page %u", i);
    check_disk(0, 400, "after the refused requests");
    check_disk(SECTORS - 88, SECTORS, "after the refused requests");
}

/* ------------------------------------- tables as a read's destination */

/* A read into frame @mfn refused, the frame unchanged. */
static void refused_into(unsigned long mfn, const char *what)
{
    gnt_grant(1, REF_X, 0, mfn, 0);
    frame_read(mfn, 0, before, PAGE_SIZE);
    check_rc(rq1(BLKIF_OP_READ, 0, REF_X, 0, 7), BLKIF_RSP_ERROR);
    frame_read(mfn, 0, after, PAGE_SIZE);
    if ( memcmp(before, after, PAGE_SIZE) )
        test_fail("a refused read changed %s", what);
    if ( gnt_status_bits(1, REF_X) )
        test_fail("%s: grant still in use", what);
}

static void table_grants(void)
{
    unsigned long mfn, gdt;
    unsigned int level;
    char what[32];

    for ( level = 1; level <= PT_LEVELS; level++ )
    {
        mfn = new_table(level, 0, 0);
        snprintf(what, sizeof(what), "a pinned L%u", level);
        refused_into(mfn, what);
        if ( level == 1 )
        {
            /* The device may read a table: a write from it is fine. */
            check_rc(rq1(BLKIF_OP_WRITE, 300, REF_X, 0, 7), BLKIF_RSP_OKAY);
            wrote(300, 8, 0);
        }
        check_rc(unpin_table(mfn), 0);
    }

    gdt = alloc_frame();
    check_rc(hypercall_set_gdt(&gdt, 512), 0);
    refused_into(gdt, "a GDT frame");
    check_rc(hypercall_set_gdt(&gdt, 0), 0);
    /* No longer a descriptor table: the read goes in. */
    check_rc(rq1(BLKIF_OP_READ, 8, REF_X, 0, 7), BLKIF_RSP_OKAY);
    frame_read(gdt, 0, after, PAGE_SIZE);
    if ( !blk_holds(after, 0, 8) || !blk_holds(after, 7 * 512, 15) )
        test_fail("the read into a former GDT frame");
    check_disk(296, 312, "after the page tables");
}

/* ----------------------------------------------------- mid-flight */

#define BATCH 12

static uint64_t batch_first_id;

/*
 * BATCH reads of 11 pages each, then @op of @ref's sectors 0-7 at
 * @sector, pushed together; true if that last one was still in flight
 * (its grant in use by the device) once the push returned.  The shim
 * runs with backend-batch=0 (expect), so the backend takes the ring on
 * the send's own way out: with batching, it would wait for the next
 * iret or sched_op, and a request was caught in flight only when
 * something (mm-audit after each send, once) delayed that exit past the
 * batch's 1 ms timer.
 */
static bool batch(uint8_t op, uint64_t sector, grant_ref_t ref)
{
    struct blkif_request_segment s[NDATA];
    unsigned int i;

    for ( i = 0; i < NDATA; i++ )
    {
        blk_grant(REF_DATA + i, data[i], 0);
        s[i] = blk_seg(REF_DATA + i, 0, SEG_SECTORS - 1);
    }
    batch_first_id = d->id + 1;
    for ( i = 0; i < BATCH; i++ )
        blk_push_only(d, BLKIF_OP_READ, 1000 + i * NDATA * SEG_SECTORS,
                      NDATA, s);
    s[0] = blk_seg(ref, 0, SEG_SECTORS - 1);
    blk_push(d, op, sector, 1, s);
    evtchn_send(d->port);
    return gnt_status_bits(1, ref) & (op == BLKIF_OP_READ ? GTF_writing
                                                          : GTF_reading);
}

/* The batch's responses, each once: OKAY, and @last for the last one. */
static void batch_done(int16_t last)
{
    struct blkif_response rsp;
    unsigned int i, seen = 0;

    for ( i = 0; i <= BATCH; i++ )
    {
        if ( !blk_response(d, &rsp) )
            return;
        if ( rsp.id < batch_first_id || rsp.id > d->id ||
             (seen & (1u << (rsp.id - batch_first_id))) )
        {
            test_fail("response id %llx", (unsigned long long)rsp.id);
            continue;
        }
        seen |= 1u << (rsp.id - batch_first_id);
        if ( rsp.status != (rsp.id == d->id ? last : BLKIF_RSP_OKAY) )
            test_fail("request %llx (batch's %u): status %d",
                      (unsigned long long)rsp.id,
                      (unsigned int)(rsp.id - batch_first_id), rsp.status);
    }
}

/* Push batches until the last request is caught in flight. */
static unsigned int batches, caught_nr;

static bool caught(uint8_t op, uint64_t sector, grant_ref_t ref)
{
    unsigned int i;

    for ( i = 0; i < 400; i++ )
    {
        batches++;
        if ( batch(op, sector, ref) )
        {
            caught_nr++;
            return true;
        }
        batch_done(BLKIF_RSP_OKAY);
    }
    test_fail("never caught a request in flight");
    return false;
}

static void report_caught(void)
{
    printf("%u requests caught in flight in %u batches\n", caught_nr,
           batches);
    caught_nr = batches = 0;
}

/* Linux's gnttab_end_foreign_access_ref_v1(): refused while in use. */
static bool end_access(grant_ref_t ref)
{
    uint16_t flags, nflags = gnt_v1[ref].flags;

    do {
        flags = nflags;
        if ( flags & (GTF_reading | GTF_writing) )
            return false;
        nflags = __sync_val_compare_and_swap(&gnt_v1[ref].flags, flags, 0);
    } while ( nflags != flags );
    return true;
}

static long give_back(unsigned long mfn)
{
    xen_pfn_t m = mfn;
    struct xen_memory_reservation r = {
        .nr_extents = 1, .domid = DOMID_SELF,
    };

    set_xen_guest_handle(r.extent_start, &m);
    return HYPERCALL(__HYPERVISOR_memory_op, XENMEM_decrease_reservation,
                     &r, 0, 0, 0);
}

static void revoked(void)
{
    bool ended = false;

    /*
     * Refused while the device uses it; should the read finish between
     * the look and the try, access ends, and the device must then never
     * write into the page again (a mark put there stays).
     */
    blk_grant(REF_X, victim, 0);
    if ( caught(BLKIF_OP_READ, 2000, REF_X) && (ended = end_access(REF_X)) )
        memset(victim, 0xee, PAGE_SIZE);
    batch_done(BLKIF_RSP_OKAY);
    if ( ended )
    {
        printf("the read finished before access ended\n");
        if ( victim[0] != 0xee || victim[PAGE_SIZE - 1] != 0xee )
            test_fail("the device wrote a page after its grant ended");
    }
    else
    {
        if ( !end_access(REF_X) )
            test_fail("could not end access once the read was done");
        if ( !blk_holds(victim, 0, 2000) || !blk_holds(victim, 3584, 2007) )
            test_fail("the read that held the grant");
    }

    /* Cleared by force: the frame stays the device's until it is done. */
    memset(victim, 0, PAGE_SIZE);
    blk_grant(REF_X, victim, 0);
    if ( caught(BLKIF_OP_READ, 2008, REF_X) )
    {
        __atomic_store_n(&gnt_v1[REF_X].flags, 0, __ATOMIC_SEQ_CST);
        gnt_v1[REF_X].frame = virt_to_mfn(data[0]);
    }
    batch_done(BLKIF_RSP_OKAY);
    if ( !blk_holds(victim, 0, 2008) || !blk_holds(victim, 3584, 2015) )
        test_fail("the read whose grant was cleared");
    if ( gnt_v1[REF_X].flags )
        test_fail("a cleared entry's flags %#x", gnt_v1[REF_X].flags);
    check_rc(rq1(BLKIF_OP_READ, 0, REF_X, 0, 0), BLKIF_RSP_ERROR);
}

/* The device writes a frame: it can't become a page table meanwhile. */
static void pinned_mid_flight(void)
{
    unsigned long mfn = alloc_frame();
    long rc = -XEN_EINVAL;

    /* Zeroes on the disk, so that only the type can refuse the pin. */
    memset(victim, 0, PAGE_SIZE);
    blk_grant(REF_X, victim, GTF_readonly);
    check_rc(rq1(BLKIF_OP_WRITE, 3000, REF_X, 0, 7), BLKIF_RSP_OKAY);
    wrote(3000, 8, 0);

    gnt_grant(1, REF_X, 0, mfn, 0);
    if ( caught(BLKIF_OP_READ, 3000, REF_X) && !(rc = pin_table(1, mfn)) )
    {
        /* The read finished in between: the grant must be let go. */
        if ( gnt_status_bits(1, REF_X) )
            test_fail("pinned as an L1 while the device writes it");
        check_rc(unpin_table(mfn), 0);
    }
    else if ( rc != -XEN_EINVAL )
        test_fail("pinning a frame the device writes: %ld", rc);
    batch_done(BLKIF_RSP_OKAY);
    check_rc(pin_table(1, mfn), 0);
    check_rc(unpin_table(mfn), 0);
}

/*
 * A frame given back while the device writes it, or reads it: the frame
 * stays the device's until it is done (the read's data lands in it, the
 * write's data is what it held), then goes; its grant is then refused.
 */
static void given_back(uint8_t op, uint64_t sector)
{
    unsigned long mfn = alloc_frame();

    if ( op == BLKIF_OP_WRITE )
    {
        frame_fill(mfn, 0xc3);
        wrote(sector, 8, 0xc3);
    }
    gnt_grant(1, REF_X, 0, mfn, op == BLKIF_OP_WRITE ? GTF_readonly : 0);
    if ( caught(op, sector, REF_X) )
        check_rc(give_back(mfn), 1);
    batch_done(BLKIF_RSP_OKAY);
    if ( mfn_to_pfn(mfn) != ~0UL )
        test_fail("the given-back frame %lx still has pfn %lx", mfn,
                  mfn_to_pfn(mfn));
    check_rc(rq1(op, sector, REF_X, 0, 7), BLKIF_RSP_ERROR);
    check_disk(sector - 8, sector + 16, "around a given-back frame");
}

/* ------------------------------------------------------- the ring */

/*
 * A frontend that never takes its responses and keeps producing, each
 * time a whole ring ahead of them: answered in the ring's slots only,
 * the rest of its page untouched.
 */
static void never_reads(void)
{
    struct blkif_sring *s = (void *)d->ring_page;
    uint8_t *tail = (uint8_t *)&s->ring[RING_SIZE(&d->ring)];
    struct blkif_request_segment seg = blk_seg(REF_DATA, 0, 0);
    unsigned int round, i, j, n = RING_SIZE(&d->ring);
    const struct blkif_response *rsp;
    uint64_t seen = 0, start;
    RING_IDX base = 0;

    memset(tail, 0x5a, d->ring_page + PAGE_SIZE - tail);
    blk_grant(REF_DATA, data[0], 0);
    for ( round = 0; round < 4; round++ )
    {
        base = s->rsp_prod;
        for ( i = 0; i < n; i++ )
            blk_push_only(d, BLKIF_OP_READ, 100 + i, 1, &seg);
        RING_PUSH_REQUESTS(&d->ring);
        evtchn_send(d->port);
        for ( start = system_time();
              s->rsp_prod != base + n && !blk_waited_long(start); )
            blk_yield();
        if ( s->rsp_prod != base + n )
            return test_fail("round %u: rsp_prod %u, expected %u", round,
                             s->rsp_prod, base + n);
    }
    /* The last round's, each once, in the order the device finished. */
    for ( i = 0; i < n; i++ )
    {
        rsp = RING_GET_RESPONSE(&d->ring, base + i);
        j = rsp->id - (d->id - n + 1);
        if ( j >= n || (seen & (1ull << j)) ||
             rsp->status != BLKIF_RSP_OKAY )
            test_fail("response slot %u: id %llx status %d", i,
                      (unsigned long long)rsp->id, rsp->status);
        else
            seen |= 1ull << j;
    }
    for ( i = 0; tail + i < d->ring_page + PAGE_SIZE; i++ )
        if ( tail[i] != 0x5a )
            return test_fail("the ring page written past its slots (%u)",
                             i);
    d->ring.rsp_cons = s->rsp_prod;
    check_rc(rq1(BLKIF_OP_READ, 5, REF_DATA, 0, 0), BLKIF_RSP_OKAY);
    if ( !blk_holds(data[0], 0, 5) )
        test_fail("read of sector 5 after never reading responses");
}

/* req_prod at @prod: the backend closes; then a reconnect works. */
static void bogus_req_prod(RING_IDX prod, const char *what)
{
    struct blkif_sring *s = (void *)d->ring_page;

    s->req_prod = prod;
    evtchn_send(d->port);
    blk_wait_be_state(d, XenbusStateClosing);
    blk_disconnect(d, what);
    blk_connect(d);
    check_rc(rq1(BLKIF_OP_READ, 5, REF_DATA, 0, 0), BLKIF_RSP_OKAY);
    if ( !blk_holds(data[0], 0, 5) )
        test_fail("read of sector 5 %s", what);
}

/*
 * A read into the ring's own page: the device writes sectors 0-7 over
 * it, indexes and all (sector 0 is zeroes).  The request was copied out
 * before, and the response goes in after the data, with its index: it
 * arrives (the frontend, which sees the data land first, waits for the
 * index and the entry to be right); then it starts over on a new ring.
 */
static void read_into_ring(void)
{
    struct blkif_sring *s = (void *)d->ring_page;
    struct blkif_request_segment seg = blk_seg(d->ref_ring, 0, 7);
    const struct blkif_response *r;
    RING_IDX want = d->ring.req_prod_pvt + 1;
    uint64_t start = system_time();
    bool done;

    blk_push(d, BLKIF_OP_READ, 0, 1, &seg);
    evtchn_send(d->port);
    r = RING_GET_RESPONSE(&d->ring, d->ring.rsp_cons);
    while ( !(done = *(volatile RING_IDX *)&s->rsp_prod == want &&
                     *(volatile uint64_t *)&r->id == d->id) &&
            !blk_waited_long(start) )
        blk_yield();
    if ( !done || r->status != BLKIF_RSP_OKAY )
        test_fail("a read into the ring page: no response (rsp_prod %u)",
                  s->rsp_prod);
    /* Sector 7 is past the slots, where no response goes. */
    if ( !blk_holds(d->ring_page, 7 * 512, 7) )
        test_fail("the read into the ring page");
    blk_disconnect(d, "after a read into the ring");
    blk_connect(d);
    check_rc(rq1(BLKIF_OP_READ, 5, REF_DATA, 0, 0), BLKIF_RSP_OKAY);
}

static void ring_indexes(void)
{
    struct blkif_sring *s = (void *)d->ring_page;

    read_into_ring();
    never_reads();
    bogus_req_prod(s->rsp_prod + RING_SIZE(&d->ring) + 1,
                   "after req_prod a ring and one ahead");
    /* One request consumed, then req_prod behind it. */
    check_rc(blk_rq(d, BLKIF_OP_READ, 5, 0, NULL), BLKIF_RSP_ERROR);
    bogus_req_prod(s->req_prod - 2, "after req_prod went back");
    bogus_req_prod(s->req_prod + 0x80000000u, "after req_prod 2^31 ahead");
}

/* ------------------------------------------------------- xenstore */

/*
 * Connect with these keys (NULL: no such node): the backend must close
 * with @error in its error node, holding neither ring nor port, and
 * start over for a frontend that does.
 */
static void bad_keys(const char *ref, const char *port, const char *proto,
                     const char *error)
{
    static const char *const names[] = {
        "ring-ref", "event-channel", "protocol",
    };
    const char *val[] = { ref, port, proto };
    unsigned int i;

    for ( i = 0; i < 3; i++ )
        if ( val[i] )
            xs_write(0, blk_fe(d, names[i]), val[i]);
        else
            xs_req_str(XS_RM, 0, blk_fe(d, names[i]));
    blk_fe_state(d, XenbusStateInitialised);
    if ( !blk_wait_be_state(d, XenbusStateClosing) )
        test_fail("keys \"%s\" \"%s\" \"%s\" not refused", ref ?: "-",
                  port ?: "-", proto ?: "-");
    blk_expect_node(blk_be(d, "error"), error);
    if ( gnt_status_bits(1, REF_RING) || gnt_status_bits(1, REF_X) )
        test_fail("a refused ring's grant still in use");
    blk_fe_state(d, XenbusStateClosed);
    blk_wait_be_state(d, XenbusStateClosed);
    blk_fe_state(d, XenbusStateInitialising);
    blk_wait_be_state(d, XenbusStateInitWait);
}

static void xenstore_keys(void)
{
    static const char *const bad_numbers[] = {
        "", "abc", "-1", "12abc", " 30", "30 ", "0x1e", "4294967296",
        "99999999999999999999999999",
    };
    static char long_proto[200];
    evtchn_alloc_unbound_t a = { .dom = DOMID_SELF, .remote_dom = 0 };
    evtchn_status_t st;
    char ref[16], port[16], other[16];
    evtchn_port_t own_port;
    unsigned int i;
    long ipi;

    check_rc(evtchn_op(EVTCHNOP_alloc_unbound, &a), 0);
    own_port = a.port;
    snprintf(port, sizeof(port), "%u", a.port);
    snprintf(ref, sizeof(ref), "%u", REF_RING);
    blk_grant(REF_RING, ring_pages[0], 0);

    for ( i = 0; i < ARRAY_SIZE(bad_numbers); i++ )
    {
        bad_keys(bad_numbers[i], port, XEN_IO_PROTO_ABI_NATIVE,
                 "reading ring-ref");
        bad_keys(ref, bad_numbers[i], XEN_IO_PROTO_ABI_NATIVE,
                 "reading event-channel");
    }
    bad_keys(NULL, port, NULL, "reading ring-ref");
    bad_keys(ref, NULL, NULL, "reading event-channel");

    /* Protocols: unknown, and too long to be one. */
    bad_keys(ref, port, "x86_16-abi", "unknown protocol");
    memset(long_proto, 'x', sizeof(long_proto) - 1);
    memcpy(long_proto, XEN_IO_PROTO_ABI_NATIVE,
           strlen(XEN_IO_PROTO_ABI_NATIVE));
    bad_keys(ref, port, long_proto, "unknown protocol");

    /* Rings the backend can't use. */
    bad_keys("5000", port, NULL, "mapping ring");
    gnt_v1[REF_BAD].flags = 0;
    snprintf(other, sizeof(other), "%u", REF_BAD);
    bad_keys(other, port, NULL, "mapping ring");
    gnt_grant(1, REF_BAD, 7, virt_to_mfn(ring_pages[1]), 0);
    bad_keys(other, port, NULL, "mapping ring");
    gnt_grant(1, REF_BAD, 0, virt_to_mfn(ring_pages[1]), GTF_readonly);
    bad_keys(other, port, NULL, "mapping ring");
    gnt_grant(1, REF_BAD, 0, new_table(1, 0, 0), 0);
    bad_keys(other, port, NULL, "mapping ring");
    check_rc(unpin_table(gnt_v1[REF_BAD].frame), 0);
    gnt_v1[REF_BAD].flags = 0;

    /* Ports the backend can't bind, each left as it was. */
    bad_keys(ref, "0", NULL, "binding event channel");
    bad_keys(ref, "100000", NULL, "binding event channel");
    ipi = evtchn_bind_ipi_on(0);
    if ( ipi < 0 )
        return test_error("binding an IPI port: %ld", ipi);
    snprintf(other, sizeof(other), "%ld", ipi);
    bad_keys(ref, other, NULL, "binding event channel");
    check_rc(evtchn_status_of(ipi, &st), 0);
    if ( st.status != EVTCHNSTAT_ipi )
        test_fail("the IPI port's status %u", st.status);
    check_rc(evtchn_close(ipi), 0);
    snprintf(other, sizeof(other), "%u", start_info->store_evtchn);
    bad_keys(ref, other, NULL, "binding event channel");
    a.remote_dom = 7;
    check_rc(evtchn_op(EVTCHNOP_alloc_unbound, &a), 0);
    snprintf(other, sizeof(other), "%u", a.port);
    bad_keys(ref, other, NULL, "binding event channel");
    check_rc(evtchn_status_of(a.port, &st), 0);
    if ( st.status != EVTCHNSTAT_unbound || st.u.unbound.dom != 7 )
        test_fail("the port unbound for d7: status %u", st.status);
    check_rc(evtchn_close(a.port), 0);
    /* xenstore still answers on its port: the store's node is there. */
    blk_expect_node(blk_fe(d, "ring-ref"), ref);
    check_rc(evtchn_close(own_port), 0);
}

/* Frontend states that are no state, while connected. */
static void bad_states(void)
{
    xs_write(0, blk_fe(d, "state"), "99");
    blk_expect_node(blk_be(d, "state"), "4");
    check_rc(rq1(BLKIF_OP_READ, 5, REF_DATA, 0, 0), BLKIF_RSP_OKAY);
    /* Not a number: unknown, as Linux reads it; the device closes. */
    xs_write(0, blk_fe(d, "state"), "connected");
    blk_wait_be_state(d, XenbusStateClosed);
    check_rc(gnt_status_bits(1, d->ref_ring), 0);
    check_rc(evtchn_close(d->port), 0);
    blk_fe_state(d, XenbusStateInitialising);
    blk_wait_be_state(d, XenbusStateInitWait);
    blk_connect(d);
}

/*
 * Closing with requests in flight, and connecting again on another ring
 * at once: every request on the old ring is answered there, once, and
 * only then does the backend let it go and take the new one.
 */
static void close_in_flight(void)
{
    struct blkif_sring *old = (void *)d->ring_page;
    evtchn_port_t old_port = d->port;
    unsigned int i, okay = 0, seen;
    RING_IDX first = d->ring.rsp_cons, prod;

    batch(BLKIF_OP_READ, 2000, REF_DATA);
    blk_fe_state(d, XenbusStateClosing);
    blk_wait_be_state(d, XenbusStateClosing);
    blk_fe_state(d, XenbusStateClosed);
    blk_wait_be_state(d, XenbusStateClosed);
    blk_fe_state(d, XenbusStateInitialising);
    blk_wait_be_state(d, XenbusStateInitWait);
    d->ring_page += PAGE_SIZE;
    d->ref_ring++;
    blk_connect(d);

    /* Consumed before the close (all, as the backend stands): answered. */
    if ( old->rsp_prod - first > BATCH + 1 )
        test_fail("the old ring: %u responses to %u requests",
                  old->rsp_prod - first, BATCH + 1);
    seen = 0;
    for ( i = first; i != old->rsp_prod; i++ )
    {
        const struct blkif_response *r =
            &old->ring[i & (RING_SIZE(&d->ring) - 1)].rsp;

        if ( r->id < batch_first_id || r->id > batch_first_id + BATCH ||
             (seen & (1u << (r->id - batch_first_id))) )
        {
            test_fail("the old ring: response id %llx",
                      (unsigned long long)r->id);
            continue;
        }
        seen |= 1u << (r->id - batch_first_id);
        okay += r->status == BLKIF_RSP_OKAY;
        if ( r->status != BLKIF_RSP_OKAY && r->status != BLKIF_RSP_ERROR )
            test_fail("the old ring: status %d", r->status);
    }
    printf("closed with %u requests in flight: %u done, %u refused\n",
           BATCH + 1, okay, old->rsp_prod - first - okay);
    prod = old->rsp_prod;
    check_rc(gnt_status_bits(1, d->ref_ring - 1), 0);
    check_rc(evtchn_close(old_port), 0);
    check_rc(rq1(BLKIF_OP_READ, 5, REF_DATA, 0, 0), BLKIF_RSP_OKAY);
    if ( !blk_holds(data[0], 0, 5) )
        test_fail("read of sector 5 on the new ring");
    if ( old->rsp_prod != prod )
        test_fail("a response on the old ring after the new one connected");
}

void test_main(void)
{
    if ( !blk_test_init() )
        return;
    blk_wait_be_state(d, XenbusStateInitWait);

    xenstore_keys();
    blk_connect(d);
    bad_requests();
    table_grants();
    revoked();
    pinned_mid_flight();
    given_back(BLKIF_OP_READ, 3200);
    given_back(BLKIF_OP_WRITE, 3100);
    report_caught();
    ring_indexes();
    bad_states();
    close_in_flight();
    check_disk(0, 4000, "at the end");
    check_disk(SECTORS - 264, SECTORS, "at the end");
    test_success();
}
