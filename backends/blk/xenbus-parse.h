/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the block backend makes of a frontend's xenstore values
 * (xenbus-parse.c): pure functions, which tests/fuzz/fuzz-blk-xenbus.c
 * compiles on the host.
 */
#ifndef BACKENDS_BLK_XENBUS_PARSE_H
#define BACKENDS_BLK_XENBUS_PARSE_H

#include "shim/lib.h"

/* The ring layout a protocol node names. */
enum vbd_abi { VBD_ABI_X86_64, VBD_ABI_X86_32, VBD_ABI_UNKNOWN };

/*
 * The protocol node, as xs_shim_read() left it (@rc its status, @proto
 * the value when 0): none or empty is the guest's own width (@compat: a
 * 32-bit guest's), x86_64-abi or x86_32-abi that layout, and anything
 * else, a value too long to read among them, no layout.
 */
enum vbd_abi vbd_parse_protocol(int rc, const char *proto, bool compat);

#endif /* BACKENDS_BLK_XENBUS_PARSE_H */
