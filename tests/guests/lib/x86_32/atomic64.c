/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 8-byte atomic loads and stores for a 32-bit guest: gcc inlines 8-byte
 * read-modify-writes as cmpxchg8b loops on i686, but calls libatomic for
 * a plain __atomic_load_n()/__atomic_store_n() when it may use neither
 * SSE nor x87 (-mgeneral-regs-only) for the single 8-byte access, and the
 * test kernels link no libatomic.  A cmpxchg8b is atomic and a full
 * barrier, whatever order was asked for.  (A load writes too, so only
 * for writable memory, as libatomic's own fallback.)
 */
#include <stdint.h>

uint64_t __atomic_load_8(const volatile void *p, int order);
void __atomic_store_8(volatile void *p, uint64_t val, int order);

uint64_t __atomic_load_8(const volatile void *p, int order)
{
    /* Swaps 0 for 0, or fails and hands back what is there. */
    return __sync_val_compare_and_swap((volatile uint64_t *)p, 0, 0);
}

void __atomic_store_8(volatile void *p, uint64_t val, int order)
{
    volatile uint64_t *q = p;
    uint64_t old = *q, seen;

    while ( (seen = __sync_val_compare_and_swap(q, old, val)) != old )
        old = seen;
}
