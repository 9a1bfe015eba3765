/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The frontend's protocol node as the block backend reads it
 * (xenbus-parse.h); its numbers are xs_shim_read_ulong()'s, with
 * parse_ulong_exact() (shim/lib/strtoull.c).
 */
#include "backends/blk/xenbus-parse.h"
#include <xen/errno.h>
#include <xen/io/protocols.h>

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
