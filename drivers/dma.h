/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory that devices reach (rings, request headers): whole zeroed frames
 * of the shim's, at their physical address (no IOMMU in the container).
 */
#ifndef DRIVERS_DMA_H
#define DRIVERS_DMA_H

#include "shim/lib.h"
#include "arch/x86/layout.h"

/* @bytes of zeroed, physically contiguous memory; NULL if none. At boot. */
void *dma_alloc(unsigned long bytes);
/* The address a device uses for @p (from dma_alloc()). */
static inline uint64_t dma_addr(const void *p)
{
    return __pa(p);
}

#endif /* DRIVERS_DMA_H */
