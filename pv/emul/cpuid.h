/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CPUID a PV guest sees (pv/emul/cpuid.c; the pure part in
 * pv/emul/cpuid-policy.c).
 */
#ifndef PV_CPUID_H
#define PV_CPUID_H

#include "shim/lib.h"
#include <xen/arch-x86/cpufeatureset.h>
#include "arch/x86/cpu.h"

/* What the policy needs to know about the host and the shim's set-up. */
struct pv_cpuid_host {
    enum cpu_vendor vendor;
    uint32_t max_leaf;          /* raw CPUID.0.EAX */
    uint32_t max_ext_leaf;      /* raw CPUID.0x80000000.EAX */
    uint64_t xcr0;              /* XSAVE states the shim enabled; 0: none */
    /* Of each such state i of 2-7: where it ends (CPUID.0xD.i EBX + EAX). */
    uint32_t xstate_end[8];
    bool global_pages;          /* global-pages on: PGE is the guest's too */
    bool osxsave;               /* leak the real CR4.OSXSAVE (see leaf 1) */
    uint32_t xen_version;       /* major << 16 | minor */
    uint32_t tsc_khz;
    bool tsc_reliable;          /* invariant TSC */
    bool rdtscp;                /* the CPU has RDTSCP */
    unsigned int maddr_bits;    /* width of the highest machine address */
    bool compat;                /* a 32-bit PV guest asks */
};

/*
 * The guest's view of CPUID leaf @leaf, @subleaf.  On entry @res holds
 * what the real CPUID returned for it (EAX, EBX, ECX, EDX); on return,
 * what the guest gets.  Pure: host-tested by tests/unit/test-cpuid.c.
 */
void pv_cpuid_policy(uint32_t leaf, uint32_t subleaf, uint32_t res[4],
                     const struct pv_cpuid_host *h);

/* The guest's CPUID (forced-emulation prefix, or a faulting CPUID). */
void pv_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t res[4]);

/* A feature bit of cpufeatureset.h's, in its CPUID register. */
#define CPUID_BIT(name)     (1u << (XEN_X86_FEATURE_##name & 31))

/* Does the guest's CPUID @leaf (subleaf 0) show @bit in register @reg
 * (0-3: EAX, EBX, ECX, EDX)? */
bool pv_guest_has(uint32_t leaf, unsigned int reg, uint32_t bit);

#endif /* PV_CPUID_H */
