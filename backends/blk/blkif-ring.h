/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The block ring as the backend reads and answers it, pure logic that
 * the host tests and fuzzer compile (blkif-ring.c): a ring of one page
 * or several (max-ring-page-order, each page mapped on its own, an entry
 * may straddle two), requests copied out and decoded from either ABI
 * (read, write, flush, barrier, discard, indirect), the checks on their
 * segments and ranges, and the segments of indirect pages.
 */
#ifndef BACKENDS_BLK_BLKIF_RING_H
#define BACKENDS_BLK_BLKIF_RING_H

#include "backends/blk/blkif-abi.h"

#define BLKIF_PAGE_SIZE             4096u
/* max-ring-page-order: Linux's xen_blkif_max_ring_order default. */
#define BLKIF_RING_ORDER_MAX        4
#define BLKIF_RING_PAGES_MAX        (1u << BLKIF_RING_ORDER_MAX)
/* feature-max-indirect-segments: Linux's MAX_INDIRECT_SEGMENTS. */
#define BLKIF_INDIRECT_SEGS_MAX     256u
#define BLKIF_SEGS_PER_PAGE \
    (BLKIF_PAGE_SIZE / sizeof(struct blkif_request_segment))
#define BLKIF_INDIRECT_PAGES(n) \
    (((n) + BLKIF_SEGS_PER_PAGE - 1) / BLKIF_SEGS_PER_PAGE)
#define BLKIF_SECTORS_PER_PAGE      (BLKIF_PAGE_SIZE / 512)

struct blkif_ring {
    /* Indexes; br.sring is the first page, whose header both ABIs share. */
    struct blkif_back_ring br;
    uint8_t *page[BLKIF_RING_PAGES_MAX];
    unsigned int nr_pages;
    unsigned int ent_size;          /* a ring entry: 112, or 108 x86_32 */
    bool x86_32;
};

/* A request out of the ring, in neither ABI's layout. */
struct blkif_req {
    uint8_t operation;              /* BLKIF_OP_*, as on the ring */
    uint8_t op;                     /* what it does: an indirect's op */
    uint8_t flag;                   /* discard: BLKIF_DISCARD_SECURE */
    uint16_t nr_segments;
    uint64_t id;
    uint64_t sector;
    uint64_t nr_sectors;            /* discard */
    grant_ref_t indirect[BLKIF_MAX_INDIRECT_PAGES_PER_REQUEST];
    struct blkif_request_segment seg[BLKIF_MAX_SEGMENTS_PER_REQUEST];
};

/* Entries in a ring of @nr_pages pages (a power of two) in its ABI. */
unsigned int blkif_ring_entries(unsigned int nr_pages, bool x86_32);

/*
 * Attach @r to the @nr_pages mapped pages of a ring (the frontend made
 * it: SHARED_RING_INIT), consuming from its current indexes' start.
 */
void blkif_ring_attach(struct blkif_ring *r, uint8_t *const *pages,
                       unsigned int nr_pages, bool x86_32);

/* Copy request @i out of the shared pages and decode it into @out. */
void blkif_ring_get(const struct blkif_ring *r, RING_IDX i,
                    struct blkif_req *out);

/* Write a response at rsp_prod_pvt and push it: true to notify. */
bool blkif_ring_respond(struct blkif_ring *r, uint64_t id, uint8_t op,
                        int16_t status);

/*
 * The data segments @seg[0..@n): each one's first_sect <= last_sect < 8;
 * their 512-byte sectors in *@nr.  False if one is bad.
 */
bool blkif_segs_check(const struct blkif_request_segment *seg,
                      unsigned int n, uint64_t *nr);

/*
 * [@sector, @sector + @nr) on a disk of @disk sectors (overflow-safe),
 * and in whole logical blocks of @lbs 512-byte sectors (a power of two)
 * for @sector and each segment's length (@seg may be NULL).
 */
bool blkif_range_ok(uint64_t sector, uint64_t nr, uint64_t disk);
bool blkif_aligned(uint64_t sector, const struct blkif_request_segment *seg,
                   unsigned int n, unsigned int lbs);
/*
 * The guest's [@sector, @sector + @nr) on a disk of @size sectors that
 * starts at the device's sector @start (a partition; 0 and the device's
 * size for a whole one): the device's first sector in @dev_sector, or
 * false if the range leaves the disk, as blkif_range_ok().
 */
bool blkif_map(uint64_t sector, uint64_t nr, uint64_t start, uint64_t size,
               uint64_t *dev_sector);

/*
 * The @n segments of an indirect request out of its mapped indirect
 * pages @pages (BLKIF_INDIRECT_PAGES(n) of them), each field read once.
 */
void blkif_indirect_segs(const uint8_t *const *pages, unsigned int n,
                         struct blkif_request_segment *out);

#endif /* BACKENDS_BLK_BLKIF_RING_H */
