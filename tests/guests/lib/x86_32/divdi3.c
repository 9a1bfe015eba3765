/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 64-bit division for a 32-bit guest: gcc calls these libgcc helpers for
 * every `/` or `%` of 64-bit values on i386, and the test kernels link no
 * libgcc (a 32-bit one needs gcc-multilib).  Shift-and-subtract: a few
 * hundred instructions, enough for printf and the tests.
 */
#include <stdint.h>

uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem);
uint64_t __udivdi3(uint64_t n, uint64_t d);
uint64_t __umoddi3(uint64_t n, uint64_t d);
int64_t __divdi3(int64_t n, int64_t d);
int64_t __moddi3(int64_t n, int64_t d);

uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem)
{
    uint64_t q = 0, r = 0;
    int bit;

    if ( d == 0 )
        __builtin_trap();       /* #UD, as a #DE would end the test */

    /* The 32-bit case, the common one, with the CPU's divide. */
    if ( (n >> 32) == 0 && (d >> 32) == 0 )
    {
        q = (uint32_t)n / (uint32_t)d;
        r = (uint32_t)n % (uint32_t)d;
    }
    else
        for ( bit = 63; bit >= 0; bit-- )
        {
            r = (r << 1) | ((n >> bit) & 1);
            if ( r >= d )
            {
                r -= d;
                q |= (uint64_t)1 << bit;
            }
        }

    if ( rem )
        *rem = r;
    return q;
}

uint64_t __udivdi3(uint64_t n, uint64_t d)
{
    return __udivmoddi4(n, d, 0);
}

uint64_t __umoddi3(uint64_t n, uint64_t d)
{
    uint64_t r;

    __udivmoddi4(n, d, &r);
    return r;
}

/* C's signed division truncates toward zero; the remainder has n's sign. */
int64_t __divdi3(int64_t n, int64_t d)
{
    uint64_t q = __udivdi3(n < 0 ? -(uint64_t)n : (uint64_t)n,
                           d < 0 ? -(uint64_t)d : (uint64_t)d);

    return (n < 0) != (d < 0) ? -(int64_t)q : (int64_t)q;
}

int64_t __moddi3(int64_t n, int64_t d)
{
    uint64_t r = __umoddi3(n < 0 ? -(uint64_t)n : (uint64_t)n,
                           d < 0 ? -(uint64_t)d : (uint64_t)d);

    return n < 0 ? -(int64_t)r : (int64_t)r;
}
