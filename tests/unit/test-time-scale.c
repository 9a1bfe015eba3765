/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of pv/vcpu/time-scale.h: Xen's set_time_scale() for TSC rates
 * from 1 MHz to 20 GHz gives a scale whose second is a second (to within
 * the 32-bit fraction's precision), whose conversion never goes back, and
 * whose shifted rate lands in (1e9, 2e9] ticks as Xen's does.
 */
#include "tests/unit/unit.h"
#include "pv/vcpu/time-scale.h"

static const uint64_t rates[] = {
    1000000ULL, 14318180ULL, 1000000000ULL, 1000000001ULL, 1018856000ULL,
    2000000000ULL, 2000000001ULL, 2599160000ULL, 3700000000ULL,
    4294967295ULL, 4294967296ULL, 20000000000ULL,
};

static void one_second(void)
{
    unsigned int i;

    for ( i = 0; i < sizeof(rates) / sizeof(rates[0]); i++ )
    {
        struct time_scale ts = time_scale_of(rates[i]);
        uint64_t ns = time_scale_delta(ts, rates[i]);
        int64_t err = (int64_t)ns - 1000000000LL;

        /* Fraction and pre-shift truncation: well under 1 ppm. */
        CHECK(err <= 0 && err > -1000);
        CHECK(ts.shift >= -32 && ts.shift <= 32);
        CHECK(ts.mul_frac >= 0x80000000u);      /* 1e9 / (1e9, 2e9] */
    }
}

static void xen_values(void)
{
    /* 1 GHz: 1e9 is not > 1e9, so doubled once: mul 2^31, shift 1. */
    struct time_scale ts = time_scale_of(1000000000ULL);

    CHECK_EQ(ts.shift, 1);
    CHECK_EQ(ts.mul_frac, 0x80000000u);
    /* 2.6 GHz: halved once to 1.3e9. */
    ts = time_scale_of(2600000000ULL);
    CHECK_EQ(ts.shift, -1);
    CHECK_EQ(ts.mul_frac, (uint32_t)((1000000000ULL << 32) / 1300000000ULL));
}

static void monotonic(void)
{
    struct time_scale ts = time_scale_of(2599160000ULL);
    uint64_t prev = 0, d, v;

    for ( d = 0; d < 200000; d++ )
    {
        v = time_scale_delta(ts, d * 7919);
        CHECK(v >= prev);
        prev = v;
    }
    /* A century of ticks does not overflow the 128-bit product. */
    v = time_scale_delta(ts, 2599160000ULL * 3600 * 24 * 36525);
    CHECK(v / 1000000000ULL >= 3600ULL * 24 * 36525 - 1);
}

int main(void)
{
    RUN(one_second);
    RUN(xen_values);
    RUN(monotonic);
    UNIT_EXIT();
}
