/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_multicall, as Xen's do_multicall() (common/multicall.c): a
 * guest array of hypercalls, each run in turn with its result written
 * back into its entry.  A 32-bit guest's entries are its own layout,
 * each call dispatched as its int $0x82 would be (Xen's
 * common/compat/multicall.c builds the same code on compat entries).
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/errno.h>
#include "arch/x86/percpu.h"
#include "pv/domain.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/compat/layout.h"
#include "pv/compat/xlat.h"
#include "pv/vcpu/smp.h"
#include "shim/perfc.h"
#include "shim/timer.h"

/* A batch's time before it continues itself (entries may be long). */
#define MULTICALL_SLICE_NS  1000000ULL

/* The batch's time slice, begun at the first look (*@start 0), is over. */
static bool slice_over(uint64_t *start)
{
    uint64_t now = NOW();

    if ( !*start )
    {
        *start = now;
        return false;
    }
    return now - *start >= MULTICALL_SLICE_NS;
}

/*
 * -EFAULT if the array is bad (checked up front as Xen does: its start,
 * and that its size doesn't overflow) or an entry can't be read or its
 * result written; the entries before it have run.  An entry whose call
 * continues itself (a long mmu_update, grant copy, memory op) gets its
 * new arguments written back and the batch continues from it, so no
 * entry's work runs unbounded: the guest sees an entry's arguments
 * changed, as on Xen.  A sub-call's own
 * error is only that entry's result.  Only `result` is written back; a
 * debug build poisons the rest of each entry, as a debug Xen does, so
 * guests that rely on more get caught.  An iret ends the batch.  Entered
 * without the domain lock: each entry takes it if it needs it.
 */
static always_inline long multicall(unsigned long call_list,
                                    unsigned long nr_calls, bool compat)
{
    struct cpu_regs *regs = &get_cpu_info()->guest_regs;
    const size_t size = compat ? COMPAT_SIZEOF(multicall_entry)
                               : sizeof(multicall_entry_t);
    const size_t result = compat ? COMPAT_OFFSET(multicall_entry, result)
                                 : offsetof(multicall_entry_t, result);
    const size_t result_size = compat ? COMPAT_MSIZE(multicall_entry, result)
                                      : sizeof(xen_ulong_t);
    uint8_t c[COMPAT_SIZEOF(multicall_entry)];
    multicall_entry_t call;
    const void *res;
    unsigned long i, entry;

    struct vcpu *v = current_vcpu();
    uint64_t start = 0;

    perfc_incr(calls_to_multicall);
    if ( nr_calls >= ~0UL / size || !guest_range_ok(call_list, 1) )
        return -XEN_EFAULT;

    for ( i = 0; i < nr_calls; i++ )
    {
        entry = call_list + i * size;
        /*
         * Xen continues a long batch when work is pending; we do it every
         * hypercall-batch entries, or once it has run MULTICALL_SLICE_NS
         * (looked at every 8 entries, from the 8th, so a short batch
         * never reads the clock: each entry's own work is bounded, its
         * call continuing itself, below), so the shim is back on its
         * return path after bounded work, invisibly to the guest.
         */
        if ( i && opt_hypercall_batch &&
             (i >= opt_hypercall_batch ||
              (!(i % 8) && slice_over(&start))) )
            return hypercall_create_continuation(__HYPERVISOR_multicall,
                                                 entry, nr_calls - i, 0, 0);

        perfc_incr(calls_from_multicall);
        if ( compat ? copy_from_guest(c, entry, size)
                    : copy_from_guest(&call, entry, size) )
            return -XEN_EFAULT;

        /*
         * Each entry runs as it would on its own: one that needs the
         * domain lock takes it, held then to the exit.  A nested
         * multicall fails with -EINVAL.
         */
        if ( compat )
            xlat_multicall_entry_from_compat(&call, c);
        v->mc_call = &call;
        v->mc_preempted = false;
        if ( compat )
        {
            call.result = pv_do_compat_hypercall(regs, call.op, call.args,
                                                 true);
            xlat_multicall_entry_to_compat(c, &call);
            res = compat_ptr(c, multicall_entry, result);
        }
        else
        {
            call.result = pv_do_hypercall(regs, call.op, call.args, true);
            res = &call.result;
        }
        v->mc_call = NULL;

        /*
         * The entry's call continued itself (Xen's mc_preempt): its
         * arguments, rewritten, go back into the entry, whole, and the
         * batch continues from it; its result is not one.  An entry
         * that can't be written back is -EFAULT, as Xen's.
         */
        if ( v->mc_preempted )
        {
            v->mc_preempted = false;
            if ( compat ? copy_to_guest(entry, c, size)
                        : copy_to_guest(entry, &call, size) )
                return -XEN_EFAULT;
            return hypercall_create_continuation(__HYPERVISOR_multicall,
                                                 entry, nr_calls - i, 0, 0);
        }

        if ( IS_ENABLED(CONFIG_DEBUG) )
        {
            multicall_entry_t poison;

            BUILD_BUG_ON(COMPAT_SIZEOF(multicall_entry) > sizeof(poison));
            memset(&poison, 0xaa, sizeof(poison));
            (void)copy_to_guest(entry, &poison, size);
        }
        /*
         * Xen's mc_exit: an iret does not return to the batch.  Its
         * result (the %rax it restores) is written back as well as can
         * be and becomes the multicall's, so the guest lands at the iret
         * frame's %rip with its %rax.
         */
        if ( call.op == __HYPERVISOR_iret )
        {
            (void)copy_to_guest(entry + result, res, result_size);
            return call.result;
        }
        if ( copy_to_guest(entry + result, res, result_size) )
            return -XEN_EFAULT;
    }
    return 0;
}

long __hot_text do_multicall(unsigned long call_list, unsigned long nr_calls)
{
    return multicall(call_list, nr_calls, false);
}

long compat_multicall(unsigned long call_list, unsigned long nr_calls)
{
    return multicall(call_list, nr_calls, true);
}
