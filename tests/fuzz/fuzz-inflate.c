/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer harness for the DEFLATE and gzip decoders
 * (shim/decompress/inflate.c, gunzip.c): the same input as raw DEFLATE,
 * then as a gzip member;
 * tests/fuzz/fuzz-decompress.h says how.
 */
#define FUZZ_NAME "fuzz-inflate"
#include "tests/fuzz/fuzz-decompress.h"

static void fuzz_decode(const uint8_t *data, size_t size, uint8_t *out,
                   size_t out_size)
{
    const char *why = NULL;
    size_t used, n;

    check(inflate(data, size, &used, out, out_size, &n, &why), why, n,
          out_size);
    FUZZ_ASSERT(used <= size);
    why = NULL;
    check(gunzip(data, size, out, out_size, &n, &why), why, n, out_size);
}
