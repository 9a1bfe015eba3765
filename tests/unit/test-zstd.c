/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the zstd decoder (shim/decompress/unzstd.c, zstd-fse.c,
 * zstd-huf.c): frames from Debian's zstd at several levels (predefined,
 * RLE, FSE and repeated tables; raw, RLE and Huffman literals in one and
 * four streams; with and without the checksum; several frames), every
 * truncation refused, a corruption at every byte refused or harmless,
 * output limits, hand-made refusals.  `test-zstd --write-corpus DIR`
 * writes the fuzzer's seeds.
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

static const char *const tools[] = {
    "zstd -q -c", "zstd -1 -q -c", "zstd -19 -q -c",
    "zstd -q -c --no-check", "zstd -22 --ultra -q -c",
};

static void tool_vectors(void)
{
    static const size_t sizes[] = { 0, 1, 100, 1000, 70000, 300000 };
    unsigned int kind, s, t;

    for ( kind = 0; kind < 4; kind++ )
        for ( s = 0; s < ARRAY_SIZE(sizes); s++ )
            for ( t = 0; t < ARRAY_SIZE(tools); t++ )
            {
                uint8_t *data = make_data(kind, sizes[s]), *zs, *out;
                size_t zs_len, n;
                const char *why = NULL;

                zs = compress_with(tools[t], data, sizes[s], &zs_len);
                CHECK(zs);
                out = malloc(sizes[s] ? sizes[s] : 1);
                if ( zs )
                {
                    CHECK(decompress_probe(zs, zs_len) == DECOMPRESS_ZSTD);
                    CHECK(!decompress(zs, zs_len, out, sizes[s], &n, &why));
                    CHECK_EQ(n, sizes[s]);
                    CHECK(!memcmp(out, data, sizes[s]));
                    if ( sizes[s] )
                        CHECK(unzstd(zs, zs_len, out, sizes[s] - 1, &n,
                                     &why));
                }
                free(zs);
                free(out);
                free(data);
            }
}

/* Two frames back to back decode to both contents. */
static void two_frames(void)
{
    uint8_t *a = make_data(1, 5000), *za, *in, *out = malloc(10000);
    size_t za_len, n;
    const char *why = NULL;

    za = compress_with("zstd -q -c", a, 5000, &za_len);
    CHECK(za);
    if ( za )
    {
        in = malloc(2 * za_len);
        memcpy(in, za, za_len);
        memcpy(in + za_len, za, za_len);
        CHECK(!unzstd(in, 2 * za_len, out, 10000, &n, &why) && n == 10000);
        CHECK(!memcmp(out, a, 5000) && !memcmp(out + 5000, a, 5000));
        free(in);
    }
    free(za);
    free(out);
    free(a);
}

static void truncated_and_corrupted(void)
{
    size_t len = 20000, zs_len, n, i, accepted = 0;
    uint8_t *data = make_data(3, len), *zs, *in, *out = malloc(len);
    const char *why;

    zs = compress_with("zstd -19 -q -c", data, len, &zs_len);
    CHECK(zs);
    for ( i = 0; zs && i < zs_len; i++ )
    {
        in = malloc(i ? i : 1);
        memcpy(in, zs, i);
        why = NULL;
        CHECK(unzstd(in, i, out, len, &n, &why) && why);
        free(in);
    }
    for ( i = 0; zs && i < zs_len; i++ )
    {
        zs[i] ^= 0x21;
        why = NULL;
        if ( !unzstd(zs, zs_len, out, len, &n, &why) )
            accepted++;             /* e.g. the unchecked window size */
        else
            CHECK(why);
        zs[i] ^= 0x21;
    }
    CHECK(accepted <= 2);
    free(zs);
    free(out);
    free(data);
}

static void refusals(void)
{
    /* magic, FHD (single segment, 1-byte size), size, then the block */
    uint8_t f[16] = { 0x28, 0xb5, 0x2f, 0xfd, 0x20, 5 };
    uint8_t out[16];
    size_t n;
    const char *why = NULL;

#define BLOCK(type, size) do {                                             \
        uint32_t bh_ = 1 | ((type) << 1) | ((size) << 3);                  \
        f[6] = bh_; f[7] = bh_ >> 8; f[8] = bh_ >> 16;                     \
    } while ( 0 )

    BLOCK(1, 5);                            /* RLE: 5 x 'a' */
    f[9] = 'a';
    CHECK(!unzstd(f, 10, out, 16, &n, &why) && n == 5 &&
          !memcmp(out, "aaaaa", 5));
    f[5] = 4;                               /* header says 4 bytes */
    CHECK(unzstd(f, 10, out, 16, &n, &why));
    CHECK_STR(why, "zstd frame size differs from its header");
    f[5] = 5;
    BLOCK(3, 5);
    CHECK(unzstd(f, 10, out, 16, &n, &why));
    CHECK_STR(why, "zstd reserved block type");
    BLOCK(0, 5);                            /* raw, 5 bytes, 1 there */
    CHECK(unzstd(f, 10, out, 16, &n, &why));
    CHECK_STR(why, "zstd block truncated");
    BLOCK(1, 5);
    f[4] = 0x28;                            /* reserved bit */
    CHECK(unzstd(f, 10, out, 16, &n, &why));
    CHECK_STR(why, "zstd frame header reserved bit set");
    f[4] = 0x21;                            /* a dictionary id... */
    f[5] = 7;                               /* ...that is not 0 */
    CHECK(unzstd(f, 11, out, 16, &n, &why));
    CHECK_STR(why, "zstd frame needs a dictionary");
    CHECK(unzstd(f, 3, out, 16, &n, &why));
    CHECK_STR(why, "no zstd frame magic");
    /* A frame that ends after its header. */
    f[4] = 0x20;
    f[5] = 0;
    CHECK(unzstd(f, 6, out, 16, &n, &why));
    CHECK_STR(why, "zstd block header truncated");
#undef BLOCK
}

int main(int argc, char **argv)
{
    if ( argc == 3 && !strcmp(argv[1], "--write-corpus") )
    {
        write_fuzz_corpus(argv[2], "zstd -19 -q -c", "zst");
        return 0;
    }
    RUN(tool_vectors);
    RUN(two_frames);
    RUN(truncated_and_corrupted);
    RUN(refusals);
    UNIT_EXIT();
}
