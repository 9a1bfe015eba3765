/* SPDX-License-Identifier: GPL-2.0-only */
/* Control registers and MSRs. */
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

#define MSR_EFER            0xc0000080
#define MSR_FS_BASE         0xc0000100
#define MSR_GS_BASE         0xc0000101
#define MSR_SHADOW_GS_BASE  0xc0000102
#define MSR_STAR            0xc0000081
#define MSR_LSTAR           0xc0000082
#define MSR_CSTAR           0xc0000083
#define MSR_SFMASK          0xc0000084
#define MSR_SYSENTER_CS     0x00000174
#define MSR_SYSENTER_ESP    0x00000175
#define MSR_SYSENTER_EIP    0x00000176
#define MSR_PAT             0x00000277
#define EFER_SCE            (1UL << 0)
#define EFER_LME            (1UL << 8)
#define EFER_LMA            (1UL << 10)
#define EFER_NXE            (1UL << 11)

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

static inline uint64_t rdmsr(uint32_t msr)
{
    uint32_t lo, hi;

    asm volatile ( "rdmsr" : "=a" (lo), "=d" (hi) : "c" (msr) );
    return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
    asm volatile ( "wrmsr" :: "c" (msr), "a" ((uint32_t)v),
                   "d" ((uint32_t)(v >> 32)) );
}

/* Load XCR0 (CR4.OSXSAVE set). */
static inline void xsetbv(uint64_t xcr0)
{
    asm volatile ( "xsetbv" :: "c" (0), "a" ((uint32_t)xcr0),
                   "d" ((uint32_t)(xcr0 >> 32)) );
}

#endif /* ARCH_X86_CR_H */
