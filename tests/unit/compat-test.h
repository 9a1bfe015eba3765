/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the compat tests share: the 32-bit fixtures linked in from
 * compat-fixtures32.c (fx32_x, fx32_x_size), a byte comparison that names
 * the first byte that differs, exact-size heap copies, so ASan stops a
 * translation that reads or writes past a compat structure's end, and
 * FROM/TO, which run a translation on a fixture.
 */
#ifndef TESTS_UNIT_COMPAT_TEST_H
#define TESTS_UNIT_COMPAT_TEST_H

#include "tests/unit/unit.h"
#include <stdint.h>
#include <xen/xen.h>
#include <xen/callback.h>
#include <xen/event_channel.h>
#include <xen/grant_table.h>
#include <xen/memory.h>
#include <xen/physdev.h>
#include <xen/sched.h>
#include <xen/vcpu.h>
#include <xen/version.h>
#include "tests/unit/compat-fixtures.h"

#define FX32_DECLARE(type, name)                                        \
    extern const uint8_t fx32_##name[];                                 \
    extern const uint32_t fx32_##name##_size;
COMPAT_FIXTURES(FX32_DECLARE)
COMPAT_SAME_FIXTURES(FX32_DECLARE)

/* @len bytes of @got are those of @want; else say which first differs. */
static inline void check_bytes(const char *what, const void *got,
                               const void *want, size_t len)
{
    const uint8_t *g = got, *w = want;
    size_t i;

    for ( i = 0; i < len; i++ )
        if ( g[i] != w[i] )
        {
            printf("FAIL: %s: %s: byte %zu of %zu is %#x, want %#x\n",
                   unit_case_name, what, i, len, g[i], w[i]);
            unit_case_failed = 1;
            return;
        }
}

/* A heap copy of exactly @len bytes (freed by the caller). */
static inline void *dup_exact(const void *p, size_t len)
{
    void *q = malloc(len);

    if ( !q )
        abort();
    memcpy(q, p, len);
    return q;
}

/*
 * FROM: fx32_name, in a heap block of its exact -m32 size, translated
 * over a native structure full of junk, must give FX64_name byte for
 * byte (padding zeroed).  TO: FX64_name translated into an exact-size
 * block full of junk must give fx32_name's bytes (and return 0).
 */
#define FROM(fn, type, name) do {                                       \
    static const type want_ = FX64_##name;                              \
    void *c_ = dup_exact(fx32_##name, fx32_##name##_size);              \
    type n_;                                                            \
                                                                        \
    memset(&n_, 0xa5, sizeof(n_));                                      \
    fn(&n_, c_);                                                        \
    check_bytes(#fn, &n_, &want_, sizeof(n_));                          \
    free(c_);                                                           \
} while ( 0 )

#define TO_CALL(call, type, name) do {                                  \
    static const type n_ = FX64_##name;                                 \
    uint8_t *c_ = malloc(fx32_##name##_size);                           \
                                                                        \
    memset(c_, 0xa5, fx32_##name##_size);                               \
    call;                                                               \
    check_bytes(#name, c_, fx32_##name, fx32_##name##_size);            \
    free(c_);                                                           \
} while ( 0 )
#define TO(fn, type, name)      TO_CALL(CHECK_EQ(fn(c_, &n_), 0), type, name)
#define TO_VOID(fn, type, name) TO_CALL(fn(c_, &n_), type, name)

#endif /* TESTS_UNIT_COMPAT_TEST_H */
