/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the LZ4 legacy-frame decoder (shim/decompress/unlz4.c):
 * streams from Debian's `lz4 -l` over zeros, text and noise, including
 * more than one 8 MiB block; hand-made blocks for each refusal (offset 0,
 * a back-reference before the start, literal and match lengths that run
 * past the input or the output, absurd block sizes); every truncation.
 */
#include "tests/unit/unit.h"

#include "shim/lib/crc32.c"
#include "shim/decompress/decompress.c"
#include "shim/decompress/inflate.c"
#include "shim/decompress/gunzip.c"
#include "shim/decompress/unlz4.c"
#include "shim/decompress/unlzma2.c"
#include "shim/decompress/unxz.c"
#include "shim/decompress/zstd-fse.c"
#include "shim/decompress/zstd-huf.c"
#include "shim/decompress/unzstd.c"

#include "tests/unit/compress-tool.h"

static const uint8_t magic[4] = { 0x02, 0x21, 0x4c, 0x18 };

/* A frame of one hand-made block: the magic, its size, its bytes. */
static int run_block(const uint8_t *blk, size_t len, size_t out_size,
                     size_t *n, const char **why)
{
    uint8_t *in = malloc(len + 8), *out = malloc(out_size ? out_size : 1);
    int rc;

    memcpy(in, magic, 4);
    in[4] = len;
    in[5] = len >> 8;
    in[6] = len >> 16;
    in[7] = len >> 24;
    memcpy(in + 8, blk, len);
    *why = NULL;
    rc = unlz4_legacy(in, len + 8, out, out_size, n, why);
    free(in);
    free(out);
    return rc;
}

static void tool_vectors(void)
{
    static const size_t sizes[] = { 0, 1, 100, 70000, (8u << 20) + 12345 };
    unsigned int kind, s;

    for ( kind = 0; kind < 4; kind++ )
        for ( s = 0; s < ARRAY_SIZE(sizes); s++ )
        {
            uint8_t *data = make_data(kind, sizes[s]), *lz, *out;
            size_t lz_len, n;
            const char *why = NULL;

            lz = compress_with("lz4 -l -9 -q -c", data, sizes[s], &lz_len);
            CHECK(lz);
            out = malloc(sizes[s] ? sizes[s] : 1);
            if ( lz )
            {
                CHECK(decompress_probe(lz, lz_len) == DECOMPRESS_LZ4);
                CHECK(!decompress(lz, lz_len, out, sizes[s], &n, &why));
                CHECK_EQ(n, sizes[s]);
                CHECK(!memcmp(out, data, sizes[s]));
                /* One byte short of room. */
                if ( sizes[s] )
                    CHECK(unlz4_legacy(lz, lz_len, out, sizes[s] - 1, &n,
                                       &why));
            }
            free(lz);
            free(out);
            free(data);
        }
}

static void hand_made(void)
{
    /* "abcd" then a 10-byte match at offset 4, then "xyz" */
    static const uint8_t blk[] = { 0x46, 'a', 'b', 'c', 'd', 4, 0,
                                   0x30, 'x', 'y', 'z' };
    uint8_t in[64], out[64];
    size_t n;
    const char *why = NULL;

    memcpy(in, magic, 4);
    in[4] = sizeof(blk);
    in[5] = in[6] = in[7] = 0;
    memcpy(in + 8, blk, sizeof(blk));
    CHECK(!unlz4_legacy(in, 8 + sizeof(blk), out, sizeof(out), &n, &why));
    CHECK_EQ(n, 17);
    CHECK(!memcmp(out, "abcdabcdabcdabxyz", 17));
    /* Concatenated: a second magic, the same block again. */
    memcpy(in + 8 + sizeof(blk), in, 8 + sizeof(blk));
    CHECK(!unlz4_legacy(in, 16 + 2 * sizeof(blk), out, sizeof(out), &n,
                        &why));
    CHECK_EQ(n, 34);
    /* The magic alone: an empty stream. */
    CHECK(!unlz4_legacy(in, 4, out, sizeof(out), &n, &why) && !n);
}

static void refusals(void)
{
    size_t n;
    const char *why;
    uint8_t in[16], out[16];

#define BLOCK(out_size, expect, ...) do {                                  \
        static const uint8_t b_[] = { __VA_ARGS__ };                       \
        CHECK(run_block(b_, sizeof(b_), out_size, &n, &why));              \
        CHECK_STR(why ? why : "", expect);                                 \
    } while ( 0 )

    BLOCK(64, "back-reference before the start of the output",
          0x10, 'a', 0, 0, 0x00);                       /* offset 0 */
    BLOCK(64, "back-reference before the start of the output",
          0x10, 'a', 2, 0, 0x00);                       /* 2 > 1 */
    BLOCK(64, "back-reference before the start of the output",
          0x00, 1, 0, 0x10, 'a');                       /* none before */
    BLOCK(64, "LZ4 literals run past the block", 0x50, 'a', 'b');
    BLOCK(64, "LZ4 literal length runs past the block",
          0xf0, 255, 255, 255);
    BLOCK(4, "output larger than announced", 0x50, 1, 2, 3, 4, 5);
    BLOCK(64, "output larger than announced",          /* huge match */
          0x1f, 'a', 1, 0, 255, 255, 255, 10, 0x00);
    BLOCK(64, "LZ4 block truncated", 0x10, 'a', 1);    /* half offset */
    BLOCK(64, "LZ4 block truncated", 0x10, 'a', 1, 0); /* no next token */
    BLOCK(64, "LZ4 match length is absurd",
          0x1f, 'a', 1, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255,
          255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
          255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255);
#undef BLOCK

    memcpy(in, magic, 4);
    memset(in + 4, 0, 4);                               /* size 0 */
    CHECK(unlz4_legacy(in, 8, out, 16, &n, &why));
    CHECK_STR(why, "LZ4 block size is absurd");
    in[7] = 0x7f;                                       /* > bound */
    CHECK(unlz4_legacy(in, 8, out, 16, &n, &why));
    CHECK_STR(why, "LZ4 block size is absurd");
    in[4] = 5;
    in[7] = 0;                                          /* 5 > 0 left */
    CHECK(unlz4_legacy(in, 8, out, 16, &n, &why));
    CHECK_STR(why, "LZ4 block truncated");
    CHECK(unlz4_legacy(in, 6, out, 16, &n, &why));
    CHECK_STR(why, "LZ4 block size truncated");
    CHECK(unlz4_legacy(in, 0, out, 16, &n, &why));
    CHECK_STR(why, "no LZ4 legacy frame magic");
    in[0] = 0x04;                                       /* frame format */
    CHECK(unlz4_legacy(in, 8, out, 16, &n, &why));
    CHECK_STR(why, "no LZ4 legacy frame magic");
}

/* One block that decompresses to more than 8 MiB, with room for it. */
static void block_over_8m(void)
{
    uint8_t blk[40000];
    size_t len = 0, n, i;
    const char *why;

    /* 'a', then two matches of 8 MiB - 100 and 1000 bytes, then the end. */
    blk[len++] = 0x1f;
    blk[len++] = 'a';
    for ( i = 0; i < 2; i++ )
    {
        blk[len++] = 1;
        blk[len++] = 0;
        for ( n = i ? 1000 : (8u << 20) - 100; n >= 255; n -= 255 )
            blk[len++] = 255;
        blk[len++] = n;
        blk[len++] = i ? 0x00 : 0x0f;
    }
    CHECK(run_block(blk, len, 16u << 20, &n, &why));
    CHECK_STR(why ? why : "", "LZ4 block larger than 8 MiB");
}

static void truncated(void)
{
    uint8_t *data = make_data(3, 30000), *lz, *in, *out = malloc(30000);
    size_t lz_len, n, cut;
    const char *why;

    lz = compress_with("lz4 -l -9 -q -c", data, 30000, &lz_len);
    CHECK(lz);
    for ( cut = 0; lz && cut < lz_len; cut++ )
    {
        in = malloc(cut ? cut : 1);
        memcpy(in, lz, cut);
        why = NULL;
        /* A cut right after a whole block is a shorter valid stream. */
        if ( !unlz4_legacy(in, cut, out, 30000, &n, &why) )
            CHECK(n < 30000);
        else
            CHECK(why);
        free(in);
    }
    free(lz);
    free(out);
    free(data);
}

int main(int argc, char **argv)
{
    if ( argc == 3 && !strcmp(argv[1], "--write-corpus") )
    {
        write_fuzz_corpus(argv[2], "lz4 -l -9 -q -c", "lz4");
        return 0;
    }
    RUN(tool_vectors);
    RUN(hand_made);
    RUN(refusals);
    RUN(block_over_8m);
    RUN(truncated);
    UNIT_EXIT();
}
