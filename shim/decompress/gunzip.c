/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The gzip wrapper (RFC 1952) around inflate(): the member header with its
 * optional fields, then the CRC-32 and ISIZE trailer, both checked.
 */
#include "shim/decompress/decompress.h"

#define FTEXT       0x01
#define FHCRC       0x02
#define FEXTRA      0x04
#define FNAME       0x08
#define FCOMMENT    0x10
#define FRESERVED   0xe0

/* Skip a NUL-terminated header field; -1 if it runs off the end. */
static int skip_string(const uint8_t *in, size_t in_len, size_t *pos)
{
    while ( *pos < in_len )
        if ( !in[(*pos)++] )
            return 0;
    return -1;
}

static int header(const uint8_t *in, size_t in_len, size_t *pos,
                  const char **why)
{
    unsigned int flags;
    size_t xlen;

    if ( in_len < 10 || in[0] != 0x1f || in[1] != 0x8b )
        return *why = "no gzip header", -1;
    if ( in[2] != 8 )
        return *why = "gzip compression method is not deflate", -1;
    flags = in[3];
    if ( flags & FRESERVED )
        return *why = "gzip header has reserved flags set", -1;
    *pos = 10;
    if ( flags & FEXTRA )
    {
        if ( in_len - *pos < 2 )
            return *why = "gzip header truncated", -1;
        xlen = in[*pos] | (in[*pos + 1] << 8);
        *pos += 2;
        if ( xlen > in_len - *pos )
            return *why = "gzip header truncated", -1;
        *pos += xlen;
    }
    if ( ((flags & FNAME) && skip_string(in, in_len, pos)) ||
         ((flags & FCOMMENT) && skip_string(in, in_len, pos)) )
        return *why = "gzip header truncated", -1;
    if ( flags & FHCRC )
    {
        if ( in_len - *pos < 2 )
            return *why = "gzip header truncated", -1;
        if ( (crc32(0, in, *pos) & 0xffff) !=
             (uint32_t)(in[*pos] | (in[*pos + 1] << 8)) )
            return *why = "gzip header CRC mismatch", -1;
        *pos += 2;
    }
    return 0;
}

int gunzip(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_size,
           size_t *out_len, const char **why)
{
    size_t pos, used;

    *out_len = 0;
    if ( header(in, in_len, &pos, why) ||
         inflate(in + pos, in_len - pos, &used, out, out_size, out_len, why) )
        return -1;
    pos += used;
    if ( in_len - pos < 8 )
        return *why = "gzip trailer truncated", -1;
    if ( get_le32(in + pos) != crc32(0, out, *out_len) )
        return *why = "gzip CRC-32 mismatch", -1;
    if ( get_le32(in + pos + 4) != (uint32_t)*out_len )
        return *why = "gzip ISIZE mismatch", -1;
    return 0;
}
