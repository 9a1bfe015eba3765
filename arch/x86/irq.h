/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * This CPU's interrupt flag: interrupts off and on, saved and restored,
 * let in for a moment, or waited for in a halt.  Each is a compiler
 * barrier too, so memory accesses don't move across it.  Host unit tests
 * run shim code as a process, with no interrupts to mask: there
 * local_irq_save(), _restore(), _disable() and _enable() are only
 * compiler barriers.
 */
#ifndef ARCH_X86_IRQ_H
#define ARCH_X86_IRQ_H

#include "shim/lib.h"
#include "arch/x86/barrier.h"
#include "arch/x86/eflags.h"
#ifdef CONFIG_PERF_COUNTERS
#include "arch/x86/time.h"                 /* cpu_wait_for_interrupt() */
#endif

#ifdef SHIM_HOST_TEST
#define local_irq_save(f)       ((f) = 0)
#define local_irq_restore(f)    ((void)(f))
#define local_irq_disable()     barrier()
#define local_irq_enable()      barrier()
#else
#define local_irq_save(f) \
    asm volatile ( "pushf; pop %0; cli" : "=r" (f) :: "memory" )
#define local_irq_restore(f) \
    asm volatile ( "push %0; popf" :: "g" (f) : "memory", "cc" )

static inline void local_irq_disable(void)
{
    asm volatile ( "cli" ::: "memory" );
}

static inline void local_irq_enable(void)
{
    asm volatile ( "sti" ::: "memory" );
}

static inline bool irqs_enabled(void)
{
    unsigned long f;

    asm volatile ( "pushf; pop %0" : "=r" (f) );
    return f & X86_EFLAGS_IF;
}

/*
 * With interrupts off, take any that are pending, then off again.  The
 * window is "sti; nop": the nop ends sti's one-instruction shadow.  Not
 * "sti; pause": QEMU's TCG leaves the shadow in force across a pause, so
 * the window would never open there.
 */
static inline void local_irq_window(void)
{
    asm volatile ( "sti; nop; cli" ::: "memory" );
}

/*
 * Let interrupts in while this CPU waits for one, then off again: hlt
 * sits in sti's shadow, so one that arrives before it ends the halt.
 */
#ifdef CONFIG_PERF_COUNTERS
void perfc_halted(uint64_t since);     /* shim/perfc.c */
#endif
static inline void cpu_wait_for_interrupt(void)
{
#ifdef CONFIG_PERF_COUNTERS
    uint64_t since = rdtsc();
#endif
    asm volatile ( "sti; hlt; cli" ::: "memory" );
#ifdef CONFIG_PERF_COUNTERS
    perfc_halted(since);
#endif
}
#endif /* SHIM_HOST_TEST */

#endif /* ARCH_X86_IRQ_H */
