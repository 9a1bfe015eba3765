/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Performance counters (shim/perfc.h): 'p' prints each counter's total
 * and, where it is not zero, each online CPU's share (an array's
 * elements summed per CPU), 'P' zeroes them: Xen's perfc_printall() and
 * perfc_reset(), in Xen's format, so scripts written for Xen's output
 * read ours.
 */
#ifdef CONFIG_PERF_COUNTERS

#include "shim/perfc.h"
#include "arch/x86/smp.h"
#include "shim/console.h"
#include "shim/keyhandler.h"
#include "shim/lib.h"
#include "arch/x86/irq.h"
#include "arch/x86/time.h"
#include "shim/softirq.h"
#include "shim/timer.h"

BUILD_BUG_ON(NR_SOFTIRQS > PERFC_NR_SOFTIRQS);

struct perfc_row perfcounters[NR_CPUS];

#define PERFCOUNTER(name, descr)                { descr, 1 },
#define PERFCOUNTER_ARRAY(name, descr, size)    { descr, size },
static const struct {
    const char *name;
    unsigned int nr_elements;           /* 1: a single counter */
} perfc_info[] = {
#include "shim/perfc_defn.h"
};
#undef PERFCOUNTER
#undef PERFCOUNTER_ARRAY

#define ALL_CPUS    NR_CPUS

/* Counters [j, j + n) summed, on @cpu or on every online CPU (ALL_CPUS). */
static unsigned long sum(unsigned int cpu, unsigned int j, unsigned int n)
{
    unsigned int c, e;
    unsigned long s = 0;

    for ( c = 0; c < NR_CPUS; c++ )
        if ( (cpu == ALL_CPUS ? cpu_online(c) : c == cpu) )
            for ( e = 0; e < n; e++ )
                s += perfcounters[c].c[j + e];
    return s;
}

void perfc_guest_entry(unsigned int kind)
{
    struct perfc_row *r = &perfcounters[smp_processor_id()];

    r->entry_tsc = rdtsc();
    r->entry_kind = kind < PERFC_NR_ENTRY_KINDS ? kind : PERFC_ENTRY_OTHER;
    r->halted_since_entry = 0;
}

/*
 * Called once more after iretq refused a frame (pv/entry.S's iret_fault
 * goes round the exit again): the entry's start moves to now, so nothing
 * is counted twice.
 */
void perfc_guest_exit(void)
{
    struct perfc_row *r = &perfcounters[smp_processor_id()];
    uint64_t now = rdtsc(), halted = r->halted_since_entry;

    r->ticks_by_entry[r->entry_kind] += now - r->entry_tsc - halted;
    r->ticks_halted += halted;
    r->entry_tsc = now;
    r->halted_since_entry = 0;
}

void perfc_halted(uint64_t since)
{
    perfcounters[smp_processor_id()].halted_since_entry += rdtsc() - since;
}

/* The ticks as the counters, an array's by entry kind: one CPU's, or all. */
static uint64_t ticks(unsigned int cpu, unsigned int kind, bool halted)
{
    uint64_t t = 0;
    unsigned int c, k;

    for ( c = 0; c < NR_CPUS; c++ )
        if ( cpu == ALL_CPUS ? cpu_online(c) : c == cpu )
        {
            if ( halted )
                t += perfcounters[c].ticks_halted;
            else if ( kind < PERFC_NR_ENTRY_KINDS )
                t += perfcounters[c].ticks_by_entry[kind];
            else
                for ( k = 0; k < PERFC_NR_ENTRY_KINDS; k++ )
                    t += perfcounters[c].ticks_by_entry[k];
        }
    return t;
}

static void print_ticks(const char *name, bool halted)
{
    unsigned int cpu, k = 0;
    uint64_t total = ticks(ALL_CPUS, PERFC_NR_ENTRY_KINDS, halted), t;

    printk("%-32s  TOTAL[%12lu]", name, (unsigned long)total);
    for ( cpu = 0; total && cpu < NR_CPUS; cpu++ )
    {
        if ( !cpu_online(cpu) )
            continue;
        if ( k > 0 && (k % 4) == 0 )
            printk("\n%53s", "");
        printk("  CPU%02u[%10lu]", cpu,
               (unsigned long)ticks(cpu, PERFC_NR_ENTRY_KINDS, halted));
        k++;
    }
    printk("\n");
    for ( k = 0; total && !halted && k < PERFC_NR_ENTRY_KINDS; k++ )
        if ( (t = ticks(ALL_CPUS, k, false)) )
            printk("%16s  ARR%02u[%10lu]\n", "", k, (unsigned long)t);
}

/* Continuation lines line up under the first CPU, four CPUs a line. */
static void print_cpus(unsigned int j, unsigned int n)
{
    unsigned int cpu, k = 0;

    for ( cpu = 0; cpu < NR_CPUS; cpu++ )
    {
        if ( !cpu_online(cpu) )
            continue;
        if ( k > 0 && (k % 4) == 0 )
            printk("\n%53s", "");
        printk("  CPU%02u[%10lu]", cpu, sum(cpu, j, n));
        k++;
    }
}

void perfc_printall(unsigned char key)
{
    unsigned int i, j, e;

    printk("Xen performance counters SHOW  (now = %lu)\n",
           (unsigned long)NOW());
    for ( i = j = 0; i < ARRAY_SIZE(perfc_info); i++ )
    {
        unsigned int n = perfc_info[i].nr_elements;
        unsigned long total = sum(ALL_CPUS, j, n), s;

        printk("%-32s  TOTAL[%12lu]", perfc_info[i].name, total);
        if ( total )
            print_cpus(j, n);
        printk("\n");
        /*
         * An array's elements that counted, one a line (Xen's
         * CONFIG_PERF_ARRAYS prints every element, four a line; most of
         * ours are zero, and a line each is what a script wants).
         */
        if ( total && n > 1 )
            for ( e = 0; e < n; e++ )
                if ( (s = sum(ALL_CPUS, j + e, 1)) )
                    printk("%16s  ARR%02u[%10lu]\n", "", e, s);
        j += n;
    }
    print_ticks("TSC ticks in the shim by entry", false);
    print_ticks("TSC ticks halted in the shim", true);
}

void perfc_reset(unsigned char key)
{
    unsigned int cpu;

    if ( key != '\0' )
        printk("Xen performance counters RESET (now = %lu)\n",
               (unsigned long)NOW());
    /* A counter another CPU bumps meanwhile may keep that one count. */
    for ( cpu = 0; cpu < NR_CPUS; cpu++ )
    {
        /* Not the entry's start: that CPU may be in the shim now. */
        memset(perfcounters[cpu].c, 0, sizeof(perfcounters[cpu].c));
        memset(perfcounters[cpu].ticks_by_entry, 0,
               sizeof(perfcounters[cpu].ticks_by_entry));
        perfcounters[cpu].ticks_halted = 0;
    }
}

void perfc_init(void)
{
    register_keyhandler('p', perfc_printall, "print performance counters",
                        true);
    register_keyhandler('P', perfc_reset, "reset performance counters",
                        false);
}

#endif /* CONFIG_PERF_COUNTERS */
