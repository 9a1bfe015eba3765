/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An exception while the guest's stack is unmapped: the bounce frame
 * can't be written, so Xen crashes the guest (create_bounce_frame's
 * domain_crash_page_fault); the hypervisor survives.
 */
#include "guest.h"

const char test_title[] = "exception on an unmapped stack crashes the guest";

void test_main(void)
{
    printf("ud2 with the stack pointer unmapped\n");
    asm volatile ( "mov %0, %" ASM_SP "; ud2" :: "r" (BAD_UNMAPPED)
                   : "memory" );
    test_fail("survived");
}
