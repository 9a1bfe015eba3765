/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory ordering between CPUs, and the pause of a spin-wait loop.  x86
 * orders memory strongly (SDM vol. 3A, 9.2.2): no load passes an older
 * load, no store an older store or an older load; only a load may pass
 * an older store.  So every order but store-then-load needs nothing of
 * the CPU, only that the compiler keep the accesses where they are:
 * barrier(), whatever the name.  smp_mb() also orders store-then-load.
 */
#ifndef ARCH_X86_BARRIER_H
#define ARCH_X86_BARRIER_H

/* The compiler moves no memory access across this (the CPU may). */
#define barrier()       asm volatile ( "" ::: "memory" )

/* Loads before it, before loads after it; likewise stores. */
#define smp_rmb()       barrier()
#define smp_wmb()       barrier()

/* Every access before it, before every access after it. */
#define smp_mb()        __atomic_thread_fence(__ATOMIC_SEQ_CST)

/*
 * In a spin-wait loop: let the sibling thread (or the host) run.  In
 * host unit tests, only a compiler barrier.
 */
#ifdef SHIM_HOST_TEST
static inline void cpu_relax(void)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}
#else
static inline void cpu_relax(void)
{
    asm volatile ( "pause" ::: "memory" );
}
#endif

#endif /* ARCH_X86_BARRIER_H */
