/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The idle loop of a CPU with no vCPU: each AP runs it from the moment it
 * is up (arch/x86/smpboot.c).  Interrupts are on only inside the halt, as
 * everywhere in the shim; whatever an interrupt or an IPI raised runs as
 * a softirq on the way round.
 */
#include "arch/x86/apic.h"
#include "shim/idle.h"
#include "shim/softirq.h"

noreturn void idle_loop(void)
{
    for ( ;; )
    {
        do_softirq();
        /*
         * The hook for SMP guests: once the guest brings this CPU's vCPU
         * up (VCPUOP_up, pinned to CPU n as with sched=null), this CPU
         * leaves here for it instead of halting, and comes back only
         * when the vCPU goes down.  A vCPU that blocks halts the CPU in
         * its own loop (pv/sched.c), not here.
         */
        cpu_wait_for_interrupt();
    }
}
