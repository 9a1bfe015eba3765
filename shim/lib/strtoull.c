/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simple_strtoull(): Xen's unsigned number parser, plus overflow reporting
 * so that command-line values too big for 64 bits are rejected, not wrapped;
 * parse_ulong_exact(), the strict decimal form xenstore values take.
 */
#include "shim/lib.h"

/*
 * Base 0 picks 16 for a "0x"/"0X" prefix, 8 for a leading 0, else 10; base
 * 16 also accepts the prefix.  A prefix counts only if a hex digit follows
 * it, so "0x" alone parses as 0 with *endp at the 'x'.  On overflow the
 * digits are still consumed and ULLONG_MAX is returned; *overflow is always
 * written (false when the value fits).
 */
unsigned long long simple_strtoull(const char *cp, const char **endp,
                                   unsigned int base, bool *overflow)
{
    unsigned long long val = 0;
    bool ovf = false;
    int d;

    if ( (base == 0 || base == 16) && cp[0] == '0' &&
         (cp[1] == 'x' || cp[1] == 'X') && hex_digit(cp[2]) < 16 )
    {
        cp += 2;
        base = 16;
    }
    else if ( base == 0 )
        base = cp[0] == '0' ? 8 : 10;

    for ( ; (d = hex_digit(*cp)) < (int)base; cp++ )
    {
        if ( val > (~0ULL - d) / base )
            ovf = true;
        val = val * base + d;
    }

    if ( endp )
        *endp = cp;
    if ( overflow )
        *overflow = ovf;

    return ovf ? ~0ULL : val;
}

bool parse_ulong_exact(const char *s, unsigned long *out, bool *overflow)
{
    const char *end;
    bool ovf;
    unsigned long long v = simple_strtoull(s, &end, 10, &ovf);

    *overflow = false;
    if ( end == s || *end )
        return false;
    if ( ovf || v > ~0UL )
    {
        *overflow = true;
        return false;
    }
    *out = v;
    return true;
}
