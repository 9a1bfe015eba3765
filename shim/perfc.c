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

/*
 * A line of the printout: a counter, or an array of @n elements, each
 * element's value on a CPU given by @value (@arg its own: where the
 * counter starts in a row's c[]).
 */
struct perfc_line {
    const char *name;
    unsigned int n;                     /* 1: a single counter */
    unsigned long (*value)(unsigned int cpu, unsigned int e,
                           unsigned int arg);
    unsigned int arg;
};

static unsigned long counter_value(unsigned int cpu, unsigned int e,
                                   unsigned int j)
{
    return perfcounters[cpu].c[j + e];
}

static unsigned long entry_ticks(unsigned int cpu, unsigned int e,
                                 unsigned int arg)
{
    return perfcounters[cpu].ticks_by_entry[e];
}

static unsigned long halted_ticks(unsigned int cpu, unsigned int e,
                                  unsigned int arg)
{
    return perfcounters[cpu].ticks_halted;
}

/* Elements [e, e + n) of @l summed, on @cpu or every online CPU (ALL_CPUS). */
static unsigned long sum(const struct perfc_line *l, unsigned int cpu,
                         unsigned int e, unsigned int n)
{
    unsigned int c, i;
    unsigned long s = 0;

    for ( c = 0; c < NR_CPUS; c++ )
        if ( (cpu == ALL_CPUS ? cpu_online(c) : c == cpu) )
            for ( i = e; i < e + n; i++ )
                s += l->value(c, i, l->arg);
    return s;
}

/*
 * The total, then each online CPU's share where it is not zero
 * (continuation lines line up under the first CPU, four CPUs a line),
 * then an array's elements that counted, one a line (Xen's
 * CONFIG_PERF_ARRAYS prints every element, four a line; most of ours
 * are zero, and a line each is what a script wants).
 */
static void print_line(const struct perfc_line *l)
{
    unsigned long total = sum(l, ALL_CPUS, 0, l->n), s;
    unsigned int cpu, k = 0, e;

    printk("%-32s  TOTAL[%12lu]", l->name, total);
    for ( cpu = 0; total && cpu < NR_CPUS; cpu++ )
    {
        if ( !cpu_online(cpu) )
            continue;
        if ( k > 0 && (k % 4) == 0 )
            printk("\n%53s", "");
        printk("  CPU%02u[%10lu]", cpu, sum(l, cpu, 0, l->n));
        k++;
    }
    printk("\n");
    if ( total && l->n > 1 )
        for ( e = 0; e < l->n; e++ )
            if ( (s = sum(l, ALL_CPUS, e, 1)) )
                printk("%16s  ARR%02u[%10lu]\n", "", e, s);
}

void perfc_printall(unsigned char key)
{
    static const struct perfc_line ticks[] = {
        { "TSC ticks in the shim by entry", PERFC_NR_ENTRY_KINDS,
          entry_ticks, 0 },
        { "TSC ticks halted in the shim", 1, halted_ticks, 0 },
    };
    unsigned int i, j;

    printk("Xen performance counters SHOW  (now = %lu)\n",
           (unsigned long)NOW());
    for ( i = j = 0; i < ARRAY_SIZE(perfc_info); i++ )
    {
        struct perfc_line l = {
            perfc_info[i].name, perfc_info[i].nr_elements, counter_value, j,
        };

        print_line(&l);
        j += l.n;
    }
    for ( i = 0; i < ARRAY_SIZE(ticks); i++ )
        print_line(&ticks[i]);
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
