/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Device registers in the shim's address space: uncached mappings in the
 * DEVMMIO area (arch/x86/layout.h), handed out at boot and kept.
 */
#ifndef DRIVERS_IOREMAP_H
#define DRIVERS_IOREMAP_H

#include "shim/lib.h"

/*
 * Map [@pa, @pa + @size) uncached, readable and writable by the shim only;
 * NULL (logged) if the area is full.  At boot.
 */
void *ioremap(uint64_t pa, uint64_t size);

/* MMIO accessors: one access of the named width, never split or merged. */
static inline uint8_t mmio_read8(const volatile void *p)
{
    return *(const volatile uint8_t *)p;
}
static inline uint16_t mmio_read16(const volatile void *p)
{
    return *(const volatile uint16_t *)p;
}
static inline uint32_t mmio_read32(const volatile void *p)
{
    return *(const volatile uint32_t *)p;
}
static inline void mmio_write8(volatile void *p, uint8_t v)
{
    *(volatile uint8_t *)p = v;
}
static inline void mmio_write16(volatile void *p, uint16_t v)
{
    *(volatile uint16_t *)p = v;
}
static inline void mmio_write32(volatile void *p, uint32_t v)
{
    *(volatile uint32_t *)p = v;
}
/* A 64-bit register as two 32-bit halves, low first (virtio 4.1.3.1). */
static inline void mmio_write64_split(volatile void *p, uint64_t v)
{
    mmio_write32(p, v);
    mmio_write32((volatile uint8_t *)p + 4, v >> 32);
}

#endif /* DRIVERS_IOREMAP_H */
