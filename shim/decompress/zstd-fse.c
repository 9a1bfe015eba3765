/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * zstd's entropy plumbing (RFC 8878 4.1): backward bitstreams, read from
 * their last byte's marker bit towards the start (reads past the start
 * give zeros and leave the position negative, which callers check), and
 * FSE tables from their normalized counts.
 */
#include "shim/decompress/zstd-internal.h"

int zstd_fail(struct zstd *z, const char *why)
{
    z->why = why;
    return -1;
}

unsigned int zstd_highbit(uint32_t v)
{
    return 31 - __builtin_clz(v);
}

/* ------------------------------------------------- backward bitstream */

int zstd_bits_init(struct bits *r, const uint8_t *b, size_t len)
{
    if ( !len || !b[len - 1] )
        return -1;
    r->b = b;
    r->off = (int64_t)len * 8 - (8 - zstd_highbit(b[len - 1]));
    return 0;
}

uint64_t zstd_bits_read(struct bits *r, unsigned int n)
{
    int64_t at;
    unsigned int take = n, i;
    uint64_t v = 0;

    if ( !n )
        return 0;
    r->off -= n;
    at = r->off;
    if ( at < 0 )
    {
        if ( -at >= n )
            return 0;
        take = n + at;
        at = 0;
    }
    for ( i = 0; i < take; i++ )
        v |= (uint64_t)((r->b[(at + i) >> 3] >> ((at + i) & 7)) & 1) << i;
    return r->off < 0 ? v << -r->off : v;
}

/* -------------------------------------------------------------- FSE */

/* @n bits at *bit, least significant first (forward); -1 past the end. */
static int fwd_bits(const uint8_t *in, size_t len, size_t *bit,
                    unsigned int n, uint32_t *v)
{
    unsigned int i;

    *v = 0;
    for ( i = 0; i < n; i++, (*bit)++ )
    {
        if ( (*bit >> 3) >= len )
            return -1;
        *v |= ((in[*bit >> 3] >> (*bit & 7)) & 1u) << i;
    }
    return 0;
}

/* Normalized counts from a table description (forward, LSB first). */
int zstd_fse_counts(struct zstd *z, const uint8_t *in, size_t len,
                      size_t *used, int16_t *counts, unsigned int max_sym,
                      unsigned int max_al, unsigned int *al, unsigned int *n)
{
    size_t bit = 4;
    int remaining;
    unsigned int sym = 0, nb, i;
    uint32_t v, top, lower, thresh;

    if ( !len )
        return zstd_fail(z, "zstd FSE table truncated");
    *al = (in[0] & 15) + 5;
    if ( *al > max_al )
        return zstd_fail(z, "zstd FSE accuracy too high");
    remaining = 1 << *al;
    while ( remaining > 0 )
    {
        if ( sym > max_sym )
            return zstd_fail(z, "zstd FSE table has too many symbols");
        nb = zstd_highbit(remaining + 1) + 1;
        if ( fwd_bits(in, len, &bit, nb - 1, &v) )
            return zstd_fail(z, "zstd FSE table truncated");
        lower = (1u << (nb - 1)) - 1;
        thresh = (1u << nb) - 1 - (remaining + 1);
        if ( v < thresh )
            ;                               /* nb - 1 bits were enough */
        else
        {
            if ( fwd_bits(in, len, &bit, 1, &top) )
                return zstd_fail(z, "zstd FSE table truncated");
            v |= top << (nb - 1);
            if ( v > lower )
                v -= thresh;
        }
        counts[sym] = (int16_t)v - 1;
        remaining -= counts[sym] < 0 ? -counts[sym] : counts[sym];
        sym++;
        if ( counts[sym - 1] == 0 )
        {
            do {
                if ( fwd_bits(in, len, &bit, 2, &v) )
                    return zstd_fail(z, "zstd FSE table truncated");
                for ( i = 0; i < v; i++ )
                {
                    if ( sym > max_sym )
                        return zstd_fail(z, "zstd FSE zeros run past the "
                                            "symbols");
                    counts[sym++] = 0;
                }
            } while ( v == 3 );
        }
    }
    if ( remaining )
        return zstd_fail(z, "zstd FSE counts do not add up");
    *n = sym;
    *used = (bit + 7) >> 3;
    return 0;
}

int zstd_fse_build(struct zstd *z, struct fse *f, const int16_t *counts,
                     unsigned int n, unsigned int al)
{
    uint32_t size = 1u << al, high = size - 1, pos = 0, i, j, s;
    uint32_t step = (size >> 1) + (size >> 3) + 3;
    uint16_t next[64];

    f->al = al;
    for ( s = 0; s < n; s++ )
        if ( counts[s] == -1 )
        {
            f->t[high--].symbol = s;
            next[s] = 1;
        }
        else
            next[s] = counts[s];
    for ( s = 0; s < n; s++ )
        for ( j = 0; counts[s] > 0 && j < (uint32_t)counts[s]; j++ )
        {
            f->t[pos].symbol = s;
            do
                pos = (pos + step) & (size - 1);
            while ( pos > high );
        }
    if ( pos )
        return zstd_fail(z, "zstd FSE table does not spread");
    for ( i = 0; i < size; i++ )
    {
        uint32_t x = next[f->t[i].symbol]++;

        f->t[i].bits = al - zstd_highbit(x);
        f->t[i].base = (x << f->t[i].bits) - size;
    }
    return 0;
}

void zstd_fse_rle(struct fse *f, uint8_t sym)
{
    f->al = 0;
    f->t[0].symbol = sym;
    f->t[0].bits = 0;
    f->t[0].base = 0;
}

void zstd_fse_update(const struct fse *f, uint32_t *state, struct bits *r)
{
    const struct fse_entry *e = &f->t[*state];

    *state = e->base + zstd_bits_read(r, e->bits);
}

