/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fault-tolerant copies for guest memory, and the exception table that
 * makes them so (SDM vol. 3A 4.6 for SMAP's AC window: stac/clac).
 */
#include "arch/x86/uaccess.h"

bool smap_enabled;

extern const struct exception_table_entry __start_ex_table[],
    __stop_ex_table[];

static always_inline void stac(void)
{
    if ( smap_enabled )
        asm volatile ( "stac" ::: "memory" );
}

static always_inline void clac(void)
{
    if ( smap_enabled )
        asm volatile ( "clac" ::: "memory" );
}

/* rep movsb; on a fault, %rcx holds what is left. */
static always_inline size_t copy_bytes(void *dst, const void *src,
                                       size_t len)
{
    stac();
    asm volatile ( "1: rep movsb\n"
                   "2:\n"
                   _ASM_EXTABLE(1b, 2b)
                   : "+D" (dst), "+S" (src), "+c" (len) :: "memory" );
    clac();
    return len;
}

size_t raw_copy_from_user(void *dst, const void *src, size_t len)
{
    return copy_bytes(dst, src, len);
}

size_t raw_copy_to_user(void *dst, const void *src, size_t len)
{
    return copy_bytes(dst, src, len);
}

size_t raw_clear_user(void *dst, size_t len)
{
    stac();
    asm volatile ( "1: rep stosb\n"
                   "2:\n"
                   _ASM_EXTABLE(1b, 2b)
                   : "+D" (dst), "+c" (len) : "a" (0) : "memory" );
    clac();
    return len;
}

unsigned long search_exception_table(unsigned long rip)
{
    const struct exception_table_entry *e;

    for ( e = __start_ex_table; e < __stop_ex_table; e++ )
        if ( (unsigned long)&e->insn + e->insn == rip )
            return (unsigned long)&e->fixup + e->fixup;
    return 0;
}
