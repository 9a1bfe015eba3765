/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of NVMe's pure logic (drivers/nvme/nvme-lib.c): Identify
 * Controller and Namespace parsing (strings, MDTS, ONCS, VWC, LBA formats
 * with and without metadata, write protection), the transfer limit, PRP
 * entries for one page, two, a list, several segments and page-crossing
 * ones, the segments PRPs can't express, the phase-tag walk of a
 * completion queue across wraps, the slot a completion names, and what
 * each status means.
 */
#include "tests/unit/unit.h"
#include "../../drivers/nvme/nvme-lib.c"

#define LIST_ADDR   0xabc000ULL

static uint8_t id[4096];

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = v;
    p[1] = v >> 8;
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v);
    put16(p + 2, v >> 16);
}

static void test_id_ctrl(void)
{
    struct nvme_id_ctrl c;

    memset(id, 0, sizeof(id));
    memcpy(id + 4, "deadbeef            ", 20);
    memcpy(id + 24, "QEMU NVMe Ctrl", 14);
    memset(id + 38, ' ', 26);
    id[30] = 0x07;                          /* not printable */
    id[77] = 7;
    put32(id + 516, 256);
    put16(id + 520, NVME_ONCS_DSM | NVME_ONCS_WRITE_ZEROES | 0x10);
    id[525] = 1;
    nvme_parse_id_ctrl(id, &c);
    CHECK_STR(c.serial, "deadbeef");
    CHECK_STR(c.model, "QEMU N?Me Ctrl");
    CHECK_EQ(c.mdts, 7);
    CHECK_EQ(c.nn, 256);
    CHECK_EQ(c.oncs, 0x1c);
    CHECK_EQ(c.vwc, 1);
    CHECK_EQ(c.wzsl, 0);
    CHECK_EQ(c.dmrsl, 0);

    /* All 20 and 40 bytes used: no padding, still terminated. */
    memset(id + 4, 'S', 20);
    memset(id + 24, 'M', 40);
    nvme_parse_id_ctrl(id, &c);
    CHECK_EQ(strlen(c.serial), 20);
    CHECK_EQ(strlen(c.model), 40);

    memset(id, 0, sizeof(id));
    id[1] = 3;
    put32(id + 4, 0x3fffff);
    nvme_parse_id_ctrl_nvm(id, &c);
    CHECK_EQ(c.wzsl, 3);
    CHECK_EQ(c.dmrsl, 0x3fffff);
}

/* A namespace of @nsze blocks in format @fmt of @nlbaf + 1. */
static void make_ns(uint64_t nsze, unsigned int nlbaf, unsigned int fmt)
{
    memset(id, 0, sizeof(id));
    put32(id, nsze);
    put32(id + 4, nsze >> 32);
    id[25] = nlbaf;
    id[26] = fmt | 0x10;                    /* bit 4: not the format */
}

static void lbaf(unsigned int i, uint16_t ms, uint8_t lbads)
{
    put32(id + 128 + 4 * i, ms | (uint32_t)lbads << 16);
}

static void test_id_ns(void)
{
    struct nvme_id_ns ns;

    make_ns(2048, 0, 0);
    lbaf(0, 0, 9);
    CHECK(nvme_parse_id_ns(id, &ns));
    CHECK_EQ(ns.nsze, 2048);
    CHECK_EQ(ns.lba_shift, 9);
    CHECK(!ns.write_protected);

    /* The second of two formats: 4 KiB; 64-bit sizes; write protected. */
    make_ns(0x123456789ULL, 1, 1);
    lbaf(0, 0, 9);
    lbaf(1, 0, 12);
    id[99] = 1;
    CHECK(nvme_parse_id_ns(id, &ns));
    CHECK_EQ(ns.nsze, 0x123456789ULL);
    CHECK_EQ(ns.lba_shift, 12);
    CHECK(ns.write_protected);

    /* Refused: metadata, a format past NLBAF, block sizes out of range. */
    make_ns(2048, 0, 0);
    lbaf(0, 8, 9);
    CHECK(!nvme_parse_id_ns(id, &ns));
    CHECK(ns.has_metadata);
    make_ns(2048, 0, 1);
    lbaf(1, 0, 9);
    CHECK(!nvme_parse_id_ns(id, &ns));
    make_ns(2048, 0, 0);
    lbaf(0, 0, 8);
    CHECK(!nvme_parse_id_ns(id, &ns));
    lbaf(0, 0, 17);
    CHECK(!nvme_parse_id_ns(id, &ns));
    make_ns(0, 0, 0);                       /* inactive: zeroes */
    lbaf(0, 0, 9);
    CHECK(!nvme_parse_id_ns(id, &ns));
}

static void test_max_sectors(void)
{
    CHECK_EQ(nvme_max_sectors(0, 0, 4096), 4096);   /* no limit */
    CHECK_EQ(nvme_max_sectors(7, 0, 4096), 1024);   /* QEMU: 512 KiB */
    CHECK_EQ(nvme_max_sectors(1, 0, 4096), 16);
    CHECK_EQ(nvme_max_sectors(1, 2, 4096), 64);     /* 16 KiB pages */
    CHECK_EQ(nvme_max_sectors(10, 0, 4096), 4096);
    CHECK_EQ(nvme_max_sectors(40, 0, 4096), 4096);  /* no overflow */
}

static uint64_t list[513];

/* Build for @seg; -1 or the list entries, with *prp1 and *prp2. */
static int build(const struct blk_seg *seg, unsigned int nr,
                 uint64_t *prp1, uint64_t *prp2, unsigned int list_max)
{
    memset(list, 0xa5, sizeof(list));
    *prp1 = *prp2 = 0xdead;
    return nvme_prp_build(seg, nr, prp1, prp2, list, LIST_ADDR, list_max);
}

static void test_prp_one_two(void)
{
    struct blk_seg one = { 0x5200, 512 }, page = { 0x6000, 4096 };
    struct blk_seg cross = { 0x7c00, 4096 };
    uint64_t p1, p2;

    CHECK_EQ(build(&one, 1, &p1, &p2, 512), 0);
    CHECK_EQ(p1, 0x5200);
    CHECK_EQ(p2, 0);
    CHECK_EQ(build(&page, 1, &p1, &p2, 512), 0);
    CHECK_EQ(p1, 0x6000);
    CHECK_EQ(p2, 0);
    /* Across one boundary: the second page in PRP2 itself. */
    CHECK_EQ(build(&cross, 1, &p1, &p2, 512), 1);
    CHECK_EQ(p1, 0x7c00);
    CHECK_EQ(p2, 0x8000);
}

static void test_prp_list(void)
{
    struct blk_seg over4 = { 0x10200, 3 * 4096 };
    struct blk_seg big = { 0x100200, 512 * 4096 };
    uint64_t p1, p2;
    int i, n;

    /* Over four pages: PRP2 points at a list of the other three. */
    CHECK_EQ(build(&over4, 1, &p1, &p2, 512), 3);
    CHECK_EQ(p1, 0x10200);
    CHECK_EQ(p2, LIST_ADDR);
    CHECK_EQ(list[0], 0x11000);
    CHECK_EQ(list[1], 0x12000);
    CHECK_EQ(list[2], 0x13000);
    CHECK_EQ(list[3], 0xa5a5a5a5a5a5a5a5ULL);   /* nothing past */

    /* 2 MiB at an offset: 513 pages, exactly a full list page. */
    n = build(&big, 1, &p1, &p2, 512);
    CHECK_EQ(n, 512);
    for ( i = 0; i < n; i++ )
        CHECK_EQ(list[i], 0x101000 + 4096ULL * i);
    /* One entry more than the list holds. */
    CHECK_EQ(build(&big, 1, &p1, &p2, 511), -1);
    CHECK_EQ(build(&over4, 1, &p1, &p2, 2), -1);
}

static void test_prp_segments(void)
{
    /* blk-selftest's: sector 1 at a page's end, a page, 7 sectors. */
    struct blk_seg three[3] = {
        { 0x1e00, 512 }, { 0x5000, 4096 }, { 0x9000, 3584 },
    };
    /* Two pages each, so entries for every page of each. */
    struct blk_seg two[2] = { { 0x20800, 6144 }, { 0x40000, 8192 } };
    /* Exactly two pages, from two segments: no list. */
    struct blk_seg pair[2] = { { 0x3000, 4096 }, { 0x8000, 512 } };
    uint64_t p1, p2;

    CHECK_EQ(build(three, 3, &p1, &p2, 512), 2);
    CHECK_EQ(p1, 0x1e00);
    CHECK_EQ(p2, LIST_ADDR);
    CHECK_EQ(list[0], 0x5000);
    CHECK_EQ(list[1], 0x9000);

    CHECK_EQ(build(two, 2, &p1, &p2, 512), 3);
    CHECK_EQ(p1, 0x20800);
    CHECK_EQ(list[0], 0x21000);
    CHECK_EQ(list[1], 0x40000);
    CHECK_EQ(list[2], 0x41000);

    CHECK_EQ(build(pair, 2, &p1, &p2, 512), 1);
    CHECK_EQ(p1, 0x3000);
    CHECK_EQ(p2, 0x8000);
}

static void test_prp_refused(void)
{
    struct blk_seg mid_start[2] = { { 0x1000, 4096 }, { 0x2200, 512 } };
    struct blk_seg short_end[2] = { { 0x1000, 512 }, { 0x3000, 512 } };
    struct blk_seg odd = { 0x1002, 512 }, empty = { 0x1000, 0 };
    struct blk_seg wrap = { 0xfffffffffffff000ULL, 8192 };
    uint64_t p1, p2;

    CHECK_EQ(build(mid_start, 2, &p1, &p2, 512), -1);
    CHECK_EQ(build(short_end, 2, &p1, &p2, 512), -1);
    CHECK_EQ(build(&odd, 1, &p1, &p2, 512), -1);    /* not dword aligned */
    CHECK_EQ(build(&empty, 1, &p1, &p2, 512), -1);
    CHECK_EQ(build(&wrap, 1, &p1, &p2, 512), -1);
    CHECK_EQ(build(&odd, 0, &p1, &p2, 512), -1);
}

static struct nvme_cqe cq_mem[4];

/* The controller posts command @cid with @status at slot @i, phase @p. */
static void post(unsigned int i, uint16_t cid, uint16_t status, uint8_t p)
{
    cq_mem[i] = (struct nvme_cqe){ .result = cid * 10, .sq_head = i,
                                   .sq_id = 1, .cid = cid,
                                   .status = status << 1 | p };
}

static void test_cq_walk(void)
{
    struct nvme_cq_ring r = { cq_mem, 4, 0, 1 };
    struct nvme_cqe e;
    unsigned int i, round;
    bool ok = true;

    memset(cq_mem, 0, sizeof(cq_mem));
    CHECK(!nvme_cq_pop(&r, &e));            /* zeroed: nothing new */
    post(0, 7, 0, 1);
    post(1, 9, 0x281, 1);
    CHECK(nvme_cq_pop(&r, &e));
    CHECK_EQ(e.cid, 7);
    CHECK_EQ(e.result, 70);
    CHECK(nvme_cq_pop(&r, &e));
    CHECK_EQ(e.cid, 9);
    CHECK_EQ(e.status >> 1, 0x281);
    CHECK(!nvme_cq_pop(&r, &e));
    CHECK_EQ(r.head, 2);

    /* To the end and round: the old phase's entries are not new. */
    post(2, 1, 0, 1);
    post(3, 2, 0, 1);
    CHECK(nvme_cq_pop(&r, &e) && e.cid == 1);
    CHECK(nvme_cq_pop(&r, &e) && e.cid == 2);
    CHECK_EQ(r.head, 0);
    CHECK_EQ(r.phase, 0);
    CHECK(!nvme_cq_pop(&r, &e));            /* slot 0 still phase 1 */
    post(0, 3, 0, 0);
    CHECK(nvme_cq_pop(&r, &e) && e.cid == 3);
    CHECK(!nvme_cq_pop(&r, &e));

    /* Many wraps, one entry at a time. */
    for ( round = 0; round < 1000; round++ )
    {
        i = r.head;
        post(i, round & 0xffff, 0, r.phase);
        ok &= nvme_cq_pop(&r, &e) && e.cid == (round & 0xffff);
        ok &= !nvme_cq_pop(&r, &e);
    }
    CHECK(ok);
}

/* Which slot a completion names: only ours, only on our queue. */
static void test_cqe_slot(void)
{
    struct nvme_cqe c = { .sq_id = 1, .cid = 0 };

    CHECK_EQ(nvme_cqe_slot(&c, 1, 63), 0);
    c.cid = 62;
    CHECK_EQ(nvme_cqe_slot(&c, 1, 63), 62);
    c.cid = 63;                             /* one past the slots */
    CHECK_EQ(nvme_cqe_slot(&c, 1, 63), -1);
    c.cid = 0xffff;                         /* cid + 1 wraps a 16-bit sum */
    CHECK_EQ(nvme_cqe_slot(&c, 1, 63), -1);
    c.cid = 5;
    c.sq_id = 2;                            /* another queue's */
    CHECK_EQ(nvme_cqe_slot(&c, 1, 63), -1);
    c.sq_id = 0;                            /* the admin queue's */
    CHECK_EQ(nvme_cqe_slot(&c, 1, 63), -1);
}

static void test_status(void)
{
    CHECK_EQ(nvme_blk_status(0), BLK_OK);
    CHECK_EQ(nvme_blk_status(1), BLK_OK);           /* the phase tag */
    CHECK_EQ(nvme_blk_status(NVME_SC_INVALID_OPCODE << 1), BLK_EUNSUPP);
    CHECK_EQ(nvme_blk_status(NVME_SC_WRITE_PROTECTED << 1 | 1), BLK_EROFS);
    CHECK_EQ(nvme_blk_status(0x280 << 1), BLK_EIO); /* write fault */
    CHECK_EQ(nvme_blk_status(0x281 << 1), BLK_EIO); /* unrecovered read */
    CHECK_EQ(nvme_blk_status(NVME_SC_INVALID_FIELD << 1), BLK_EIO);
    /* Invalid opcode's code in another type is not "unsupported". */
    CHECK_EQ(nvme_blk_status((0x100 | NVME_SC_INVALID_OPCODE) << 1),
             BLK_EIO);
}

int main(void)
{
    RUN(test_id_ctrl);
    RUN(test_id_ns);
    RUN(test_max_sectors);
    RUN(test_prp_one_two);
    RUN(test_prp_list);
    RUN(test_prp_segments);
    RUN(test_prp_refused);
    RUN(test_cq_walk);
    RUN(test_cqe_slot);
    RUN(test_status);
    UNIT_EXIT();
}
