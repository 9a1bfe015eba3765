/* SPDX-License-Identifier: GPL-2.0-only */
/* CPUID-based identification of the CPU and of the hypervisor under us. */
#ifndef ARCH_X86_CPU_H
#define ARCH_X86_CPU_H

#include "shim/lib.h"

enum cpu_vendor {
    VENDOR_OTHER,
    VENDOR_INTEL,
    VENDOR_AMD,
    VENDOR_HYGON,
};

enum hv_kind {
    HV_NONE,        /* no hypervisor leaves (bare metal, or QEMU TCG) */
    HV_KVM,
    HV_XEN,
    HV_HYPERV,
    HV_TCG,         /* QEMU TCG, which sets the bit with its own leaf */
    HV_OTHER,
};

/* Feature words, indexed like the CPUID leaves they come from. */
enum cpu_feature_word {
    FEAT_1_EDX, FEAT_1_ECX, FEAT_7_EBX, FEAT_7_ECX, FEAT_7_EDX,
    FEAT_E1_EDX, FEAT_E1_ECX, NR_FEATURE_WORDS,
};

#define X86_FEATURE(w, bit) ((FEAT_##w) * 32 + (bit))
#define X86_FEATURE_PSE     X86_FEATURE(1_EDX, 3)
#define X86_FEATURE_PGE     X86_FEATURE(1_EDX, 13)
#define X86_FEATURE_APIC    X86_FEATURE(1_EDX, 9)
#define X86_FEATURE_MTRR    X86_FEATURE(1_EDX, 12)
#define X86_FEATURE_PAT     X86_FEATURE(1_EDX, 16)
#define X86_FEATURE_HYPERVISOR X86_FEATURE(1_ECX, 31)
#define X86_FEATURE_X2APIC  X86_FEATURE(1_ECX, 21)
#define X86_FEATURE_PCID    X86_FEATURE(1_ECX, 17)
#define X86_FEATURE_XSAVE   X86_FEATURE(1_ECX, 26)
#define X86_FEATURE_TSC_DEADLINE X86_FEATURE(1_ECX, 24)
#define X86_FEATURE_SMEP    X86_FEATURE(7_EBX, 7)
#define X86_FEATURE_SMAP    X86_FEATURE(7_EBX, 20)
#define X86_FEATURE_INVPCID X86_FEATURE(7_EBX, 10)
#define X86_FEATURE_RTM     X86_FEATURE(7_EBX, 11)
#define X86_FEATURE_FSGSBASE X86_FEATURE(7_EBX, 0)
#define X86_FEATURE_UMIP    X86_FEATURE(7_ECX, 2)
#define X86_FEATURE_NX      X86_FEATURE(E1_EDX, 20)
#define X86_FEATURE_PAGE1GB X86_FEATURE(E1_EDX, 26)
#define X86_FEATURE_RDTSCP  X86_FEATURE(E1_EDX, 27)
#define X86_FEATURE_LM      X86_FEATURE(E1_EDX, 29)
#define X86_FEATURE_SYSCALL X86_FEATURE(E1_EDX, 11)

struct cpuinfo {
    enum cpu_vendor vendor;
    char vendor_id[13];
    char brand[49];
    unsigned int family, model, stepping;
    uint32_t max_leaf, max_ext_leaf;
    uint32_t features[NR_FEATURE_WORDS];
    unsigned int phys_bits, virt_bits;
    enum hv_kind hv;
    uint32_t hv_base;           /* leaf of the hypervisor signature */
    char hv_signature[13];      /* e.g. "KVMKVMKVM", "" if none */
};

extern struct cpuinfo boot_cpu;

static inline void cpuid_count(uint32_t leaf, uint32_t sub, uint32_t *a,
                               uint32_t *b, uint32_t *c, uint32_t *d)
{
    asm volatile ( "cpuid"
                   : "=a" (*a), "=b" (*b), "=c" (*c), "=d" (*d)
                   : "0" (leaf), "2" (sub) );
}

static inline bool cpu_has(unsigned int feature)
{
    return boot_cpu.features[feature / 32] & (1u << (feature % 32));
}

void cpu_detect(struct cpuinfo *c);
void cpu_print(const struct cpuinfo *c);
const char *cpu_vendor_name(enum cpu_vendor v);

#endif /* ARCH_X86_CPU_H */
