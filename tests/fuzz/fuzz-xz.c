/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer harness for the xz decoder (shim/decompress/unxz.c,
 * unlzma2.c): the first two bytes choose the output's size (so output
 * limits are hit too), the rest is the stream.  Any input is either decoded within the
 * exactly sized output buffer or refused with a message; ASan/UBSan watch
 * every byte read and written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        fprintf(stderr, "fuzz-xz: %s:%d: %s\n", __FILE__, __LINE__,       \
                #cond);                                                    \
        abort();                                                           \
    }                                                                      \
} while ( 0 )

static void check(int rc, const char *why, size_t n, size_t out_size)
{
    FUZZ_ASSERT(rc == 0 || (rc == -1 && why && why[0]));
    FUZZ_ASSERT(n <= out_size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t out_size;
    size_t n;
    const char *why = NULL;
    uint8_t *out;
    int rc;

    if ( size < 2 )
        return 0;
    out_size = data[0] | (data[1] << 8);
    data += 2;
    size -= 2;
    out = malloc(out_size ? out_size : 1);
    rc = unxz(data, size, out, out_size, &n, &why);
    check(rc, why, n, out_size);
    free(out);
    return 0;
}
