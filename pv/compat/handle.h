/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A compat guest's handles inside its structures (pv/compat/xlat.h): the
 * range Xen allows one, and guest arrays whose elements are narrower
 * there.  An array of xen_pfn_t or xen_ulong_t (frame, extent and index
 * lists) has 4-byte elements for a 32-bit guest (COMPAT_SIZEOF(
 * xen_pfn_t)), 8-byte ones for a 64-bit guest.  The handlers' compat
 * variants pass the element size as a compile-time constant, so the
 * native variant's copies stay 8-byte loads and stores.
 */
#ifndef PV_COMPAT_HANDLE_H
#define PV_COMPAT_HANDLE_H

#include "pv/compat/layout.h"
#include "pv/guest-access.h"

/*
 * Xen's compat_handle_okay(): @nr elements of @size bytes from @va, all
 * below the compat guest's hypervisor hole, and a byte count that fits
 * 32 bits.  Xen checks the arrays a compat structure's handles name this
 * way (extent and frame lists, the runstate and time areas, the I/O
 * bitmap); the structures themselves are read as any guest memory.
 */
static inline bool compat_handle_okay(unsigned long va, unsigned long nr,
                                      size_t size)
{
    return nr < UINT32_MAX / size &&
           va + (nr ? nr * size - 1 : 0) < COMPAT_HYPERVISOR_VIRT_START;
}

/* The size of one element of a guest array of xen_pfn_t. */
#define XEN_PFN_SIZE(compat) \
    ((compat) ? COMPAT_SIZEOF(xen_pfn_t) : sizeof(xen_pfn_t))

/* Element @i of a guest array of @size-byte values, zero-extended. */
static always_inline int copy_elem_from_guest(unsigned long *v,
                                              unsigned long va,
                                              unsigned long i, size_t size)
{
    uint8_t b[sizeof(*v)];

    ASSERT(size <= sizeof(b));
    if ( copy_from_guest_offset(b, va, i, size) )
        return -XEN_EFAULT;
    *v = compat_load(b, size);
    return 0;
}

/*
 * Store @v as element @i of a guest array of @size-byte values:
 * -XEN_ERANGE, and nothing written, if it doesn't fit, else 0 or
 * -XEN_EFAULT.
 */
static always_inline int copy_elem_to_guest(unsigned long va,
                                            unsigned long i,
                                            unsigned long v, size_t size)
{
    uint8_t b[sizeof(v)];

    ASSERT(size <= sizeof(b));
    if ( size < sizeof(v) && (v >> (8 * size)) )
        return -XEN_ERANGE;
    compat_store(b, size, v);
    return copy_to_guest_offset(va, i, b, size);
}

#endif /* PV_COMPAT_HANDLE_H */
