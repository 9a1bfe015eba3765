/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a decoded read-modify-write (OR, AND, XOR, BTS, BTR, BTC) does to
 * its memory operand and to the flags, for the writable-page-table
 * emulation.  Pure; the host tests compare it with the CPU's own
 * instructions.  SDM vol. 2A/2B, the pages of each instruction.
 */
#include "shim/lib.h"
#include "arch/x86/eflags.h"
#include "pv/mm/ptwr-decode.h"

/* PF: set when the result's low byte has an even number of ones. */
static bool parity_even(uint8_t v)
{
    v ^= v >> 4;
    v ^= v >> 2;
    v ^= v >> 1;
    return !(v & 1);
}

uint64_t ptwr_rmw(const struct ptwr_insn *in, uint64_t cur, uint64_t src,
                  uint64_t *rflags)
{
    unsigned int bits = in->size * 8;
    uint64_t mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
    uint64_t f = *rflags, val, bit;

    cur &= mask;
    switch ( in->kind )
    {
    case PTWR_OR:  val = cur | (src & mask); break;
    case PTWR_AND: val = cur & src; break;
    case PTWR_XOR: val = cur ^ (src & mask); break;
    default:
        /* BTS/BTR/BTC: the bit within this operand (see the decoder). */
        bit = 1ULL << (src & (bits - 1));
        f = (f & ~X86_EFLAGS_CF) | (cur & bit ? X86_EFLAGS_CF : 0);
        *rflags = f;
        return in->kind == PTWR_BTS ? cur | bit :
               in->kind == PTWR_BTR ? cur & ~bit : cur ^ bit;
    }

    f &= ~(X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | X86_EFLAGS_ZF |
           X86_EFLAGS_SF | X86_EFLAGS_OF);
    if ( !val )
        f |= X86_EFLAGS_ZF;
    if ( val >> (bits - 1) )
        f |= X86_EFLAGS_SF;
    if ( parity_even(val) )
        f |= X86_EFLAGS_PF;
    *rflags = f;
    return val;
}
