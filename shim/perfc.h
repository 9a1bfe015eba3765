/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Performance counters, as Xen's (xen/include/xen/perfc.h): per-CPU
 * counts of the events listed in shim/perfc_defn.h, printed with debug
 * key 'p' and zeroed with 'P' in Xen's format.  Built only with
 * CONFIG_PERF_COUNTERS (configs/perfc.config, and the debug build);
 * otherwise every use compiles to nothing, so the release build's paths
 * are untouched.
 *
 *   perfc_incr(x)        count one
 *   perfc_incra(x, i)    count one in array x's element i (ignored past
 *                        the end, so a guest's number can index it)
 *   perfc_add(x, n)      count n
 */
#ifndef SHIM_PERFC_H
#define SHIM_PERFC_H

#ifdef CONFIG_PERF_COUNTERS

#include "arch/x86/percpu.h"

#define PERFC_NR_HYPERCALLS     64      /* Xen's NR_hypercalls */
#define PERFC_NR_SOFTIRQS       16

#define PERFCOUNTER(name, descr)                PERFC_##name,
#define PERFCOUNTER_ARRAY(name, descr, size)                            \
    PERFC_##name, PERFC_LAST_##name = PERFC_##name + (size) - 1,
enum perfcounter {
#include "shim/perfc_defn.h"
    NUM_PERFCOUNTERS
};
#undef PERFCOUNTER
#undef PERFCOUNTER_ARRAY

typedef unsigned int perfc_t;

/* A row per CPU, each on cache lines of its own. */
struct perfc_row {
    perfc_t c[NUM_PERFCOUNTERS];
} __aligned(64);
extern struct perfc_row perfcounters[NR_CPUS];

#define this_perfc()        (perfcounters[smp_processor_id()].c)
#define perfc_incr(x)       ((void)++this_perfc()[PERFC_##x])
#define perfc_add(x, n)     ((void)(this_perfc()[PERFC_##x] += (n)))
#define perfc_incra(x, i) ({                                            \
    unsigned long i_ = (i);                                             \
    if ( i_ <= PERFC_LAST_##x - PERFC_##x )                             \
        ++this_perfc()[PERFC_##x + i_];                                 \
})

void perfc_printall(unsigned char key);
void perfc_reset(unsigned char key);
void perfc_init(void);

#else /* !CONFIG_PERF_COUNTERS */

#define perfc_incr(x)       ((void)0)
#define perfc_add(x, n)     ((void)(n))
#define perfc_incra(x, i)   ((void)(i))
static inline void perfc_init(void) {}

#endif /* CONFIG_PERF_COUNTERS */

#endif /* SHIM_PERFC_H */
