/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer harness for what the backends make of a frontend's xenstore
 * values (backends/blk/xenbus-parse.c; parse_ulong_exact() in
 * shim/lib/strtoull.c, behind xs_shim_read_ulong()): any bytes as
 * ring-ref, event-channel, state or ring-page-order, and as protocol
 * with any status xs_shim_read() could give.  A number is taken exactly
 * when it is one (digits only, fitting), agreeing with a reference
 * parse, a refusal leaves the result alone and says overflow exactly
 * for digits that don't fit; a protocol node whose read failed is
 * never looked at (ASan watches a buffer with no terminator), and only
 * the two ABIs' names, or nothing, name a layout.
 */
#include "tests/fuzz/fuzz.h"
#include "backends/blk/xenbus-parse.c"
#include "shim/lib/strtoull.c"

#define VALUE_MAX   23                  /* xenbus.c reads into 24 bytes */

static bool ref_number(const char *s, unsigned long *out)
{
    unsigned long n = 0;

    if ( !*s )
        return false;
    for ( ; *s; s++ )
        if ( *s < '0' || *s > '9' ||
             __builtin_mul_overflow(n, 10, &n) ||
             __builtin_add_overflow(n, (unsigned long)(*s - '0'), &n) )
            return false;
    *out = n;
    return true;
}

static void number(const char *s)
{
    unsigned long got = 0x5a5a5a5a, want = 0;
    bool overflow, ok = parse_ulong_exact(s, &got, &overflow);
    const char *p = s;

    FUZZ_ASSERT(ok == ref_number(s, &want));
    FUZZ_ASSERT(ok ? got == want : got == 0x5a5a5a5a);
    while ( *p >= '0' && *p <= '9' )
        p++;
    FUZZ_ASSERT(overflow == (!ok && *s && !*p));
}

static void protocol(int rc, const char *s, bool compat)
{
    static const int rcs[] = { 0, XEN_ENOENT, XEN_E2BIG, XEN_EACCES };
    enum vbd_abi abi, want;
    char *junk = malloc(VALUE_MAX + 1);

    rc = rcs[rc & 3];
    if ( strlen(s) > VALUE_MAX )
        rc = XEN_E2BIG;                 /* as xs_shim_read() answers */
    if ( rc == XEN_ENOENT || (!rc && !*s) )
        want = compat ? VBD_ABI_X86_32 : VBD_ABI_X86_64;
    else if ( !rc && !strcmp(s, "x86_32-abi") )
        want = VBD_ABI_X86_32;
    else if ( !rc && !strcmp(s, "x86_64-abi") )
        want = VBD_ABI_X86_64;
    else
        want = VBD_ABI_UNKNOWN;
    /* A failed read leaves the buffer as it was: no terminator in it. */
    memset(junk, 'x', VALUE_MAX + 1);
    abi = vbd_parse_protocol(rc, rc ? junk : s, compat);
    FUZZ_ASSERT(abi == want);
    free(junk);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned int flags = size ? data[0] : 0;
    size_t len = size ? size - 1 : 0;
    char *s = malloc(len + 1);

    /* A value may hold a NUL: the parse sees what comes before it. */
    memcpy(s, data + (size ? 1 : 0), len);
    s[len] = '\0';
    number(s);
    protocol(flags >> 1, s, flags & 1);
    free(s);
    return 0;
}
