/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vCPUs on their CPUs (pv/vcpu/smp.c): vCPU n runs on CPU n.  The domain
 * lock around the shim's work for the guest (docs/architecture.md,
 * "Locks"); the CPUs running a vCPU of the domain (every one of them
 * must flush for the MMU); waking a vCPU's CPU; an idle CPU's look at its
 * vCPU, and a vCPU's leaving its CPU when it goes down.
 */
#ifndef PV_VCPU_SMP_H
#define PV_VCPU_SMP_H

#include "shim/lib.h"
#include "arch/x86/percpu.h"
#include "pv/domain.h"

struct cpu_regs;

/* CALLBACKTYPE_nmi registered by @v: a host NMI it missed comes again. */
void pv_nmi_callback_registered(struct vcpu *v);

void pv_domain_lock(void);
void pv_domain_unlock(void);
/* Does this CPU hold it?  (Only the holder writes its own id there.) */
static inline bool pv_domain_locked(void)
{
    return ACCESS_ONCE(dom.domain_lock.cpu) == smp_processor_id();
}

/*
 * For a lock-free hypercall's part that needs the domain lock (an
 * mmuext_op or multicall entry): take it unless this CPU holds it; it is
 * held then to the exit, which drops it.
 */
static inline void pv_domain_lock_to_exit(void)
{
    if ( !pv_domain_locked() )
        pv_domain_lock();
}

/*
 * For work that needs the domain lock wherever it runs (a softirq, a
 * timer, an audit): take it unless this CPU holds it; true if taken
 * here, for pv_domain_unlock_taken().
 */
static inline bool pv_domain_lock_unless_held(void)
{
    if ( pv_domain_locked() )
        return false;
    pv_domain_lock();
    return true;
}

static inline void pv_domain_unlock_taken(bool taken)
{
    if ( taken )
        pv_domain_unlock();
}

unsigned long pv_domain_cpumask(void);

/*
 * Work for every CPU's way back to the guest, in one word so that the
 * exit looks with one load (__pv_exit_to_guest()): EXIT_ALL_DYING,
 * frames died (pv/mm/frame-table.c); and above it the count of pauses
 * begun and ended (pv_pause_others()), odd while one is on, so
 * EXIT_ALL_PAUSE is set then (and the exit's test is one `testb`).
 */
extern unsigned long pv_exit_all;
#define EXIT_ALL_DYING  (1UL << 0)
#define EXIT_ALL_PAUSE  (1UL << 1)      /* one step of the pause count */

static inline bool pv_pause_on(void)
{
    return ACCESS_ONCE(pv_exit_all) & EXIT_ALL_PAUSE;
}

/*
 * Every other CPU running a vCPU at rest, with no MMU operation under
 * way, until pv_unpause_others() (mm-audit; the caller holds the domain
 * lock).  pv_pause_park(): the rest, on the way back to the guest.
 */
void pv_pause_others(void);
void pv_unpause_others(void);
void pv_pause_park(void);
/* Another vCPU at rest (with the rest), for a VCPUOP on its areas. */
bool pv_pause_vcpu(const struct vcpu *v);
void pv_unpause_vcpu(bool paused);
/* Make @v's CPU look at it again (an event, a wake-up, work to do). */
void vcpu_kick(struct vcpu *v);
/*
 * The softirqs pending on this CPU, each with the lock it needs: the
 * timers' with none, the rest under the domain lock (taken here unless
 * held).
 */
void pv_do_softirq(void);
/* The idle loop's work once the guest exists (never returns if up). */
void pv_idle_work(void);
/* At the exit to the guest: a vCPU gone down leaves its CPU. */
void pv_vcpu_check_down(struct cpu_regs *regs);

#endif /* PV_VCPU_SMP_H */
