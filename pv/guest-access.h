/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every read or write of guest memory goes through these.  The guest's
 * page tables are live during a hypercall, so a guest pointer is used as
 * it is, after a range check that keeps it out of the shim's area; a fault
 * becomes -EFAULT through the exception table, never a shim crash.
 */
#ifndef PV_GUEST_ACCESS_H
#define PV_GUEST_ACCESS_H

#include <xen/errno.h>
#include "arch/x86/uaccess.h"
#include "pv/domain.h"

/*
 * A guest range is usable if it lies wholly in the lower canonical half
 * or wholly above the hypervisor's reserved range (the upper canonical
 * half begins at HYPERVISOR_VIRT_START, so nothing below it is allowed).
 * A 32-bit guest's starts below 4 GiB (its pointers are 32 bits; Xen's
 * __addr_ok()) and stays in the lower half: above 4 GiB its page tables
 * (the shim's compat L4) map nothing, so an access faults there, and its
 * M2P in the hypervisor hole reads as on Xen and can't be written.
 * Compat handle arrays have their own, stricter check (pv/compat/handle.h).
 */
static inline bool guest_range_ok(unsigned long va, size_t len)
{
    unsigned long end = va + len;

    if ( end < va )
        return false;
    if ( unlikely(dom.compat) )
        return va < (1UL << 32) && end <= (1UL << 47);
    return end <= (1UL << 47) || va >= HYPERVISOR_VIRT_END;
}

static inline int copy_from_guest(void *dst, unsigned long va, size_t len)
{
    if ( !guest_range_ok(va, len) ||
         raw_copy_from_user(dst, (const void *)va, len) )
        return -XEN_EFAULT;
    return 0;
}

static inline int copy_to_guest(unsigned long va, const void *src,
                                size_t len)
{
    if ( !guest_range_ok(va, len) || raw_copy_to_user((void *)va, src, len) )
        return -XEN_EFAULT;
    return 0;
}

static inline int clear_guest(unsigned long va, size_t len)
{
    if ( !guest_range_ok(va, len) || raw_clear_user((void *)va, len) )
        return -XEN_EFAULT;
    return 0;
}

/* Element @i of a guest array of @size-byte elements. */
static inline int copy_from_guest_offset(void *dst, unsigned long va,
                                         unsigned long i, size_t size)
{
    if ( i > ~0UL / size || va + i * size < va )
        return -XEN_EFAULT;
    return copy_from_guest(dst, va + i * size, size);
}

/*
 * The same, for an array whose whole range the caller checked with
 * guest_range_ok() (Xen's __copy_from_guest_offset() after
 * guest_handle_okay()): a fault is still -EFAULT.
 */
static inline int __copy_from_guest_offset(void *dst, unsigned long va,
                                           unsigned long i, size_t size)
{
    return raw_copy_from_user(dst, (const void *)(va + i * size), size)
           ? -XEN_EFAULT : 0;
}

static inline int copy_to_guest_offset(unsigned long va, unsigned long i,
                                       const void *src, size_t size)
{
    if ( i > ~0UL / size || va + i * size < va )
        return -XEN_EFAULT;
    return copy_to_guest(va + i * size, src, size);
}

#endif /* PV_GUEST_ACCESS_H */
