/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TSC calibration against PIT channel 2 (Intel 8254 data sheet; the gate
 * and output bits of port 0x61 as on every PC), and TSC-to-ns conversion.
 */
#include "arch/x86/io.h"
#include "arch/x86/time.h"

#define PIT_HZ          1193182
#define CALIBRATE_MS    10

static uint64_t tsc_khz, tsc_boot;
/* ns = (tsc * mul) >> 32, good for centuries of uptime via 128-bit math. */
static uint64_t tsc_to_ns_mul;
/* and back: tsc = (ns * mul) >> 32. */
static uint64_t ns_to_tsc_mul;

static uint64_t measure_tsc_khz(void)
{
    uint16_t count = PIT_HZ * CALIBRATE_MS / 1000;
    uint64_t start, end;
    unsigned long spins = 0;

    /* Gate channel 2 on, speaker off; mode 0 (count down once), binary. */
    outb((inb(0x61) & ~0x02) | 0x01, 0x61);
    outb(0xb0, 0x43);
    outb(count & 0xff, 0x42);
    outb(count >> 8, 0x42);

    start = rdtsc();
    /* Output (bit 5) rises at terminal count; bounded if there's no PIT. */
    while ( !(inb(0x61) & 0x20) && ++spins < 100000000UL )
        ;
    end = rdtsc();

    if ( !(inb(0x61) & 0x20) )
        return 0;
    return (end - start) / CALIBRATE_MS;
}

void time_init(void)
{
    tsc_boot = rdtsc();
    tsc_khz = measure_tsc_khz();
    if ( !tsc_khz )
        tsc_khz = 1000000;      /* no PIT: guess 1 GHz rather than stop */
    tsc_to_ns_mul = (1000000ULL << 32) / tsc_khz;
    ns_to_tsc_mul = (tsc_khz << 32) / 1000000;
}

uint64_t cpu_khz(void)
{
    return tsc_khz;
}

uint64_t tsc_to_ns(uint64_t tsc)
{
    return ((unsigned __int128)tsc * tsc_to_ns_mul) >> 32;
}

uint64_t ns_to_tsc_abs(uint64_t ns)
{
    return tsc_boot + (((unsigned __int128)ns * ns_to_tsc_mul) >> 32);
}

uint64_t now_ns(void)
{
    if ( !tsc_to_ns_mul )
        return 0;
    return tsc_to_ns(rdtsc() - tsc_boot);
}
