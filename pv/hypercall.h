/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every hypercall handler, named do_<hypercall> as in Xen.  Arguments are
 * the guest's registers as unsigned longs; guest pointers are guest
 * virtual addresses, used only through pv/guest-access.h.
 */
#ifndef PV_HYPERCALL_H
#define PV_HYPERCALL_H

#include "pv/domain.h"
#include <xen/event_channel.h>
#include <xen/sched.h>
#include <xen/vcpu.h>

/*
 * Hypercalls that run without the domain lock (pv/hypercall.c), from
 * their number and first two arguments: those that read only the shim's
 * constants or change only the calling vCPU's own state (its stack for
 * bounces, CR0.TS, its singleshot timer under its CPU's timer lock),
 * copying to and from guest memory through its page tables as the guest
 * itself could (interrupts stay off, so no flush of a frame they write
 * can finish meanwhile); set_segment_base (the MSRs and a %gs selector
 * checked against the vCPU's own GDT); EVTCHNOP_send, under the
 * port's own lock; mmu_update, update_va_mapping and mmuext_op's ops on
 * the frame table's words and the tables' page locks (an mmuext op that
 * needs the domain lock takes it, held then to the exit); and multicall,
 * whose entries each take the domain lock the same way if they need it.
 */
static inline bool pv_hypercall_lock_free(unsigned long nr, unsigned long a0,
                                          unsigned long a1)
{
    switch ( nr )
    {
    case __HYPERVISOR_xen_version:
    case __HYPERVISOR_iret:
    case __HYPERVISOR_mmuext_op:        /* locks per op (pv/mm/mmuext.c) */
    case __HYPERVISOR_mmu_update:       /* page locks (pv/mm/mm-update.c) */
    case __HYPERVISOR_update_va_mapping:
    case __HYPERVISOR_stack_switch:
    case __HYPERVISOR_fpu_taskswitch:
    case __HYPERVISOR_set_timer_op:
    case __HYPERVISOR_multicall:        /* locks per entry (pv/multicall.c) */
    case __HYPERVISOR_grant_table_op:   /* Xen's grant locks (pv/grant/) */
    case __HYPERVISOR_event_channel_op: /* event_lock, ports' (pv/event/) */
    case __HYPERVISOR_event_channel_op_compat:
        return true;
    case __HYPERVISOR_set_segment_base:
        return !dom.compat;             /* this vCPU's bases and %gs */
    case __HYPERVISOR_sched_op:         /* this vCPU's own state */
        return a0 == SCHEDOP_yield || a0 == SCHEDOP_block;
    case __HYPERVISOR_vcpu_op:
        if ( a0 == VCPUOP_is_up )
            return true;                /* one word, as Xen reads it */
        return (a0 == VCPUOP_set_singleshot_timer ||
                a0 == VCPUOP_stop_singleshot_timer) &&
               a1 == current_vcpu()->id;
    default:
        return false;
    }
}

/*
 * May hypercall @nr have written more of the guest's frame than %rax
 * (its selectors and flags: HYPERVISOR_iret, alone or in a multicall)?
 * Then the exit makes the frame safe (pv_exit_work()).
 */
static inline bool pv_hypercall_may_write_frame(unsigned long nr)
{
    return nr == __HYPERVISOR_iret || nr == __HYPERVISOR_multicall;
}

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
 * stop and continue itself (never inside a multicall)?  The continuation
 * re-issues hypercall @nr with new arguments; return its result.
 */
extern unsigned int opt_hypercall_batch;
static inline bool hypercall_preempt_check(unsigned long done)
{
    return opt_hypercall_batch && done >= opt_hypercall_batch &&
           !current_vcpu()->in_multicall;
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
