/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading and writing a structure in a compat (32-bit) guest's layout,
 * held in a byte buffer, by member name: the offsets and sizes come from
 * build/include/compat-layout.h, generated from Debian's Xen headers
 * compiled with -m32 (pv/compat/layout-gen.c).  No Xen structure is
 * retyped; a member the generator doesn't list is a build error.
 *
 *   COMPAT_SIZEOF(start_info)                   the 32-bit sizeof
 *   COMPAT_OFFSET(s, m), COMPAT_MSIZE(s, m)     a member's offset and size
 *   compat_get(buf, start_info, nr_pages)       its value, zero-extended
 *   compat_put(buf, start_info, nr_pages, v)    store its low bytes
 *   compat_get_idx(buf, vcpu_guest_context, gdt_frames, i)
 *   compat_ptr(buf, s, m), compat_ptr_idx(buf, s, m, i)
 *                                               a member's address, for
 *                                               byte arrays and for the
 *                                               layout of a nested struct
 *   compat_fits(v, s, m)                        v fits the member unsigned
 *   compat_put_fit(buf, s, m, v)                compat_put, then fits?
 *   compat_get_handle(), compat_put_handle()    a guest handle member
 *
 * Member names are the C path with "__" for ".": user_regs__eip,
 * console__domU__mfn.  An array m (or a member m of an array's elements,
 * as trap_ctxt__address) also has COMPAT_NR(s, m) and COMPAT_STRIDE(s, m),
 * and is reached with the _idx forms; the index is the shim's, checked
 * with ASSERT (range-check a guest's index first).  COMPAT_SIZEOF(
 * xen_pfn_t), (xen_ulong_t) and (ulong) size the elements of guest
 * arrays.
 */
#ifndef PV_COMPAT_LAYOUT_H
#define PV_COMPAT_LAYOUT_H

#include "shim/lib.h"
#include <compat-layout.h>

/*
 * A PAE guest's hypervisor hole and M2P (xen-x86_32.h), before any
 * XEN_ELFNOTE_HV_START_LOW lowers the hole; COMPAT_FLAT_* are its ring 1
 * and ring 3 flat selectors.
 */
#define COMPAT_HYPERVISOR_VIRT_START \
    ((uint32_t)COMPAT_HYPERVISOR_VIRT_START_S32)
#define COMPAT_MACH2PHYS_VIRT_START \
    ((uint32_t)COMPAT_MACH2PHYS_VIRT_START_S32)
#define COMPAT_MACH2PHYS_VIRT_END   ((uint32_t)COMPAT_MACH2PHYS_VIRT_END_S32)

#define COMPAT_SIZEOF(s)        COMPAT_##s##_SIZEOF
#define COMPAT_OFFSET(s, m)     COMPAT_##s##__##m##_OFF
#define COMPAT_MSIZE(s, m)      COMPAT_##s##__##m##_SIZE
#define COMPAT_NR(s, m)         COMPAT_##s##__##m##_NR
#define COMPAT_STRIDE(s, m)     COMPAT_##s##__##m##_STRIDE

static always_inline size_t compat_index(size_t i, size_t nr)
{
    ASSERT(i < nr);
    return i;
}

#define compat_ptr(buf, s, m) \
    ((void *)((const uint8_t *)(buf) + COMPAT_OFFSET(s, m)))
#define compat_ptr_idx(buf, s, m, i)                                    \
    ((void *)((const uint8_t *)(buf) + COMPAT_OFFSET(s, m) +            \
              compat_index(i, COMPAT_NR(s, m)) * COMPAT_STRIDE(s, m)))

/* Little-endian loads and stores of 1, 2, 4 or 8 bytes, unaligned. */
static always_inline uint64_t compat_load(const void *p, size_t size)
{
    uint8_t b;
    uint16_t h;
    uint32_t w;
    uint64_t q;

    switch ( size )
    {
    case 1: memcpy(&b, p, 1); return b;
    case 2: memcpy(&h, p, 2); return h;
    case 4: memcpy(&w, p, 4); return w;
    default: memcpy(&q, p, 8); return q;
    }
}

static always_inline void compat_store(void *p, size_t size, uint64_t v)
{
    uint8_t b = v;
    uint16_t h = v;
    uint32_t w = v;

    switch ( size )
    {
    case 1: memcpy(p, &b, 1); break;
    case 2: memcpy(p, &h, 2); break;
    case 4: memcpy(p, &w, 4); break;
    default: memcpy(p, &v, 8); break;
    }
}

/* A scalar member: anything else (a struct, an array) has no value. */
#define COMPAT_SCALAR(s, m)                                             \
    BUILD_BUG_ON(COMPAT_MSIZE(s, m) != 1 && COMPAT_MSIZE(s, m) != 2 &&  \
                 COMPAT_MSIZE(s, m) != 4 && COMPAT_MSIZE(s, m) != 8)

#define compat_get(buf, s, m) ({                                        \
    COMPAT_SCALAR(s, m);                                                \
    compat_load(compat_ptr(buf, s, m), COMPAT_MSIZE(s, m));             \
})
#define compat_put(buf, s, m, v) ({                                     \
    COMPAT_SCALAR(s, m);                                                \
    compat_store(compat_ptr(buf, s, m), COMPAT_MSIZE(s, m), (v));       \
})
#define compat_get_idx(buf, s, m, i) ({                                 \
    COMPAT_SCALAR(s, m);                                                \
    compat_load(compat_ptr_idx(buf, s, m, i), COMPAT_MSIZE(s, m));      \
})
#define compat_put_idx(buf, s, m, i, v) ({                              \
    COMPAT_SCALAR(s, m);                                                \
    compat_store(compat_ptr_idx(buf, s, m, i), COMPAT_MSIZE(s, m), (v));\
})

/* Does @v, taken as unsigned, fit member m? (Shifts kept under 64.) */
#define compat_fits(v, s, m) \
    ((((uint64_t)(v) >> (8 * COMPAT_MSIZE(s, m) - 1)) >> 1) == 0)

/* Store @v's low bytes, and say whether that was all of it. */
#define compat_put_fit(buf, s, m, v) ({                                 \
    uint64_t v_ = (v);                                                  \
    compat_put(buf, s, m, v_);                                          \
    compat_fits(v_, s, m);                                              \
})

/*
 * A guest handle member (a 32-bit pointer): in, zero-extended to the
 * native handle's pointer; out, false if the pointer doesn't fit.
 */
#define compat_get_handle(buf, s, m) ({                                 \
    BUILD_BUG_ON(COMPAT_MSIZE(s, m) != 4);                              \
    (void *)(uintptr_t)compat_get(buf, s, m);                           \
})
#define compat_put_handle(buf, s, m, h) \
    compat_put_fit(buf, s, m, (uintptr_t)(h).p)

#endif /* PV_COMPAT_LAYOUT_H */
