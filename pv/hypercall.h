/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every hypercall handler, named do_<hypercall> as in Xen.  Arguments are
 * the guest's registers as unsigned longs; guest pointers are guest
 * virtual addresses, used only through pv/guest-access.h.
 */
#ifndef PV_HYPERCALL_H
#define PV_HYPERCALL_H

#include "pv/domain.h"
#include "pv/traps.h"
#include "pv/vcpu/smp.h"
#include <xen/event_channel.h>
#include <xen/sched.h>
#include <xen/vcpu.h>

/*
 * The sub-ops of vcpu_op that run without the domain lock (the
 * dispatcher takes it for the rest: pv/hypercall.c), as Xen's:
 * VCPUOP_is_up (one word read), send_nmi (an atomic exchange and a
 * wake-up), the caller's own singleshot timer and any vCPU's periodic
 * one (under the target CPU's timer lock; a handler running meanwhile
 * may send one more event at the old period, as in Xen).
 */
static inline bool pv_vcpu_op_lock_free(unsigned int cmd, unsigned int vcpuid)
{
    switch ( cmd )
    {
    case VCPUOP_is_up:
    case VCPUOP_send_nmi:
    case VCPUOP_set_periodic_timer:
    case VCPUOP_stop_periodic_timer:
        return true;
    case VCPUOP_set_singleshot_timer:
    case VCPUOP_stop_singleshot_timer:
        return vcpuid == current_vcpu()->id;
    default:
        return false;
    }
}

/*
 * Has hypercall @nr work for the exit (pv_exit_work()) whatever else is
 * pending?  If it may have written more of the guest's frame than %rax
 * and not made it safe (a 32-bit guest's HYPERVISOR_iret,
 * pv_bounce_exit_work(); any multicall, which may hold an iret), or
 * taken the domain lock, which the exit drops.  Where the dispatcher's
 * switch has found @nr this is a constant: the hypercalls that never
 * take the lock (a crash takes it, but never returns) pay no test for
 * it.
 */
static always_inline bool pv_hypercall_exit_work(unsigned long nr)
{
    switch ( nr )
    {
    case __HYPERVISOR_iret:
        return pv_bounce_exit_work();
    case __HYPERVISOR_multicall:
        return true;
    case __HYPERVISOR_xen_version:
    case __HYPERVISOR_mmu_update:
    case __HYPERVISOR_update_va_mapping:
    case __HYPERVISOR_memory_op:
    case __HYPERVISOR_sched_op:
    case __HYPERVISOR_sched_op_compat:
    case __HYPERVISOR_console_io:
    case __HYPERVISOR_update_descriptor:
    case __HYPERVISOR_mmuext_op:
    case __HYPERVISOR_stack_switch:
    case __HYPERVISOR_fpu_taskswitch:
    case __HYPERVISOR_set_timer_op:
    case __HYPERVISOR_grant_table_op:
    case __HYPERVISOR_event_channel_op:
    case __HYPERVISOR_event_channel_op_compat:
    case __HYPERVISOR_set_segment_base:
    case __HYPERVISOR_set_trap_table:
    case __HYPERVISOR_set_callbacks:
    case __HYPERVISOR_callback_op:
    case __HYPERVISOR_nmi_op:
    case __HYPERVISOR_set_debugreg:
    case __HYPERVISOR_get_debugreg:
    case __HYPERVISOR_vm_assist:
    case __HYPERVISOR_physdev_op:
    case __HYPERVISOR_platform_op:
    case __HYPERVISOR_sysctl:
    case __HYPERVISOR_domctl:
    case __HYPERVISOR_xenpmu_op:
        return false;
    default:
        return pv_domain_locked();
    }
}

/* The Xen we answer as (pv/version.c): the one whose headers we implement. */
#define XEN_MAJOR   4
#define XEN_MINOR   17

/*
 * Fill @page with Xen's 64-bit hypercall stubs, 32 bytes each: for the
 * ELF note's page at build time and the hypercall-page MSR.
 */
void pv_fill_hypercall_page(void *page, bool compat);

/*
 * A 32-bit guest's handlers where its ABI differs (structures laid out
 * by pv/compat/, 64-bit values in two registers): compat_<hypercall>.
 */
long compat_set_trap_table(unsigned long traps);
long compat_set_callbacks(unsigned long event_cs, unsigned long event,
                          unsigned long failsafe_cs, unsigned long failsafe);
long compat_callback_op(unsigned long cmd, unsigned long arg);
long compat_nmi_op(unsigned long cmd, unsigned long arg);
long compat_mmuext_op(unsigned long uops, unsigned long count,
                      unsigned long pdone, unsigned long foreigndom);
long compat_iret(struct cpu_regs *regs);
long compat_xen_version(unsigned long cmd, unsigned long arg);
long compat_set_gdt(unsigned long frame_list, unsigned long entries);
long compat_memory_op(unsigned long cmd, unsigned long arg);
long compat_multicall(unsigned long call_list, unsigned long nr_calls);
long compat_grant_table_op(unsigned long cmd, unsigned long uop,
                           unsigned long count);
long compat_vcpu_op(unsigned long cmd, unsigned long vcpuid,
                    unsigned long arg);
long compat_sched_op(unsigned long cmd, unsigned long arg);
long compat_physdev_op(unsigned long cmd, unsigned long arg);

long do_set_trap_table(unsigned long traps);
long do_stack_switch(unsigned long ss, unsigned long esp);
long do_set_callbacks(unsigned long event, unsigned long failsafe,
                      unsigned long syscall);
long do_fpu_taskswitch(unsigned long set);
long do_set_debugreg(unsigned long reg, unsigned long value);
struct vcpu;
long pv_set_debugreg(struct vcpu *v, unsigned int reg, unsigned long value);
void pv_load_debugregs(const struct vcpu *v);
unsigned long do_get_debugreg(unsigned long reg);
long do_update_descriptor(unsigned long pa, unsigned long desc);
long do_set_gdt(unsigned long frame_list, unsigned long entries);
long do_memory_op(unsigned long cmd, unsigned long arg);
long do_multicall(unsigned long call_list, unsigned long nr_calls);
long do_xen_version(unsigned long cmd, unsigned long arg);
long do_console_io(unsigned long cmd, unsigned long count,
                   unsigned long buffer);
long do_vm_assist(unsigned long cmd, unsigned long type);
long do_iret(struct cpu_regs *regs);
long do_set_segment_base(unsigned long which, unsigned long base);
long do_sched_op(unsigned long cmd, unsigned long arg);
long do_callback_op(unsigned long cmd, unsigned long arg);
long do_nmi_op(unsigned long cmd, unsigned long arg);
long do_event_channel_op(unsigned long cmd, unsigned long arg);
long do_event_channel_op_compat(unsigned long arg);
long do_sched_op_compat(unsigned long cmd, unsigned long arg);
long do_set_timer_op(uint64_t timeout);
long do_vcpu_op(unsigned long cmd, unsigned long vcpuid, unsigned long arg);
long do_physdev_op(unsigned long cmd, unsigned long arg);
/* pv/control-ops.c: refused as Xen refuses an unprivileged domU. */
long do_platform_op(unsigned long u_op);
long do_sysctl(unsigned long u_op);
long do_domctl(unsigned long u_op);
long do_xenpmu_op(unsigned long op, unsigned long arg);
long do_grant_table_op(unsigned long cmd, unsigned long uop,
                       unsigned long count);
long do_mmu_update(unsigned long ureqs, unsigned long count,
                   unsigned long pdone, unsigned long foreigndom);
long do_mmuext_op(unsigned long uops, unsigned long count,
                  unsigned long pdone, unsigned long foreigndom);
long do_update_va_mapping(unsigned long va, unsigned long val,
                          unsigned long flags);
long do_update_va_mapping_otherdomain(unsigned long va, unsigned long val,
                                      unsigned long flags,
                                      unsigned long domid);

/*
 * Preemption of long batches: after @done entries, should this invocation
 * stop and continue itself?  The continuation re-issues hypercall @nr
 * with new arguments; return its result.  Inside a multicall too: the
 * entry's arguments are rewritten and the batch continues from it
 * (pv/multicall.c), as Xen's.
 */
extern unsigned int opt_hypercall_batch;
static inline bool hypercall_preempt_check(unsigned long done)
{
    return opt_hypercall_batch && done >= opt_hypercall_batch;
}

/* In a batch's count: "continued" (Xen's own, not part of the ABI). */
#define MMU_UPDATE_PREEMPTED (1UL << 31)

/*
 * mmu_update / mmuext_op batches: the count Xen takes (32 bits, less the
 * continuation flag) and the total done so far, read back from *pdone
 * when continuing; at the end, the total is written back.
 */
unsigned int batch_continued(unsigned long *count, unsigned long pdone);
void batch_write_done(unsigned long pdone, unsigned int done);

static inline unsigned int batch_begin(unsigned long *count,
                                       unsigned long pdone)
{
    *count = (unsigned int)*count;
    return unlikely(*count & MMU_UPDATE_PREEMPTED)
           ? batch_continued(count, pdone) : 0;
}

static inline void batch_end(unsigned long pdone, unsigned int done,
                             unsigned long i)
{
    if ( pdone )
        batch_write_done(pdone, done + i);
}
unsigned long hypercall_create_continuation(unsigned long nr,
                                            unsigned long a0,
                                            unsigned long a1,
                                            unsigned long a2,
                                            unsigned long a3);

/*
 * One hypercall, as the syscall entry and multicall both dispatch it
 * (pv_do_compat_hypercall(): a 32-bit guest's, as int $0x82 does).
 * in_multicall refuses the calls a multicall may not contain.
 */
long pv_do_hypercall(struct cpu_regs *regs, unsigned long nr,
                     const unsigned long args[6], bool in_multicall);
long pv_do_compat_hypercall(struct cpu_regs *regs, unsigned long nr,
                            const unsigned long args[6], bool in_multicall);

#endif /* PV_HYPERCALL_H */
