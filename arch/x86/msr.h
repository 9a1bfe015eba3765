/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Model-specific registers: their numbers and bits, with Xen's names
 * (asm/msr-index.h; Intel SDM vol. 4, AMD APM vol. 2), and rdmsr/wrmsr,
 * plain or for an MSR that may not exist.  The numbers are plain, so
 * assembly includes this too.  The local APIC's and the MTRRs' own MSRs
 * stay with the code that drives them (apic.c, mtrr.c).
 */
#ifndef ARCH_X86_MSR_H
#define ARCH_X86_MSR_H

#define MSR_IA32_TSC                0x00000010
#define MSR_IA32_PLATFORM_ID        0x00000017

#define MSR_IA32_FEATURE_CONTROL    0x0000003a
#define  IA32_FEATURE_CONTROL_LOCK          (1UL << 0)

#define MSR_SPEC_CTRL               0x00000048
#define  SPEC_CTRL_IBRS                     (1 << 0)
#define  SPEC_CTRL_STIBP                    (1 << 1)
#define  SPEC_CTRL_SSBD                     (1 << 2)
#define  SPEC_CTRL_PSFD                     (1 << 7)
#define  SPEC_CTRL_BHI_DIS_S                (1 << 10)

#define MSR_PRED_CMD                0x00000049
#define  PRED_CMD_IBPB                      (1 << 0)
#define  PRED_CMD_SBPB                      (1 << 7)

#define MSR_IA32_UCODE_REV          0x0000008b
#define MSR_INTEL_PLATFORM_INFO     0x000000ce
#define MSR_IA32_MPERF              0x000000e7
#define MSR_IA32_APERF              0x000000e8
#define MSR_ARCH_CAPABILITIES       0x0000010a
#define MSR_INTEL_MISC_FEATURES     0x00000140

#define MSR_SYSENTER_CS             0x00000174
#define MSR_SYSENTER_ESP            0x00000175
#define MSR_SYSENTER_EIP            0x00000176

#define MSR_IA32_PERF_STATUS        0x00000198
#define MSR_IA32_PERF_CTL           0x00000199
#define MSR_IA32_THERM_CONTROL      0x0000019a
#define MSR_IA32_THERM_STATUS       0x0000019c

#define MSR_IA32_MISC_ENABLE        0x000001a0
#define  MSR_IA32_MISC_ENABLE_PERF_AVAIL    (1UL << 7)
#define  MSR_IA32_MISC_ENABLE_BTS_UNAVAIL   (1UL << 11)
#define  MSR_IA32_MISC_ENABLE_PEBS_UNAVAIL  (1UL << 12)
#define  MSR_IA32_MISC_ENABLE_MONITOR_ENABLE (1UL << 18)
#define  MSR_IA32_MISC_ENABLE_XTPR_DISABLE  (1UL << 23)

#define MSR_IA32_ENERGY_PERF_BIAS   0x000001b0
#define MSR_IA32_CR_PAT             0x00000277

#define MSR_EFER                    0xc0000080
#define  EFER_SCE                           (1UL << 0)  /* syscall */
#define  EFER_LME                           (1UL << 8)  /* long mode on */
#define  EFER_LMA                           (1UL << 10) /* long mode active */
#define  EFER_NXE                           (1UL << 11) /* no-execute */
#define  EFER_SVME                          (1UL << 12) /* AMD SVM */
#define  EFER_FFXSE                         (1UL << 14) /* AMD fast FXSAVE */

#define MSR_STAR                    0xc0000081
#define MSR_LSTAR                   0xc0000082
#define MSR_CSTAR                   0xc0000083
#define MSR_SFMASK                  0xc0000084
#define MSR_FS_BASE                 0xc0000100
#define MSR_GS_BASE                 0xc0000101
#define MSR_SHADOW_GS_BASE          0xc0000102
#define MSR_TSC_AUX                 0xc0000103

#define MSR_K8_HWCR                 0xc0010015
#define MSR_K7_FID_VID_CTL          0xc0010041
#define MSR_K7_FID_VID_STATUS       0xc0010042
#define MSR_K8_PSTATE_LIMIT         0xc0010061  /* ... to PSTATE7 */
#define MSR_K8_PSTATE7              0xc001006b

#define MSR_AMD64_DE_CFG            0xc0011029
#define  AMD64_DE_CFG_LFENCE_SERIALISE      (1UL << 1)

#ifndef __ASSEMBLER__
#include "arch/x86/uaccess.h"

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

/* rdmsr of an MSR that may not exist: false (and *@val 0) if it #GPs. */
static inline bool rdmsr_safe(uint32_t msr, uint64_t *val)
{
    uint32_t lo = 0, hi = 0, ok = 0;

    asm volatile ( "1: rdmsr\n\t"
                   "   mov $1, %[ok]\n"
                   "2:\n"
                   _ASM_EXTABLE(1b, 2b)
                   : "+a" (lo), "+d" (hi), [ok] "+r" (ok) : "c" (msr) );
    *val = ((uint64_t)hi << 32) | lo;
    return ok;
}

/* wrmsr that may #GP (no such MSR, or a value it refuses): false if so. */
static inline bool wrmsr_safe(uint32_t msr, uint64_t val)
{
    uint32_t ok = 0;

    asm volatile ( "1: wrmsr\n\t"
                   "   mov $1, %[ok]\n"
                   "2:\n"
                   _ASM_EXTABLE(1b, 2b)
                   : [ok] "+r" (ok)
                   : "c" (msr), "a" ((uint32_t)val),
                     "d" ((uint32_t)(val >> 32)) );
    return ok;
}
#endif /* !__ASSEMBLER__ */

#endif /* ARCH_X86_MSR_H */
