/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The shim's virtual memory layout, inside the L4 slots the PV ABI reserves
 * for the hypervisor (HYPERVISOR_VIRT_START..END in xen/arch-x86/xen-x86_64.h).
 * Usable from C, assembly and the linker script.
 *
 *   slot 256  0xffff800000000000  M2P, read-only to the guest (MACH2PHYS_*)
 *   slot 260  0xffff820000000000  pages mapped on demand (a guest's LDT)
 *             0xffff820040000000  the APs' per-CPU areas
 *             0xffff820080000000  device MMIO, uncached (drivers/ioremap.c)
 *   slot 261  0xffff82d080000000  the shim image (as Xen places its own)
 *   slot 262+ 0xffff830000000000  directmap of RAM (as Xen's DIRECTMAP)
 */
#ifndef ARCH_X86_LAYOUT_H
#define ARCH_X86_LAYOUT_H

#ifdef __ASSEMBLER__
#define _AC(x, y) x
#else
#define _AC(x, y) x##y
#endif

/* All of the shim's mappings: pv/ checks this is the ABI's reserved range. */
#define SHIM_AREA_START      _AC(0xffff800000000000, UL)
#define SHIM_AREA_END        _AC(0xffff880000000000, UL)

#define SHIM_VIRT_START      _AC(0xffff82d080000000, UL)
#define SHIM_LOAD_PHYS       _AC(0x200000, UL)      /* 2 MiB */
#define SHIM_IMAGE_MAX       _AC(0x40000000, UL)    /* boot maps 1 GiB */

/* Slot 260: pages mapped on demand, e.g. a guest's LDT as the CPU reads it. */
#define ONDEMAND_VIRT_START  _AC(0xffff820000000000, UL)
#define ONDEMAND_VIRT_SIZE   _AC(0x400000, UL)

/*
 * Slot 260 too: each AP's per-CPU area, PERCPU_VIRT_SIZE at
 * PERCPU_VIRT_START + cpu * PERCPU_VIRT_SIZE (CPU 0's is in the image):
 * its stack block (STACK_SIZE-aligned, the guard page left unmapped), its
 * GDT, and its struct percpu.
 */
#define PERCPU_VIRT_START    _AC(0xffff820040000000, UL)
#define PERCPU_VIRT_SIZE     (2 * STACK_SIZE)

/*
 * Slot 260 too: the container's device registers (PCI BARs, ECAM), mapped
 * uncached as drivers find them, from the bottom up, never unmapped.
 */
#define DEVMMIO_VIRT_START   _AC(0xffff820080000000, UL)
#define DEVMMIO_VIRT_SIZE    _AC(0x40000000, UL)    /* 1 GiB */

#define DIRECTMAP_VIRT_START _AC(0xffff830000000000, UL)
#define DIRECTMAP_VIRT_END   _AC(0xffff880000000000, UL)

#define L4_SLOT(va)          (((va) >> 39) & 511)

/*
 * Per-CPU stack block: 4 IST stacks, a guard page, then the primary stack,
 * so a primary-stack overflow faults on the guard page (and becomes a #DF
 * on its intact IST stack) before it can reach the IST stacks.
 */
#define STACK_ORDER          4
#define STACK_SIZE           (_AC(4096, UL) << STACK_ORDER)
#define IST_MC_PAGE          0
#define IST_NMI_PAGE         1
#define IST_DF_PAGE          2
#define IST_DB_PAGE          3
#define STACK_GUARD_PAGE     4
#define PRIMARY_STACK_PAGE   5

#define NR_CPUS              64

#ifndef __ASSEMBLER__
/* Image addresses: fixed offset from the load address. */
#define __pa_image(va)  ((unsigned long)(va) - SHIM_VIRT_START)
/* Any RAM through the directmap. */
#define __va(pa)        ((void *)((unsigned long)(pa) + DIRECTMAP_VIRT_START))
#define __pa(va)        ((unsigned long)(va) - DIRECTMAP_VIRT_START)
#endif

#endif /* ARCH_X86_LAYOUT_H */
