/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the libFuzzer harnesses share: FUZZ_ASSERT(), which names the
 * broken promise and aborts, so libFuzzer keeps the input.
 */
#ifndef TESTS_FUZZ_FUZZ_H
#define TESTS_FUZZ_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_ASSERT(cond) do {                                             \
    if ( !(cond) )                                                         \
    {                                                                      \
        fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond);         \
        abort();                                                           \
    }                                                                      \
} while ( 0 )

/* A cursor over the input: the next bytes, zero once it runs out. */
struct fuzz_in {
    const uint8_t *p;
    size_t left;
};

static inline unsigned int fuzz_u8(struct fuzz_in *in)
{
    if ( !in->left )
        return 0;
    in->left--;
    return *in->p++;
}

static inline unsigned int fuzz_u16(struct fuzz_in *in)
{
    return fuzz_u8(in) | fuzz_u8(in) << 8;
}

static inline uint32_t fuzz_u32(struct fuzz_in *in)
{
    return fuzz_u16(in) | (uint32_t)fuzz_u16(in) << 16;
}

#endif /* TESTS_FUZZ_FUZZ_H */
