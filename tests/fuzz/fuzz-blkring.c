/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer harness for the block ring's parser (backends/blk/blkif-ring.c),
 * everything in it a hostile frontend's: the first byte picks the ABI
 * and the ring's pages (1, 2 or 4, each its own allocation, so ASan sees
 * a read past any of them), the next bytes are the ring's pages and an
 * indirect page.  Every request the indexes offer is copied out and
 * decoded, its segments (direct or indirect) and range checked, and each
 * answered; the checks keep their promises and no index runs away.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/blk/blkif-ring.c"

#define FUZZ_ASSERT(cond) do {                                             \
    if ( !(cond) )                                                         \
    {                                                                      \
        fprintf(stderr, "fuzz-blkring: %s:%d: %s\n", __FILE__, __LINE__,   \
                #cond);                                                    \
        abort();                                                           \
    }                                                                      \
} while ( 0 )

#define DISK_SECTORS    8192

static void check_segs(const struct blkif_request_segment *seg,
                       unsigned int n, uint64_t sector)
{
    uint64_t nr, i;

    if ( !blkif_segs_check(seg, n, &nr) )
        return;
    FUZZ_ASSERT(nr >= n && nr <= 8ULL * n);
    for ( i = 0; i < n; i++ )
        FUZZ_ASSERT(seg[i].first_sect <= seg[i].last_sect &&
                    seg[i].last_sect < BLKIF_SECTORS_PER_PAGE);
    if ( blkif_range_ok(sector, nr, DISK_SECTORS) )
        FUZZ_ASSERT(sector < DISK_SECTORS && sector + nr <= DISK_SECTORS);
    if ( blkif_aligned(sector, seg, n, 8) )
        FUZZ_ASSERT(!(sector % 8) && !(nr % 8));
}

static void one(const struct blkif_ring *r, RING_IDX i, const uint8_t *ind)
{
    static struct blkif_request_segment segs[BLKIF_INDIRECT_SEGS_MAX];
    const uint8_t *pages[1] = { ind };
    struct blkif_req q;

    blkif_ring_get(r, i, &q);
    switch ( q.operation )
    {
    case BLKIF_OP_INDIRECT:
        if ( !q.nr_segments || q.nr_segments > BLKIF_INDIRECT_SEGS_MAX )
            return;
        FUZZ_ASSERT(BLKIF_INDIRECT_PAGES(q.nr_segments) == 1);
        blkif_indirect_segs(pages, q.nr_segments, segs);
        check_segs(segs, q.nr_segments, q.sector);
        break;
    case BLKIF_OP_DISCARD:
        if ( q.nr_sectors && blkif_range_ok(q.sector, q.nr_sectors,
                                            DISK_SECTORS) )
            FUZZ_ASSERT(q.sector + q.nr_sectors <= DISK_SECTORS);
        break;
    default:
        FUZZ_ASSERT(q.op == q.operation);
        if ( q.nr_segments <= BLKIF_MAX_SEGMENTS_PER_REQUEST )
            check_segs(q.seg, q.nr_segments, q.sector);
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *page[4], *ind;
    unsigned int nr, i, done = 0;
    struct blkif_ring r;
    RING_IDX rc, rp;
    bool x86_32;

    if ( !size )
        return 0;
    x86_32 = data[0] & 1;
    nr = 1u << ((data[0] >> 1) % 3);
    data++, size--;
    for ( i = 0; i <= nr; i++ )
    {
        uint8_t *p = calloc(1, BLKIF_PAGE_SIZE);
        size_t n = MIN(size, (size_t)BLKIF_PAGE_SIZE);

        memcpy(p, data, n);
        data += n, size -= n;
        if ( i < nr )
            page[i] = p;
        else
            ind = p;
    }
    blkif_ring_attach(&r, page, nr, x86_32);
    FUZZ_ASSERT(r.br.nr_ents == 32u * nr);
    /* The frontend's indexes, as the backend would start from them. */
    rp = r.br.sring->req_prod;
    r.br.req_cons = r.br.rsp_prod_pvt = r.br.sring->rsp_prod;
    if ( !RING_REQUEST_PROD_OVERFLOW(&r.br, rp) )
        for ( rc = r.br.req_cons;
              rc != rp && !RING_REQUEST_CONS_OVERFLOW(&r.br, rc); rc++ )
        {
            one(&r, rc, ind);
            r.br.req_cons = rc + 1;
            blkif_ring_respond(&r, rc, BLKIF_OP_READ, BLKIF_RSP_ERROR);
            FUZZ_ASSERT(++done <= r.br.nr_ents);
        }
    FUZZ_ASSERT(r.br.sring->rsp_prod == r.br.rsp_prod_pvt);
    for ( i = 0; i < nr; i++ )
        free(page[i]);
    free(ind);
    return 0;
}
