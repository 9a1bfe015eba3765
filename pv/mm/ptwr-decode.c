/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Decoding of the stores that hit a guest's read-only L1 tables (Xen's
 * ptwr_emulated_write() and ptwr_emulated_cmpxchg() get theirs from the
 * full x86_emulate(); the shim decodes only what compilers emit for a
 * PTE write, and the read-modify-writes of Linux's bit operations).
 * Encodings: SDM vol. 2A, chapter 2 and the MOV, XCHG, CMPXCHG,
 * CMPXCHG8B, OR, AND, XOR, BTS, BTR and BTC pages.  Every byte comes
 * from the guest.
 */
#include "shim/lib.h"
#include "pv/mm/ptwr-decode.h"

#define MAX_INSN_LEN    15      /* longer raises #GP (SDM vol. 2A, 2.3.11) */

#define REX_W           0x08
#define REX_R           0x04
#define REX_X           0x02
#define REX_B           0x01

/* The bytes of one instruction, read front to back. */
struct cursor {
    const uint8_t *p;
    size_t avail;
    size_t pos;
};

/* The next @n (1, 4 or 8) bytes, little-endian; false if cut short. */
static bool take(struct cursor *c, unsigned int n, uint64_t *v)
{
    unsigned int i;

    if ( c->avail - c->pos < n )
        return false;

    *v = 0;
    for ( i = 0; i < n; i++ )
        *v |= (uint64_t)c->p[c->pos + i] << (8 * i);
    c->pos += n;

    return true;
}

static bool take_byte(struct cursor *c, uint8_t *b)
{
    uint64_t v;

    if ( !take(c, 1, &v) )
        return false;
    *b = v;

    return true;
}

/*
 * Legacy prefixes, up to the first byte that isn't one (left in *@b).
 * LOCK and 66 may repeat; a segment override may too, but two different
 * ones leave the segment unclear, so they are refused.
 */
static bool prefixes(struct cursor *c, bool *lock, bool *o16,
                     unsigned int *seg, uint8_t *b)
{
    for ( ;; )
    {
        unsigned int s;

        if ( !take_byte(c, b) )
            return false;

        switch ( *b )
        {
        case 0xf0: *lock = true; continue;
        case 0x66: *o16 = true; continue;
        case 0x26: s = PTWR_SEG_ES; break;
        case 0x2e: s = PTWR_SEG_CS; break;
        case 0x36: s = PTWR_SEG_SS; break;
        case 0x3e: s = PTWR_SEG_DS; break;
        case 0x64: s = PTWR_SEG_FS; break;
        case 0x65: s = PTWR_SEG_GS; break;
        default:
            return true;
        }

        if ( *seg != PTWR_SEG_NONE && *seg != s )
            return false;
        *seg = s;
    }
}

/*
 * A ModRM byte with a memory operand, and the SIB byte and displacement
 * that follow it (SDM vol. 2A, tables 2-2 and 2-3, and 2.2.1.6 for
 * RIP-relative addressing).  *@reg gets the reg field, REX.R included.
 */
static bool modrm_mem(struct cursor *c, uint8_t rex, bool compat,
                      struct ptwr_mem *m, unsigned int *reg)
{
    unsigned int mod, rm, disp_bytes;
    uint8_t modrm, sib;
    uint64_t disp = 0;

    if ( !take_byte(c, &modrm) )
        return false;

    mod = modrm >> 6;
    rm = modrm & 7;
    *reg = ((modrm >> 3) & 7) | (rex & REX_R ? 8 : 0);
    if ( mod == 3 )
        return false;               /* a register, not memory */

    m->base = m->index = PTWR_NO_REG;
    m->scale = 1;
    disp_bytes = mod == 1 ? 1 : mod == 2 ? 4 : 0;

    if ( rm == 4 )
    {
        unsigned int index, base;

        if ( !take_byte(c, &sib) )
            return false;

        index = ((sib >> 3) & 7) | (rex & REX_X ? 8 : 0);
        base = (sib & 7) | (rex & REX_B ? 8 : 0);
        if ( index != 4 )           /* 4 without REX.X: no index */
        {
            m->index = index;
            m->scale = 1 << (sib >> 6);
        }
        if ( (sib & 7) == 5 && mod == 0 )
            disp_bytes = 4;         /* no base, whatever REX.B says */
        else
            m->base = base;
    }
    else if ( rm == 5 && mod == 0 )
    {
        disp_bytes = 4;
        m->rip_rel = !compat;       /* 32-bit code: an absolute disp32 */
    }
    else
        m->base = rm | (rex & REX_B ? 8 : 0);

    if ( disp_bytes && !take(c, disp_bytes, &disp) )
        return false;
    m->disp = disp_bytes == 1 ? (int8_t)disp :
              disp_bytes == 4 ? (int32_t)disp : 0;

    return true;
}

/* ModRM.reg of group 1 (80/81/83), and 08/20/30 >> 3: the logic ops. */
static unsigned int logic_kind(unsigned int n)
{
    return n == 1 ? PTWR_OR : n == 4 ? PTWR_AND : n == 6 ? PTWR_XOR : 0;
}

/* An immediate of @n bytes, sign-extended, cut to the operand size. */
static bool take_simm(struct cursor *c, unsigned int n, unsigned int size,
                      uint64_t *imm)
{
    uint64_t v;

    if ( !take(c, n, &v) )
        return false;
    v = n == 1 ? (uint64_t)(int8_t)v : n == 2 ? (uint64_t)(int16_t)v
                                              : (uint64_t)(int32_t)v;
    *imm = size == 8 ? v : v & ((1ULL << (size * 8)) - 1);
    return true;
}

/*
 * OR/AND/XOR with a memory destination: 08 09 20 21 30 31 (register
 * source) and 80 81 83 (immediate).  Even opcodes and 80 are byte-sized.
 */
static bool logic(struct cursor *c, uint8_t op, uint8_t rex, bool compat,
                  struct ptwr_insn *out)
{
    unsigned int reg;

    if ( !(op & 1) )
        out->size = 1;
    if ( !modrm_mem(c, rex, compat, &out->mem, &reg) )
        return false;

    if ( op < 0x80 )
    {
        out->kind = logic_kind(op >> 3);
        out->src_reg = reg;
        /* Without any REX, byte registers 4-7 are AH, CH, DH, BH. */
        if ( out->size == 1 && !rex && reg >= 4 )
        {
            out->src_reg = reg - 4;
            out->src_high8 = true;
        }
        return true;
    }

    out->kind = logic_kind(reg & 7);
    return out->kind &&
           take_simm(c, op == 0x81 ? MIN(out->size, 4u) : 1, out->size,
                     &out->imm);
}

/* BTS/BTR/BTC: 0F AB B3 BB (register bit offset), 0F BA /5-7 ib. */
static bool bit_op(struct cursor *c, uint8_t op, uint8_t rex, bool compat,
                   struct ptwr_insn *out)
{
    unsigned int reg;
    uint64_t v;

    if ( !modrm_mem(c, rex, compat, &out->mem, &reg) )
        return false;

    switch ( op )
    {
    case 0xab: out->kind = PTWR_BTS; break;
    case 0xb3: out->kind = PTWR_BTR; break;
    case 0xbb: out->kind = PTWR_BTC; break;
    case 0xba:
        /* /4 is BT, which only reads; /0-/3 are undefined. */
        if ( (reg & 7) < 5 || !take(c, 1, &v) )
            return false;
        out->kind = PTWR_BTS + (reg & 7) - 5;
        out->imm = v;
        return true;
    }
    out->src_reg = reg;
    return true;
}

/*
 * The opcode and what follows it.  *@out has its prefixes' findings;
 * @rex is 0 for 32-bit code.
 */
static bool opcode(struct cursor *c, uint8_t op, uint8_t rex, bool compat,
                   bool o16, struct ptwr_insn *out)
{
    unsigned int reg;
    uint64_t v;

    out->size = rex & REX_W ? 8 : o16 ? 2 : 4;
    out->src_reg = out->src_hi = out->cmp_reg = out->cmp_hi = PTWR_NO_REG;

    switch ( op )
    {
    case 0x08: case 0x09:           /* OR r/m, r */
    case 0x20: case 0x21:           /* AND r/m, r */
    case 0x30: case 0x31:           /* XOR r/m, r */
    case 0x80: case 0x81: case 0x83: /* group 1 r/m, imm */
        return logic(c, op, rex, compat, out);

    case 0x89:                      /* MOV r/m, r */
    case 0x87:                      /* XCHG r/m, r */
        if ( !modrm_mem(c, rex, compat, &out->mem, &reg) )
            return false;
        out->kind = op == 0x89 ? PTWR_MOV : PTWR_XCHG;
        out->src_reg = reg;
        return true;

    case 0xc7:                      /* MOV r/m, imm32 */
        if ( !modrm_mem(c, rex, compat, &out->mem, &reg) ||
             (reg & 7) || !take(c, 4, &v) )
            return false;
        out->kind = PTWR_MOV;
        out->imm = out->size == 8 ? (uint64_t)(int64_t)(int32_t)v : v;
        return true;

    case 0xa3:                      /* MOV moffs, rAX: gcc -m32 uses it */
        if ( !take(c, compat ? 4 : 8, &v) )
            return false;
        out->kind = PTWR_MOV;
        out->src_reg = PTWR_RAX;
        out->mem.base = out->mem.index = PTWR_NO_REG;
        out->mem.scale = 1;
        out->mem.disp = (int64_t)v;
        return true;

    case 0x0f:
        if ( !take_byte(c, &op) )
            return false;
        if ( op == 0xab || op == 0xb3 || op == 0xbb || op == 0xba )
            return bit_op(c, op, rex, compat, out);
        if ( op == 0xb1 )           /* CMPXCHG r/m, r */
        {
            if ( !modrm_mem(c, rex, compat, &out->mem, &reg) )
                return false;
            out->kind = PTWR_CMPXCHG;
            out->src_reg = reg;
            out->cmp_reg = PTWR_RAX;
            return true;
        }
        /* CMPXCHG8B m64; with REX.W it is CMPXCHG16B, too wide. */
        if ( op != 0xc7 || (rex & REX_W) ||
             !modrm_mem(c, rex, compat, &out->mem, &reg) || (reg & 7) != 1 )
            return false;
        out->kind = PTWR_CMPXCHG8B;
        out->size = 8;
        out->src_reg = PTWR_RBX;
        out->src_hi = PTWR_RCX;
        out->cmp_reg = PTWR_RAX;
        out->cmp_hi = PTWR_RDX;
        return true;
    }

    return false;
}

static always_inline int decode(const uint8_t *insn, size_t len,
                                bool compat, struct ptwr_insn *out)
{
    struct cursor c = { insn, MIN(len, (size_t)MAX_INSN_LEN), 0 };
    unsigned int seg = PTWR_SEG_NONE;
    bool lock = false, o16 = false;
    uint8_t b, rex = 0;

    memset(out, 0, sizeof(*out));

    if ( !prefixes(&c, &lock, &o16, &seg, &b) )
        return -1;

    /* REX counts only right before the opcode; 32-bit code has none. */
    if ( !compat && (b & 0xf0) == 0x40 )
    {
        rex = b;
        if ( !take_byte(&c, &b) )
            return -1;
    }

    if ( !opcode(&c, b, rex, compat, o16, out) ||
         (o16 && !ptwr_is_rmw(out->kind)) )
        goto fail;

    /* LOCK on a MOV raises #UD; XCHG with memory is locked anyway. */
    if ( lock && out->kind == PTWR_MOV )
        goto fail;
    out->lock = lock || out->kind == PTWR_XCHG;

    /* In 64-bit mode only FS and GS have a base. */
    if ( !compat && seg != PTWR_SEG_FS && seg != PTWR_SEG_GS )
        seg = PTWR_SEG_NONE;
    out->mem.seg = seg;
    out->len = c.pos;

    return 0;

 fail:
    memset(out, 0, sizeof(*out));
    return -1;
}

int __hot_text ptwr_decode(const uint8_t *insn, size_t len,
                           struct ptwr_insn *out)
{
    return decode(insn, len, false, out);
}

int ptwr_decode_compat(const uint8_t *insn, size_t len,
                       struct ptwr_insn *out)
{
    return decode(insn, len, true, out);
}

unsigned int ptwr_segment(const struct ptwr_insn *in, bool compat)
{
    if ( in->mem.seg != PTWR_SEG_NONE || !compat )
        return in->mem.seg;

    return in->mem.base == 4 || in->mem.base == 5 ? PTWR_SEG_SS
                                                  : PTWR_SEG_DS;
}

/*
 * BTx with a register: the bit offset is signed at the operand size, and
 * the operand accessed is that many bits away, in whole operands.
 */
static int64_t bit_base_offset(const struct ptwr_insn *in, uint64_t reg)
{
    int64_t off = in->size == 8 ? (int64_t)reg :
                  in->size == 4 ? (int64_t)(int32_t)reg : (int64_t)(int16_t)reg;

    /* An arithmetic shift: rounds down, as the CPU does. */
    return (off >> (in->size == 8 ? 6 : in->size == 4 ? 5 : 4)) * in->size;
}

uint64_t ptwr_linear_address(const struct ptwr_insn *in, const uint64_t *gpr,
                             uint64_t rip, uint64_t seg_base, bool compat)
{
    const struct ptwr_mem *m = &in->mem;
    uint64_t ea = m->disp;

    if ( m->rip_rel )
        ea += rip + in->len;
    if ( m->base != PTWR_NO_REG )
        ea += gpr[m->base & 15];
    if ( m->index != PTWR_NO_REG )
        ea += gpr[m->index & 15] * m->scale;
    if ( ptwr_is_bt(in->kind) && in->src_reg != PTWR_NO_REG )
        ea += bit_base_offset(in, gpr[in->src_reg & 15]);

    if ( compat )
        return (uint32_t)(seg_base + (uint32_t)ea);

    return seg_base + ea;
}
