/* SPDX-License-Identifier: GPL-2.0-only */
/* Seeded random numbers and command-line numbers (fuzz.h). */
#include "fuzz.h"

static uint64_t rng = 1;

void rnd_seed(unsigned long seed)
{
    rng = seed * 0x9e3779b97f4a7c15UL + 1;  /* never the fixed point 0 */
}

/* xorshift64 (Marsaglia). */
uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

unsigned long cmdline_ulong(const char *key, unsigned long def)
{
    const char *p = strstr((const char *)start_info->cmd_line, key);
    unsigned long v = 0;

    if ( !p || p[strlen(key)] != '=' )
        return def;
    for ( p += strlen(key) + 1; *p >= '0' && *p <= '9'; p++ )
        v = v * 10 + *p - '0';
    return v;
}
