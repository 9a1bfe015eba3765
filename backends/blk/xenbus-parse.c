/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frontend's xenstore values as the block backend reads them
 * (xenbus-parse.h), stricter than Linux's xenbus_scanf() ("%u" takes
 * "12abc" as 12): a value is the number it spells, or nothing.
 */
#include "backends/blk/xenbus-parse.h"
#include <xen/errno.h>
#include <xen/io/protocols.h>

bool vbd_parse_number(const char *s, unsigned long *out)
{
    unsigned long n = 0;
    unsigned int digit;

    if ( !*s )
        return false;
    for ( ; *s >= '0' && *s <= '9'; s++ )
    {
        digit = *s - '0';
        if ( n > (~0UL - digit) / 10 )
            return false;
        n = n * 10 + digit;
    }
    if ( *s )
        return false;
    *out = n;
    return true;
}

enum vbd_abi vbd_parse_protocol(int rc, const char *proto, bool compat)
{
    if ( rc == XEN_ENOENT || (!rc && !proto[0]) )
        return compat ? VBD_ABI_X86_32 : VBD_ABI_X86_64;
    if ( rc )
        return VBD_ABI_UNKNOWN;
    if ( !strcmp(proto, XEN_IO_PROTO_ABI_X86_32) )
        return VBD_ABI_X86_32;
    if ( !strcmp(proto, XEN_IO_PROTO_ABI_X86_64) )
        return VBD_ABI_X86_64;
    return VBD_ABI_UNKNOWN;
}
