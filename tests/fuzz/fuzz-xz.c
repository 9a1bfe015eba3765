/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer harness for the xz decoder (shim/decompress/unxz.c, unlzma2.c);
 * tests/fuzz/fuzz-decompress.h says how.
 */
#define FUZZ_NAME "fuzz-xz"
#include "tests/fuzz/fuzz-decompress.h"

static void fuzz_decode(const uint8_t *data, size_t size, uint8_t *out,
                   size_t out_size)
{
    const char *why = NULL;
    size_t n;

    check(unxz(data, size, out, out_size, &n, &why), why, n, out_size);
}
