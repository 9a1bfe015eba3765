/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fault-tolerant copies for guest memory, and the exception table that
 * makes them so (SDM vol. 3A 4.6 for SMAP's AC window: stac/clac).
 */
#include "arch/x86/uaccess.h"
#include "arch/x86/alternative.h"

bool __read_mostly smap_enabled;

extern const struct exception_table_entry __start_ex_table[],
    __stop_ex_table[];

/* stac and clac where SMAP is on, patched in at boot (alternative.h). */
static always_inline void stac(void)
{
    asm volatile ( ALTERNATIVE("", "stac", "%c[smap]")
                   :: [smap] "i" (ALT_IF(ALTF_SMAP)) : "memory" );
}

static always_inline void clac(void)
{
    asm volatile ( ALTERNATIVE("", "clac", "%c[smap]")
                   :: [smap] "i" (ALT_IF(ALTF_SMAP)) : "memory" );
}

/*
 * rep movsq, then rep movsb for the tail; on a fault, what is left.
 * TCG runs a rep string instruction an element at a time (and -icount
 * counts each), so a hypercall's 16-byte request costs 2 steps, not 16.
 * A fault among the quadwords finishes byte by byte from where it
 * stopped, so the count left is exact to the byte, as rep movsb's.
 */
static always_inline size_t copy_bytes(void *dst, const void *src,
                                       size_t len)
{
    size_t left = len / 8;

    stac();
    asm volatile ( "1: rep movsq\n"
                   "   mov %[tail], %[left]\n"
                   "2: rep movsb\n"
                   "   jmp 4f\n"
                   "3: lea (%[tail], %[left], 8), %[left]\n"
                   "   jmp 2b\n"
                   "4:\n"
                   _ASM_EXTABLE(1b, 3b)
                   _ASM_EXTABLE(2b, 4b)
                   : "+D" (dst), "+S" (src), [left] "+c" (left)
                   : [tail] "r" (len % 8) : "memory" );
    clac();
    return left;
}

size_t __hot_text raw_copy_from_user(void *dst, const void *src, size_t len)
{
    return copy_bytes(dst, src, len);
}

size_t __hot_text raw_copy_to_user(void *dst, const void *src, size_t len)
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
