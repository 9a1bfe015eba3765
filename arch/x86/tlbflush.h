/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The TLB-flush clock, as Xen's flushtlb.h, with one difference in what
 * moves it.  Xen ticks its clock at each flush and stamps a page with the
 * current time; here the clock ticks when something's role ends (a
 * frame's type: tlbflush_stamp() hands out the stamp), and each CPU notes
 * the clock as it begins a flush that leaves none of the guest's
 * translations behind (tlbflush_time[]).  A CPU that noted time t began
 * such a flush after every stamp below t was handed out, so it holds no
 * translation from before those ends (Xen's NEED_FLUSH()).  Flushes are
 * far more frequent than type ends (with global pages off every CR3 write
 * is one), so a flush costs a load and a store, and only an end writes
 * the shared clock.  64 bits: it never wraps.
 */
#ifndef ARCH_X86_TLBFLUSH_H
#define ARCH_X86_TLBFLUSH_H

#include "shim/lib.h"
#include "arch/x86/layout.h"

/* From 1: stamp 0 is a frame whose role never ended. */
extern uint64_t tlbflush_clock;
/* Each CPU's clock when its last full flush began (0: none yet). */
extern uint64_t tlbflush_time[NR_CPUS];

/* Something's translations may linger from now on: its stamp. */
static inline uint64_t tlbflush_stamp(void)
{
    return __atomic_fetch_add(&tlbflush_clock, 1, __ATOMIC_SEQ_CST);
}

/*
 * The clock as a full flush begins (read before the flush, which must
 * not start earlier: the compiler barrier here, the CPU's serialising
 * CR3 or CR4 write there), to be noted with tlbflush_note() after it.
 */
static inline uint64_t tlbflush_begin(void)
{
    return __atomic_load_n(&tlbflush_clock, __ATOMIC_SEQ_CST);
}

static inline void tlbflush_note(unsigned int cpu, uint64_t t)
{
    __atomic_store_n(&tlbflush_time[cpu], t, __ATOMIC_RELEASE);
}

/* Xen's NEED_FLUSH(): may a CPU noted at @cpu_time hold what @stamp ended? */
static inline bool tlbflush_needed(uint64_t cpu_time, uint64_t stamp)
{
    return stamp && cpu_time <= stamp;
}

/* Xen's tlbflush_filter(): keep in @mask the CPUs that may still need it. */
static inline void tlbflush_filter(unsigned long *mask, uint64_t stamp)
{
    unsigned long m;

    for ( m = *mask; m; m &= m - 1 )
    {
        unsigned int cpu = __builtin_ctzl(m);

        if ( !tlbflush_needed(__atomic_load_n(&tlbflush_time[cpu],
                                              __ATOMIC_ACQUIRE), stamp) )
            *mask &= ~(1UL << cpu);
    }
}

#endif /* ARCH_X86_TLBFLUSH_H */
