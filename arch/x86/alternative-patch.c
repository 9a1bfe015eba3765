/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The alternatives' patching, pure: which replacement each site takes
 * and the bytes written (arch/x86/alternative.h).  The shim runs it at
 * boot on its own text (alternative.c); the host tests run it on
 * buffers.
 */
#include "arch/x86/alternative.h"
#include "shim/lib.h"

/* Intel's recommended multi-byte NOPs (SDM vol. 2B, NOP), 1 to 9 bytes. */
static const uint8_t nops[9][9] = {
    { 0x90 },
    { 0x66, 0x90 },
    { 0x0f, 0x1f, 0x00 },
    { 0x0f, 0x1f, 0x40, 0x00 },
    { 0x0f, 0x1f, 0x44, 0x00, 0x00 },
    { 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 },
    { 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00 },
    { 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
    { 0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
};

void alt_fill(uint8_t *p, unsigned int n)
{
    int32_t rel;

    if ( !n )
        return;
    if ( n <= ARRAY_SIZE(nops) )
    {
        memcpy(p, nops[n - 1], n);
        return;
    }
    memset(p, 0xcc, n);
    if ( n - 2 <= 127 )
    {
        p[0] = 0xeb;
        p[1] = n - 2;
        return;
    }
    rel = n - 5;
    p[0] = 0xe9;
    memcpy(p + 1, &rel, 4);
}

/* One site, from its group's chosen entry (NULL: keep the original). */
static void patch_site(const struct alt_instr *first,
                       const struct alt_instr *chosen,
                       uint8_t *(*write)(uint8_t *addr))
{
    uint8_t *site = alt_site(first), *w = write(site);
    unsigned int len = first->orig_len;

    if ( chosen )
    {
        const uint8_t *repl = alt_repl(chosen);

        len = chosen->repl_len;
        memcpy(w, repl, len);
        /* A rel32 jmp or call first: its target stays where it was. */
        if ( len >= 5 && (repl[0] == 0xe8 || repl[0] == 0xe9) )
        {
            int32_t rel;

            memcpy(&rel, w + 1, 4);
            rel += (int32_t)(repl - site);
            memcpy(w + 1, &rel, 4);
        }
    }
    alt_fill(w + len, first->site_len - len);
}

int alt_apply(const struct alt_instr *start, const struct alt_instr *end,
              unsigned int flags, uint8_t *(*write)(uint8_t *addr))
{
    const struct alt_instr *a = start;
    int patched = 0;

    while ( a < end )
    {
        const struct alt_instr *first = a, *chosen = NULL;

        /* The site's entries: adjacent, one site, its lengths. */
        for ( ; a < end && alt_site(a) == alt_site(first); a++ )
        {
            if ( a->site_len != first->site_len ||
                 a->orig_len != first->orig_len ||
                 a->orig_len > a->site_len || a->repl_len > a->site_len )
                return -1;
            if ( alt_holds(a->cond, flags) )
                chosen = a;
        }
        patch_site(first, chosen, write);
        patched += !!chosen;
    }
    return patched;
}
