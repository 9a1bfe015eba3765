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

/* Where each field of the three request forms sits, per ABI. */
struct req_layout {
    uint8_t id, nr_segments, sector, seg;               /* read, write... */
    uint8_t d_flag, d_sector, d_nr_sectors;             /* discard */
    uint8_t i_op, i_nr_segments, i_sector, i_grefs;     /* indirect */
};

#define LAYOUT(rw, d, in) {                                             \
    offsetof(rw, id), offsetof(rw, nr_segments),                        \
    offsetof(rw, sector_number), offsetof(rw, seg),                     \
    offsetof(d, flag), offsetof(d, sector_number),                      \
    offsetof(d, nr_sectors), offsetof(in, indirect_op),                 \
    offsetof(in, nr_segments), offsetof(in, sector_number),             \
    offsetof(in, indirect_grefs) }

static const struct req_layout native_layout =
    LAYOUT(struct blkif_request, struct blkif_request_discard,
           struct blkif_request_indirect);
static const struct req_layout x86_32_layout =
    LAYOUT(struct blkif_x86_32_request, struct blkif_x86_32_request_discard,
           struct blkif_x86_32_request_indirect);

/* The entry @raw (a private copy) in @l's layout, into @out. */
static void decode(const uint8_t *raw, const struct req_layout *l,
                   struct blkif_req *out)
{
    memcpy(&out->id, raw + l->id, sizeof(out->id));
    switch ( out->operation )
    {
    case BLKIF_OP_DISCARD:
        out->flag = raw[l->d_flag];
        memcpy(&out->sector, raw + l->d_sector, sizeof(out->sector));
        memcpy(&out->nr_sectors, raw + l->d_nr_sectors,
               sizeof(out->nr_sectors));
        break;
    case BLKIF_OP_INDIRECT:
        out->op = raw[l->i_op];
        memcpy(&out->nr_segments, raw + l->i_nr_segments,
               sizeof(out->nr_segments));
        memcpy(&out->sector, raw + l->i_sector, sizeof(out->sector));
        memcpy(out->indirect, raw + l->i_grefs, sizeof(out->indirect));
        break;
    default:
        out->nr_segments = raw[l->nr_segments];
        memcpy(&out->sector, raw + l->sector, sizeof(out->sector));
        memcpy(out->seg, raw + l->seg, sizeof(out->seg));
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
    decode(e.raw, r->x86_32 ? &x86_32_layout : &native_layout, out);
}

/*
 * A response is built in bytes, every one of them set: the native
 * struct has five bytes of padding (after operation, after status),
 * which a struct on the stack would carry from the shim's stack into
 * the guest's ring (Xen's XSA-216).  The x86_32 one is packed, its pad
 * a field: the same offsets but for its 12 bytes.
 */
_Static_assert(offsetof(struct blkif_response, operation) ==
               offsetof(struct blkif_x86_32_response, operation) &&
               offsetof(struct blkif_response, status) ==
               offsetof(struct blkif_x86_32_response, status) &&
               sizeof(struct blkif_x86_32_response) <=
               sizeof(struct blkif_response), "blkif responses");
bool blkif_ring_respond(struct blkif_ring *r, uint64_t id, uint8_t op,
                        int16_t status)
{
    uint8_t b[sizeof(struct blkif_response)] = { 0 };
    bool notify;

    memcpy(b + offsetof(struct blkif_response, id), &id, sizeof(id));
    b[offsetof(struct blkif_response, operation)] = op;
    memcpy(b + offsetof(struct blkif_response, status), &status,
           sizeof(status));
    entry_copy(r, r->br.rsp_prod_pvt, b,
               r->x86_32 ? sizeof(struct blkif_x86_32_response) : sizeof(b),
               true);
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

bool blkif_map(uint64_t sector, uint64_t nr, uint64_t start, uint64_t size,
               uint64_t *dev_sector)
{
    if ( !blkif_range_ok(sector, nr, size) )
        return false;
    *dev_sector = start + sector;
    return true;
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
