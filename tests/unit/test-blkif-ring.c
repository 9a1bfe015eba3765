/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the block ring's pure logic (backends/blk/blkif-ring.c):
 * ring sizes per page order and ABI; requests written by a frontend into
 * a contiguous ring, read back by the backend from the same bytes in
 * separate pages (entries straddling a page boundary too), in both ABIs
 * and all three forms (read/write, discard, indirect); responses read
 * back by the frontend; the segment, range and logical-block checks;
 * segments out of an indirect page.
 */
#include "tests/unit/unit.h"
#include "../../backends/blk/blkif-ring.c"

#define PAGES 4

static uint8_t front[PAGES * BLKIF_PAGE_SIZE] __attribute__((aligned(4096)));
static uint8_t *back[PAGES];

/* The frontend's contiguous ring into the backend's separate pages. */
static void to_back(void)
{
    unsigned int i;

    for ( i = 0; i < PAGES; i++ )
        memcpy(back[i], front + i * BLKIF_PAGE_SIZE, BLKIF_PAGE_SIZE);
}

static void to_front(void)
{
    unsigned int i;

    for ( i = 0; i < PAGES; i++ )
        memcpy(front + i * BLKIF_PAGE_SIZE, back[i], BLKIF_PAGE_SIZE);
}

/* Request @i as the backend decodes it: its operation, segments, id, sector. */
static const struct blkif_req *get(const struct blkif_ring *r, RING_IDX i,
                                   uint8_t op, unsigned int nr_segments,
                                   uint64_t id, uint64_t sector)
{
    static struct blkif_req q;

    blkif_ring_get(r, i, &q);
    CHECK_EQ(q.op, op);
    CHECK_EQ(q.nr_segments, nr_segments);
    CHECK_EQ(q.id, id);
    CHECK_EQ(q.sector, sector);
    return &q;
}

static void test_sizes(void)
{
    CHECK_EQ(blkif_ring_entries(1, false), 32);
    CHECK_EQ(blkif_ring_entries(1, true), 32);
    CHECK_EQ(blkif_ring_entries(2, false), 64);
    CHECK_EQ(blkif_ring_entries(4, true), 128);
    CHECK_EQ(blkif_ring_entries(16, false), 512);
    CHECK_EQ(blkif_ring_entries(16, true), 512);
}

/* Native: 128 entries over 4 pages; entry 72 straddles pages 1 and 2. */
static void test_native(void)
{
    struct blkif_sring *s = (void *)front;
    struct blkif_front_ring fr;
    struct blkif_ring r;
    const struct blkif_req *q;
    struct blkif_request *rw;
    struct blkif_request_discard *dc;
    struct blkif_request_indirect *in;
    RING_IDX i;

    memset(front, 0, sizeof(front));
    SHARED_RING_INIT(s);
    FRONT_RING_INIT(&fr, s, sizeof(front));
    CHECK_EQ(RING_SIZE(&fr), 128);
    fr.req_prod_pvt = 70;                /* as if 70 were answered */
    s->req_prod = s->rsp_prod = 70;
    to_back();
    blkif_ring_attach(&r, back, PAGES, false);
    r.br.req_cons = r.br.rsp_prod_pvt = 70;
    CHECK_EQ(r.br.nr_ents, 128);

    rw = RING_GET_REQUEST(&fr, 70);
    *rw = (struct blkif_request){ .operation = BLKIF_OP_WRITE,
                                  .nr_segments = 11, .id = 0x1122334455667788,
                                  .sector_number = 999 };
    for ( i = 0; i < 11; i++ )
        rw->seg[i] = (struct blkif_request_segment){ 100 + i, i % 8, 7 };
    dc = (void *)RING_GET_REQUEST(&fr, 71);
    *dc = (struct blkif_request_discard){ .operation = BLKIF_OP_DISCARD,
                                          .flag = 1, .id = 5,
                                          .sector_number = 64,
                                          .nr_sectors = 1ULL << 40 };
    in = (void *)RING_GET_REQUEST(&fr, 72);
    CHECK((uint8_t *)in < front + 2 * BLKIF_PAGE_SIZE &&
          (uint8_t *)in + 112 > front + 2 * BLKIF_PAGE_SIZE);
    *in = (struct blkif_request_indirect){ .operation = BLKIF_OP_INDIRECT,
                                           .indirect_op = BLKIF_OP_READ,
                                           .nr_segments = 256, .id = 77,
                                           .sector_number = 1 << 20,
                                           .indirect_grefs = { 9, 10 } };
    to_back();
    q = get(&r, 70, BLKIF_OP_WRITE, 11, 0x1122334455667788, 999);
    CHECK_EQ(q->operation, BLKIF_OP_WRITE);
    CHECK_EQ(q->seg[10].gref, 110);
    CHECK_EQ(q->seg[10].first_sect, 2);
    CHECK_EQ(q->seg[10].last_sect, 7);
    q = get(&r, 71, BLKIF_OP_DISCARD, 0, 5, 64);
    CHECK_EQ(q->flag, 1);
    CHECK_EQ(q->nr_sectors, 1ULL << 40);
    q = get(&r, 72, BLKIF_OP_READ, 256, 77, 1 << 20);
    CHECK_EQ(q->operation, BLKIF_OP_INDIRECT);
    CHECK_EQ(q->indirect[0], 9);
    CHECK_EQ(q->indirect[1], 10);

    /* Responses, the third across the page boundary. */
    CHECK(!blkif_ring_respond(&r, 0x1122334455667788, BLKIF_OP_WRITE,
                              BLKIF_RSP_OKAY));
    blkif_ring_respond(&r, 5, BLKIF_OP_DISCARD, BLKIF_RSP_EOPNOTSUPP);
    blkif_ring_respond(&r, 77, BLKIF_OP_READ, BLKIF_RSP_ERROR);
    to_front();
    CHECK_EQ(s->rsp_prod, 73);
    CHECK_EQ(RING_GET_RESPONSE(&fr, 70)->id, 0x1122334455667788);
    CHECK_EQ(RING_GET_RESPONSE(&fr, 71)->status, BLKIF_RSP_EOPNOTSUPP);
    CHECK_EQ(RING_GET_RESPONSE(&fr, 72)->id, 77);
    CHECK_EQ(RING_GET_RESPONSE(&fr, 72)->operation, BLKIF_OP_READ);
    CHECK_EQ((uint16_t)RING_GET_RESPONSE(&fr, 72)->status,
             (uint16_t)BLKIF_RSP_ERROR);
    /* The frontend asked to be told: rsp_event. */
    s->rsp_event = 74;
    to_back();
    CHECK(blkif_ring_respond(&r, 1, BLKIF_OP_READ, 0));
}

/*
 * The response's padding (native: the byte after operation, the four
 * after status) holds none of the backend's stack: the stack below is
 * filled with a pattern first, where a struct built on it would sit.
 */
static noinline void dirty_stack(void)
{
    volatile uint8_t junk[4096];
    unsigned int i;

    for ( i = 0; i < sizeof(junk); i++ )
        junk[i] = 0xa5;
}

static void test_no_stack_leak(void)
{
    struct blkif_sring *s = (void *)front;
    struct blkif_front_ring fr;
    struct blkif_ring r;
    const uint8_t *e;
    unsigned int i, x86_32;

    for ( x86_32 = 0; x86_32 < 2; x86_32++ )
    {
        memset(front, 0, sizeof(front));
        SHARED_RING_INIT(s);
        FRONT_RING_INIT(&fr, s, sizeof(front));
        to_back();
        blkif_ring_attach(&r, back, 1, x86_32);
        dirty_stack();
        blkif_ring_respond(&r, 0x0102030405060708, BLKIF_OP_READ,
                           BLKIF_RSP_ERROR);
        to_front();
        e = (const uint8_t *)RING_GET_RESPONSE(&fr, 0);
        CHECK_EQ(e[0], 0x08);
        CHECK_EQ(e[7], 0x01);
        CHECK_EQ(e[8], BLKIF_OP_READ);
        CHECK_EQ((uint16_t)(e[10] | e[11] << 8), (uint16_t)BLKIF_RSP_ERROR);
        for ( i = 0; i < 16; i++ )
            CHECK(e[i] != 0xa5);
        CHECK_EQ(e[9], 0);
        for ( i = 12; i < (x86_32 ? 12 : 16); i++ )
            CHECK_EQ(e[i], 0);
    }
}

/* x86_32: 108-byte entries, id at 4, 12-byte responses. */
static void test_x86_32(void)
{
    struct blkif_x86_32_sring *s = (void *)front;
    struct blkif_x86_32_front_ring fr;
    struct blkif_x86_32_request *rw;
    struct blkif_x86_32_request_discard *dc;
    struct blkif_x86_32_request_indirect *in;
    struct blkif_ring r;
    const struct blkif_req *q;

    memset(front, 0, sizeof(front));
    SHARED_RING_INIT(s);
    FRONT_RING_INIT(&fr, s, 2 * BLKIF_PAGE_SIZE);
    to_back();
    blkif_ring_attach(&r, back, 2, true);
    CHECK_EQ(r.br.nr_ents, 64);
    rw = RING_GET_REQUEST(&fr, 37);      /* 64 + 37 * 108: 4060-4168 */
    rw->operation = BLKIF_OP_READ;
    rw->nr_segments = 3;
    rw->id = 0xabcdef0123;
    rw->sector_number = 12345;
    rw->seg[2] = (struct blkif_request_segment){ 42, 1, 6 };
    dc = (void *)RING_GET_REQUEST(&fr, 1);
    dc->operation = BLKIF_OP_DISCARD;
    dc->id = 3;
    dc->sector_number = 8;
    dc->nr_sectors = 16;
    in = (void *)RING_GET_REQUEST(&fr, 2);
    in->operation = BLKIF_OP_INDIRECT;
    in->indirect_op = BLKIF_OP_WRITE;
    in->nr_segments = 300;
    in->id = 4;
    in->sector_number = 80;
    in->indirect_grefs[0] = 55;
    to_back();
    q = get(&r, 37, BLKIF_OP_READ, 3, 0xabcdef0123, 12345);
    CHECK_EQ(q->seg[2].gref, 42);
    CHECK_EQ(q->seg[2].first_sect, 1);
    CHECK_EQ(q->seg[2].last_sect, 6);
    q = get(&r, 1, BLKIF_OP_DISCARD, 0, 3, 8);
    CHECK_EQ(q->nr_sectors, 16);
    q = get(&r, 2, BLKIF_OP_WRITE, 300, 4, 80);
    CHECK_EQ(q->indirect[0], 55);
    r.br.rsp_prod_pvt = 37;
    blkif_ring_respond(&r, 0xabcdef0123, BLKIF_OP_READ, BLKIF_RSP_OKAY);
    to_front();
    CHECK_EQ(RING_GET_RESPONSE(&fr, 37)->id, 0xabcdef0123);
    CHECK_EQ(RING_GET_RESPONSE(&fr, 37)->operation, BLKIF_OP_READ);
    CHECK_EQ(s->rsp_prod, 38);
}

static void test_checks(void)
{
    struct blkif_request_segment seg[3] = {
        { 1, 0, 7 }, { 2, 3, 3 }, { 3, 0, 0 },
    };
    uint64_t nr;

    CHECK(blkif_segs_check(seg, 3, &nr));
    CHECK_EQ(nr, 10);
    seg[1].last_sect = 8;
    CHECK(!blkif_segs_check(seg, 3, &nr));
    seg[1] = (struct blkif_request_segment){ 2, 4, 3 };
    CHECK(!blkif_segs_check(seg, 3, &nr));
    CHECK(blkif_range_ok(0, 100, 100));
    CHECK(!blkif_range_ok(1, 100, 100));
    CHECK(!blkif_range_ok(100, 0, 100));
    CHECK(!blkif_range_ok(~0ULL - 1, 8, 100));
    CHECK(!blkif_range_ok(50, ~0ULL - 10, 100));
    /* 4 KiB logical blocks: whole pages at block starts only. */
    seg[0] = (struct blkif_request_segment){ 1, 0, 7 };
    seg[1] = (struct blkif_request_segment){ 2, 0, 7 };
    CHECK(blkif_aligned(16, seg, 2, 8));
    CHECK(!blkif_aligned(4, seg, 2, 8));
    seg[1].last_sect = 3;
    CHECK(!blkif_aligned(16, seg, 2, 8));
    CHECK(blkif_aligned(3, seg, 2, 1));
}

static void test_indirect_segs(void)
{
    static struct blkif_request_segment page[2][BLKIF_SEGS_PER_PAGE];
    const uint8_t *pages[2] = { (void *)page[0], (void *)page[1] };
    struct blkif_request_segment out[600];
    unsigned int i;

    CHECK_EQ(BLKIF_SEGS_PER_PAGE, 512);
    CHECK_EQ(BLKIF_INDIRECT_PAGES(1), 1);
    CHECK_EQ(BLKIF_INDIRECT_PAGES(512), 1);
    CHECK_EQ(BLKIF_INDIRECT_PAGES(513), 2);
    for ( i = 0; i < 600; i++ )
        page[i / 512][i % 512] = (struct blkif_request_segment){
            1000 + i, i % 8, 7 };
    blkif_indirect_segs(pages, 600, out);
    CHECK_EQ(out[0].gref, 1000);
    CHECK_EQ(out[511].gref, 1511);
    CHECK_EQ(out[512].gref, 1512);
    CHECK_EQ(out[599].first_sect, 599 % 8);
    CHECK_EQ(out[599].last_sect, 7);
}

int main(void)
{
    unsigned int i;

    for ( i = 0; i < PAGES; i++ )
        back[i] = aligned_alloc(4096, BLKIF_PAGE_SIZE);
    RUN(test_sizes);
    RUN(test_native);
    RUN(test_x86_32);
    RUN(test_checks);
    RUN(test_indirect_segs);
    RUN(test_no_stack_leak);
    for ( i = 0; i < PAGES; i++ )
        free(back[i]);
    UNIT_EXIT();
}
