/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A kernel whose INIT_P2M address is below its VIRT_BASE (so it is not
 * ignored) but whose p2m would run into the initial mapping: libxc
 * refuses overlapping mappings, and so does pvshim, with status 6 before
 * the kernel runs (see expect).
 */
#include "guest.h"
#include <xen/elfnote.h>

#define STR(x)  #x
#define XSTR(x) STR(x)
#define NOTE(type, desc)                                                   \
    ".pushsection .note.Xen.override, \"a\", @note\n"                      \
    ".balign 4\n"                                                          \
    ".long 4, 8, " XSTR(type) "\n"                                         \
    ".asciz \"Xen\"\n"                                                     \
    ".balign 4\n"                                                          \
    ".quad " desc "\n"                                                     \
    ".popsection\n"
asm ( NOTE(XEN_ELFNOTE_VIRT_BASE, "0x100000")
      NOTE(XEN_ELFNOTE_PADDR_OFFSET, "0x100000")
      NOTE(XEN_ELFNOTE_INIT_P2M, "0xff000") );

const char test_title[] = "INIT_P2M overlapping the initial mapping";

void test_main(void)
{
    test_fail("a kernel whose p2m overlaps its mapping ran");
}
