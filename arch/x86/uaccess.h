/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copies to and from lower-privilege (user-accessible) memory that may
 * fault: a fault ends the copy through the exception table instead of
 * crashing the shim.  Callers check the address range first (pv/ does).
 */
#ifndef ARCH_X86_UACCESS_H
#define ARCH_X86_UACCESS_H

#include "shim/lib.h"

/* Returns the number of bytes NOT copied (0 on success). */
size_t raw_copy_from_user(void *dst, const void *src, size_t len);
size_t raw_copy_to_user(void *dst, const void *src, size_t len);
size_t raw_clear_user(void *dst, size_t len);

/* SMAP: set when CR4.SMAP is on, so the copies open the window. */
extern bool smap_enabled;

/* Exception table: instruction address -> where to resume after a fault. */
struct exception_table_entry {
    int32_t insn;               /* relative to this field */
    int32_t fixup;              /* relative to this field */
};

/* The fix-up address for a fault at @rip, or 0. */
unsigned long search_exception_table(unsigned long rip);

#define _ASM_EXTABLE(from, to)                          \
    "    .pushsection .ex_table, \"a\"\n"               \
    "    .balign 4\n"                                   \
    "    .long (" #from ") - .\n"                       \
    "    .long (" #to ") - .\n"                         \
    "    .popsection\n"

#endif /* ARCH_X86_UACCESS_H */
