/* SPDX-License-Identifier: GPL-2.0-only */
/* The TSC as the shim's clock. */
#ifndef ARCH_X86_TIME_H
#define ARCH_X86_TIME_H

#include "shim/lib.h"

static inline uint64_t rdtsc(void)
{
    uint32_t lo, hi;

    asm volatile ( "rdtsc" : "=a" (lo), "=d" (hi) );
    return ((uint64_t)hi << 32) | lo;
}

/* The TSC, and TSC_AUX in *@aux (a CPU with rdtscp). */
static inline uint64_t rdtscp(uint32_t *aux)
{
    uint32_t lo, hi;

    asm volatile ( "rdtscp" : "=a" (lo), "=d" (hi), "=c" (*aux) );
    return ((uint64_t)hi << 32) | lo;
}

/* Measure the TSC against the PIT; until then, time reads as 0. */
void time_init(void);
/* After acpi_init(): without a PIT, calibrate against the ACPI PM timer. */
void time_calibrate_late(void);
/*
 * A counter's reading taken between two TSC reads: the instant it stands
 * for lies in [before, after].
 */
struct counter_stamp {
    uint32_t count;
    uint64_t before, after;
};

/* How long each run of tsc_time_counter() lasts. */
#define CALIBRATE_MS    20

/* A counter to time against the TSC. */
struct counter {
    /* Set it counting; false: there is no such counter. */
    bool (*start)(unsigned long arg);
    /* Read it, counting up; false: this reading is not to be believed. */
    bool (*read)(struct counter_stamp *s, unsigned long arg);
    unsigned long arg;
    uint32_t mask;              /* its width */
    uint32_t min_ticks;         /* a run lasts this many ticks of it, */
    uint64_t min_tsc;           /* and this many TSC cycles */
};

struct counter_span {
    uint32_t ticks;             /* of the counter, in */
    uint64_t tsc;               /* TSC cycles, */
    uint64_t err;               /* give or take this many */
};

/*
 * Time @c against the TSC, robust to a busy host's stalls: the most
 * precise of a few runs in *@span; false if it does not count
 * (arch/x86/time.c).
 */
bool tsc_time_counter(const struct counter *c, struct counter_span *span);
uint64_t cpu_khz(void);
/*
 * Spin @us microseconds by the TSC (Xen's udelay()); at once if
 * uncalibrated.
 */
void udelay(uint64_t us);
/* Nanoseconds since time_init() started counting. */
uint64_t now_ns(void);
uint64_t tsc_to_ns(uint64_t tsc);
/* The TSC value at which now_ns() reads @ns (for TSC-deadline timers). */
uint64_t ns_to_tsc_abs(uint64_t ns);

#endif /* ARCH_X86_TIME_H */
