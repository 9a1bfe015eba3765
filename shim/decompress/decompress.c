/* SPDX-License-Identifier: GPL-2.0-only */
/* Which decompressor a payload wants, by its magic bytes. */
#include "shim/decompress/decompress.h"

static const struct {
    enum decompress_format f;
    const char *name;
    uint8_t len;
    uint8_t magic[6];
} formats[] = {
    { DECOMPRESS_GZIP,  "gzip",  2, { 0x1f, 0x8b } },
    { DECOMPRESS_LZ4,   "lz4",   4, { 0x02, 0x21, 0x4c, 0x18 } },
    { DECOMPRESS_XZ,    "xz",    6, { 0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00 } },
    { DECOMPRESS_ZSTD,  "zstd",  4, { 0x28, 0xb5, 0x2f, 0xfd } },
    { DECOMPRESS_BZIP2, "bzip2", 3, { 0x42, 0x5a, 0x68 } },
    { DECOMPRESS_LZMA,  "lzma",  3, { 0x5d, 0x00, 0x00 } },
};

enum decompress_format decompress_probe(const uint8_t *in, size_t in_len)
{
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(formats); i++ )
        if ( in_len >= formats[i].len &&
             !memcmp(in, formats[i].magic, formats[i].len) )
            return formats[i].f;
    return DECOMPRESS_UNKNOWN;
}

const char *decompress_name(enum decompress_format f)
{
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(formats); i++ )
        if ( formats[i].f == f )
            return formats[i].name;
    return "unknown";
}

bool decompress_has_own_trailer(enum decompress_format f)
{
    return f == DECOMPRESS_GZIP;
}

int decompress(const uint8_t *in, size_t in_len, uint8_t *out,
               size_t out_size, size_t *out_len, const char **why)
{
    *out_len = 0;
    switch ( decompress_probe(in, in_len) )
    {
    case DECOMPRESS_GZIP:
        return gunzip(in, in_len, out, out_size, out_len, why);
    case DECOMPRESS_LZ4:
        return unlz4_legacy(in, in_len, out, out_size, out_len, why);
    case DECOMPRESS_XZ:
        return unxz(in, in_len, out, out_size, out_len, why);
    case DECOMPRESS_ZSTD:
        return unzstd(in, in_len, out, out_size, out_len, why);
    case DECOMPRESS_UNKNOWN:
        *why = "unknown compression format";
        return -1;
    default:
        *why = "compression format not supported (gzip, lz4, xz and zstd are)";
        return -1;
    }
}
