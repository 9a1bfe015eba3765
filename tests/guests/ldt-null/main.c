/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Before any SET_LDT, a TI=1 selector must find no LDT.  Firmware can leave
 * LDTR's hidden base at 0, which is guest memory here: a descriptor the
 * guest writes at address 8 must not become loadable (a call gate there
 * would lead to ring 0).
 */
#include "guest.h"

const char test_title[] = "No LDT until SET_LDT: TI=1 selectors fault";

void test_main(void)
{
    uint64_t *low = (uint64_t *)8;
    exinfo_t ex;

    /* A flat, present, DPL 3 data segment, as entry 1 of an LDT at 0. */
    asm volatile ( "" : "+r" (low) );   /* an address, not a null pointer */
    *(volatile uint64_t *)low = 0x00cff2000000ffffUL;
    ex = TRY("mov %[sel], %%fs", [sel] "r" (0xfU));
    if ( exinfo_vector(ex) != X86_EXC_GP )
        test_fail("loading LDT selector 0xf: %s (vector %u)",
                  ex ? "wrong fault" : "it loaded", exinfo_vector(ex));
    *(volatile uint64_t *)low = 0;
    test_success();
}
