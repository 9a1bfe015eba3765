/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the DEFLATE and gzip decoders (shim/decompress/inflate.c,
 * gunzip.c): streams from Debian's gzip at every level over zeros, text
 * and noise; hand-made streams for each block type; and one crafted
 * stream per rule that refuses input, plus every truncation and many
 * corruptions of a real one.  Buffers are exactly sized, so ASan reports
 * any overrun.  `test-inflate --write-corpus DIR` writes the fuzzer seeds.
 */
#include "tests/unit/unit.h"
#include "tests/unit/compress-tool.h"

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

/* ------------------------------------------------- a DEFLATE bit writer */

struct bw {
    uint8_t b[4096];
    size_t len;
    unsigned int bit;
};

static void put(struct bw *w, unsigned int v, unsigned int n)
{
    while ( n-- )
    {
        if ( !w->bit )
            w->b[w->len++] = 0;
        w->b[w->len - 1] |= (v & 1) << w->bit;
        w->bit = (w->bit + 1) & 7;
        v >>= 1;
    }
}

/* A Huffman code goes most significant bit first. */
static void put_code(struct bw *w, unsigned int code, unsigned int n)
{
    while ( n-- )
        put(w, (code >> n) & 1, 1);
}

/* A fixed-Huffman literal/length symbol (RFC 1951 3.2.6). */
static void put_fixed(struct bw *w, unsigned int sym)
{
    if ( sym < 144 )
        put_code(w, 0x30 + sym, 8);
    else if ( sym < 256 )
        put_code(w, 0x190 + sym - 144, 9);
    else if ( sym < 280 )
        put_code(w, sym - 256, 7);
    else
        put_code(w, 0xc0 + sym - 280, 8);
}

static int run_raw(const uint8_t *in, size_t len, size_t out_size,
                   uint8_t **out, size_t *out_len, const char **why)
{
    size_t used;

    *out = malloc(out_size ? out_size : 1);
    *why = NULL;
    return inflate(in, len, &used, *out, out_size, out_len, why);
}

static int run_bw(const struct bw *w, size_t out_size, size_t *out_len,
                  const char **why)
{
    uint8_t *in = malloc(w->len), *out;
    int rc;

    memcpy(in, w->b, w->len);
    rc = run_raw(in, w->len, out_size, &out, out_len, why);
    free(in);
    free(out);
    return rc;
}

/* ------------------------------------------------------------ vectors */

static void hand_made_vectors(void)
{
    static const uint8_t a[] = { 0x4b, 0x04, 0x00 };  /* fixed: "a" */
    static const uint8_t hello[] = { 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x57,
                                     0xc8, 0x40, 0x27, 0x01 };
    static const uint8_t empty[] = { 0x03, 0x00 };
    static const uint8_t stored[] = { 0x01, 0x03, 0x00, 0xfc, 0xff,
                                      'a', 'b', 'c' };
    uint8_t *out;
    size_t n;
    const char *why;

    CHECK(!run_raw(a, sizeof(a), 1, &out, &n, &why) && n == 1 &&
          out[0] == 'a');
    free(out);
    CHECK(!run_raw(hello, sizeof(hello), 23, &out, &n, &why) && n == 23 &&
          !memcmp(out, "hello hello hello hello", 23));
    free(out);
    CHECK(!run_raw(empty, sizeof(empty), 0, &out, &n, &why) && n == 0);
    free(out);
    CHECK(!run_raw(stored, sizeof(stored), 3, &out, &n, &why) && n == 3 &&
          !memcmp(out, "abc", 3));
    free(out);
}

static void gzip_tool_vectors(void)
{
    static const size_t sizes[] = { 0, 1, 100, 65535, 65536, 300000 };
    static const char *const tools[] = { "gzip -1nc", "gzip -6nc",
                                         "gzip -9nc" };
    unsigned int kind, s, t;

    for ( kind = 0; kind < 4; kind++ )
        for ( s = 0; s < ARRAY_SIZE(sizes); s++ )
            for ( t = 0; t < ARRAY_SIZE(tools); t++ )
            {
                uint8_t *data = make_data(kind, sizes[s]), *gz, *out;
                size_t gz_len, n;
                const char *why = NULL;

                gz = compress_with(tools[t], data, sizes[s], &gz_len);
                CHECK(gz);
                out = malloc(sizes[s] ? sizes[s] : 1);
                if ( gz )
                {
                    CHECK(!gunzip(gz, gz_len, out, sizes[s], &n, &why));
                    CHECK_EQ(n, sizes[s]);
                    CHECK(!memcmp(out, data, sizes[s]));
                    CHECK(decompress_probe(gz, gz_len) == DECOMPRESS_GZIP);
                    n = 0;
                    CHECK(!decompress(gz, gz_len, out, sizes[s], &n, &why) &&
                          n == sizes[s]);
                }
                free(gz);
                free(out);
                free(data);
            }
}

/* A real gzip stream cut short anywhere, or one byte short of room. */
static void truncated_and_oversized(void)
{
    uint8_t *data = make_data(3, 20000), *gz, *in, *out = malloc(20000);
    size_t gz_len, n, cut;
    const char *why;

    gz = compress_with("gzip -9nc", data, 20000, &gz_len);
    CHECK(gz);
    for ( cut = 0; gz && cut < gz_len; cut++ )
    {
        in = malloc(cut ? cut : 1);
        memcpy(in, gz, cut);
        why = NULL;
        CHECK(gunzip(in, cut, out, 20000, &n, &why) && why);
        free(in);
    }
    if ( gz )
    {
        why = NULL;
        CHECK(gunzip(gz, gz_len, out, 19999, &n, &why));
        CHECK_STR(why, "output larger than announced");
        CHECK(gunzip(gz, gz_len, out, 0, &n, &why));
    }
    free(gz);
    free(out);
    free(data);
}

/* Flip bytes past the unchecked header fields: the CRC catches the rest. */
static void corrupted(void)
{
    uint8_t *data = make_data(1, 5000), *gz, *out = malloc(5000);
    size_t gz_len, n, i;
    const char *why;

    gz = compress_with("gzip -6nc", data, 5000, &gz_len);
    CHECK(gz);
    for ( i = 10; gz && i < gz_len; i++ )
    {
        gz[i] ^= 0x5a;
        why = NULL;
        CHECK(gunzip(gz, gz_len, out, 5000, &n, &why) && why);
        gz[i] ^= 0x5a;
    }
    free(gz);
    free(out);
    free(data);
}

static void zero_length(void)
{
    uint8_t *out = malloc(16);
    size_t n;
    const char *why = NULL;

    CHECK(gunzip(out, 0, out, 16, &n, &why));
    CHECK_STR(why, "no gzip header");
    why = NULL;
    CHECK(inflate(out, 0, &n, out, 16, &n, &why));
    CHECK_STR(why, "deflate stream truncated");
    CHECK(decompress(out, 0, out, 16, &n, &why));
    free(out);
}

/* One crafted stream per refusal. */
static void refusals(void)
{
    struct bw w;
    size_t n;
    const char *why;

#define STREAM(size, expect, ...) do {                                     \
        memset(&w, 0, sizeof(w));                                          \
        __VA_ARGS__;                                                       \
        CHECK(run_bw(&w, size, &n, &why));                                 \
        CHECK_STR(why ? why : "", expect);                                 \
    } while ( 0 )

    /* Block type 3. */
    STREAM(16, "invalid deflate block type", put(&w, 1, 1); put(&w, 3, 2));
    /* A match at the very start: nothing to refer back to. */
    STREAM(64, "back-reference before the start of the output",
           put(&w, 1, 1); put(&w, 1, 2); put_fixed(&w, 257);
           put_code(&w, 0, 5));
    /* One literal, then distance 2. */
    STREAM(64, "back-reference before the start of the output",
           put(&w, 1, 1); put(&w, 1, 2); put_fixed(&w, 'x');
           put_fixed(&w, 257); put_code(&w, 1, 5));
    /* Length symbols 286 and 287 never occur. */
    STREAM(64, "invalid length code",
           put(&w, 1, 1); put(&w, 1, 2); put_fixed(&w, 'x');
           put_fixed(&w, 286));
    /* Distance codes 30 and 31 never occur. */
    STREAM(64, "invalid distance code",
           put(&w, 1, 1); put(&w, 1, 2); put_fixed(&w, 'x');
           put_fixed(&w, 257); put_code(&w, 30, 5));
    /* Huge lengths: 258-byte matches past the room there is. */
    STREAM(300, "output larger than announced",
           put(&w, 1, 1); put(&w, 1, 2); put_fixed(&w, 'x');
           put_fixed(&w, 285); put_code(&w, 0, 5);
           put_fixed(&w, 285); put_code(&w, 0, 5));
    /* A stored block whose NLEN is no complement. */
    STREAM(16, "stored block length check failed",
           put(&w, 1, 1); put(&w, 0, 2); put(&w, 0, 5);
           put(&w, 3, 16); put(&w, 3, 16));
    /* A stored block longer than the stream. */
    STREAM(70000, "deflate stream truncated",
           put(&w, 1, 1); put(&w, 0, 2); put(&w, 0, 5);
           put(&w, 0xffff, 16); put(&w, 0, 16));
    /* No end-of-block: the stream just stops. */
    STREAM(64, "deflate stream truncated",
           put(&w, 1, 1); put(&w, 1, 2); put_fixed(&w, 'x'));
    /* Dynamic: too many length codes (HLIT 30 -> 287). */
    STREAM(64, "too many length or distance codes",
           put(&w, 1, 1); put(&w, 2, 2); put(&w, 30, 5); put(&w, 0, 5);
           put(&w, 0, 4));
    /* Dynamic: code-length code with five 1-bit codes. */
    STREAM(64, "over-subscribed Huffman code",
           put(&w, 1, 1); put(&w, 2, 2); put(&w, 0, 5); put(&w, 0, 5);
           put(&w, 1, 4); put(&w, 1, 3); put(&w, 1, 3); put(&w, 1, 3);
           put(&w, 1, 3); put(&w, 1, 3));
    /* Dynamic: repeat-previous (16) as the very first length. */
    STREAM(64, "repeat with no previous length",
           put(&w, 1, 1); put(&w, 2, 2); put(&w, 0, 5); put(&w, 0, 5);
           put(&w, 0, 4);
           /* symbols 16 and 17 get 1-bit codes: 16 is "0", 17 is "1" */
           put(&w, 1, 3); put(&w, 1, 3); put(&w, 0, 3); put(&w, 0, 3);
           put_code(&w, 0, 1));
    /* Dynamic: zero runs (18) past HLIT + HDIST. */
    STREAM(64, "code lengths repeat past their end",
           put(&w, 1, 1); put(&w, 2, 2); put(&w, 0, 5); put(&w, 0, 5);
           put(&w, 0, 4);
           put(&w, 0, 3); put(&w, 1, 3); put(&w, 1, 3); put(&w, 0, 3);
           put_code(&w, 1, 1); put(&w, 127, 7);     /* 138 zeros */
           put_code(&w, 1, 1); put(&w, 127, 7));    /* 138 more: > 258 */
    /* Dynamic: every length zero, so no end-of-block code. */
    STREAM(64, "no end-of-block code",
           put(&w, 1, 1); put(&w, 2, 2); put(&w, 0, 5); put(&w, 0, 5);
           put(&w, 0, 4);
           put(&w, 0, 3); put(&w, 1, 3); put(&w, 1, 3); put(&w, 0, 3);
           put_code(&w, 1, 1); put(&w, 127, 7);     /* 138 zeros */
           put_code(&w, 1, 1); put(&w, 109, 7));    /* 120: 258 in all */
#undef STREAM
}

static void gzip_headers(void)
{
    uint8_t *data = make_data(1, 100), *gz, *in, *out = malloc(100);
    size_t gz_len, n;
    const char *why = NULL;

    gz = compress_with("gzip -9nc", data, 100, &gz_len);
    CHECK(gz);
    if ( gz )
    {
        gz[2] = 7;
        CHECK(gunzip(gz, gz_len, out, 100, &n, &why));
        CHECK_STR(why, "gzip compression method is not deflate");
        gz[2] = 8;
        gz[3] = 0x20;
        CHECK(gunzip(gz, gz_len, out, 100, &n, &why));
        CHECK_STR(why, "gzip header has reserved flags set");
        /* FNAME with no NUL in the whole stream after it. */
        in = malloc(12);
        memcpy(in, gz, 10);
        in[3] = FNAME;
        in[10] = in[11] = 'x';
        CHECK(gunzip(in, 12, out, 100, &n, &why));
        CHECK_STR(why, "gzip header truncated");
        /* FEXTRA longer than the stream. */
        in[3] = FEXTRA;
        in[10] = 0xff;
        in[11] = 0xff;
        CHECK(gunzip(in, 12, out, 100, &n, &why));
        CHECK_STR(why, "gzip header truncated");
        free(in);
        /* ISIZE wrong, CRC right. */
        gz[3] = 0;
        gz[gz_len - 1] ^= 1;
        CHECK(gunzip(gz, gz_len, out, 100, &n, &why));
        CHECK_STR(why, "gzip ISIZE mismatch");
    }
    free(gz);
    free(out);
    free(data);
}

/* With FNAME and FHCRC set, as `gzip` without -n and zlib can write. */
static void gzip_optional_fields(void)
{
    uint8_t *data = make_data(1, 1000), *gz, *in, *out = malloc(1000);
    size_t gz_len, n;
    const char *why = NULL;
    uint32_t crc;

    gz = compress_with("gzip -9nc", data, 1000, &gz_len);
    CHECK(gz);
    if ( gz )
    {
        in = malloc(gz_len + 8);
        memcpy(in, gz, 10);
        in[3] = FNAME | FHCRC;
        memcpy(in + 10, "name\0", 5);
        crc = crc32(0, in, 15);
        in[15] = crc;
        in[16] = crc >> 8;
        memcpy(in + 17, gz + 10, gz_len - 10);
        CHECK(!gunzip(in, gz_len + 7, out, 1000, &n, &why) && n == 1000);
        in[15] ^= 1;
        CHECK(gunzip(in, gz_len + 7, out, 1000, &n, &why));
        CHECK_STR(why, "gzip header CRC mismatch");
        free(in);
    }
    free(gz);
    free(out);
    free(data);
}

int main(int argc, char **argv)
{
    if ( argc == 3 && !strcmp(argv[1], "--write-corpus") )
    {
        write_fuzz_corpus(argv[2], "gzip -9nc", "gz");
        return 0;
    }
    RUN(hand_made_vectors);
    RUN(gzip_tool_vectors);
    RUN(truncated_and_oversized);
    RUN(corrupted);
    RUN(zero_length);
    RUN(refusals);
    RUN(gzip_headers);
    RUN(gzip_optional_fields);
    UNIT_EXIT();
}
