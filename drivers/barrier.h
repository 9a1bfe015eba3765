/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory barriers between the shim and a device that runs on other host
 * threads (QEMU's I/O threads, or another physical CPU under KVM): the
 * x86 memory model (SDM vol. 3A, 9.2.2) orders stores with stores and
 * loads with loads, so those barriers only stop the compiler; a store
 * followed by a load of another location needs a locked instruction.
 * These belong in arch/x86/barrier.h with the CPU's other definitions.
 */
#ifndef DRIVERS_BARRIER_H
#define DRIVERS_BARRIER_H

#define barrier()       asm volatile ( "" ::: "memory" )
#define smp_wmb()       barrier()   /* stores before stores */
#define smp_rmb()       barrier()   /* loads before loads */
/* Stores before later loads: a locked add to the stack, as Linux's. */
#define smp_mb() \
    asm volatile ( "lock addl $0, -4(%%rsp)" ::: "memory", "cc" )

#endif /* DRIVERS_BARRIER_H */
