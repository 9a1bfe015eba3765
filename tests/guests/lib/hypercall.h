/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hypercalls of a PV guest, 64-bit or 32-bit: a call into the
 * hypervisor-filled hypercall page, stub N at hypercall_page + N * 32.
 */
#ifndef GUEST_HYPERCALL_H
#define GUEST_HYPERCALL_H

#include <xen/xen.h>
#include <xen/sched.h>
#include <xen/version.h>

extern char hypercall_page[];

/* HYPERCALL(nr, a1, a2, a3, a4, a5): see arch.h, one per width. */
#include "arch.h"

/*
 * A 64-bit value as hypercall arguments: one on a 64-bit guest, two
 * (low half, high half) under the compat ABI, as Xen's compat handlers
 * take update_va_mapping's PTE or set_timer_op's timeout.  Only in
 * argument lists: HYPERCALL_N()'s below, or a multicall entry's args[].
 */
#ifdef __x86_64__
#define HC_U64(v)       (v)
#else
#define HC_U64(v)       (uint32_t)(v), (uint32_t)((uint64_t)(v) >> 32)
#endif

/* HYPERCALL() with an argument list that HC_U64() may have widened. */
#define HYPERCALL_N(nr, ...)    HYPERCALL_N_(nr, __VA_ARGS__, 0, 0, 0, 0, 0)
#define HYPERCALL_N_(nr, a1, a2, a3, a4, a5, ...) \
    HYPERCALL(nr, a1, a2, a3, a4, a5)

static inline long hypercall_set_trap_table(const trap_info_t *table)
{
    return HYPERCALL(__HYPERVISOR_set_trap_table, table, 0, 0, 0, 0);
}

static inline long hypercall_vm_assist(unsigned int cmd, unsigned int type)
{
    return HYPERCALL(__HYPERVISOR_vm_assist, cmd, type, 0, 0, 0);
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
    return HYPERCALL_N(__HYPERVISOR_update_va_mapping, va, HC_U64(pte),
                       flags);
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
    return HYPERCALL_N(__HYPERVISOR_update_va_mapping_otherdomain, va,
                       HC_U64(pte), flags, domid);
}

/* @list holds DIV_ROUND_UP(entries, 512) frame numbers (xen_ulong_t). */
static inline long hypercall_set_gdt(const unsigned long *list,
                                     unsigned long entries)
{
    return HYPERCALL(__HYPERVISOR_set_gdt, list, entries, 0, 0, 0);
}

static inline long hypercall_update_descriptor(uint64_t pa, uint64_t desc)
{
    return HYPERCALL_N(__HYPERVISOR_update_descriptor, HC_U64(pa),
                       HC_U64(desc));
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
