/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Bounds-check bypass hardening (Spectre v1, XSA-254 SP1): an index the
 * guest chose, once checked against its bound, is clamped so that even a
 * mispredicted check can't read past the array speculatively.  Xen's and
 * Linux's array_index_nospec(), the `cmp; sbb` form (no lfence).
 */
#ifndef ARCH_X86_NOSPEC_H
#define ARCH_X86_NOSPEC_H

/* ~0UL if @index < @size, else 0, with no branch to mispredict. */
static inline unsigned long array_index_mask_nospec(unsigned long index,
                                                    unsigned long size)
{
    unsigned long mask;

    asm volatile ( "cmp %[size], %[index]; sbb %[mask], %[mask]"
                   : [mask] "=r" (mask)
                   : [size] "g" (size), [index] "r" (index) );
    return mask;
}

/* @index if it is below @size, else 0: for after the real bounds check. */
#define array_index_nospec(index, size) ({                              \
    typeof(index) idx_ = (index);                                       \
    (typeof(index))(idx_ & array_index_mask_nospec(idx_, (size)));      \
})

#endif /* ARCH_X86_NOSPEC_H */
