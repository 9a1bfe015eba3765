/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TSC calibration against PIT channel 2 (Intel 8254 data sheet; the gate
 * and output bits of port 0x61 as on every PC), or where there is no PIT
 * against the ACPI PM timer (ACPI 6.4, 4.8.3.3: 3.579545 MHz, 24 or 32
 * bits); and TSC-to-ns conversion.
 */
#include "arch/x86/acpi.h"
#include "arch/x86/barrier.h"
#include "arch/x86/io.h"
#include "arch/x86/time.h"
#include "shim/console.h"
#include "shim/param.h"

#define PM_TIMER_HZ     3579545

#define PIT_HZ          1193182
/* Channel 2's start count: a reading above it is a port that floats. */
#define PIT_LOAD        0xfff0
/*
 * A run lasts CALIBRATE_MS (time.h); one whose two readings pin the instants
 * they stand for to within 1/CALIBRATE_PRECISION of it is taken.
 */
#define CALIBRATE_PRECISION     2000
#define CALIBRATE_RUNS          10

static uint64_t __read_mostly tsc_khz, tsc_boot, tsc_err_ppm;
static const char *tsc_source = "PIT";

/*
 * clocksource=<pit|acpi>: what the TSC is calibrated against (Xen's
 * option names the platform timer; here it is only the reference).
 * Default: the PIT, or the ACPI PM timer where there is no PIT.
 */
static char opt_clocksource[8] = "pit";
string_param("clocksource", opt_clocksource);
/* ns = (tsc * mul) >> 32, good for centuries of uptime via 128-bit math. */
static uint64_t __read_mostly tsc_to_ns_mul;
/* and back: tsc = (ns * mul) >> 32. */
static uint64_t __read_mostly ns_to_tsc_mul;

/*
 * Time a counter against the TSC.  Each reading is taken between two
 * TSC reads, so the instant it stands for is known to within their gap
 * however late the CPU gets round to the next instruction: a busy host
 * that stalls a virtual CPU mid-run (seen to put a run 60% off when the
 * TSC was read only after noticing the counter had moved) widens a gap,
 * and the run is then measured again rather than believed.
 */
bool tsc_time_counter(const struct counter *c, struct counter_span *best)
{
    struct counter_stamp a, b;
    struct counter_span run;
    unsigned int n;
    bool ok;

    best->tsc = 0;
    for ( n = 0; n < CALIBRATE_RUNS; n++ )
    {
        if ( !c->start(c->arg) )
            return false;
        if ( !c->read(&a, c->arg) )
            continue;
        do {
            ok = c->read(&b, c->arg);
            run.ticks = (b.count - a.count) & c->mask;
            /* A counter that doesn't count: give up after 2^32 cycles. */
            if ( b.after - a.before > (1ULL << 32) )
                return false;
        } while ( ok && (run.ticks < c->min_ticks ||
                         b.before - a.after < c->min_tsc) );
        if ( !ok )
            continue;

        run.tsc = (b.before + b.after) / 2 - (a.before + a.after) / 2;
        run.err = (b.after - b.before + a.after - a.before + 1) / 2;
        if ( !best->tsc || run.err * best->tsc < best->err * run.tsc )
            *best = run;
        if ( run.err * CALIBRATE_PRECISION <= run.tsc )
            break;
    }
    return best->tsc;
}

/*
 * PIT channel 2 counting down once (mode 0) from PIT_LOAD, gate on and
 * speaker off; read as counting up.  Its output (port 0x61 bit 5) going
 * high means it reached 0 and wrapped on unseen; a port that floats (QEMU
 * -machine pit=off) reads all ones: neither reading is believed.
 */
static bool pit_read(struct counter_stamp *s, unsigned long unused)
{
    uint16_t left;

    s->before = rdtsc();
    outb(0x80, 0x43);                   /* latch channel 2 */
    s->after = rdtsc();
    left = inb(0x42);
    left |= inb(0x42) << 8;
    s->count = PIT_LOAD - left;
    return left <= PIT_LOAD && !(inb(0x61) & 0x20);
}

/* (Re)start channel 2; false if there is no PIT. */
static bool pit_start(unsigned long unused)
{
    struct counter_stamp s;

    outb((inb(0x61) & ~0x02) | 0x01, 0x61);
    outb(0xb0, 0x43);
    outb(PIT_LOAD & 0xff, 0x42);
    outb(PIT_LOAD >> 8, 0x42);
    return pit_read(&s, 0);
}

/* The ACPI PM timer (@arg: its port). */
static bool pm_read(struct counter_stamp *s, unsigned long arg)
{
    s->before = rdtsc();
    s->count = inl(arg);
    s->after = rdtsc();
    return true;
}

static bool pm_start(unsigned long arg)
{
    return true;
}

/* The TSC's rate from @span of a counter of @hz, and how sure it is. */
static uint64_t span_khz(const struct counter_span *span, uint32_t hz,
                         uint64_t *err_ppm)
{
    *err_ppm = span->err * 1000000 / span->tsc;
    return span->tsc * hz / ((uint64_t)span->ticks * 1000);
}

static void set_tsc_khz(uint64_t khz)
{
    tsc_khz = khz;
    tsc_to_ns_mul = (1000000ULL << 32) / tsc_khz;
    ns_to_tsc_mul = (tsc_khz << 32) / 1000000;
}

void time_init(void)
{
    static const struct counter pit = {
        .start = pit_start, .read = pit_read, .mask = 0xffff,
        .min_ticks = PIT_HZ / 1000 * CALIBRATE_MS,
    };
    struct counter_span span;

    tsc_boot = rdtsc();
    if ( tsc_time_counter(&pit, &span) )
        set_tsc_khz(span_khz(&span, PIT_HZ, &tsc_err_ppm));
    else
    {
        set_tsc_khz(1000000);   /* no PIT: guess 1 GHz until ACPI is up */
        tsc_source = NULL;
    }
}

void time_calibrate_late(void)
{
    struct counter pm = {
        .start = pm_start, .read = pm_read,
        .min_ticks = PM_TIMER_HZ / 1000 * CALIBRATE_MS,
    };
    struct counter_span span;
    uint16_t port;
    bool wide;

    if ( strcmp(opt_clocksource, "pit") && strcmp(opt_clocksource, "acpi") )
        printk(XENLOG_WARNING "clocksource=%s: not supported, using the "
               "default\n", opt_clocksource);
    if ( (!tsc_source || !strcmp(opt_clocksource, "acpi")) &&
         (port = acpi_pm_timer_port(&wide)) )
    {
        pm.arg = port;
        pm.mask = wide ? 0xffffffff : 0xffffff;
        if ( tsc_time_counter(&pm, &span) )
        {
            set_tsc_khz(span_khz(&span, PM_TIMER_HZ, &tsc_err_ppm));
            tsc_source = "ACPI PM timer";
        }
    }
    if ( tsc_source )
        printk("TSC: %lu.%03lu MHz, %s, within %lu ppm\n", tsc_khz / 1000,
               tsc_khz % 1000, tsc_source, tsc_err_ppm);
    else
        printk("TSC: %lu.%03lu MHz, a guess (no PIT, no ACPI PM timer)\n",
               tsc_khz / 1000, tsc_khz % 1000);
}

uint64_t cpu_khz(void)
{
    return tsc_khz;
}

void udelay(uint64_t us)
{
    uint64_t end;

    if ( !tsc_khz )
        return;
    end = rdtsc() + us * tsc_khz / 1000;
    while ( rdtsc() < end )
        cpu_relax();
}

uint64_t tsc_to_ns(uint64_t tsc)
{
    return ((unsigned __int128)tsc * tsc_to_ns_mul) >> 32;
}

/*
 * Saturated, not wrapped: a far deadline (a guest's timer 2^63 ns or so
 * ahead) as the TSC's last tick, never one already past, which in
 * TSC-deadline mode would fire again at every re-arm, for ever.
 */
uint64_t ns_to_tsc_abs(uint64_t ns)
{
    unsigned __int128 t = tsc_boot +
                          (((unsigned __int128)ns * ns_to_tsc_mul) >> 32);

    return t > ~0ULL ? ~0ULL : (uint64_t)t;
}

uint64_t __hot_text now_ns(void)
{
    if ( !tsc_to_ns_mul )
        return 0;
    return tsc_to_ns(rdtsc() - tsc_boot);
}
