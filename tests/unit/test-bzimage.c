/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of bzImage parsing (pv/build/bzimage.c): images built in
 * memory around gzip and LZ4 payloads, valid ones and one per hostile
 * header (payload offsets and lengths outside the image or overflowing,
 * bad trailers, setup_sects 0, old protocols, no bzImage at all).
 * `test-bzimage --write-corpus DIR` writes the fuzzer's seeds.
 */
#include "tests/unit/unit.h"

/* SPEC() gives defaults that a case then overrides. */
#pragma GCC diagnostic ignored "-Woverride-init"

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
#include "pv/build/bzimage.c"

#include "tests/unit/compress-tool.h"

#define KERNEL_LEN  5000

struct bz_spec {
    const char *tool;               /* "gzip -9nc", "lz4 -l -9 -q -c" */
    unsigned int setup_sects, version, boot_flag;
    uint32_t payload_offset;        /* added to the real one */
    int64_t length_delta;           /* added to payload_length */
    bool set_length;
    uint32_t length;                /* or this instead */
    bool set_trailer;
    uint32_t trailer;
    size_t truncate;                /* cut the image to this, if set */
};

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = v;
    p[1] = v >> 8;
    p[2] = v >> 16;
    p[3] = v >> 24;
}

/* An image of @s around KERNEL_LEN bytes of text: malloc'd, exact size. */
static uint8_t *build_image(const struct bz_spec *s, size_t *size)
{
    uint8_t *kern = make_data(1, KERNEL_LEN), *c, *img;
    size_t c_len, setup, plen, total;
    bool gzip = !strncmp(s->tool, "gzip", 4);   /* else Linux's trailer */

    c = compress_with(s->tool, kern, KERNEL_LEN, &c_len);
    if ( !c )
        abort();
    plen = c_len + (gzip ? 0 : 4);
    setup = ((s->setup_sects ? s->setup_sects : 4) + 1) * 512;
    total = setup + s->payload_offset + plen;
    img = calloc(1, total);
    img[0x1f1] = s->setup_sects;
    img[0x1fe] = s->boot_flag;
    img[0x1ff] = s->boot_flag >> 8;
    memcpy(img + 0x202, "HdrS", 4);
    img[0x206] = s->version;
    img[0x207] = s->version >> 8;
    put32(img + 0x248, s->payload_offset);
    put32(img + 0x24c, s->set_length ? s->length : plen + s->length_delta);
    memcpy(img + setup + s->payload_offset, c, c_len);
    if ( !gzip )
        put32(img + total - 4, KERNEL_LEN);
    if ( s->set_trailer )
        put32(img + total - 4, s->trailer);
    *size = s->truncate ? s->truncate : total;
    free(c);
    free(kern);
    return img;
}

#define SPEC(t, ...) ((struct bz_spec){ .tool = (t), .setup_sects = 1,    \
                      .version = 0x20f, .boot_flag = 0xaa55, __VA_ARGS__ })
#define GZ  "gzip -9nc"
#define LZ  "lz4 -l -9 -q -c"

/* Parse and decompress: 0, or the first refusal's message. */
static const char *try(struct bz_spec s, int want_parse)
{
    static char msg[200];
    uint8_t *img, *out;
    size_t size;
    struct pv_bzimage bz;
    const char *why = NULL;
    int rc;

    img = build_image(&s, &size);
    rc = pv_bzimage_parse(img, size, &bz, &why);
    if ( rc != want_parse )
        snprintf(msg, sizeof(msg), "parse returned %d", rc);
    else if ( rc )
        snprintf(msg, sizeof(msg), "%s", why ? why : "(no message)");
    else
    {
        out = malloc(bz.kernel_len);
        if ( pv_bzimage_decompress(&bz, out, &why) )
            snprintf(msg, sizeof(msg), "%s", why);
        else if ( bz.kernel_len != KERNEL_LEN )
            snprintf(msg, sizeof(msg), "wrong size");
        else
        {
            uint8_t *kern = make_data(1, KERNEL_LEN);

            snprintf(msg, sizeof(msg), "%s", memcmp(out, kern, KERNEL_LEN)
                     ? "wrong contents" : "ok");
            free(kern);
        }
        free(out);
    }
    free(img);
    return msg;
}

static void valid(void)
{
    CHECK_STR(try(SPEC(GZ), 0), "ok");
    CHECK_STR(try(SPEC(LZ), 0), "ok");
    CHECK_STR(try(SPEC(LZ, .setup_sects = 30), 0), "ok");
    CHECK_STR(try(SPEC(GZ, .payload_offset = 1000), 0), "ok");
    CHECK_STR(try(SPEC(LZ, .version = 0x208), 0), "ok");
}

/* setup_sects 0 means 4 (boot.rst): the payload is after 5 sectors. */
static void setup_sects_zero(void)
{
    CHECK_STR(try(SPEC(LZ, .setup_sects = 0), 0), "ok");
    CHECK_STR(try(SPEC(GZ, .setup_sects = 0), 0), "ok");
}

static void not_a_bzimage(void)
{
    static const uint8_t elf[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
    uint8_t *img = malloc(0x205);
    struct pv_bzimage bz;
    const char *why = NULL;

    CHECK_EQ(pv_bzimage_parse(elf, sizeof(elf), &bz, &why), 1);
    CHECK_EQ(pv_bzimage_parse(elf, 0, &bz, &why), 1);
    memset(img, 0, 0x205);
    memcpy(img + 0x202, "HdrS", 3);         /* the image ends mid-magic */
    CHECK_EQ(pv_bzimage_parse(img, 0x205, &bz, &why), 1);
    free(img);
    CHECK(!why);
}

static void hostile_headers(void)
{
    CHECK_STR(try(SPEC(LZ, .truncate = 0x230), -1),
              "bzImage setup header truncated");
    CHECK_STR(try(SPEC(LZ, .boot_flag = 0x55aa), -1),
              "bzImage has no boot sector signature");
    CHECK_STR(try(SPEC(LZ, .version = 0x207), -1),
              "bzImage boot protocol older than 2.08 (no payload fields)");
    CHECK_STR(try(SPEC(LZ, .length_delta = 1), -1),
              "bzImage payload lies outside the image");
    CHECK_STR(try(SPEC(LZ, .set_length = true, .length = 0xffffffff), -1),
              "bzImage payload lies outside the image");
    CHECK_STR(try(SPEC(GZ, .setup_sects = 255), 0), "ok");
    CHECK_STR(try(SPEC(LZ, .truncate = 1100), -1),
              "bzImage payload lies outside the image");
    CHECK_STR(try(SPEC(LZ, .set_length = true, .length = 4), -1),
              "bzImage payload too short");
    CHECK_STR(try(SPEC(LZ, .set_length = true, .length = 0), -1),
              "bzImage payload too short");
}

/* payload_offset near 4 GiB must not wrap the image's bounds. */
static void offset_overflow(void)
{
    struct bz_spec s = SPEC(LZ);
    uint8_t *img;
    size_t size;
    struct pv_bzimage bz;
    const char *why = NULL;

    img = build_image(&s, &size);
    put32(img + 0x248, 0xffffffff);
    CHECK_EQ(pv_bzimage_parse(img, size, &bz, &why), -1);
    CHECK_STR(why, "bzImage payload lies outside the image");
    put32(img + 0x248, 0xfffffe00);
    put32(img + 0x24c, 0x300);
    CHECK_EQ(pv_bzimage_parse(img, size, &bz, &why), -1);
    free(img);
}

static void bad_trailers(void)
{
    CHECK_STR(try(SPEC(LZ, .set_trailer = true, .trailer = 0), -1),
              "bzImage payload's uncompressed size is absurd "
              "(zero or over 256 MiB)");
    CHECK_STR(try(SPEC(LZ, .set_trailer = true, .trailer = 0xffffffff), -1),
              "bzImage payload's uncompressed size is absurd "
              "(zero or over 256 MiB)");
    CHECK_STR(try(SPEC(LZ, .set_trailer = true,
                       .trailer = KERNEL_LEN - 1), 0),
              "output larger than announced");
    CHECK_STR(try(SPEC(LZ, .set_trailer = true,
                       .trailer = KERNEL_LEN + 1), 0),
              "bzImage payload is shorter than its trailer says");
    /* gzip: the trailer is its ISIZE, so a change breaks the stream. */
    CHECK_STR(try(SPEC(GZ, .set_trailer = true,
                       .trailer = KERNEL_LEN + 1), 0),
              "gzip ISIZE mismatch");
}

static void xz_zstd_and_unsupported(void)
{
    CHECK_STR(try(SPEC("xz --check=crc32 --x86 --lzma2 -c"), 0), "ok");
    CHECK_STR(try(SPEC("zstd -19 -q -c"), 0), "ok");
    CHECK_STR(try(SPEC("bzip2 -9 -c", .set_trailer = true,
                       .trailer = KERNEL_LEN), 0),
              "compression format not supported (gzip, lz4, xz and zstd are)");
    CHECK_STR(try(SPEC("cat", .set_trailer = true, .trailer = KERNEL_LEN),
                  -1),
              "bzImage payload in an unknown compression format");
}

static void write_corpus(const char *dir)
{
    static const struct { const char *name; struct bz_spec s; } seeds[] = {
        { "gzip", SPEC(GZ) },
        { "lz4", SPEC(LZ) },
        { "xz", SPEC("xz --check=crc32 --x86 --lzma2 -c") },
        { "zstd", SPEC("zstd -19 -q -c") },
        { "sects0", SPEC(LZ, .setup_sects = 0) },
        { "offset", SPEC(GZ, .payload_offset = 100) },
    };
    char path[512];
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(seeds); i++ )
    {
        size_t size;
        uint8_t *img = build_image(&seeds[i].s, &size);
        FILE *f;

        snprintf(path, sizeof(path), "%s/%s.bz", dir, seeds[i].name);
        if ( !(f = fopen(path, "wb")) || fwrite(img, 1, size, f) != size )
            exit(1);
        fclose(f);
        free(img);
    }
}

int main(int argc, char **argv)
{
    if ( argc == 3 && !strcmp(argv[1], "--write-corpus") )
    {
        write_corpus(argv[2]);
        return 0;
    }
    RUN(valid);
    RUN(setup_sects_zero);
    RUN(not_a_bzimage);
    RUN(hostile_headers);
    RUN(offset_overflow);
    RUN(bad_trailers);
    RUN(xz_zstd_and_unsupported);
    UNIT_EXIT();
}
