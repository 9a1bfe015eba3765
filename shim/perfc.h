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

/*
 * The kinds of entry from the guest the shim's time is counted by: a
 * hypercall by its number, an exception by its vector, an interrupt, the
 * guest's own system call, anything else (the vCPU's start).
 */
#define PERFC_ENTRY_EXCEPTION   PERFC_NR_HYPERCALLS             /* + vector */
#define PERFC_ENTRY_INTERRUPT   (PERFC_ENTRY_EXCEPTION + 32)
#define PERFC_ENTRY_SYSCALL     (PERFC_ENTRY_INTERRUPT + 1)
#define PERFC_ENTRY_OTHER       (PERFC_ENTRY_SYSCALL + 1)
#define PERFC_NR_ENTRY_KINDS    (PERFC_ENTRY_OTHER + 1)

/*
 * A row per CPU, each on cache lines of its own.  Besides the counts, the
 * TSC ticks this CPU spent in the shim on the guest's behalf, from each
 * entry from the guest to the exit back (pv/entry.S), by the kind of
 * entry, and halted meanwhile (a blocked vCPU), left out of the former.
 * Under `-icount shift=0` the TSC counts instructions: these are then the
 * instructions the shim ran.  64 bits: they would wrap 32 in seconds.
 */
struct perfc_row {
    perfc_t c[NUM_PERFCOUNTERS];
    uint64_t ticks_by_entry[PERFC_NR_ENTRY_KINDS];
    uint64_t ticks_halted;              /* halted between entry and exit */
    uint64_t entry_tsc;                 /* this entry's start, */
    unsigned int entry_kind;            /* its kind */
    uint64_t halted_since_entry;
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

/* The guest entered the shim (pv/entry.S, through pv_perfc_entry()). */
void perfc_guest_entry(unsigned int kind);
/* pv/entry.S: the shim returns to the guest. */
void perfc_guest_exit(void);

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
