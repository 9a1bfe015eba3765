/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The block ring's pure logic (blkif-ring.h): entries over one or more
 * separately mapped pages, each request copied out once before it is
 * decoded (the guest may change it meanwhile) and every field then
 * read from the copy, as Linux's blkif_get_x86_*_req() do; the checks
 * Linux's dispatch_rw_block_io() and xen_blkbk_parse_indirect() make.
 * No mapping, no lock: tests/unit and tests/fuzz compile it as it is.
 */
#include "backends/blk/blkif-ring.h"

unsigned int blkif_ring_entries(unsigned int nr_pages, bool x86_32)
{
    unsigned long size = (unsigned long)nr_pages * BLKIF_PAGE_SIZE;

    return x86_32 ? __CONST_RING_SIZE(blkif_x86_32, size)
                  : __CONST_RING_SIZE(blkif, size);
}

void blkif_ring_attach(struct blkif_ring *r, uint8_t *const *pages,
                       unsigned int nr_pages, bool x86_32)
{
    unsigned int i;

    for ( i = 0; i < nr_pages; i++ )
        r->page[i] = pages[i];
    r->nr_pages = nr_pages;
    r->x86_32 = x86_32;
    r->ent_size = x86_32 ? sizeof(union blkif_x86_32_sring_entry)
                         : sizeof(union blkif_sring_entry);
    BACK_RING_INIT(&r->br, (struct blkif_sring *)pages[0],
                   nr_pages * BLKIF_PAGE_SIZE);
    r->br.nr_ents = blkif_ring_entries(nr_pages, x86_32);
}

/* Entry @i's bytes to or from @buf, across a page boundary if need be. */
static void entry_copy(const struct blkif_ring *r, RING_IDX i, void *buf,
                       unsigned int len, bool to_ring)
{
    size_t off = offsetof(struct blkif_sring, ring) +
                 (size_t)(i & (r->br.nr_ents - 1)) * r->ent_size;
    uint8_t *b = buf;

    while ( len )
    {
        unsigned int in = off % BLKIF_PAGE_SIZE;
        unsigned int n = MIN(len, BLKIF_PAGE_SIZE - in);
        uint8_t *p = r->page[off / BLKIF_PAGE_SIZE] + in;

        if ( to_ring )
            memcpy(p, b, n);
        else
            memcpy(b, p, n);
        b += n;
        off += n;
        len -= n;
    }
}

static void decode_x86_32(const uint8_t *raw, struct blkif_req *out)
{
    const struct blkif_x86_32_request *rw = (const void *)raw;
    const struct blkif_x86_32_request_discard *d = (const void *)raw;
    const struct blkif_x86_32_request_indirect *in = (const void *)raw;
    unsigned int i;

    out->id = rw->id;
    switch ( out->operation )
    {
    case BLKIF_OP_DISCARD:
        out->flag = d->flag;
        out->sector = d->sector_number;
        out->nr_sectors = d->nr_sectors;
        break;
    case BLKIF_OP_INDIRECT:
        out->op = in->indirect_op;
        out->nr_segments = in->nr_segments;
        out->sector = in->sector_number;
        for ( i = 0; i < BLKIF_MAX_INDIRECT_PAGES_PER_REQUEST; i++ )
            out->indirect[i] = in->indirect_grefs[i];
        break;
    default:
        out->nr_segments = rw->nr_segments;
        out->sector = rw->sector_number;
        for ( i = 0; i < BLKIF_MAX_SEGMENTS_PER_REQUEST; i++ )
            out->seg[i] = rw->seg[i];
        break;
    }
}

static void decode_native(const uint8_t *raw, struct blkif_req *out)
{
    const struct blkif_request *rw = (const void *)raw;
    const struct blkif_request_discard *d = (const void *)raw;
    const struct blkif_request_indirect *in = (const void *)raw;
    unsigned int i;

    out->id = rw->id;
    switch ( out->operation )
    {
    case BLKIF_OP_DISCARD:
        out->flag = d->flag;
        out->sector = d->sector_number;
        out->nr_sectors = d->nr_sectors;
        break;
    case BLKIF_OP_INDIRECT:
        out->op = in->indirect_op;
        out->nr_segments = in->nr_segments;
        out->sector = in->sector_number;
        for ( i = 0; i < BLKIF_MAX_INDIRECT_PAGES_PER_REQUEST; i++ )
            out->indirect[i] = in->indirect_grefs[i];
        break;
    default:
        out->nr_segments = rw->nr_segments;
        out->sector = rw->sector_number;
        for ( i = 0; i < BLKIF_MAX_SEGMENTS_PER_REQUEST; i++ )
            out->seg[i] = rw->seg[i];
        break;
    }
}

void blkif_ring_get(const struct blkif_ring *r, RING_IDX i,
                    struct blkif_req *out)
{
    union {
        union blkif_sring_entry native;
        union blkif_x86_32_sring_entry x86_32;
        uint8_t raw[1];
    } e;

    entry_copy(r, i, &e, r->ent_size, false);
    memset(out, 0, sizeof(*out));
    out->operation = out->op = e.raw[0];
    if ( r->x86_32 )
        decode_x86_32(e.raw, out);
    else
        decode_native(e.raw, out);
}

bool blkif_ring_respond(struct blkif_ring *r, uint64_t id, uint8_t op,
                        int16_t status)
{
    struct blkif_response n = { .id = id, .operation = op,
                                .status = status };
    struct blkif_x86_32_response c = { .id = id, .operation = op,
                                       .status = status };
    bool notify;

    if ( r->x86_32 )
        entry_copy(r, r->br.rsp_prod_pvt, &c, sizeof(c), true);
    else
        entry_copy(r, r->br.rsp_prod_pvt, &n, sizeof(n), true);
    r->br.rsp_prod_pvt++;
    RING_PUSH_RESPONSES_AND_CHECK_NOTIFY(&r->br, notify);
    return notify;
}

bool blkif_segs_check(const struct blkif_request_segment *seg,
                      unsigned int n, uint64_t *nr)
{
    unsigned int i;

    *nr = 0;
    for ( i = 0; i < n; i++ )
    {
        if ( seg[i].last_sect >= BLKIF_SECTORS_PER_PAGE ||
             seg[i].first_sect > seg[i].last_sect )
            return false;
        *nr += seg[i].last_sect - seg[i].first_sect + 1;
    }
    return true;
}

bool blkif_range_ok(uint64_t sector, uint64_t nr, uint64_t disk)
{
    return sector < disk && nr <= disk - sector;
}

bool blkif_aligned(uint64_t sector, const struct blkif_request_segment *seg,
                   unsigned int n, unsigned int lbs)
{
    unsigned int i;

    if ( sector & (lbs - 1) )
        return false;
    for ( i = 0; i < n; i++ )
        if ( (seg[i].last_sect - seg[i].first_sect + 1u) & (lbs - 1) )
            return false;
    return true;
}

void blkif_indirect_segs(const uint8_t *const *pages, unsigned int n,
                         struct blkif_request_segment *out)
{
    const volatile struct blkif_request_segment *s;
    unsigned int i;

    for ( i = 0; i < n; i++ )
    {
        s = (const volatile void *)pages[i / BLKIF_SEGS_PER_PAGE];
        s += i % BLKIF_SEGS_PER_PAGE;
        out[i] = (struct blkif_request_segment){
            .gref = s->gref, .first_sect = s->first_sect,
            .last_sect = s->last_sect,
        };
    }
}
