/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The common part of the decompressor fuzz harnesses (fuzz-inflate.c,
 * fuzz-lz4.c, fuzz-xz.c, fuzz-zstd.c): every decoder compiled in, and a
 * check that a run either decoded within its exactly sized output buffer
 * or was refused with a message.  The first two bytes of an input choose
 * the output's size (so output limits are hit too), the rest is the
 * stream; ASan/UBSan watch every byte read and written.  A harness defines
 * FUZZ_NAME and fuzz_decode(), then includes this.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

#define FUZZ_ASSERT(cond) do {                                             \
    if ( !(cond) )                                                         \
    {                                                                      \
        fprintf(stderr, FUZZ_NAME ": %s:%d: %s\n", __FILE__, __LINE__,    \
                #cond);                                                    \
        abort();                                                           \
    }                                                                      \
} while ( 0 )

static void check(int rc, const char *why, size_t n, size_t out_size)
{
    FUZZ_ASSERT(rc == 0 || (rc == -1 && why && why[0]));
    FUZZ_ASSERT(n <= out_size);
}

/* The harness's decoder(s) over one input; it calls check() itself. */
static void fuzz_decode(const uint8_t *data, size_t size, uint8_t *out,
                   size_t out_size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t out_size;
    uint8_t *out;

    if ( size < 2 )
        return 0;
    out_size = data[0] | (data[1] << 8);
    out = malloc(out_size ? out_size : 1);
    fuzz_decode(data + 2, size - 2, out, out_size);
    free(out);
    return 0;
}
