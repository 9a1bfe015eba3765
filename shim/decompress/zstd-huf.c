/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * zstd literals (RFC 8878 3.1.1.3.1): raw, RLE, or Huffman-coded in one
 * or four streams, with a tree from 4-bit or FSE-coded weights (kept for
 * treeless blocks).  Each stream must decode to exactly its bytes.
 */
#include "shim/decompress/zstd-internal.h"

/* ---------------------------------------------------------- Huffman */

static int huf_build(struct zstd *z, const uint8_t *w, unsigned int n)
{
    uint32_t total = 0, rank[HUF_MAX_BITS + 2] = { 0 }, pos, k, s;
    unsigned int max, last;

    for ( s = 0; s < n; s++ )
    {
        if ( w[s] > HUF_MAX_BITS )
            return zstd_fail(z, "zstd Huffman weight too large");
        if ( w[s] )
            total += 1u << (w[s] - 1);
    }
    if ( !total )
        return zstd_fail(z, "zstd Huffman weights all zero");
    max = zstd_highbit(total) + 1;
    if ( max > HUF_MAX_BITS )
        return zstd_fail(z, "zstd Huffman code too long");
    k = (1u << max) - total;            /* the last weight's share */
    if ( k & (k - 1) )
        return zstd_fail(z, "zstd Huffman weights don't complete a code");
    last = zstd_highbit(k) + 1;
    if ( n >= 256 )
        return zstd_fail(z, "zstd Huffman has too many symbols");

    for ( s = 0; s <= n; s++ )
        rank[s < n ? w[s] : last] += 1;
    for ( pos = 0, k = 1; k <= max; k++ )
    {
        uint32_t c = rank[k];

        rank[k] = pos;
        pos += c << (k - 1);
    }
    for ( s = 0; s <= n; s++ )
    {
        unsigned int ws = s < n ? w[s] : last;
        uint32_t span, i;

        if ( !ws )
            continue;
        span = 1u << (ws - 1);
        for ( i = 0; i < span; i++ )
        {
            z->huf[rank[ws] + i].symbol = s;
            z->huf[rank[ws] + i].bits = max + 1 - ws;
        }
        rank[ws] += span;
    }
    z->huf_bits = max;
    z->have_huf = true;
    return 0;
}

/* The tree description: 4-bit weights, or FSE-coded ones. */
static int huf_tree(struct zstd *z, const uint8_t *in, size_t len,
                    size_t *used)
{
    uint8_t w[256];
    unsigned int n = 0, hdr, i, al, nsym;
    int16_t counts[256];
    static struct fse f;
    struct bits r;
    uint32_t s1, s2;
    size_t u;

    if ( !len )
        return zstd_fail(z, "zstd literals truncated");
    hdr = in[0];
    if ( hdr >= 128 )
    {
        n = hdr - 127;
        if ( 1 + (n + 1) / 2 > len )
            return zstd_fail(z, "zstd Huffman weights truncated");
        for ( i = 0; i < n; i++ )
            w[i] = i & 1 ? in[1 + i / 2] & 15 : in[1 + i / 2] >> 4;
        *used = 1 + (n + 1) / 2;
        return huf_build(z, w, n);
    }
    if ( !hdr || hdr > len - 1 )
        return zstd_fail(z, "zstd Huffman weights truncated");
    if ( zstd_fse_counts(z, in + 1, hdr, &u, counts, HUF_MAX_BITS, 6, &al,
                    &nsym) ||
         zstd_fse_build(z, &f, counts, nsym, al) )
        return -1;
    if ( zstd_bits_init(&r, in + 1 + u, hdr - u) )
        return zstd_fail(z, "zstd Huffman weight stream bad");
    s1 = zstd_bits_read(&r, al);
    s2 = zstd_bits_read(&r, al);
    for ( ;; )
    {
        if ( n >= 255 )
            return zstd_fail(z, "zstd Huffman has too many weights");
        w[n++] = f.t[s1].symbol;
        zstd_fse_update(&f, &s1, &r);
        if ( r.off < 0 )
        {
            w[n++] = f.t[s2].symbol;
            break;
        }
        if ( n >= 255 )
            return zstd_fail(z, "zstd Huffman has too many weights");
        w[n++] = f.t[s2].symbol;
        zstd_fse_update(&f, &s2, &r);
        if ( r.off < 0 )
        {
            if ( n >= 255 )
                return zstd_fail(z, "zstd Huffman has too many weights");
            w[n++] = f.t[s1].symbol;
            break;
        }
    }
    *used = 1 + hdr;
    return huf_build(z, w, n);
}

/* One Huffman stream of @n symbols into @dst; consumed exactly. */
static int huf_stream(struct zstd *z, const uint8_t *in, size_t len,
                      uint8_t *dst, size_t n)
{
    struct bits r;
    size_t i;

    if ( zstd_bits_init(&r, in, len) )
        return zstd_fail(z, "zstd Huffman stream bad");
    for ( i = 0; i < n; i++ )
    {
        struct bits peek = r;
        const struct huf_entry *e = &z->huf[zstd_bits_read(&peek, z->huf_bits)];

        dst[i] = e->symbol;
        r.off -= e->bits;
        if ( r.off < -(int64_t)HUF_MAX_BITS )
            return zstd_fail(z, "zstd Huffman stream overrun");
    }
    if ( r.off )
        return zstd_fail(z, "zstd Huffman stream not consumed exactly");
    return 0;
}

int zstd_literals(struct zstd *z, const uint8_t *in, size_t len,
                    size_t *used)
{
    unsigned int type, sf, streams = 1, hsize;
    size_t regen, comp, u = 0, i, part;
    uint64_t h = 0;

    if ( !len )
        return zstd_fail(z, "zstd block truncated");
    type = in[0] & 3;
    sf = (in[0] >> 2) & 3;
    if ( type < 2 )
    {
        hsize = sf == 1 ? 2 : sf == 3 ? 3 : 1;
        if ( len < hsize )
            return zstd_fail(z, "zstd literals truncated");
        regen = in[0] >> 3;
        if ( hsize >= 2 )
            regen = (in[0] >> 4) | (in[1] << 4);
        if ( hsize == 3 )
            regen |= (size_t)in[2] << 12;
        if ( regen > BLOCK_MAX )
            return zstd_fail(z, "zstd literals too long");
        if ( type == 0 )
        {
            if ( regen > len - hsize )
                return zstd_fail(z, "zstd literals truncated");
            memcpy(z->lit, in + hsize, regen);
            *used = hsize + regen;
        }
        else
        {
            if ( len - hsize < 1 )
                return zstd_fail(z, "zstd literals truncated");
            memset(z->lit, in[hsize], regen);
            *used = hsize + 1;
        }
        z->nlit = regen;
        return 0;
    }

    hsize = sf < 2 ? 3 : sf == 2 ? 4 : 5;
    streams = sf ? 4 : 1;
    if ( len < hsize )
        return zstd_fail(z, "zstd literals truncated");
    for ( i = 0; i < hsize; i++ )
        h |= (uint64_t)in[i] << (8 * i);
    {
        unsigned int b = sf < 2 ? 10 : sf == 2 ? 14 : 18;

        regen = (h >> 4) & ((1u << b) - 1);
        comp = (h >> (4 + b)) & ((1u << b) - 1);
    }
    if ( regen > BLOCK_MAX || comp > len - hsize )
        return zstd_fail(z, "zstd literals truncated or too long");
    in += hsize;
    if ( type == 2 )
    {
        if ( huf_tree(z, in, comp, &u) )
            return -1;
    }
    else if ( !z->have_huf )
        return zstd_fail(z, "zstd treeless literals with no previous tree");
    if ( streams == 1 )
    {
        if ( huf_stream(z, in + u, comp - u, z->lit, regen) )
            return -1;
    }
    else
    {
        size_t s[4], off = u + 6;

        if ( comp - u < 6 )
            return zstd_fail(z, "zstd literals jump table truncated");
        s[0] = get_le16(in + u);
        s[1] = get_le16(in + u + 2);
        s[2] = get_le16(in + u + 4);
        if ( s[0] + s[1] + s[2] > comp - off )
            return zstd_fail(z, "zstd literals streams overrun");
        s[3] = comp - off - s[0] - s[1] - s[2];
        part = (regen + 3) / 4;
        if ( part * 3 > regen )
            return zstd_fail(z, "zstd literals too short for 4 streams");
        for ( i = 0; i < 4; i++ )
        {
            if ( huf_stream(z, in + off, s[i], z->lit + i * part,
                            i < 3 ? part : regen - 3 * part) )
                return -1;
            off += s[i];
        }
    }
    z->nlit = regen;
    *used = hsize + comp;
    return 0;
}

