/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hypercalls of a 64-bit PV guest: a call into the hypervisor-filled
 * hypercall page, stub N at hypercall_page + N * 32.
 */
#ifndef GUEST_HYPERCALL_H
#define GUEST_HYPERCALL_H

#include <xen/xen.h>
#include <xen/sched.h>
#include <xen/version.h>

extern char hypercall_page[];

/*
 * The 64-bit PV ABI: number in %rax (the stub loads it), arguments in
 * %rdi, %rsi, %rdx, %r10, %r8, result in %rax.  The stub saves and
 * restores %rcx and %r11 around its `syscall`; the argument registers may
 * come back clobbered (a debug Xen poisons them), so all five are outputs.
 */
#define HYPERCALL(nr, a1, a2, a3, a4, a5) ({                                \
    unsigned long a1_ = (unsigned long)(a1);                                \
    unsigned long a2_ = (unsigned long)(a2);                                \
    unsigned long a3_ = (unsigned long)(a3);                                \
    register unsigned long a4_ asm ( "r10" ) = (unsigned long)(a4);         \
    register unsigned long a5_ asm ( "r8" ) = (unsigned long)(a5);          \
    long rc_;                                                               \
                                                                            \
    asm volatile ( "call hypercall_page + %c[off]"                          \
                   : "=a" (rc_), "+D" (a1_), "+S" (a2_), "+d" (a3_),        \
                     "+r" (a4_), "+r" (a5_)                                 \
                   : [off] "i" ((nr) * 32)                                  \
                   : "memory" );                                            \
    rc_;                                                                    \
})

static inline long hypercall_set_trap_table(const trap_info_t *table)
{
    return HYPERCALL(__HYPERVISOR_set_trap_table, table, 0, 0, 0, 0);
}

static inline long hypercall_multicall(multicall_entry_t *calls,
                                       unsigned long nr)
{
    return HYPERCALL(__HYPERVISOR_multicall, calls, nr, 0, 0, 0);
}

static inline long hypercall_update_va_mapping(unsigned long va,
                                               uint64_t pte,
                                               unsigned long flags)
{
    return HYPERCALL(__HYPERVISOR_update_va_mapping, va, pte, flags, 0, 0);
}

/*
 * The PV MMU (xen.h "MMU-UPDATE REQUESTS" and "MMU EXTENDED OPERATIONS").
 * @done may be NULL; @foreigndom is DOMID_SELF unless a test says
 * otherwise (mmu_update also takes a page-table owner + 1 in bits 16-31).
 */
static inline long hypercall_mmu_update(const mmu_update_t *reqs,
                                        unsigned int count,
                                        unsigned int *done,
                                        unsigned int foreigndom)
{
    return HYPERCALL(__HYPERVISOR_mmu_update, reqs, count, done, foreigndom,
                     0);
}

static inline long hypercall_mmuext_op(const mmuext_op_t *ops,
                                       unsigned int count,
                                       unsigned int *done,
                                       unsigned int foreigndom)
{
    return HYPERCALL(__HYPERVISOR_mmuext_op, ops, count, done, foreigndom, 0);
}

static inline long hypercall_update_va_mapping_otherdomain(unsigned long va,
                                                           uint64_t pte,
                                                           unsigned long flags,
                                                           unsigned int domid)
{
    return HYPERCALL(__HYPERVISOR_update_va_mapping_otherdomain, va, pte,
                     flags, domid, 0);
}

static inline long hypercall_xen_version(int cmd, void *arg)
{
    return HYPERCALL(__HYPERVISOR_xen_version, cmd, arg, 0, 0, 0);
}

static inline long hypercall_console_io(unsigned int cmd, unsigned int count,
                                        const void *buf)
{
    return HYPERCALL(__HYPERVISOR_console_io, cmd, count, buf, 0, 0);
}

static inline long hypercall_sched_op(int cmd, void *arg)
{
    return HYPERCALL(__HYPERVISOR_sched_op, cmd, arg, 0, 0, 0);
}

/* SCHEDOP_shutdown with @reason (SHUTDOWN_*): returns only on failure. */
static inline long hypercall_shutdown(unsigned int reason)
{
    struct sched_shutdown s = { .reason = reason };

    return hypercall_sched_op(SCHEDOP_shutdown, &s);
}

#endif /* GUEST_HYPERCALL_H */
