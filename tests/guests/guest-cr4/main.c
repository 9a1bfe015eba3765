/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest's CR4 and CPUID agree on global pages: pvshim builds the CR4 a
 * guest runs under in one place (pv_make_cr4), from global-pages, and the
 * PV CPUID policy shows PGE exactly when it is on.  make check runs this
 * on an AMD CPU model (global pages off) and an Intel one (on).
 */
#include "guest.h"

const char test_title[] = "Guest CR4.PGE and CPUID.PGE follow global-pages";

#define X86_CR4_PGE (1UL << 7)

void test_main(void)
{
    unsigned long cr4;
    uint32_t a = 1, b, c = 0, d;

    asm volatile ( "mov %%cr4, %0" : "=r" (cr4) );
    asm volatile ( "ud2; .ascii \"xen\"; cpuid"
                   : "+a" (a), "=b" (b), "+c" (c), "=d" (d) );
    printf("CR4 %#lx, CPUID.1:EDX.PGE %u\n", cr4, (d >> 13) & 1);
    if ( !!(cr4 & X86_CR4_PGE) != !!(d & (1u << 13)) )
        test_fail("CR4.PGE %u but CPUID.PGE %u", !!(cr4 & X86_CR4_PGE),
                  (d >> 13) & 1);
    test_success();
}
