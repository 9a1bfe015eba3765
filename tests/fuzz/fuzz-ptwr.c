/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer harness for the writable-page-table decoder
 * (pv/mm/ptwr-decode.c): any bytes, decoded as 64-bit and as 32-bit code,
 * are either refused with nothing left in the output, or decode to an
 * instruction that keeps every promise pv/mm/ptwr-decode.h makes and whose
 * length is exact; a read-modify-write's result (pv/mm/ptwr-rmw.c) stays
 * within its operand.  ASan/UBSan watch every byte read and every sum.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pv/mm/ptwr-decode.c"
#include "pv/mm/ptwr-rmw.c"

#define FUZZ_ASSERT(cond) do {                                             \
    if ( !(cond) )                                                         \
    {                                                                      \
        fprintf(stderr, "fuzz-ptwr: %s:%d: %s\n", __FILE__, __LINE__,      \
                #cond);                                                    \
        abort();                                                           \
    }                                                                      \
} while ( 0 )

static int dec(const uint8_t *b, size_t n, bool compat, struct ptwr_insn *o)
{
    return compat ? ptwr_decode_compat(b, n, o) : ptwr_decode(b, n, o);
}

static bool reg_ok(int r, bool compat)
{
    return r == PTWR_NO_REG || (r >= 0 && r < (compat ? 8 : 16));
}

static void check_insn(const struct ptwr_insn *o, size_t size, bool compat)
{
    const struct ptwr_mem *m = &o->mem;

    FUZZ_ASSERT(o->len >= 2 && o->len <= 15 && o->len <= size);
    FUZZ_ASSERT(o->kind >= PTWR_MOV && o->kind <= PTWR_BTC);
    FUZZ_ASSERT(o->size == 4 || o->size == 8 ||
                (ptwr_is_rmw(o->kind) && (o->size == 2 ||
                 (o->size == 1 && !ptwr_is_bt(o->kind)))));
    FUZZ_ASSERT(!compat || o->size <= 4 || o->kind == PTWR_CMPXCHG8B);
    FUZZ_ASSERT(!o->src_high8 ||
                (o->size == 1 && o->src_reg >= 0 && o->src_reg < 4));

    FUZZ_ASSERT(reg_ok(o->src_reg, compat) && reg_ok(o->src_hi, compat));
    FUZZ_ASSERT(reg_ok(o->cmp_reg, compat) && reg_ok(o->cmp_hi, compat));
    FUZZ_ASSERT(reg_ok(m->base, compat) && reg_ok(m->index, compat));
    FUZZ_ASSERT(m->index != 4);                 /* rsp is never an index */
    FUZZ_ASSERT(m->scale == 1 || m->scale == 2 || m->scale == 4 ||
                m->scale == 8);
    FUZZ_ASSERT(m->index != PTWR_NO_REG || m->scale == 1);
    FUZZ_ASSERT(!m->rip_rel ||
                (!compat && m->base == PTWR_NO_REG &&
                 m->index == PTWR_NO_REG));
    FUZZ_ASSERT(m->seg <= PTWR_SEG_GS);
    FUZZ_ASSERT(compat || m->seg == PTWR_SEG_NONE ||
                m->seg == PTWR_SEG_FS || m->seg == PTWR_SEG_GS);

    switch ( o->kind )
    {
    case PTWR_MOV:
        FUZZ_ASSERT(!o->lock && o->cmp_reg == PTWR_NO_REG);
        FUZZ_ASSERT(o->src_hi == PTWR_NO_REG);
        FUZZ_ASSERT(o->src_reg != PTWR_NO_REG || o->size == 8 ||
                    !(o->imm >> 32));
        FUZZ_ASSERT(o->src_reg == PTWR_NO_REG || !o->imm);
        break;
    case PTWR_XCHG:
        FUZZ_ASSERT(o->lock && o->src_reg != PTWR_NO_REG);
        FUZZ_ASSERT(o->cmp_reg == PTWR_NO_REG && o->src_hi == PTWR_NO_REG);
        break;
    case PTWR_CMPXCHG:
        FUZZ_ASSERT(o->src_reg != PTWR_NO_REG && o->cmp_reg == PTWR_RAX);
        FUZZ_ASSERT(o->src_hi == PTWR_NO_REG && o->cmp_hi == PTWR_NO_REG);
        break;
    case PTWR_CMPXCHG8B:
        FUZZ_ASSERT(o->size == 8);
        FUZZ_ASSERT(o->src_reg == PTWR_RBX && o->src_hi == PTWR_RCX);
        FUZZ_ASSERT(o->cmp_reg == PTWR_RAX && o->cmp_hi == PTWR_RDX);
        break;
    default:                                    /* read-modify-write */
        FUZZ_ASSERT(o->src_hi == PTWR_NO_REG && o->cmp_reg == PTWR_NO_REG);
        FUZZ_ASSERT(o->src_reg == PTWR_NO_REG || !o->imm);
        FUZZ_ASSERT(o->size == 8 || !(o->imm >> (o->size * 8)));
        FUZZ_ASSERT(!ptwr_is_bt(o->kind) || o->imm < 256);
        break;
    }
    FUZZ_ASSERT(o->kind == PTWR_MOV || ptwr_is_rmw(o->kind) || !o->imm);
}

/* A result within the operand; only the arithmetic flags move. */
static void check_rmw(const struct ptwr_insn *o, uint64_t cur, uint64_t src)
{
    uint64_t flags = 0x202 | (cur & 0x8d5), in = flags, val;

    val = ptwr_rmw(o, cur, src, &flags);
    FUZZ_ASSERT(o->size == 8 || !(val >> (o->size * 8)));
    FUZZ_ASSERT((flags & ~0x8d5ULL) == (in & ~0x8d5ULL));
}

static void one_mode(const uint8_t *data, size_t size, bool compat)
{
    static const struct ptwr_insn zero;
    struct ptwr_insn o, again;
    uint64_t gpr[16];
    size_t i;

    if ( dec(data, size, compat, &o) )
    {
        FUZZ_ASSERT(!memcmp(&o, &zero, sizeof(o)));
        return;
    }

    check_insn(&o, size, compat);

    /* The length is exact: all of it is needed, nothing after it. */
    FUZZ_ASSERT(!dec(data, o.len, compat, &again));
    FUZZ_ASSERT(!memcmp(&o, &again, sizeof(o)));
    FUZZ_ASSERT(dec(data, o.len - 1, compat, &again) == -1);

    /* The address sum, with registers taken from the input. */
    for ( i = 0; i < 16; i++ )
        gpr[i] = 0x0101010101010101UL * data[(o.len + i) % size];
    ptwr_linear_address(&o, gpr, gpr[3] ^ gpr[5], gpr[7], compat);
    FUZZ_ASSERT(ptwr_segment(&o, compat) <= PTWR_SEG_GS);
    FUZZ_ASSERT((ptwr_linear_address(&o, gpr, 0, 0, true) >> 32) == 0);
    if ( ptwr_is_rmw(o.kind) )
        check_rmw(&o, gpr[1], o.src_reg == PTWR_NO_REG ? o.imm : gpr[2]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ptwr_insn o;

    /* libFuzzer's buffer is exactly @size long: ASan sees any overrun. */
    if ( !size )
    {
        FUZZ_ASSERT(ptwr_decode(data, 0, &o) == -1);
        FUZZ_ASSERT(ptwr_decode_compat(data, 0, &o) == -1);
        return 0;
    }

    one_mode(data, size, false);
    one_mode(data, size, true);

    return 0;
}
