/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory that devices reach (rings, request headers): whole zeroed frames
 * of the shim's, at their physical address (no IOMMU in the container).
 */
#ifndef DRIVERS_DMA_H
#define DRIVERS_DMA_H

#include "shim/lib.h"
#include "arch/x86/barrier.h"
#include "arch/x86/layout.h"
#ifndef SHIM_HOST_TEST
#include "arch/x86/flush.h"
#endif

/*
 * @bytes of zeroed, physically contiguous memory; NULL if none.  On CPU
 * 0: at boot, or for a device the host adds.
 */
void *dma_alloc(unsigned long bytes);
/* The same from the top of memory: large buffers, out of the guest's way. */
void *dma_alloc_top(unsigned long bytes);
/*
 * Whose what dma_alloc() hands out from now on is (0: nobody's, kept for
 * good); the owner before.  pci.c sets a function's around its probe.
 */
unsigned int dma_owner_set(unsigned int owner);
/* Every piece of @owner's back to the frame allocator: how many frames. */
unsigned long dma_free_owner(unsigned int owner);
/* The address a device uses for @p (from dma_alloc()). */
static inline uint64_t dma_addr(const void *p)
{
    return __pa(p);
}

/*
 * Between a store to memory the device reads and a load of what the
 * device writes, where each side publishes an index and then reads
 * whether the other wants to hear of it (virtio's event indexes): a full
 * fence, so neither misses the other's move.  The device is a QEMU model
 * in another host thread, and QEMU before 8.1 emits no fence at all for
 * the guest's fences when the VM has one vCPU (its commit c914d46d,
 * "tcg: Do not elide memory barriers for !CF_PARALLEL in system mode"):
 * the host CPU may then take the load before the store is visible, and
 * the device's kick or interrupt is lost for good (seen here: 32 writes
 * on a virtqueue that QEMU never looked at, about once in 250,000
 * requests).  There, dma_mb() also invalidates one page's translation:
 * QEMU's helper for invlpg takes the vCPU's TLB spinlock (accel/tcg/
 * cputlb.c, tlb_flush_page_by_mmuidx_async_0()), and that lock's xchg
 * drains the host CPU's store buffer.  A port write would too (QEMU
 * serves it under its global lock), but waits for that lock whenever
 * QEMU's main loop holds it, as it does while it moves the device's
 * data: 40% of the vCPU's time in a TCP send.  The page is the top one
 * of the lower half, which no guest of ours maps (Linux's TASK_SIZE_MAX
 * ends below it) and no large page covers (QEMU flushes its whole TLB
 * for a page inside the range its large pages span).  drivers_init()
 * decides (dma_mb_tcg).
 */
#define DMA_MB_TCG_VA       0x00007ffffffff000UL
#ifdef SHIM_HOST_TEST
static inline void dma_mb(void)
{
    smp_mb();
}
#else
extern bool dma_mb_tcg;
static inline void dma_mb(void)
{
    smp_mb();
    if ( dma_mb_tcg )
        invlpg_one(DMA_MB_TCG_VA);
}
#endif

#endif /* DRIVERS_DMA_H */
