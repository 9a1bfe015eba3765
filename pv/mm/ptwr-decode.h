/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The instruction decoder behind writable page tables: which store wrote
 * to a guest L1 table, where, and what it stored.  Only the forms that
 * compilers emit for a page-table entry write, and the read-modify-write
 * forms of Linux's bit operations on PTEs; the caller bounces anything
 * else to the guest as the #PF it was.  Pure, fuzzed by
 * tests/fuzz/fuzz-ptwr.c.
 */
#ifndef PV_PTWR_DECODE_H
#define PV_PTWR_DECODE_H

#include "shim/lib.h"

enum ptwr_kind {
    PTWR_MOV = 1,       /* 89 /r, C7 /0 (immediate), A3 (moffs) */
    PTWR_XCHG,          /* 87 /r: always locked */
    PTWR_CMPXCHG,       /* 0F B1 /r: compares with rAX */
    PTWR_CMPXCHG8B,     /* 0F C7 /1: compares EDX:EAX, stores ECX:EBX */
    /*
     * Read-modify-write, LOCK or not (ptwr_rmw() gives the result).
     * Linux's set_bit()/clear_bit()/change_bit() with a constant bit are
     * lock orb/andb/xorb $imm8; with a variable one, and the test_and_*
     * forms, lock bts/btr/btc; atomic64 and/or are lock orq/andq.
     */
    PTWR_OR,            /* 08/09 /r, 80/81/83 /1 */
    PTWR_AND,           /* 20/21 /r, 80/81/83 /4 */
    PTWR_XOR,           /* 30/31 /r, 80/81/83 /6 */
    PTWR_BTS,           /* 0F AB /r, 0F BA /5 ib */
    PTWR_BTR,           /* 0F B3 /r, 0F BA /6 ib */
    PTWR_BTC,           /* 0F BB /r, 0F BA /7 ib */
};

static inline bool ptwr_is_rmw(unsigned int kind)
{
    return kind >= PTWR_OR && kind <= PTWR_BTC;
}

static inline bool ptwr_is_bt(unsigned int kind)
{
    return kind >= PTWR_BTS && kind <= PTWR_BTC;
}

/* Segment override prefixes (the default segment when none is given). */
enum ptwr_seg {
    PTWR_SEG_NONE = 0,
    PTWR_SEG_ES,
    PTWR_SEG_CS,
    PTWR_SEG_SS,
    PTWR_SEG_DS,
    PTWR_SEG_FS,
    PTWR_SEG_GS,
};

/* Register numbers as instructions encode them (SDM vol. 2A, 2.1.5). */
#define PTWR_RAX        0
#define PTWR_RCX        1
#define PTWR_RDX        2
#define PTWR_RBX        3
#define PTWR_NO_REG     (-1)

/*
 * The memory operand: base + index * scale + disp, or (rip_rel) the
 * address of the next instruction + disp.  A 64-bit guest's ES/CS/SS/DS
 * prefixes change nothing and come out as PTWR_SEG_NONE; FS and GS add
 * their base.  For a 32-bit guest every override is kept, and the address
 * is 32 bits wide.
 */
struct ptwr_mem {
    int8_t base;                /* 0-15, or PTWR_NO_REG */
    int8_t index;               /* 0-15, or PTWR_NO_REG */
    uint8_t scale;              /* 1, 2, 4 or 8 */
    bool rip_rel;
    uint8_t seg;                /* enum ptwr_seg */
    int64_t disp;               /* sign-extended; A3's full moffs */
};

struct ptwr_insn {
    uint8_t kind;               /* enum ptwr_kind */
    uint8_t size;               /* bytes stored: 4 or 8; RMW 1, 2, 4 or 8 */
    uint8_t len;                /* instruction length, at most 15 */
    bool lock;                  /* locked: LOCK prefix, or XCHG */
    /*
     * The value stored: register src_reg, the pair src_hi:src_reg
     * (CMPXCHG8B), or the immediate (src_reg == PTWR_NO_REG): C7's imm32,
     * sign-extended for an 8-byte store, zero-extended for a 4-byte one.
     * For OR/AND/XOR the source operand likewise: a register (src_high8:
     * bits 8-15 of it, AH/CH/DH/BH in a byte operation without REX), or
     * the immediate sign-extended to the operand size and cut there.  For
     * BTS/BTR/BTC the bit offset: a register (signed, at the operand
     * size, and it may address beyond the operand: see
     * ptwr_linear_address()) or imm8 (taken modulo the operand's bits).
     */
    int8_t src_reg, src_hi;
    bool src_high8;
    uint64_t imm;
    /* CMPXCHG: the value expected, cmp_reg, or the pair cmp_hi:cmp_reg. */
    int8_t cmp_reg, cmp_hi;
    struct ptwr_mem mem;
};

/*
 * Decode the instruction at @insn, of which @len bytes could be read
 * (more than 15 are never looked at), as 64-bit code.  Returns 0 and
 * fills *@out, or -1 for anything that is not one of the stores above to
 * memory, or that is cut short.  Prefixes: LOCK (not on MOV, which would
 * #UD), segment overrides (two different ones are refused), 66 on the
 * read-modify-write forms only (a 2-byte MOV, XCHG or CMPXCHG is refused:
 * no compiler writes a PTE that way), and REX just before the opcode.
 * Refused: 67, F2/F3, VEX and any other opcode (BT itself, which does not
 * write, included), register destinations, CMPXCHG16B.
 */
int ptwr_decode(const uint8_t *insn, size_t len, struct ptwr_insn *out);

/*
 * The same for a 32-bit (compatibility mode) PAE guest: no REX (40-4F
 * are INC/DEC there), no RIP-relative form (mod 0, r/m 5 is an absolute
 * disp32), registers 0-7, 4-byte MOV/XCHG/CMPXCHG, 8-byte CMPXCHG8B and
 * 1-, 2- or 4-byte read-modify-writes.
 */
int ptwr_decode_compat(const uint8_t *insn, size_t len,
                       struct ptwr_insn *out);

/*
 * The segment the write goes through: for a 64-bit guest PTWR_SEG_NONE
 * (base 0), FS or GS; for a 32-bit guest the override, else SS for an
 * ESP or EBP base and DS for any other (SDM vol. 1, 3.7.4).
 */
unsigned int ptwr_segment(const struct ptwr_insn *in, bool compat);

/*
 * The linear address the decoded instruction writes, for the caller to
 * compare with CR2: @gpr holds the guest's registers in encoding order
 * (rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8-r15), @rip the address of
 * the instruction, @seg_base the base of ptwr_segment()'s segment (0 for
 * PTWR_SEG_NONE).  A 32-bit guest's address wraps at 4 GiB.  For
 * BTS/BTR/BTC with a register bit offset it is the operand the bit lies
 * in: the address plus (offset / operand bits) operands, rounded down, as
 * the CPU accesses it (SDM vol. 2A, BT: "bit base" and "bit offset").
 */
uint64_t ptwr_linear_address(const struct ptwr_insn *in, const uint64_t *gpr,
                             uint64_t rip, uint64_t seg_base, bool compat);

/*
 * A read-modify-write's result (pv/mm/ptwr-rmw.c): @cur is the operand's
 * value in memory (in->size bytes), @src the source operand (the
 * register's value, already shifted down for src_high8, or in->imm).
 * Returns the value to store; *@rflags gets the flags the instruction
 * leaves: OR/AND/XOR clear CF and OF, set ZF, SF and PF from the result
 * and clear AF (undefined in the SDM; what CPUs do); BTS/BTR/BTC put the
 * old bit in CF and leave the rest (ZF unaffected, the others undefined).
 */
uint64_t ptwr_rmw(const struct ptwr_insn *in, uint64_t cur, uint64_t src,
                  uint64_t *rflags);

#endif /* PV_PTWR_DECODE_H */
