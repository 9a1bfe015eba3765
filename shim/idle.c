/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The idle loop of a CPU with no vCPU: each AP runs it from the moment it
 * is up (arch/x86/smpboot.c).  Interrupts are on only inside the halt, as
 * everywhere in the shim; whatever an interrupt or an IPI raised runs as
 * a softirq on the way round.
 */
#include "arch/x86/irq.h"
#include "shim/idle.h"
#include "shim/softirq.h"
#include "shim/spinlock.h"

static void (*idle_work)(void);

void idle_set_work(void (*fn)(void))
{
    __atomic_store_n(&idle_work, fn, __ATOMIC_RELEASE);
}

noreturn void idle_loop(void)
{
    void (*work)(void);

    for ( ;; )
    {
        /*
         * Once the guest exists, its work (pv_idle_work()): softirqs
         * under the domain lock and, when the guest brings this CPU's
         * vCPU up (pinned to CPU n as with sched=null), leaving here for
         * it for good; the CPU comes back on a fresh stack when the vCPU
         * goes down.  A vCPU that blocks halts the CPU in its own loop
         * (pv/vcpu/sched.c), not here.
         */
        if ( (work = __atomic_load_n(&idle_work, __ATOMIC_ACQUIRE)) )
            work();
        else
            do_softirq();
        ASSERT_NO_LOCKS_HELD();         /* a halt with one would stall all */
        /*
         * The work may have let interrupts in (waiting for a lock): one
         * that came then left only a softirq bit, no interrupt to end
         * the halt.
         */
        if ( !softirq_pending() )
            cpu_wait_for_interrupt();
    }
}
