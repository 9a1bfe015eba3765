/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by pv/entry.S and the C it calls. */
#ifndef PV_ENTRY_H
#define PV_ENTRY_H

/* entry_vector of a frame built by the syscall entry (as Xen's). */
#define ENTRY_SYSCALL 0x100

#ifndef __ASSEMBLER__
#include "arch/x86/irq.h"
#include "arch/x86/regs.h"
#include "arch/x86/layout.h"
#include "pv/domain.h"
#include "pv/event/event.h"
#include "pv/mm/frame-table.h"
#include "pv/vcpu/smp.h"
#include "shim/softirq.h"

extern const char lstar_stubs[];
extern const char cstar_stubs[];
extern const char sysenter_entry[];
extern unsigned long lstar_stack[NR_CPUS];

/* pv/entry.S: enter the guest with the frame in cpu_info; no return. */
noreturn void pv_enter_guest(void);

void pv_syscall(struct cpu_regs *regs);
void pv_cstar_syscall(struct cpu_regs *regs);
void pv_exception(struct cpu_regs *regs);
void pv_sysenter(struct cpu_regs *regs);
void pv_iret_fault(struct cpu_regs *regs);

/*
 * pv/domain.c: the return path's work, taking the domain lock for what
 * needs it, and dropping it if held.
 */
void pv_exit_work(struct cpu_regs *regs);

/*
 * The last look at the frame before iretq, with interrupts off: the
 * syscall and exception handlers end in it, and pv_return_to_guest calls
 * it for the other entries as pv_exit_to_guest().  @work: this CPU holds
 * the domain lock, or the handler wrote more of the frame than %rax (a
 * bounce, HYPERVISOR_iret).  Work pending for the exit is looked at
 * without the lock: whatever another CPU sets after this look comes with
 * an IPI (cpu_raise_softirq(), vcpu_kick()), which stays pending until
 * the guest runs and is seen at the next exit, as Xen's test_all_events
 * has it.  With @work or work pending, pv_exit_work() runs: the work,
 * the frame made safe whatever a handler or the guest put in it, the
 * lock dropped if held.  Without, the frame is as the CPU or the syscall
 * entry built it from the guest's ring-3 state, %rax aside, and the exit
 * is a few compares.
 */
static always_inline void __pv_exit_to_guest(struct cpu_regs *regs,
                                             bool work)
{
    /* Both of cpu_info's fields from one %rsp | (STACK_SIZE - 1). */
    unsigned long top = cpu_stack_top();
    const struct vcpu *v = CPU_INFO_FIELD(top, current);
    const vcpu_info_t *vi;

    local_irq_disable();
    vi = v->vcpu_info;
    /*
     * Plain reads, each once, after the cli's compiler barrier: what
     * changed before it is seen, and each test is one compare with
     * memory (a volatile read is a load and a test).
     */
    if ( work || CPU_INFO_FIELD(top, softirq_bits) || v->down_or_nmi ||
         (vi->evtchn_upcall_pending && !vi->evtchn_upcall_mask) ||
         (pv_exit_all & (EXIT_ALL_PAUSE | EXIT_ALL_DYING)) )
        pv_exit_work(regs);
    /* No path into the guest keeps a lock (debug build). */
    ASSERT_NO_LOCKS_HELD();
}
void pv_exit_to_guest(struct cpu_regs *regs);
#endif

#endif /* PV_ENTRY_H */
