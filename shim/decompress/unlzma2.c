/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * LZMA2 (the xz format's filter 0x21): chunks that are stored or
 * LZMA-coded, each LZMA chunk with a fresh range decoder and, as its
 * control byte says, a reset of the state, the properties (lc/lp/pb) or
 * the dictionary.  The dictionary is the output buffer itself, from the
 * last dictionary reset.  The range decoder reads only within its chunk;
 * every match is checked against the dictionary and the chunk's end.
 */
#include "shim/decompress/decompress.h"

#define NR_STATES       12
#define POS_STATES_MAX  16
#define LIT_STATES      7       /* states below this follow a literal */
#define LEN_LOW         8
#define LEN_MID         8
#define LEN_HIGH        256
#define DIST_STATES     4
#define DIST_SLOTS      64
#define DIST_MODEL_END  14
#define FULL_DISTANCES  128
#define ALIGN_BITS      4
#define LITERAL_CODERS  (0x300 * 16)    /* lc + lp <= 4 */
#define PROB_INIT       1024
#define MATCH_LEN_MIN   2

struct len_coder {
    uint16_t choice, choice2;
    uint16_t low[POS_STATES_MAX][LEN_LOW];
    uint16_t mid[POS_STATES_MAX][LEN_MID];
    uint16_t high[LEN_HIGH];
};

/* The adaptive probabilities: all reset together. */
struct lzma_probs {
    uint16_t is_match[NR_STATES][POS_STATES_MAX];
    uint16_t is_rep[NR_STATES], is_rep0[NR_STATES];
    uint16_t is_rep1[NR_STATES], is_rep2[NR_STATES];
    uint16_t is_rep0_long[NR_STATES][POS_STATES_MAX];
    uint16_t dist_slot[DIST_STATES][DIST_SLOTS];
    uint16_t dist_special[FULL_DISTANCES - DIST_MODEL_END];
    uint16_t dist_align[1 << ALIGN_BITS];
    struct len_coder match_len, rep_len;
    uint16_t literal[LITERAL_CODERS];
};

struct lzma2 {
    /* range decoder over in[pos, end) */
    const uint8_t *in;
    size_t pos, end;
    uint32_t range, code;
    bool overrun;
    /* output, the dictionary from base */
    uint8_t *out;
    size_t out_pos, out_size, base;
    uint32_t dict_size;
    /* LZMA */
    unsigned int lc, lp, pb, state;
    uint32_t rep[4];
    struct lzma_probs p;
};

static void normalize(struct lzma2 *z)
{
    if ( z->range >= (1u << 24) )
        return;
    z->range <<= 8;
    z->code <<= 8;
    if ( z->pos < z->end )
        z->code |= z->in[z->pos++];
    else
        z->overrun = true;      /* checked once per symbol */
}

static unsigned int bit(struct lzma2 *z, uint16_t *prob)
{
    uint32_t bound;

    normalize(z);
    bound = (z->range >> 11) * *prob;
    if ( z->code < bound )
    {
        z->range = bound;
        *prob += (2048 - *prob) >> 5;
        return 0;
    }
    z->range -= bound;
    z->code -= bound;
    *prob -= *prob >> 5;
    return 1;
}

/* @n bits, most significant first, through a tree of 1 << n probs. */
static uint32_t bittree(struct lzma2 *z, uint16_t *probs, unsigned int n)
{
    uint32_t sym = 1;

    while ( sym < (1u << n) )
        sym = (sym << 1) | bit(z, &probs[sym]);
    return sym - (1u << n);
}

/* @n bits, least significant first, added to *dest. */
static void bittree_reverse(struct lzma2 *z, uint16_t *probs, uint32_t *dest,
                            unsigned int n)
{
    uint32_t sym = 1, i, b;

    for ( i = 0; i < n; i++ )
    {
        b = bit(z, &probs[sym]);
        sym = (sym << 1) | b;
        *dest += b << i;
    }
}

/* @n bits of fixed probability one half, appended to *dest. */
static void direct(struct lzma2 *z, uint32_t *dest, unsigned int n)
{
    uint32_t mask;

    while ( n-- )
    {
        normalize(z);
        z->range >>= 1;
        z->code -= z->range;
        mask = 0 - (z->code >> 31);
        z->code += z->range & mask;
        *dest = (*dest << 1) + (mask + 1);
    }
}

static void reset_state(struct lzma2 *z)
{
    uint16_t *p = (uint16_t *)&z->p;
    size_t i;

    for ( i = 0; i < sizeof(z->p) / sizeof(*p); i++ )
        p[i] = PROB_INIT;
    z->state = 0;
    z->rep[0] = z->rep[1] = z->rep[2] = z->rep[3] = 0;
}

static uint32_t length(struct lzma2 *z, struct len_coder *c,
                       unsigned int pos_state)
{
    if ( !bit(z, &c->choice) )
        return MATCH_LEN_MIN + bittree(z, c->low[pos_state], 3);
    if ( !bit(z, &c->choice2) )
        return MATCH_LEN_MIN + LEN_LOW + bittree(z, c->mid[pos_state], 3);
    return MATCH_LEN_MIN + LEN_LOW + LEN_MID + bittree(z, c->high, 8);
}

static uint32_t distance(struct lzma2 *z, uint32_t len)
{
    uint32_t slot, limit, dist;

    slot = bittree(z, z->p.dist_slot[MIN(len - MATCH_LEN_MIN, 3u)], 6);
    if ( slot < 4 )
        return slot;
    limit = (slot >> 1) - 1;
    dist = 2 | (slot & 1);
    if ( slot < DIST_MODEL_END )
    {
        dist <<= limit;
        bittree_reverse(z, z->p.dist_special + dist - slot - 1, &dist, limit);
    }
    else
    {
        direct(z, &dist, limit - ALIGN_BITS);
        dist <<= ALIGN_BITS;
        bittree_reverse(z, z->p.dist_align, &dist, ALIGN_BITS);
    }
    return dist;
}

static void literal(struct lzma2 *z, size_t limit)
{
    size_t pos = z->out_pos - z->base;
    unsigned int prev = pos ? z->out[z->out_pos - 1] : 0;
    uint16_t *probs = z->p.literal + 0x300 *
        (((pos & ((1u << z->lp) - 1)) << z->lc) + (prev >> (8 - z->lc)));
    uint32_t sym = 1, match, off = 0x100, mbit;

    if ( z->state < LIT_STATES )
        sym = bittree(z, probs, 8) | 0x100;
    else
    {
        /* After a match: the byte at rep0 steers the first bits. */
        match = z->rep[0] < pos ? z->out[z->out_pos - z->rep[0] - 1] : 0;
        while ( sym < 0x100 )
        {
            match <<= 1;
            mbit = match & off;
            if ( bit(z, &probs[off + mbit + sym]) )
            {
                sym = (sym << 1) | 1;
                off &= mbit;
            }
            else
            {
                sym <<= 1;
                off &= ~mbit;
            }
        }
    }
    if ( z->out_pos < limit )
        z->out[z->out_pos++] = sym;
    z->state = z->state < 4 ? 0 : z->state < 10 ? z->state - 3
                                                 : z->state - 6;
}

/* A rep1, rep2 or rep3 match: that distance moves to the front. */
static void rep_pick(struct lzma2 *z, unsigned int s)
{
    uint32_t d;

    if ( !bit(z, &z->p.is_rep1[s]) )
        d = z->rep[1];
    else
    {
        if ( !bit(z, &z->p.is_rep2[s]) )
            d = z->rep[2];
        else
        {
            d = z->rep[3];
            z->rep[3] = z->rep[2];
        }
        z->rep[2] = z->rep[1];
    }
    z->rep[1] = z->rep[0];
    z->rep[0] = d;
}

/* A match's length (and distance, now rep0); updates the state. */
static uint32_t match(struct lzma2 *z, unsigned int s, unsigned int ps)
{
    uint32_t len, d;

    if ( !bit(z, &z->p.is_rep[s]) )
    {
        len = length(z, &z->p.match_len, ps);
        z->state = s < LIT_STATES ? 7 : 10;
        d = distance(z, len);
        z->rep[3] = z->rep[2];
        z->rep[2] = z->rep[1];
        z->rep[1] = z->rep[0];
        z->rep[0] = d;
        return len;
    }
    if ( !bit(z, &z->p.is_rep0[s]) )
    {
        if ( !bit(z, &z->p.is_rep0_long[s][ps]) )
        {
            z->state = s < LIT_STATES ? 9 : 11;     /* one byte at rep0 */
            return 1;
        }
    }
    else
        rep_pick(z, s);
    z->state = s < LIT_STATES ? 8 : 11;
    return length(z, &z->p.rep_len, ps);
}

/* Decode one LZMA chunk up to @limit in the output. */
static int lzma_chunk(struct lzma2 *z, size_t limit, const char **why)
{
    unsigned int ps;
    uint32_t len;

    while ( z->out_pos < limit )
    {
        ps = (z->out_pos - z->base) & ((1u << z->pb) - 1);
        if ( !bit(z, &z->p.is_match[z->state][ps]) )
            literal(z, limit);
        else
        {
            len = match(z, z->state, ps);
            if ( z->rep[0] >= z->out_pos - z->base ||
                 z->rep[0] >= z->dict_size )
                return *why = "LZMA distance beyond the dictionary", -1;
            if ( len > limit - z->out_pos )
                return *why = "LZMA match runs past its chunk", -1;
            for ( ; len; len--, z->out_pos++ )
                z->out[z->out_pos] = z->out[z->out_pos - z->rep[0] - 1];
        }
        if ( z->overrun )
            return *why = "LZMA chunk truncated", -1;
    }
    return 0;
}

/* The range decoder's 5 opening bytes: the first is always 0. */
static int rc_init(struct lzma2 *z, size_t start, size_t len,
                   const char **why)
{
    if ( len < 5 || z->in[start] )
        return *why = "LZMA chunk has a bad range coder start", -1;
    z->pos = start + 5;
    z->end = start + len;
    z->range = ~0u;
    z->code = ((uint32_t)z->in[start + 1] << 24) | (z->in[start + 2] << 16) |
              (z->in[start + 3] << 8) | z->in[start + 4];   /* big-endian */
    z->overrun = false;
    return 0;
}

static int set_props(struct lzma2 *z, unsigned int props, const char **why)
{
    if ( props >= 9 * 5 * 5 )
        return *why = "LZMA properties invalid", -1;
    z->lc = props % 9;
    z->lp = (props / 9) % 5;
    z->pb = props / 45;
    if ( z->lc + z->lp > 4 )
        return *why = "LZMA2 properties have lc + lp > 4", -1;
    return 0;
}

int unlzma2(const uint8_t *in, size_t in_len, size_t *in_used, uint8_t *out,
            size_t out_size, size_t *out_len, uint32_t dict_size,
            const char **why)
{
    static struct lzma2 z;      /* 30 KiB of probabilities: not on a stack */
    bool need_dict = true, need_props = true;
    size_t ip = 0, unc, comp, hdr;
    unsigned int ctl;

    memset(&z, 0, sizeof(z));
    z.in = in;
    z.out = out;
    z.out_size = out_size;
    z.dict_size = dict_size;
    *out_len = 0;
    for ( ;; )
    {
        if ( ip >= in_len )
            return *why = "LZMA2 data truncated", -1;
        ctl = in[ip];
        if ( !ctl )
            break;
        if ( ctl >= 0xe0 || ctl == 0x01 )
        {
            need_props = true;
            need_dict = false;
            z.base = z.out_pos;         /* dictionary reset */
        }
        else if ( need_dict )
            return *why = "LZMA2 does not start with a dictionary reset", -1;
        if ( ctl < 0x80 && ctl > 0x02 )
            return *why = "LZMA2 control byte invalid", -1;

        hdr = ctl >= 0x80 ? (ctl >= 0xc0 ? 6 : 5) : 3;
        if ( in_len - ip < hdr )
            return *why = "LZMA2 data truncated", -1;
        unc = ((ctl >= 0x80 ? (ctl & 0x1f) << 16 : 0) |
               (in[ip + 1] << 8) | in[ip + 2]) + 1;
        if ( unc > out_size - z.out_pos )
            return *why = "output larger than announced", -1;

        if ( ctl < 0x80 )               /* stored */
        {
            ip += hdr;
            if ( unc > in_len - ip )
                return *why = "LZMA2 data truncated", -1;
            memcpy(out + z.out_pos, in + ip, unc);
            z.out_pos += unc;
            ip += unc;
            continue;
        }

        comp = ((in[ip + 3] << 8) | in[ip + 4]) + 1;
        if ( ctl >= 0xc0 )
        {
            if ( set_props(&z, in[ip + 5], why) )
                return -1;
            need_props = false;
        }
        else if ( need_props )
            return *why = "LZMA2 chunk without the properties it needs", -1;
        if ( ctl >= 0xa0 )
            reset_state(&z);
        ip += hdr;
        if ( comp > in_len - ip )
            return *why = "LZMA2 data truncated", -1;
        if ( rc_init(&z, ip, comp, why) ||
             lzma_chunk(&z, z.out_pos + unc, why) )
            return *out_len = z.out_pos, -1;
        normalize(&z);                  /* the encoder flushed that too */
        if ( z.overrun || z.pos != z.end || z.code )
            return *why = "LZMA chunk does not end where it says", -1;
        ip += comp;
    }
    *in_used = ip + 1;
    *out_len = z.out_pos;
    return 0;
}
