/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Decompressors for the payload of a Linux bzImage: pure, freestanding
 * code that reads only [in, in + in_len) and writes only
 * [out, out + out_size).  Each returns 0 and the bytes written in
 * *out_len, or -1 and a constant message in *why: corrupt, truncated and
 * oversized input is refused, never overrun.  Host tests and fuzzers
 * compile the same files.
 */
#ifndef SHIM_DECOMPRESS_H
#define SHIM_DECOMPRESS_H

#include "shim/lib.h"

/* The formats, by the magic bytes their streams open with. */
enum decompress_format {
    DECOMPRESS_UNKNOWN,
    DECOMPRESS_GZIP,        /* RFC 1952 member: 1f 8b 08 */
    DECOMPRESS_LZ4,         /* LZ4 legacy frame: 02 21 4c 18 */
    DECOMPRESS_XZ,          /* fd 37 7a 58 5a 00 */
    DECOMPRESS_ZSTD,        /* 28 b5 2f fd */
    DECOMPRESS_BZIP2,       /* 42 5a 68 */
    DECOMPRESS_LZMA,        /* 5d 00 00 */
};

enum decompress_format decompress_probe(const uint8_t *in, size_t in_len);
const char *decompress_name(enum decompress_format f);

/*
 * Does the format carry its own uncompressed size at its end?  gzip does
 * (ISIZE); Linux appends one after every other format's stream.
 */
bool decompress_has_own_trailer(enum decompress_format f);

/* One gzip member (its CRC-32 and ISIZE checked). */
int gunzip(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_size,
           size_t *out_len, const char **why);

/* A raw DEFLATE stream (RFC 1951); *in_used says where it ended. */
int inflate(const uint8_t *in, size_t in_len, size_t *in_used,
            uint8_t *out, size_t out_size, size_t *out_len,
            const char **why);

/* LZ4 legacy frames (magic 0x184c2102, blocks of at most 8 MiB). */
int unlz4_legacy(const uint8_t *in, size_t in_len, uint8_t *out,
                 size_t out_size, size_t *out_len, const char **why);

/* An .xz stream: LZMA2 blocks, optionally behind the x86 BCJ filter. */
int unxz(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_size,
         size_t *out_len, const char **why);

/* zstd frames (RFC 8878), without dictionaries. */
int unzstd(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_size,
           size_t *out_len, const char **why);

/*
 * One block's LZMA2 chunks, from in[0] to its end marker (*in_used says
 * where that was), into out[0, out_size).
 */
int unlzma2(const uint8_t *in, size_t in_len, size_t *in_used, uint8_t *out,
            size_t out_size, size_t *out_len, uint32_t dict_size,
            const char **why);

/* Any supported format, chosen by its magic. */
int decompress(const uint8_t *in, size_t in_len, uint8_t *out,
               size_t out_size, size_t *out_len, const char **why);

#endif /* SHIM_DECOMPRESS_H */
