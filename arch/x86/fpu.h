/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The x87/SSE state: CR0.TS (a lazy switch's #NM), the 512-byte FXSAVE
 * image (SDM vol. 1, 10.5.1, table 10-2) and its defaults (Xen's, from
 * asm/xstate.h), and the instructions that save, load and reset it.
 */
#ifndef ARCH_X86_FPU_H
#define ARCH_X86_FPU_H

#include "arch/x86/cr.h"

#define FCW_DEFAULT         0x037f      /* x87 control word, as fninit */
#define MXCSR_DEFAULT       0x1f80

/* The FXSAVE image: 512 bytes, 16-byte aligned; where its fields are. */
#define FXSAVE_SIZE         512
#define FXSAVE_FCW          0           /* uint16_t */
#define FXSAVE_MXCSR        24          /* uint32_t */
#define FXSAVE_MXCSR_MASK   28          /* uint32_t; 0 means 0xffbf */

static inline void clts(void)
{
    asm volatile ( "clts" );
}

/* Set CR0.TS: the next FPU instruction raises #NM. */
static inline void stts(void)
{
    write_cr0(read_cr0() | X86_CR0_TS);
}

static inline void fninit(void)
{
    asm volatile ( "fninit" );
}

/* The 64-bit forms, on an FXSAVE_SIZE image at @fx. */
static inline void fxsave(void *fx)
{
    asm volatile ( "fxsave64 %0" : "=m" (*(uint8_t (*)[FXSAVE_SIZE])fx) );
}

static inline void fxrstor(const void *fx)
{
    asm volatile ( "fxrstor64 %0"
                   :: "m" (*(const uint8_t (*)[FXSAVE_SIZE])fx) );
}

#endif /* ARCH_X86_FPU_H */
