/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * For the speculation controls' C files only: a named feature's bit in
 * the raw CPUID and ARCH_CAPS words struct spec_ctrl_cpu keeps, by Xen's
 * public names (xen/arch-x86/cpufeatureset.h).
 */
#ifndef ARCH_X86_SPEC_CTRL_BITS_H
#define ARCH_X86_SPEC_CTRL_BITS_H

#include <xen/arch-x86/cpufeatureset.h>

/* Xen's featureset word of each raw word: cpuid_e8b is word 8, ... */
enum { W_e8b = 8, W_7d0 = 9, W_e21a = 11, W_7d2 = 13, W_caps = 16 };

/* Feature @n's bit, checked at compile time to live in word W_@w. */
#define SC_BIT(w, n)                                                    \
    ((1u << (XEN_X86_FEATURE_##n & 31)) +                               \
     0 * sizeof(char [XEN_X86_FEATURE_##n / 32 == W_##w ? 1 : -1]))
#define SC_HAS(word, w, n) (!!((word) & SC_BIT(w, n)))

#endif /* ARCH_X86_SPEC_CTRL_BITS_H */
