/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Decoding of the stores that hit a guest's read-only L1 tables (Xen's
 * ptwr_emulated_write() and ptwr_emulated_cmpxchg() get theirs from the
 * full x86_emulate(); the shim decodes only what compilers emit for a
 * PTE write).  Encodings: SDM vol. 2A, chapter 2 and the MOV, XCHG,
 * CMPXCHG and CMPXCHG8B pages.  Every byte comes from the guest.
 */
#include "shim/lib.h"
#include "pv/ptwr-decode.h"

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
 * LOCK may repeat; a segment override may too, but two different ones
 * leave the segment unclear, so they are refused.
 */
static bool prefixes(struct cursor *c, bool *lock, unsigned int *seg,
                     uint8_t *b)
{
    for ( ;; )
    {
        unsigned int s;

        if ( !take_byte(c, b) )
            return false;

        switch ( *b )
        {
        case 0xf0: *lock = true; continue;
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

/*
 * The opcode and what follows it.  *@out has its prefixes' findings;
 * @rex is 0 for 32-bit code.
 */
static bool opcode(struct cursor *c, uint8_t op, uint8_t rex, bool compat,
                   struct ptwr_insn *out)
{
    unsigned int reg;
    uint64_t v;

    out->size = rex & REX_W ? 8 : 4;
    out->src_reg = out->src_hi = out->cmp_reg = out->cmp_hi = PTWR_NO_REG;

    switch ( op )
    {
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
    bool lock = false;
    uint8_t b, rex = 0;

    memset(out, 0, sizeof(*out));

    if ( !prefixes(&c, &lock, &seg, &b) )
        return -1;

    /* REX counts only right before the opcode; 32-bit code has none. */
    if ( !compat && (b & 0xf0) == 0x40 )
    {
        rex = b;
        if ( !take_byte(&c, &b) )
            return -1;
    }

    if ( !opcode(&c, b, rex, compat, out) )
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

int ptwr_decode(const uint8_t *insn, size_t len, struct ptwr_insn *out)
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

    if ( compat )
        return (uint32_t)(seg_base + (uint32_t)ea);

    return seg_base + ea;
}
