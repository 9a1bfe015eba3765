/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A kernel whose FEATURES note requires XENFEAT_dom0 ("!dom0") is one
 * that can't run unprivileged: libxc refuses it ("Kernel does not support
 * unprivileged (DomU) operation", xg_dom_elfloader.c), and so does the
 * shim's builder, before the guest exists (see expect: exit status 6 and
 * the refusal, no result line).
 */
#include "guest.h"
#include <xen/elfnote.h>

#define STR(x)  #x
#define XSTR(x) STR(x)
asm ( ".pushsection .note.Xen.override, \"a\", @note\n"
      ".balign 4\n"
      ".long 4, 2f - 1f, " XSTR(XEN_ELFNOTE_FEATURES) "\n"
      ".asciz \"Xen\"\n"
      ".balign 4\n"
      "1: .asciz \"writable_page_tables|!dom0\"\n"
      "2: .balign 4\n"
      ".popsection\n" );

const char test_title[] = "FEATURES: a kernel that requires dom0 is refused";

void test_main(void)
{
    test_fail("a dom0-only kernel was started");
}
