/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TSC calibration against PIT channel 2 (Intel 8254 data sheet; the gate
 * and output bits of port 0x61 as on every PC), or where there is no PIT
 * against the ACPI PM timer (ACPI 6.4, 4.8.3.3: 3.579545 MHz, 24 or 32
 * bits); and TSC-to-ns conversion.
 */
#include "arch/x86/acpi.h"
#include "arch/x86/io.h"
#include "arch/x86/time.h"
#include "shim/console.h"
#include "shim/param.h"

#define PM_TIMER_HZ     3579545

#define PIT_HZ          1193182
#define CALIBRATE_MS    2       /* a run; the median of 5 is taken */

static uint64_t tsc_khz, tsc_boot;
static const char *tsc_source = "PIT";

/*
 * clocksource=<pit|acpi>: what the TSC is calibrated against (Xen's
 * option names the platform timer; here it is only the reference).
 * Default: the PIT, or the ACPI PM timer where there is no PIT.
 */
static char opt_clocksource[8] = "pit";
string_param("clocksource", opt_clocksource);
/* ns = (tsc * mul) >> 32, good for centuries of uptime via 128-bit math. */
static uint64_t tsc_to_ns_mul;
/* and back: tsc = (ns * mul) >> 32. */
static uint64_t ns_to_tsc_mul;

static uint64_t measure_tsc_khz(void)
{
    uint16_t count = PIT_HZ * CALIBRATE_MS / 1000, latch;
    uint64_t start, end;
    unsigned long spins = 0;

    /* Gate channel 2 on, speaker off; mode 0 (count down once), binary. */
    outb((inb(0x61) & ~0x02) | 0x01, 0x61);
    outb(0xb0, 0x43);
    outb(count & 0xff, 0x42);
    outb(count >> 8, 0x42);

    /*
     * A PIT counts down from @count with its output low; with no PIT the
     * port reads float (QEMU -machine pit=off): then don't believe it.
     */
    outb(0x80, 0x43);                   /* latch channel 2 */
    latch = inb(0x42);
    latch |= inb(0x42) << 8;
    if ( (inb(0x61) & 0x20) || latch > count || latch == 0 )
        return 0;

    start = rdtsc();
    /* Output (bit 5) rises at terminal count; bounded if there's no PIT. */
    while ( !(inb(0x61) & 0x20) && ++spins < 100000000UL )
        ;
    end = rdtsc();

    if ( !(inb(0x61) & 0x20) )
        return 0;
    return (end - start) / CALIBRATE_MS;
}

/* The TSC against the ACPI PM timer for CALIBRATE_MS; 0 if it is stuck. */
static uint64_t measure_tsc_khz_pm(uint16_t port, bool wide)
{
    uint32_t mask = wide ? 0xffffffff : 0xffffff;
    uint32_t want = PM_TIMER_HZ / 1000 * CALIBRATE_MS, first, ticks = 0;
    uint64_t start, end;
    unsigned long spins = 0;

    first = inl(port) & mask;
    start = rdtsc();
    while ( (ticks = ((inl(port) & mask) - first) & mask) < want &&
            ++spins < 100000000UL )
        ;
    end = rdtsc();
    if ( ticks < want )
        return 0;
    return (end - start) * PM_TIMER_HZ / ((uint64_t)ticks * 1000);
}

/*
 * Repeat a short measurement until three runs agree within 1/256 (0.4%),
 * at most CALIBRATE_RUNS times, and take the median of those that agree
 * (of all, if none do).  On a busy host a virtual CPU's reads can stall:
 * one that ends a run late makes the TSC look fast, one that starts it
 * late slow, and a single run was seen 60% off under load.  An idle host
 * agrees at once: 3 runs of CALIBRATE_MS.
 */
#define CALIBRATE_RUNS  15

uint64_t calibrate_agreeing(uint64_t (*measure)(unsigned long),
                            unsigned long arg)
{
    uint64_t v[CALIBRATE_RUNS], t;
    unsigned int n, i, j;

    for ( n = 0; n < CALIBRATE_RUNS; n++ )
    {
        if ( !(t = measure(arg)) )
            return 0;
        /* Insert in order: v[0..n] stays sorted. */
        for ( j = n; j > 0 && v[j - 1] > t; j-- )
            v[j] = v[j - 1];
        v[j] = t;
        for ( i = 0; i + 2 <= n; i++ )
            if ( v[i + 2] - v[i] <= v[i + 1] / 256 )
                return v[i + 1];
    }
    return v[CALIBRATE_RUNS / 2];
}

static uint64_t measure_pit(unsigned long unused)
{
    return measure_tsc_khz();
}

/* @arg: the PM timer's port, and bit 16 set if it counts 32 bits. */
static uint64_t measure_pm(unsigned long arg)
{
    return measure_tsc_khz_pm(arg & 0xffff, arg >> 16);
}

static void set_tsc_khz(uint64_t khz)
{
    tsc_khz = khz;
    tsc_to_ns_mul = (1000000ULL << 32) / tsc_khz;
    ns_to_tsc_mul = (tsc_khz << 32) / 1000000;
}

void time_init(void)
{
    uint64_t khz;

    tsc_boot = rdtsc();
    khz = calibrate_agreeing(measure_pit, 0);
    if ( !khz )
    {
        khz = 1000000;          /* no PIT: guess 1 GHz until ACPI is up */
        tsc_source = NULL;
    }
    set_tsc_khz(khz);
}

void time_calibrate_late(void)
{
    uint16_t port;
    bool wide;
    uint64_t khz;

    if ( strcmp(opt_clocksource, "pit") && strcmp(opt_clocksource, "acpi") )
        printk(XENLOG_WARNING "clocksource=%s: not supported, using the "
               "default\n", opt_clocksource);
    if ( (!tsc_source || !strcmp(opt_clocksource, "acpi")) &&
         (port = acpi_pm_timer_port(&wide)) &&
         (khz = calibrate_agreeing(measure_pm, port | (wide << 16))) )
    {
        set_tsc_khz(khz);
        tsc_source = "ACPI PM timer";
    }
    printk("TSC: %lu.%03lu MHz, %s\n", tsc_khz / 1000, tsc_khz % 1000,
           tsc_source ? tsc_source : "a guess (no PIT, no ACPI PM timer)");
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
