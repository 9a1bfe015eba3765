/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the xz decoder (shim/decompress/unxz.c, unlzma2.c):
 * streams from Debian's xz with each check type, the x86 BCJ filter as
 * Linux uses it, several blocks, stored LZMA2 chunks (incompressible
 * data); every truncation and many corruptions refused; output limits.
 * `test-xz --write-corpus DIR` writes the fuzzer's seeds.
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
    "xz -6 -c --check=crc32",
    "xz -1 -c --check=crc64",
    "xz -c --check=none",
    "xz -c --check=crc32 --x86 --lzma2=dict=1MiB",
    "xz -c --check=crc32 --block-size=70000",
    "xz -9e -c --check=crc32 --x86 --lzma2=lc=4,lp=0,pb=0",
};

static void tool_vectors(void)
{
    static const size_t sizes[] = { 0, 1, 100, 70000, 300000 };
    unsigned int kind, s, t;

    for ( kind = 0; kind < 4; kind++ )
        for ( s = 0; s < ARRAY_SIZE(sizes); s++ )
            for ( t = 0; t < ARRAY_SIZE(tools); t++ )
            {
                uint8_t *data = make_data(kind, sizes[s]), *xz, *out;
                size_t xz_len, n;
                const char *why = NULL;

                xz = compress_with(tools[t], data, sizes[s], &xz_len);
                CHECK(xz);
                out = malloc(sizes[s] ? sizes[s] : 1);
                if ( xz )
                {
                    CHECK(decompress_probe(xz, xz_len) == DECOMPRESS_XZ);
                    if ( decompress(xz, xz_len, out, sizes[s], &n, &why) )
                        printf("     %s, kind %u, %zu bytes: %s\n", tools[t],
                               kind, sizes[s], why);
                    CHECK_EQ(n, sizes[s]);
                    CHECK(!memcmp(out, data, sizes[s]));
                    if ( sizes[s] )
                        CHECK(unxz(xz, xz_len, out, sizes[s] - 1, &n, &why));
                }
                free(xz);
                free(out);
                free(data);
            }
}

/* x86 code-like data: E8/E9 with small targets, as BCJ converts. */
static void bcj_vectors(void)
{
    size_t len = 200000, i, xz_len, n;
    uint8_t *data = make_data(2, len), *xz, *out = malloc(len);
    const char *why = NULL;

    for ( i = 0; i + 5 < len; i += 7 )
    {
        data[i] = 0xe8 | (i & 1);
        data[i + 4] = i & 8 ? 0xff : 0x00;
    }
    xz = compress_with("xz -c --check=crc32 --x86 --lzma2", data, len,
                       &xz_len);
    CHECK(xz);
    if ( xz )
    {
        CHECK(!unxz(xz, xz_len, out, len, &n, &why) && n == len);
        CHECK(!memcmp(out, data, len));
    }
    free(xz);
    free(out);
    free(data);
}

static void truncated_and_corrupted(void)
{
    size_t len = 20000, xz_len, n, cut;
    uint8_t *data = make_data(3, len), *xz, *in, *out = malloc(len);
    const char *why;

    xz = compress_with("xz -c --check=crc32 --x86 --lzma2", data, len,
                       &xz_len);
    CHECK(xz);
    for ( cut = 0; xz && cut < xz_len; cut++ )
    {
        in = malloc(cut ? cut : 1);
        memcpy(in, xz, cut);
        why = NULL;
        CHECK(unxz(in, cut, out, len, &n, &why) && why);
        free(in);
    }
    for ( cut = 0; xz && cut < xz_len; cut++ )
    {
        xz[cut] ^= 0x21;
        why = NULL;
        CHECK(unxz(xz, xz_len, out, len, &n, &why) && why);
        xz[cut] ^= 0x21;
    }
    free(xz);
    free(out);
    free(data);
}

static void refusals(void)
{
    static const uint8_t empty[] = { 0 };
    uint8_t *xz, *out = malloc(16);
    size_t xz_len, n;
    const char *why = NULL;

    CHECK(unxz(empty, 0, out, 16, &n, &why));
    CHECK_STR(why, "no xz stream header");
    xz = compress_with("xz -c --check=sha256", (const uint8_t *)"abc", 3,
                       &xz_len);
    CHECK(xz);
    if ( xz )
    {
        CHECK(unxz(xz, xz_len, out, 16, &n, &why));
        CHECK_STR(why, "xz check type not supported (none, CRC-32, CRC-64)");
    }
    free(xz);
    xz = compress_with("xz -c --check=crc32 --delta --lzma2",
                       (const uint8_t *)"abc", 3, &xz_len);
    CHECK(xz);
    if ( xz )
    {
        CHECK(unxz(xz, xz_len, out, 16, &n, &why));
        CHECK_STR(why, "xz filter not supported (x86 BCJ + LZMA2 is)");
    }
    free(xz);
    free(out);
}

int main(int argc, char **argv)
{
    if ( argc == 3 && !strcmp(argv[1], "--write-corpus") )
    {
        write_fuzz_corpus(argv[2], "xz -c --check=crc32 --x86 --lzma2",
                          "xz");
        return 0;
    }
    RUN(tool_vectors);
    RUN(bcj_vectors);
    RUN(truncated_and_corrupted);
    RUN(refusals);
    UNIT_EXIT();
}
