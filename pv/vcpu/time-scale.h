/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The PV clock's TSC-to-ns scale, as vcpu_time_info carries it
 * (tsc_to_system_mul, tsc_shift) and Xen's set_time_scale() computes it:
 * ns = ((ticks << shift, or >> -shift) * mul) >> 32.  Pure arithmetic,
 * tested on the host (tests/unit/test-time-scale.c).
 */
#ifndef PV_TIME_SCALE_H
#define PV_TIME_SCALE_H

#include <stdint.h>

struct time_scale {
    int8_t shift;
    uint32_t mul_frac;
};

#define TIME_SCALE_NS_PER_SEC   1000000000ULL

/* Xen's set_time_scale(): @ticks_per_sec must not be 0. */
static inline struct time_scale time_scale_of(uint64_t ticks_per_sec)
{
    struct time_scale ts;
    uint64_t tps64 = ticks_per_sec;
    uint32_t tps32;
    int shift = 0;

    while ( tps64 > TIME_SCALE_NS_PER_SEC * 2 )
    {
        tps64 >>= 1;
        shift--;
    }
    tps32 = tps64;
    while ( tps32 <= TIME_SCALE_NS_PER_SEC )
    {
        tps32 <<= 1;
        shift++;
    }
    ts.mul_frac = (TIME_SCALE_NS_PER_SEC << 32) / tps32;
    ts.shift = shift;
    return ts;
}

/* What the guest computes from a TSC delta (pvclock's scale_delta). */
static inline uint64_t time_scale_delta(struct time_scale ts, uint64_t delta)
{
    if ( ts.shift < 0 )
        delta >>= -ts.shift;
    else
        delta <<= ts.shift;
    return ((unsigned __int128)delta * ts.mul_frac) >> 32;
}

#endif /* PV_TIME_SCALE_H */
