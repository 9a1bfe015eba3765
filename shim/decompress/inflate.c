/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * DEFLATE (RFC 1951): stored, fixed-Huffman and dynamic-Huffman blocks,
 * decoded into a flat output buffer.  Every input byte is fetched through
 * get_byte() and every output byte stored through put_byte()/copy_back(),
 * each of which checks its bound; distances before the start of the output
 * and over-subscribed or incomplete-and-used codes are refused.
 */
#include "shim/decompress/decompress.h"

#define MAX_BITS        15      /* longest code */
#define NR_LITLEN       288     /* 286 usable + 2 that never occur */
#define NR_DIST         30      /* 30 usable (RFC 1951 3.2.5) */
#define NR_CODELEN      19

struct inflate_state {
    const uint8_t *in;
    size_t in_len, in_pos;
    uint32_t bitbuf;
    unsigned int bitcnt;
    uint8_t *out;
    size_t out_size, out_pos;
    const char *why;
};

/* A canonical Huffman code: codes per length, symbols in code order. */
struct huffman {
    uint16_t count[MAX_BITS + 1];
    uint16_t symbol[NR_LITLEN];
};

static int fail(struct inflate_state *s, const char *why)
{
    s->why = why;
    return -1;
}

/* Fetch @n (<= 16) bits, least significant first, into *v. */
static int get_bits(struct inflate_state *s, unsigned int n, unsigned int *v)
{
    while ( s->bitcnt < n )
    {
        if ( s->in_pos >= s->in_len )
            return fail(s, "deflate stream truncated");
        s->bitbuf |= (uint32_t)s->in[s->in_pos++] << s->bitcnt;
        s->bitcnt += 8;
    }
    *v = s->bitbuf & ((1u << n) - 1);
    s->bitbuf >>= n;
    s->bitcnt -= n;
    return 0;
}

/*
 * Build @h from the code lengths of @n symbols.  Refuse an
 * over-subscribed set; an incomplete one is allowed (zlib allows it for a
 * single distance code), and decode() refuses a code it doesn't hold.
 */
static int build(struct inflate_state *s, struct huffman *h,
                 const uint8_t *len, unsigned int n)
{
    uint16_t offs[MAX_BITS + 1];
    unsigned int i;
    int left = 1;

    for ( i = 0; i <= MAX_BITS; i++ )
        h->count[i] = 0;
    for ( i = 0; i < n; i++ )
        h->count[len[i]]++;
    for ( i = 1; i <= MAX_BITS; i++ )
    {
        left = (left << 1) - h->count[i];
        if ( left < 0 )
            return fail(s, "over-subscribed Huffman code");
    }
    offs[1] = 0;
    for ( i = 1; i < MAX_BITS; i++ )
        offs[i + 1] = offs[i] + h->count[i];
    for ( i = 0; i < n; i++ )
        if ( len[i] )
            h->symbol[offs[len[i]]++] = i;
    return 0;
}

/* One symbol: walk the code a bit at a time (codes are sent MSB first). */
static int decode(struct inflate_state *s, const struct huffman *h,
                  unsigned int *sym)
{
    unsigned int code = 0, first = 0, index = 0, len, bit;

    for ( len = 1; len <= MAX_BITS; len++ )
    {
        if ( get_bits(s, 1, &bit) )
            return -1;
        code |= bit;
        if ( code - first < h->count[len] )
        {
            *sym = h->symbol[index + code - first];
            return 0;
        }
        index += h->count[len];
        first = (first + h->count[len]) << 1;
        code <<= 1;
    }
    return fail(s, "invalid Huffman code");
}

static int put_byte(struct inflate_state *s, uint8_t b)
{
    if ( s->out_pos >= s->out_size )
        return fail(s, "output larger than announced");
    s->out[s->out_pos++] = b;
    return 0;
}

static int copy_back(struct inflate_state *s, size_t dist, size_t len)
{
    if ( dist > s->out_pos )
        return fail(s, "back-reference before the start of the output");
    if ( len > s->out_size - s->out_pos )
        return fail(s, "output larger than announced");
    for ( ; len; len--, s->out_pos++ )
        s->out[s->out_pos] = s->out[s->out_pos - dist];
    return 0;
}

static int stored(struct inflate_state *s)
{
    size_t len;

    /* get_bits() leaves fewer than 8 bits: drop them to reach a byte. */
    s->bitbuf = 0;
    s->bitcnt = 0;
    if ( s->in_len - s->in_pos < 4 )
        return fail(s, "deflate stream truncated");
    len = s->in[s->in_pos] | (s->in[s->in_pos + 1] << 8);
    if ( (len ^ 0xffff) != (size_t)(s->in[s->in_pos + 2] |
                                    (s->in[s->in_pos + 3] << 8)) )
        return fail(s, "stored block length check failed");
    s->in_pos += 4;
    if ( len > s->in_len - s->in_pos )
        return fail(s, "deflate stream truncated");
    if ( len > s->out_size - s->out_pos )
        return fail(s, "output larger than announced");
    memcpy(s->out + s->out_pos, s->in + s->in_pos, len);
    s->in_pos += len;
    s->out_pos += len;
    return 0;
}

/* RFC 1951 3.2.5: base and extra bits of length and distance codes. */
static const uint16_t len_base[29] = {
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
    35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258 };
static const uint8_t len_extra[29] = {
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
    3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
static const uint16_t dist_base[NR_DIST] = {
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
    257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
    8193, 12289, 16385, 24577 };
static const uint8_t dist_extra[NR_DIST] = {
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
    7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13 };

/* The symbols of one Huffman block, up to its end-of-block code. */
static int codes(struct inflate_state *s, const struct huffman *lit,
                 const struct huffman *dist)
{
    unsigned int sym, extra, d;

    for ( ;; )
    {
        if ( decode(s, lit, &sym) )
            return -1;
        if ( sym < 256 )
        {
            if ( put_byte(s, sym) )
                return -1;
            continue;
        }
        if ( sym == 256 )
            return 0;
        sym -= 257;
        if ( sym >= 29 )
            return fail(s, "invalid length code");
        if ( get_bits(s, len_extra[sym], &extra) )
            return -1;
        if ( decode(s, dist, &d) )
            return -1;
        if ( d >= NR_DIST )
            return fail(s, "invalid distance code");
        {
            size_t len = len_base[sym] + extra;

            if ( get_bits(s, dist_extra[d], &extra) ||
                 copy_back(s, dist_base[d] + extra, len) )
                return -1;
        }
    }
}

static int fixed(struct inflate_state *s)
{
    static struct huffman lit, dist;
    uint8_t len[NR_LITLEN];
    unsigned int i;

    /* Built each time: cheap, and no state survives between calls. */
    for ( i = 0; i < NR_LITLEN; i++ )
        len[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
    if ( build(s, &lit, len, NR_LITLEN) )
        return -1;
    for ( i = 0; i < NR_DIST + 2; i++ )
        len[i] = 5;
    if ( build(s, &dist, len, NR_DIST + 2) )
        return -1;
    return codes(s, &lit, &dist);
}

/* The code-length code's symbol order (RFC 1951 3.2.7). */
static const uint8_t clen_order[NR_CODELEN] = {
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };

static int read_lengths(struct inflate_state *s, const struct huffman *clen,
                        uint8_t *len, unsigned int n)
{
    unsigned int i = 0, sym, rep, v, prev;

    while ( i < n )
    {
        if ( decode(s, clen, &sym) )
            return -1;
        if ( sym < 16 )
        {
            len[i++] = sym;
            continue;
        }
        prev = 0;
        if ( sym == 16 )
        {
            if ( !i )
                return fail(s, "repeat with no previous length");
            prev = len[i - 1];
            if ( get_bits(s, 2, &v) )
                return -1;
            rep = 3 + v;
        }
        else if ( sym == 17 )
        {
            if ( get_bits(s, 3, &v) )
                return -1;
            rep = 3 + v;
        }
        else
        {
            if ( get_bits(s, 7, &v) )
                return -1;
            rep = 11 + v;
        }
        if ( rep > n - i )
            return fail(s, "code lengths repeat past their end");
        while ( rep-- )
            len[i++] = prev;
    }
    return 0;
}

static int dynamic(struct inflate_state *s)
{
    static struct huffman lit, dist;
    uint8_t len[NR_LITLEN + NR_DIST];
    unsigned int nlen, ndist, ncode, i, v;

    if ( get_bits(s, 5, &nlen) || get_bits(s, 5, &ndist) ||
         get_bits(s, 4, &ncode) )
        return -1;
    nlen += 257;
    ndist += 1;
    ncode += 4;
    if ( nlen > 286 || ndist > NR_DIST )
        return fail(s, "too many length or distance codes");

    for ( i = 0; i < NR_CODELEN; i++ )
    {
        v = 0;
        if ( i < ncode && get_bits(s, 3, &v) )
            return -1;
        len[clen_order[i]] = v;
    }
    if ( build(s, &lit, len, NR_CODELEN) )
        return -1;
    if ( read_lengths(s, &lit, len, nlen + ndist) )
        return -1;
    if ( !len[256] )
        return fail(s, "no end-of-block code");
    if ( build(s, &lit, len, nlen) || build(s, &dist, len + nlen, ndist) )
        return -1;
    return codes(s, &lit, &dist);
}

int inflate(const uint8_t *in, size_t in_len, size_t *in_used,
            uint8_t *out, size_t out_size, size_t *out_len,
            const char **why)
{
    struct inflate_state s = {
        .in = in, .in_len = in_len, .out = out, .out_size = out_size,
    };
    unsigned int last, type;
    int rc;

    do {
        if ( get_bits(&s, 1, &last) || get_bits(&s, 2, &type) )
            break;
        switch ( type )
        {
        case 0: rc = stored(&s); break;
        case 1: rc = fixed(&s); break;
        case 2: rc = dynamic(&s); break;
        default: rc = fail(&s, "invalid deflate block type"); break;
        }
        if ( rc )
            break;
    } while ( !last );

    *out_len = s.out_pos;
    *in_used = s.in_pos;        /* the last partial byte counts as used */
    *why = s.why;
    return s.why ? -1 : 0;
}
