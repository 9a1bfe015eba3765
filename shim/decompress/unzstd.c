/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * zstd frames (RFC 8878): raw, RLE and compressed blocks; literals raw,
 * RLE or Huffman-coded (1 or 4 streams); sequences with predefined, RLE,
 * FSE-coded or repeated tables; repeat offsets; the XXH64 content
 * checksum.  No dictionaries.  Every table is built from checked counts,
 * every backward bitstream must be consumed exactly, every match lies in
 * the frame's output.
 */
#include "shim/decompress/zstd-internal.h"

/* -------------------------------------------------------- sequences */

static const int16_t ll_default[36] = {
    4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1 };
static const int16_t ml_default[53] = {
    1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1 };
static const int16_t of_default[29] = {
    1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1 };

static const uint32_t ll_base[36] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048,
    4096, 8192, 16384, 32768, 65536 };
static const uint8_t ll_extra[36] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
static const uint32_t ml_base[53] = {
    3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
    19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34,
    35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051,
    4099, 8195, 16387, 32771, 65539 };
static const uint8_t ml_extra[53] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

/* One of the three tables, by its compression mode. */
static int seq_table(struct zstd *z, struct fse *f, unsigned int mode,
                     const int16_t *def, unsigned int def_n,
                     unsigned int def_al, unsigned int max_sym,
                     unsigned int max_al, const uint8_t *in, size_t len,
                     size_t *pos, bool *repeat_ok)
{
    int16_t counts[64];
    unsigned int al, n;
    size_t u;

    switch ( mode )
    {
    case 0:
        *repeat_ok = true;
        return zstd_fse_build(z, f, def, def_n, def_al);
    case 1:
        if ( *pos >= len || in[*pos] > max_sym )
            return zstd_fail(z, "zstd RLE sequence symbol bad");
        zstd_fse_rle(f, in[(*pos)++]);
        *repeat_ok = true;
        return 0;
    case 2:
        if ( zstd_fse_counts(z, in + *pos, len - *pos, &u, counts, max_sym,
                        max_al, &al, &n) ||
             zstd_fse_build(z, f, counts, n, al) )
            return -1;
        *pos += u;
        *repeat_ok = true;
        return 0;
    default:
        if ( !*repeat_ok )
            return zstd_fail(z, "zstd repeated sequence table with none "
                                "before");
        return 0;
    }
}

static int copy_literals(struct zstd *z, size_t *lp, size_t n)
{
    if ( n > z->nlit - *lp || n > z->out_size - z->op )
        return zstd_fail(z, n > z->nlit - *lp
                            ? "zstd sequence needs more literals"
                            : "output larger than announced");
    memcpy(z->out + z->op, z->lit + *lp, n);
    *lp += n;
    z->op += n;
    return 0;
}

static uint32_t offset(struct zstd *z, uint32_t v, uint32_t ll)
{
    uint32_t o;

    if ( v > 3 )
        o = v - 3;
    else
    {
        v += !ll;
        if ( v == 1 )
            return z->rep[0];
        o = v == 2 ? z->rep[1] : v == 3 ? z->rep[2] : z->rep[0] - 1;
        if ( v == 2 )
        {
            z->rep[1] = z->rep[0];
            z->rep[0] = o;
            return o;
        }
    }
    z->rep[2] = z->rep[1];
    z->rep[1] = z->rep[0];
    z->rep[0] = o;
    return o;
}

static int sequences(struct zstd *z, const uint8_t *in, size_t len,
                     bool *repeat_ok)
{
    size_t pos = 1, nseq, i, lp = 0;
    unsigned int modes;
    struct bits r;
    uint32_t sll, sof, sml;

    if ( !len )
        return zstd_fail(z, "zstd sequences truncated");
    nseq = in[0];
    if ( nseq >= 128 )
    {
        if ( len < (nseq == 255 ? 3u : 2u) )
            return zstd_fail(z, "zstd sequences truncated");
        if ( nseq == 255 )
            nseq = in[1] + (in[2] << 8) + 0x7f00;
        else
            nseq = ((nseq - 128) << 8) + in[1];
        pos = in[0] == 255 ? 3 : 2;
    }
    if ( !nseq )
        return copy_literals(z, &lp, z->nlit);
    if ( pos >= len )
        return zstd_fail(z, "zstd sequences truncated");
    modes = in[pos++];
    if ( modes & 3 )
        return zstd_fail(z, "zstd sequence modes reserved bits set");
    if ( seq_table(z, &z->ll, modes >> 6, ll_default, 36, 6, MAX_LL, 9, in,
                   len, &pos, &repeat_ok[0]) ||
         seq_table(z, &z->of, (modes >> 4) & 3, of_default, 29, 5, MAX_OF, 8,
                   in, len, &pos, &repeat_ok[1]) ||
         seq_table(z, &z->ml, (modes >> 2) & 3, ml_default, 53, 6, MAX_ML, 9,
                   in, len, &pos, &repeat_ok[2]) )
        return -1;
    if ( zstd_bits_init(&r, in + pos, len - pos) )
        return zstd_fail(z, "zstd sequence stream bad");
    sll = zstd_bits_read(&r, z->ll.al);
    sof = zstd_bits_read(&r, z->of.al);
    sml = zstd_bits_read(&r, z->ml.al);
    for ( i = 0; i < nseq; i++ )
    {
        unsigned int llc = z->ll.t[sll].symbol, mlc = z->ml.t[sml].symbol;
        unsigned int ofc = z->of.t[sof].symbol;
        uint32_t ov, ml, ll, o;

        if ( llc > MAX_LL || mlc > MAX_ML || ofc > MAX_OF )
            return zstd_fail(z, "zstd sequence code out of range");
        ov = (1u << ofc) + zstd_bits_read(&r, ofc);
        ml = ml_base[mlc] + zstd_bits_read(&r, ml_extra[mlc]);
        ll = ll_base[llc] + zstd_bits_read(&r, ll_extra[llc]);
        if ( i + 1 < nseq )
        {
            zstd_fse_update(&z->ll, &sll, &r);
            zstd_fse_update(&z->ml, &sml, &r);
            zstd_fse_update(&z->of, &sof, &r);
        }
        if ( r.off < 0 )
            return zstd_fail(z, "zstd sequence stream overrun");
        o = offset(z, ov, ll);
        if ( copy_literals(z, &lp, ll) )
            return -1;
        if ( !o || o > z->op - z->frame_start )
            return zstd_fail(z, "back-reference before the start of the "
                                "output");
        if ( ml > z->out_size - z->op )
            return zstd_fail(z, "output larger than announced");
        for ( ; ml; ml--, z->op++ )
            z->out[z->op] = z->out[z->op - o];
    }
    if ( r.off )
        return zstd_fail(z, "zstd sequence stream not consumed exactly");
    return copy_literals(z, &lp, z->nlit - lp);
}

/* ------------------------------------------------------------ frame */

#define P1 11400714785074694791ULL
#define P2 14029467366897019727ULL
#define P3 1609587929392839161ULL
#define P4 9650029242287828579ULL
#define P5 2870177450012600261ULL

static uint64_t rotl(uint64_t x, unsigned int r)
{
    return (x << r) | (x >> (64 - r));
}

static uint64_t xxh_round(uint64_t acc, uint64_t v)
{
    return rotl(acc + v * P2, 31) * P1;
}

static uint64_t xxh64(const uint8_t *p, size_t len)
{
    const uint8_t *end = p + len;
    uint64_t h, v[4] = { P1 + P2, P2, 0, -P1 };
    unsigned int i;

    if ( len >= 32 )
    {
        for ( ; end - p >= 32; p += 32 )
            for ( i = 0; i < 4; i++ )
                v[i] = xxh_round(v[i], get_le64(p + 8 * i));
        h = rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18);
        for ( i = 0; i < 4; i++ )
            h = (h ^ xxh_round(0, v[i])) * P1 + P4;
    }
    else
        h = P5;
    h += len;
    for ( ; end - p >= 8; p += 8 )
        h = rotl(h ^ xxh_round(0, get_le64(p)), 27) * P1 + P4;
    if ( end - p >= 4 )
    {
        h = rotl(h ^ (get_le32(p) * P1), 23) * P2 + P3;
        p += 4;
    }
    for ( ; p < end; p++ )
        h = rotl(h ^ (*p * P5), 11) * P1;
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P3;
    return h ^ (h >> 32);
}

static int frame_header(struct zstd *z, const uint8_t *in, size_t len,
                        size_t *pos, bool *checksum, uint64_t *fcs)
{
    unsigned int fhd, fcs_size, did_size;
    bool single;

    if ( len < 5 || get_le32(in) != ZSTD_MAGIC )
        return zstd_fail(z, "no zstd frame magic");
    fhd = in[4];
    single = fhd & 0x20;
    *checksum = fhd & 4;
    if ( fhd & 8 )
        return zstd_fail(z, "zstd frame header reserved bit set");
    did_size = (unsigned int[]){ 0, 1, 2, 4 }[fhd & 3];
    fcs_size = (unsigned int[]){ single, 2, 4, 8 }[fhd >> 6];
    *pos = 5 + !single;                 /* the window descriptor */
    if ( len < *pos || len - *pos < did_size + fcs_size )
        return zstd_fail(z, "zstd frame header truncated");
    if ( did_size )
    {
        uint32_t did = 0;
        unsigned int i;

        for ( i = 0; i < did_size; i++ )
            did |= (uint32_t)in[*pos + i] << (8 * i);
        if ( did )
            return zstd_fail(z, "zstd frame needs a dictionary");
        *pos += did_size;
    }
    *fcs = ~0ULL;
    if ( fcs_size == 1 )
        *fcs = in[*pos];
    else if ( fcs_size == 2 )
        *fcs = get_le16(in + *pos) + 256;
    else if ( fcs_size == 4 )
        *fcs = get_le32(in + *pos);
    else if ( fcs_size == 8 )
        *fcs = get_le64(in + *pos);
    *pos += fcs_size;
    return 0;
}

static int frame(struct zstd *z, const uint8_t *in, size_t len, size_t *used)
{
    size_t pos = 0, bsize, u = 0;
    bool checksum = false, last = false, repeat_ok[3] = { false };
    uint64_t fcs = ~0ULL;
    uint32_t bh;

    z->frame_start = z->op;
    z->rep[0] = 1;
    z->rep[1] = 4;
    z->rep[2] = 8;
    z->have_huf = false;
    if ( frame_header(z, in, len, &pos, &checksum, &fcs) )
        return -1;
    while ( !last )
    {
        if ( len - pos < 3 )
            return zstd_fail(z, "zstd block header truncated");
        bh = in[pos] | (in[pos + 1] << 8) | (in[pos + 2] << 16);
        pos += 3;
        last = bh & 1;
        bsize = bh >> 3;
        switch ( (bh >> 1) & 3 )
        {
        case 0:
        case 1:
            if ( bsize > z->out_size - z->op )
                return zstd_fail(z, "output larger than announced");
            if ( ((bh >> 1) & 3) == 0 ? bsize > len - pos : pos >= len )
                return zstd_fail(z, "zstd block truncated");
            if ( ((bh >> 1) & 3) == 0 )
                memcpy(z->out + z->op, in + pos, bsize);
            else
                memset(z->out + z->op, in[pos], bsize);
            z->op += bsize;
            pos += ((bh >> 1) & 3) == 0 ? bsize : 1;
            break;
        case 2:
            if ( bsize > BLOCK_MAX || bsize > len - pos )
                return zstd_fail(z, "zstd block truncated or too large");
            if ( zstd_literals(z, in + pos, bsize, &u) ||
                 sequences(z, in + pos + u, bsize - u, repeat_ok) )
                return -1;
            pos += bsize;
            break;
        default:
            return zstd_fail(z, "zstd reserved block type");
        }
    }
    if ( fcs != ~0ULL && fcs != z->op - z->frame_start )
        return zstd_fail(z, "zstd frame size differs from its header");
    if ( checksum )
    {
        if ( len - pos < 4 )
            return zstd_fail(z, "zstd checksum truncated");
        if ( get_le32(in + pos) != (uint32_t)xxh64(z->out + z->frame_start,
                                                   z->op - z->frame_start) )
            return zstd_fail(z, "zstd checksum mismatch");
        pos += 4;
    }
    *used = pos;
    return 0;
}

int unzstd(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_size,
           size_t *out_len, const char **why)
{
    static struct zstd z;       /* 140 KiB of tables and literals */
    size_t pos = 0, used = 0;

    memset(&z, 0, sizeof(z));
    z.out = out;
    z.out_size = out_size;
    *out_len = 0;
    do {
        if ( frame(&z, in + pos, in_len - pos, &used) )
        {
            *out_len = z.op;
            *why = z.why;
            return -1;
        }
        pos += used;
    } while ( pos < in_len );
    *out_len = z.op;
    return 0;
}
