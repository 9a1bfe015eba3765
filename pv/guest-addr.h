/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a guest linear address may be, before anything is read through it
 * (pv/guest-access.h does the reading): canonical, and Xen's __addr_ok().
 */
#ifndef PV_GUEST_ADDR_H
#define PV_GUEST_ADDR_H

#include "shim/lib.h"
#include <xen/xen.h>

/* 48-bit virtual addresses: bits 63..47 all equal. */
static inline bool is_canonical(uint64_t va)
{
    return ((int64_t)va >> 47) == ((int64_t)va >> 63);
}

/* Xen's __addr_ok(): the lower half, or above the hypervisor's range. */
static inline bool guest_addr_ok(uint64_t va)
{
    return va < (1UL << 47) || va >= HYPERVISOR_VIRT_END;
}

#endif /* PV_GUEST_ADDR_H */
