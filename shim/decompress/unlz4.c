/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * LZ4 legacy frames, as `lz4 -l` writes them and Linux compresses its
 * kernel: a 4-byte magic, then blocks, each a 4-byte compressed size and
 * an LZ4 block that decompresses to at most 8 MiB, independent of the
 * others.  A repeated magic starts a concatenated stream.  The block
 * format: a token (literal length << 4 | match length - 4), lengths of 15
 * extended by bytes of 255, the literals, a 2-byte offset; the last
 * sequence has literals only.
 */
#include "shim/decompress/decompress.h"

#define LZ4_LEGACY_MAGIC    0x184c2102u
#define LZ4_LEGACY_BLOCK    (8u << 20)
/* LZ4_compressBound(8 MiB): the largest block lz4 can write. */
#define LZ4_BLOCK_BOUND     (LZ4_LEGACY_BLOCK + LZ4_LEGACY_BLOCK / 255 + 16)
#define LZ4_MIN_MATCH       4

/* A length of 15 goes on in bytes of 255, ending with a smaller one. */
static int ext_length(const uint8_t *in, size_t in_len, size_t *ip,
                      size_t *len, size_t limit)
{
    uint8_t b;

    do {
        if ( *ip >= in_len )
            return -1;
        b = in[(*ip)++];
        *len += b;
        if ( *len > limit )
            return -1;
    } while ( b == 255 );
    return 0;
}

/* One block into [out, out + out_size): the bytes written, or -1. */
static long block(const uint8_t *in, size_t in_len, uint8_t *out,
                  size_t out_size, const char *too_big, const char **why)
{
    size_t ip = 0, op = 0, len, off;
    uint8_t token;

    for ( ;; )
    {
        if ( ip >= in_len )
            return *why = "LZ4 block truncated", -1;
        token = in[ip++];
        len = token >> 4;
        if ( len == 15 && ext_length(in, in_len, &ip, &len, in_len) )
            return *why = "LZ4 literal length runs past the block", -1;
        if ( len > in_len - ip )
            return *why = "LZ4 literals run past the block", -1;
        if ( len > out_size - op )
            return *why = too_big, -1;
        memcpy(out + op, in + ip, len);
        ip += len;
        op += len;
        if ( ip == in_len )
            return op;                  /* the last sequence */

        if ( in_len - ip < 2 )
            return *why = "LZ4 block truncated", -1;
        off = in[ip] | (in[ip + 1] << 8);
        ip += 2;
        if ( !off || off > op )
            return *why = "back-reference before the start of the output",
                   -1;
        len = token & 15;
        if ( len == 15 &&
             ext_length(in, in_len, &ip, &len, LZ4_LEGACY_BLOCK) )
            return *why = "LZ4 match length is absurd", -1;
        len += LZ4_MIN_MATCH;
        if ( len > out_size - op )
            return *why = too_big, -1;
        for ( ; len; len--, op++ )
            out[op] = out[op - off];
    }
}

int unlz4_legacy(const uint8_t *in, size_t in_len, uint8_t *out,
                 size_t out_size, size_t *out_len, const char **why)
{
    size_t ip = 4, op = 0, chunk, window;
    long n;

    *out_len = 0;
    if ( in_len < 4 || get_le32(in) != LZ4_LEGACY_MAGIC )
        return *why = "no LZ4 legacy frame magic", -1;
    while ( ip < in_len )
    {
        if ( in_len - ip < 4 )
            return *why = "LZ4 block size truncated", -1;
        chunk = get_le32(in + ip);
        ip += 4;
        if ( chunk == LZ4_LEGACY_MAGIC )
            continue;
        if ( !chunk || chunk > LZ4_BLOCK_BOUND )
            return *why = "LZ4 block size is absurd", -1;
        if ( chunk > in_len - ip )
            return *why = "LZ4 block truncated", -1;
        /* Each block fills at most 8 MiB of what is left. */
        window = MIN(out_size - op, (size_t)LZ4_LEGACY_BLOCK);
        n = block(in + ip, chunk, out + op, window,
                  window < out_size - op ? "LZ4 block larger than 8 MiB"
                                         : "output larger than announced",
                  why);
        if ( n < 0 )
        {
            *out_len = op;
            return -1;
        }
        ip += chunk;
        op += n;
    }
    *out_len = op;
    return 0;
}
