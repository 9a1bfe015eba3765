/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The .xz container (the "XZ File Format" 1.1.0 specification): a stream
 * header, blocks, an index and a footer, every CRC-32 checked, and each
 * block's check (none, CRC-32 or CRC-64).  A block's filter chain is
 * LZMA2 alone or the x86 BCJ filter before it, as Linux's xz_wrap.sh
 * compresses the kernel; the BCJ filter runs over the block's output
 * once LZMA2 has written all of it.
 */
#include "shim/decompress/decompress.h"

#define XZ_HEADER       12
#define XZ_FOOTER       12
#define CHECK_NONE      0
#define CHECK_CRC32     1
#define CHECK_CRC64     4
#define FILTER_X86      0x04
#define FILTER_LZMA2    0x21
#define MAX_BLOCKS      4096

static const uint8_t xz_magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };

static uint64_t crc64(const uint8_t *p, size_t len)
{
    static uint64_t table[256];
    uint64_t crc = ~0ULL;
    unsigned int i, j;

    if ( !table[1] )
        for ( i = 0; i < 256; i++ )
        {
            uint64_t c = i;

            for ( j = 0; j < 8; j++ )
                c = (c >> 1) ^ (c & 1 ? 0xc96c5795d7870f42ULL : 0);
            table[i] = c;
        }
    while ( len-- )
        crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

/* A multibyte integer (up to 9 bytes of 7 bits); -1 if malformed. */
static int varint(const uint8_t *in, size_t len, size_t *pos, uint64_t *v)
{
    unsigned int i;

    *v = 0;
    for ( i = 0; i < 9; i++ )
    {
        if ( *pos >= len )
            return -1;
        *v |= (uint64_t)(in[*pos] & 0x7f) << (7 * i);
        if ( !(in[(*pos)++] & 0x80) )
            return i && !in[*pos - 1] ? -1 : 0;    /* no padding zeros */
    }
    return -1;
}

/* x86 BCJ, decoding: relative CALL/JMP targets back to absolute ones. */
static bool msbyte_ok(uint8_t b)
{
    return b == 0x00 || b == 0xff;
}

static void bcj_x86(uint8_t *buf, size_t size, uint32_t start)
{
    static const bool allowed[8] = { 1, 1, 1, 0, 1, 0, 0, 0 };
    static const uint8_t bitnum[8] = { 0, 1, 2, 2, 3, 3, 3, 3 };
    size_t i, prev = (size_t)-1, gap;
    uint32_t mask = 0, src, dest, j;

    if ( size <= 4 )
        return;
    for ( i = 0; i < size - 4; i++ )
    {
        if ( (buf[i] & 0xfe) != 0xe8 )
            continue;
        gap = i - prev;
        prev = i;
        if ( gap > 3 )
            mask = 0;
        else
        {
            mask = (mask << (gap - 1)) & 7;
            if ( mask && (!allowed[mask] ||
                          msbyte_ok(buf[i + 4 - bitnum[mask]])) )
            {
                mask = (mask << 1) | 1;
                continue;
            }
        }
        if ( !msbyte_ok(buf[i + 4]) )
        {
            mask = (mask << 1) | 1;
            continue;
        }
        src = get_le32(buf + i + 1);
        for ( ;; )
        {
            dest = src - (start + (uint32_t)i + 5);
            if ( !mask )
                break;
            j = bitnum[mask] * 8;
            if ( !msbyte_ok(dest >> (24 - j)) )
                break;
            src = dest ^ ((1u << (32 - j)) - 1);
        }
        dest &= 0x01ffffff;
        dest |= 0 - (dest & 0x01000000);
        buf[i + 1] = dest;
        buf[i + 2] = dest >> 8;
        buf[i + 3] = dest >> 16;
        buf[i + 4] = dest >> 24;
        i += 4;
    }
}

struct xz_block {
    bool bcj;
    uint32_t bcj_start, dict_size;
    uint64_t comp, unc;         /* ~0 when the header doesn't say */
};

/* Dictionary size from LZMA2's property byte (at most 4 GiB - 1). */
static int lzma2_dict(uint8_t p, uint32_t *size)
{
    if ( p > 40 )
        return -1;
    *size = p == 40 ? ~0u : (2u | (p & 1)) << (p / 2 + 11);
    return 0;
}

static int block_header(const uint8_t *in, size_t len, size_t *pos,
                        struct xz_block *b, const char **why)
{
    size_t hsize = (in[*pos] + 1) * 4, p = *pos + 2, end;
    unsigned int flags, nf, i;
    uint64_t id, psize;

    if ( hsize > len - *pos )
        return *why = "xz block header truncated", -1;
    flags = in[*pos + 1];
    nf = (flags & 3) + 1;
    end = *pos + hsize - 4;
    if ( crc32(0, in + *pos, hsize - 4) != get_le32(in + end) )
        return *why = "xz block header CRC mismatch", -1;
    if ( flags & 0x3c )
        return *why = "xz block header has reserved flags", -1;
    b->comp = b->unc = ~0ULL;
    if ( ((flags & 0x40) && varint(in, end, &p, &b->comp)) ||
         ((flags & 0x80) && varint(in, end, &p, &b->unc)) )
        return *why = "xz block header sizes malformed", -1;
    b->bcj = false;
    b->bcj_start = 0;
    for ( i = 0; i < nf; i++ )
    {
        if ( varint(in, end, &p, &id) || varint(in, end, &p, &psize) ||
             psize > end - p )
            return *why = "xz filter flags malformed", -1;
        if ( i == nf - 1 )
        {
            if ( id != FILTER_LZMA2 || psize != 1 ||
                 lzma2_dict(in[p], &b->dict_size) )
                return *why = "xz filter chain does not end in LZMA2", -1;
        }
        else if ( id == FILTER_X86 && i == 0 && (psize == 0 || psize == 4) )
        {
            b->bcj = true;
            if ( psize == 4 )
                b->bcj_start = get_le32(in + p);
        }
        else
            return *why = "xz filter not supported (x86 BCJ + LZMA2 is)", -1;
        p += psize;
    }
    for ( ; p < end; p++ )
        if ( in[p] )
            return *why = "xz block header padding not zero", -1;
    *pos += hsize;
    return 0;
}

static int block_check(const uint8_t *in, size_t len, size_t *pos,
                       unsigned int type, const uint8_t *data, size_t n,
                       const char **why)
{
    size_t size = type == CHECK_CRC32 ? 4 : type == CHECK_CRC64 ? 8 : 0;

    if ( size > len - *pos )
        return *why = "xz block check truncated", -1;
    if ( (type == CHECK_CRC32 &&
          get_le32(in + *pos) != crc32(0, data, n)) ||
         (type == CHECK_CRC64 &&
          (get_le32(in + *pos) | ((uint64_t)get_le32(in + *pos + 4) << 32))
          != crc64(data, n)) )
        return *why = "xz block check mismatch", -1;
    *pos += size;
    return 0;
}

/* Zero bytes up to a multiple of 4 from @from. */
static int padding(const uint8_t *in, size_t len, size_t *pos, size_t from)
{
    while ( (*pos - from) & 3 )
    {
        if ( *pos >= len || in[*pos] )
            return -1;
        (*pos)++;
    }
    return 0;
}

struct xz_totals {
    uint64_t blocks, unpadded, unc;
};

static int one_block(const uint8_t *in, size_t len, size_t *pos,
                     unsigned int check, uint8_t *out, size_t out_size,
                     size_t *op, struct xz_totals *t, const char **why)
{
    struct xz_block b;
    size_t start = *pos, data, used, n;

    if ( block_header(in, len, pos, &b, why) )
        return -1;
    data = *pos;
    if ( unlzma2(in + data, len - data, &used, out + *op, out_size - *op,
                 &n, b.dict_size, why) )
        return -1;
    if ( (b.comp != ~0ULL && b.comp != used) ||
         (b.unc != ~0ULL && b.unc != n) )
        return *why = "xz block sizes differ from its header", -1;
    if ( b.bcj )
        bcj_x86(out + *op, n, b.bcj_start);
    *pos = data + used;
    if ( padding(in, len, pos, data) )
        return *why = "xz block padding bad", -1;
    if ( block_check(in, len, pos, check, out + *op, n, why) )
        return -1;
    *op += n;
    t->blocks++;
    t->unpadded += (data - start) + used +
                   (check == CHECK_CRC32 ? 4 : check == CHECK_CRC64 ? 8 : 0);
    t->unc += n;
    return 0;
}

static int index_and_footer(const uint8_t *in, size_t len, size_t pos,
                            const uint8_t *flags, const struct xz_totals *t,
                            const char **why)
{
    size_t start = pos++;
    uint64_t count, a, b, sum_a = 0, sum_b = 0, i;

    if ( varint(in, len, &pos, &count) || count != t->blocks )
        return *why = "xz index does not match the blocks", -1;
    for ( i = 0; i < count; i++ )
    {
        if ( varint(in, len, &pos, &a) || varint(in, len, &pos, &b) )
            return *why = "xz index truncated", -1;
        sum_a += a;
        sum_b += b;
    }
    if ( sum_a != t->unpadded || sum_b != t->unc )
        return *why = "xz index does not match the blocks", -1;
    if ( padding(in, len, &pos, start) || len - pos < 4 + XZ_FOOTER ||
         get_le32(in + pos) != crc32(0, in + start, pos - start) )
        return *why = "xz index padding or CRC bad", -1;
    pos += 4;
    if ( get_le32(in + pos) != crc32(0, in + pos + 4, 6) ||
         ((uint64_t)get_le32(in + pos + 4) + 1) * 4 != pos - start ||
         memcmp(in + pos + 8, flags, 2) || in[pos + 10] != 'Y' ||
         in[pos + 11] != 'Z' )
        return *why = "xz stream footer bad", -1;
    for ( pos += XZ_FOOTER; pos < len; pos++ )
        if ( in[pos] )
            return *why = "data after the xz stream", -1;
    return 0;
}

int unxz(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_size,
         size_t *out_len, const char **why)
{
    struct xz_totals t = { 0 };
    size_t pos = XZ_HEADER, op = 0;
    unsigned int check;
    int rc = -1;

    *out_len = 0;
    if ( in_len < XZ_HEADER + XZ_FOOTER || memcmp(in, xz_magic, 6) )
        return *why = "no xz stream header", -1;
    if ( get_le32(in + 8) != crc32(0, in + 6, 2) )
        return *why = "xz stream header CRC mismatch", -1;
    check = in[7];
    if ( in[6] || (check != CHECK_NONE && check != CHECK_CRC32 &&
                   check != CHECK_CRC64) )
        return *why = "xz check type not supported (none, CRC-32, CRC-64)",
               -1;
    for ( ;; )
    {
        if ( pos >= in_len )
        {
            *why = "xz stream truncated";
            break;
        }
        if ( !in[pos] )
        {
            rc = index_and_footer(in, in_len, pos, in + 6, &t, why);
            break;
        }
        if ( t.blocks >= MAX_BLOCKS ||
             one_block(in, in_len, &pos, check, out, out_size, &op, &t, why) )
        {
            if ( t.blocks >= MAX_BLOCKS )
                *why = "xz stream has too many blocks";
            break;
        }
    }
    *out_len = op;
    return rc;
}
