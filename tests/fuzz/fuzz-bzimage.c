/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer harness for bzImage parsing (pv/build/bzimage.c) and the
 * decompressors behind it: any image is either not a bzImage, refused
 * with a message, or parsed into a payload that lies inside the image and
 * then decompressed (when its announced size is under 1 MiB) into a
 * buffer of exactly that size.
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
#include "pv/build/bzimage.c"

#define FUZZ_ASSERT(cond) do {                                             \
    if ( !(cond) )                                                         \
    {                                                                      \
        fprintf(stderr, "fuzz-bzimage: %s:%d: %s\n", __FILE__, __LINE__,   \
                #cond);                                                    \
        abort();                                                           \
    }                                                                      \
} while ( 0 )

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct pv_bzimage bz;
    const char *why = NULL;
    uint8_t *out;
    int rc = pv_bzimage_parse(data, size, &bz, &why);

    if ( rc )
    {
        FUZZ_ASSERT(rc == 1 || (rc == -1 && why && why[0]));
        return 0;
    }
    FUZZ_ASSERT(bz.stream >= data && bz.stream_len <= size &&
                (size_t)(bz.stream - data) <= size - bz.stream_len);
    FUZZ_ASSERT(bz.kernel_len && bz.kernel_len <= PV_BZIMAGE_MAX_KERNEL);
    if ( bz.kernel_len > (1u << 20) )
        return 0;
    out = malloc(bz.kernel_len);
    rc = pv_bzimage_decompress(&bz, out, &why);
    FUZZ_ASSERT(rc == 0 || (rc == -1 && why && why[0]));
    free(out);
    return 0;
}
