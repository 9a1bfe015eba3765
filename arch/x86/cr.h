/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Control registers: the bits of CR0 and CR4 (SDM vol. 3A, 2.5) and the
 * state components of XCR0, with Xen's names (asm/x86-defns.h), and moves
 * to and from CR0, CR2, CR3, CR4 and XCR0.
 */
#ifndef ARCH_X86_CR_H
#define ARCH_X86_CR_H

#include <stdint.h>

#define X86_CR0_PE      (1UL << 0)
#define X86_CR0_MP      (1UL << 1)
#define X86_CR0_EM      (1UL << 2)
#define X86_CR0_TS      (1UL << 3)
#define X86_CR0_ET      (1UL << 4)
#define X86_CR0_NE      (1UL << 5)
#define X86_CR0_WP      (1UL << 16)
#define X86_CR0_AM      (1UL << 18)
#define X86_CR0_NW      (1UL << 29)
#define X86_CR0_CD      (1UL << 30)
#define X86_CR0_PG      (1UL << 31)
#define X86_CR4_TSD     (1UL << 2)
#define X86_CR4_PSE     (1UL << 4)
#define X86_CR4_PAE     (1UL << 5)
#define X86_CR4_PGE     (1UL << 7)
#define X86_CR4_OSFXSR  (1UL << 9)
#define X86_CR4_OSXMMEXCPT (1UL << 10)
#define X86_CR4_FSGSBASE (1UL << 16)
#define X86_CR4_PCIDE   (1UL << 17)
#define X86_CR4_OSXSAVE (1UL << 18)
#define X86_CR4_SMEP    (1UL << 20)
#define X86_CR4_SMAP    (1UL << 21)

/* XCR0 state components (SDM vol. 1, 13.1). */
#define X86_XCR0_FP         (1ULL << 0)
#define X86_XCR0_SSE        (1ULL << 1)
#define X86_XCR0_YMM        (1ULL << 2)
#define X86_XCR0_BNDREGS    (1ULL << 3)
#define X86_XCR0_BNDCSR     (1ULL << 4)
#define X86_XCR0_OPMASK     (1ULL << 5)
#define X86_XCR0_ZMM        (1ULL << 6)
#define X86_XCR0_HI_ZMM     (1ULL << 7)

#define DEFINE_CR(n)                                                    \
static inline unsigned long read_cr##n(void)                            \
{                                                                       \
    unsigned long v;                                                    \
    asm volatile ( "mov %%cr" #n ", %0" : "=r" (v) );                   \
    return v;                                                           \
}                                                                       \
static inline void write_cr##n(unsigned long v)                         \
{                                                                       \
    asm volatile ( "mov %0, %%cr" #n :: "r" (v) : "memory" );           \
}
DEFINE_CR(0)
DEFINE_CR(2)
DEFINE_CR(3)
DEFINE_CR(4)
#undef DEFINE_CR

/* Load XCR0 (CR4.OSXSAVE set). */
static inline void xsetbv(uint64_t xcr0)
{
    asm volatile ( "xsetbv" :: "c" (0), "a" ((uint32_t)xcr0),
                   "d" ((uint32_t)(xcr0 >> 32)) );
}

#endif /* ARCH_X86_CR_H */
