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
#include "arch/x86/io.h"
#endif

/* @bytes of zeroed, physically contiguous memory; NULL if none. At boot. */
void *dma_alloc(unsigned long bytes);
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
 * requests).  There, dma_mb() also writes port 0x80, which QEMU serves
 * under its global lock, whose locked instruction drains the host CPU's
 * store buffer.  drivers_init() decides (dma_mb_port).
 */
#ifdef SHIM_HOST_TEST
static inline void dma_mb(void)
{
    smp_mb();
}
#else
extern bool dma_mb_port;
static inline void dma_mb(void)
{
    smp_mb();
    if ( dma_mb_port )
        outb(0, 0x80);
}
#endif

#endif /* DRIVERS_DMA_H */
