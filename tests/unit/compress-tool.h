/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Test vectors made at test time by Debian's own compressors (gzip, lz4):
 * compress_with("gzip -9nc", data, len, &out_len) runs the tool on a file
 * under build/unit/ and returns its output (malloc'd, exactly sized so
 * ASan sees any overread), or NULL if the tool is missing.
 */
#ifndef TESTS_UNIT_COMPRESS_TOOL_H
#define TESTS_UNIT_COMPRESS_TOOL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint8_t *compress_with(const char *tool, const uint8_t *in, size_t len,
                              size_t *out_len)
{
    char path[] = "build/unit/vector-XXXXXX", cmd[256];
    uint8_t buf[65536], *out = NULL, *grown;
    size_t n, size = 0;
    FILE *f, *p;
    int fd = mkstemp(path);

    if ( fd < 0 || !(f = fdopen(fd, "wb")) )
        return NULL;
    if ( fwrite(in, 1, len, f) != len )
        len = ~(size_t)0;
    fclose(f);
    snprintf(cmd, sizeof(cmd), "%s < %s 2>/dev/null", tool, path);
    p = len == ~(size_t)0 ? NULL : popen(cmd, "r");
    while ( p && (n = fread(buf, 1, sizeof(buf), p)) )
    {
        if ( !(grown = realloc(out, size + n)) )
            break;
        out = grown;
        memcpy(out + size, buf, n);
        size += n;
    }
    if ( p && pclose(p) )
    {
        free(out);
        out = NULL;
    }
    unlink(path);
    *out_len = size;
    return out;
}

/* Reproducible test data: zeros, text, noise, and a mixture. */
static uint8_t *make_data(unsigned int kind, size_t len)
{
    uint8_t *d = malloc(len ? len : 1);
    uint32_t x = 12345 + kind;
    size_t i;
    static const char words[] = "the quick brown fox jumps over the lazy "
                                "dog; pack my box with five dozen jugs ";

    for ( i = 0; i < len; i++ )
    {
        x = x * 1103515245 + 12345;
        switch ( kind )
        {
        case 0: d[i] = 0; break;
        case 1: d[i] = words[(i * 7 + (i >> 9)) % (sizeof(words) - 1)]; break;
        case 2: d[i] = x >> 16; break;
        default: d[i] = (i >> 12) & 1 ? (uint8_t)(x >> 16)
                                      : (uint8_t)words[i % 40]; break;
        }
    }
    return d;
}

/*
 * `test-X --write-corpus DIR`: the seed corpus of fuzz-X, the four kinds
 * of 3000 bytes compressed by @tool into DIR/kindN.@ext, each behind the
 * harness's two bytes of output size (3000, little-endian).
 */
static __attribute__((unused)) void
write_fuzz_corpus(const char *dir, const char *tool,
                  const char *ext)
{
    static const uint8_t out_size[2] = { 3000 & 0xff, 3000 >> 8 };
    char path[1024];
    unsigned int kind;

    for ( kind = 0; kind < 4; kind++ )
    {
        uint8_t *data = make_data(kind, 3000), *z;
        size_t zlen;
        FILE *f;

        z = compress_with(tool, data, 3000, &zlen);
        snprintf(path, sizeof(path), "%s/kind%u.%s", dir, kind, ext);
        if ( !z || !(f = fopen(path, "wb")) )
            exit(1);
        fwrite(out_size, 1, sizeof(out_size), f);
        fwrite(z, 1, zlen, f);
        fclose(f);
        free(z);
        free(data);
    }
}

#endif /* TESTS_UNIT_COMPRESS_TOOL_H */
