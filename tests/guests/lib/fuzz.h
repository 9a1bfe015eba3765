/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * For the fuzz and stress guests: a seeded xorshift64 generator (the same
 * sequence for the same seed) and numbers from the guest command line.
 */
#ifndef GUEST_FUZZ_H
#define GUEST_FUZZ_H

#include "guest.h"

/* Start the sequence for @seed (any value, 0 included). */
void rnd_seed(unsigned long seed);
uint64_t rnd(void);
/* Uniform enough below @n (> 0). */
static inline unsigned int rnd_below(unsigned int n)
{
    return rnd() % n;
}
#define PICK(a)     ((a)[rnd_below(ARRAY_SIZE(a))])

/* "key=<decimal>" on the guest command line, or @def. */
unsigned long cmdline_ulong(const char *key, unsigned long def);

#endif /* GUEST_FUZZ_H */
