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
 * Run @measure(@arg) (a rate; 0: failed) until three runs agree, robust
 * to a busy host's stalls (arch/x86/time.c).
 */
uint64_t calibrate_agreeing(uint64_t (*measure)(unsigned long),
                            unsigned long arg);
uint64_t cpu_khz(void);
/* Nanoseconds since time_init() started counting. */
uint64_t now_ns(void);
uint64_t tsc_to_ns(uint64_t tsc);
/* The TSC value at which now_ns() reads @ns (for TSC-deadline timers). */
uint64_t ns_to_tsc_abs(uint64_t ns);

#endif /* ARCH_X86_TIME_H */
