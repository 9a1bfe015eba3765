/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Symbol names for stack traces.  The table is generated from the first
 * link (tools/gen-symbols.sh) and placed last in read-only data by the
 * second, so no text address moves between the two (the first link
 * carries an empty table).
 */
#include "arch/x86/traps.h"

/* Sorted by address. */
extern const unsigned long symbols_addr[];
extern const unsigned int symbols_name_off[];
extern const char symbols_names[];
extern const unsigned long symbols_nr;
extern const char __text_start[], __text_end[];

const char *symbol_lookup(unsigned long addr, unsigned long *offset,
                          unsigned long *size)
{
    unsigned long lo = 0, hi, mid, end;

    if ( !symbols_nr ||
         addr < (unsigned long)__text_start ||
         addr >= (unsigned long)__text_end )
        return NULL;

    /* Last symbol whose address is <= addr. */
    hi = symbols_nr;
    while ( hi - lo > 1 )
    {
        mid = lo + (hi - lo) / 2;
        if ( symbols_addr[mid] <= addr )
            lo = mid;
        else
            hi = mid;
    }
    if ( symbols_addr[lo] > addr )
        return NULL;

    end = lo + 1 < symbols_nr ? symbols_addr[lo + 1]
                              : (unsigned long)__text_end;
    *offset = addr - symbols_addr[lo];
    *size = end - symbols_addr[lo];
    return &symbols_names[symbols_name_off[lo]];
}
