/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the writable-page-table decoder's read-modify-write forms
 * (OR, AND, XOR, BTS, BTR, BTC: pv/mm/ptwr-decode.c) and of their results
 * (pv/mm/ptwr-rmw.c), the latter compared with this CPU's own instructions.
 * Instructions are assembled by the host's assembler, as in
 * test-ptwr-decode.c: first the forms Linux's bit operations compile to,
 * then every operand size and source form.
 */
#include "tests/unit/unit.h"

#include "pv/mm/ptwr-decode.c"
#include "pv/mm/ptwr-rmw.c"
#include "tests/unit/ptwr-check.h"

static struct ptwr_insn H8(struct ptwr_insn w)
{
    w.src_high8 = true;
    return w;
}

#define RDI         M(7, NO, 1, 0)

/* ------------------------------------ what Linux's bitops compile to */

/* clear_bit(_PAGE_BIT_RW): ptep_set_wrprotect() */
INSN64(l_wrprotect, "lock andb $0xfd,(%rdi)");
/* set_bit()/change_bit() with a constant bit, a byte further on */
INSN64(l_setbit, "lock orb $0x80,0x7(%rdi)");
INSN64(l_chgbit, "lock xorb $0x40,0x1(%rdi)");
/* the same with the mask in a register ("iq") */
INSN64(l_clear_reg, "lock andb %al,(%rdi)");
INSN64(l_set_reg, "lock orb %dl,0x3(%rdi)");
/* test_and_clear_bit(_PAGE_BIT_ACCESSED): ptep_test_and_clear_young() */
INSN64(l_young, "lock btrq $0x5,(%rdi)");
INSN64(l_tas_imm, "lock btsq $0x3f,(%rdi)");
INSN64(l_tac_imm, "lock btcq $0x1,(%rdi)");
/* a variable bit: clear_bit(nr), test_and_set_bit(nr) */
INSN64(l_btr_reg, "lock btr %rsi,(%rdi)");
INSN64(l_bts_reg, "lock bts %rax,0x8(%rdx)");
INSN64(l_btc_reg, "lock btc %r9,(%r10)");
/* arch_atomic64_and()/_or()/_xor() */
INSN64(l_and64, "lock andq %rsi,(%rdi)");
INSN64(l_or64, "lock orq %r11,(%rdi,%rcx,8)");
INSN64(l_xor64, "lock xorq %rax,(%rdi)");

static void test_linux_forms(void)
{
    CHECK64(l_wrprotect, LOCKED(IMM(0xfd, want(PTWR_AND, 1, NO, RDI))));
    CHECK64(l_setbit,
            LOCKED(IMM(0x80, want(PTWR_OR, 1, NO, M(7, NO, 1, 7)))));
    CHECK64(l_chgbit,
            LOCKED(IMM(0x40, want(PTWR_XOR, 1, NO, M(7, NO, 1, 1)))));
    CHECK64(l_clear_reg, LOCKED(want(PTWR_AND, 1, 0, RDI)));
    CHECK64(l_set_reg, LOCKED(want(PTWR_OR, 1, 2, M(7, NO, 1, 3))));
    CHECK64(l_young, LOCKED(IMM(5, want(PTWR_BTR, 8, NO, RDI))));
    CHECK64(l_tas_imm, LOCKED(IMM(63, want(PTWR_BTS, 8, NO, RDI))));
    CHECK64(l_tac_imm, LOCKED(IMM(1, want(PTWR_BTC, 8, NO, RDI))));
    CHECK64(l_btr_reg, LOCKED(want(PTWR_BTR, 8, 6, RDI)));
    CHECK64(l_bts_reg, LOCKED(want(PTWR_BTS, 8, 0, M(2, NO, 1, 8))));
    CHECK64(l_btc_reg, LOCKED(want(PTWR_BTC, 8, 9, M(10, NO, 1, 0))));
    CHECK64(l_and64, LOCKED(want(PTWR_AND, 8, 6, RDI)));
    CHECK64(l_or64, LOCKED(want(PTWR_OR, 8, 11, M(7, 1, 8, 0))));
    CHECK64(l_xor64, LOCKED(want(PTWR_XOR, 8, 0, RDI)));
}

/* ------------------------------------ every size, every source form */

INSN64(s_and8_ah, "lock andb %ah,(%rdi)");          /* no REX: AH */
INSN64(s_and8_bh, "andb %bh,(%rdi)");
INSN64(s_and8_sil, "lock andb %sil,(%rdi)");        /* REX: SIL */
INSN64(s_and8_spl, ".byte 0xf0, 0x40, 0x20, 0x27"); /* bare REX: SPL */
INSN64(s_or8_r8, "lock orb %r8b,(%rdi)");
INSN64(s_or16_imm8, "lock orw $0xfff0,(%rdi)");     /* 83 /1: -16 */
INSN64(s_and16_imm16, "lock andw $0x7ffd,(%rdi)");  /* 81 /4 iw */
INSN64(s_xor16_reg, "lock xorw %cx,0x6(%rdi)");
INSN64(s_and32_imm8, "lock andl $0xfffffffd,(%rdi)");
INSN64(s_or32_imm32, "lock orl $0x100000,0x4(%rdi)");
INSN64(s_xor32_reg, "xorl %r12d,(%rdi)");
INSN64(s_and64_imm8, "andq $-3,(%rdi)");
INSN64(s_and64_imm32, "lock andq $-0x80000000,(%rdi)");
INSN64(s_or64_imm32, "lock orq $0x40000000,(%rdi)");
INSN64(s_bts16_imm, "lock btsw $0x3,(%rdi)");
INSN64(s_btr16_reg, "lock btrw %ax,(%rdi)");
INSN64(s_btc32_imm, "lock btcl $0x1f,0x4(%rdi)");
INSN64(s_btr32_reg, "btrl %esi,(%rdi)");
INSN64(s_bts64_r15, "lock btsq %r15,(%r14)");
INSN64(s_gs_andb, "lock andb $0xfd,%gs:(%rdi)");
INSN64(s_rip_bts, "lock btsq $0x2,0x10(%rip)");     /* imm8 after disp32 */
INSN64(s_o16_rexw, ".byte 0x66, 0x48, 0x83, 0x27, 0xfd");   /* W wins */
INSN64(s_o16_twice, ".byte 0x66, 0xf0, 0x66, 0x09, 0x07");

static void test_sizes(void)
{
    CHECK64(s_and8_ah, LOCKED(H8(want(PTWR_AND, 1, 0, RDI))));
    CHECK64(s_and8_bh, H8(want(PTWR_AND, 1, 3, RDI)));
    CHECK64(s_and8_sil, LOCKED(want(PTWR_AND, 1, 6, RDI)));
    CHECK64(s_and8_spl, LOCKED(want(PTWR_AND, 1, 4, RDI)));
    CHECK64(s_or8_r8, LOCKED(want(PTWR_OR, 1, 8, RDI)));
    CHECK64(s_or16_imm8, LOCKED(IMM(0xfff0, want(PTWR_OR, 2, NO, RDI))));
    CHECK64(s_and16_imm16, LOCKED(IMM(0x7ffd, want(PTWR_AND, 2, NO, RDI))));
    CHECK64(s_xor16_reg, LOCKED(want(PTWR_XOR, 2, 1, M(7, NO, 1, 6))));
    CHECK64(s_and32_imm8,
            LOCKED(IMM(0xfffffffd, want(PTWR_AND, 4, NO, RDI))));
    CHECK64(s_or32_imm32,
            LOCKED(IMM(0x100000, want(PTWR_OR, 4, NO, M(7, NO, 1, 4)))));
    CHECK64(s_xor32_reg, want(PTWR_XOR, 4, 12, RDI));
    CHECK64(s_and64_imm8, IMM(~2ULL, want(PTWR_AND, 8, NO, RDI)));
    CHECK64(s_and64_imm32,
            LOCKED(IMM(0xffffffff80000000ULL, want(PTWR_AND, 8, NO, RDI))));
    CHECK64(s_or64_imm32, LOCKED(IMM(0x40000000, want(PTWR_OR, 8, NO, RDI))));
    CHECK64(s_bts16_imm, LOCKED(IMM(3, want(PTWR_BTS, 2, NO, RDI))));
    CHECK64(s_btr16_reg, LOCKED(want(PTWR_BTR, 2, 0, RDI)));
    CHECK64(s_btc32_imm,
            LOCKED(IMM(31, want(PTWR_BTC, 4, NO, M(7, NO, 1, 4)))));
    CHECK64(s_btr32_reg, want(PTWR_BTR, 4, 6, RDI));
    CHECK64(s_bts64_r15, LOCKED(want(PTWR_BTS, 8, 15, M(14, NO, 1, 0))));
    CHECK64(s_gs_andb, LOCKED(IMM(0xfd, want(PTWR_AND, 1, NO,
                                             SEG(PTWR_SEG_GS, RDI)))));
    CHECK64(s_rip_bts, LOCKED(IMM(2, want(PTWR_BTS, 8, NO, RIP(0x10)))));
    CHECK64(s_o16_rexw, IMM(~2ULL, want(PTWR_AND, 8, NO, RDI)));
    CHECK64(s_o16_twice, LOCKED(want(PTWR_OR, 2, 0, RDI)));
}

/* 32-bit PAE guests: the same forms, no REX, so 4-7 are AH-BH. */
INSN32(k_wrprotect, "lock andb $0xfd,(%eax)");
INSN32(k_young, "lock btrl $0x5,(%ecx)");
INSN32(k_btr_reg, "lock btr %edx,(%eax)");
INSN32(k_or_hi, "lock orl $0x80000000,0x4(%eax)");
INSN32(k_and_ch, "lock andb %ch,(%ebx)");
INSN32(k_or16, "lock orw %si,(%edi)");

static void test_compat(void)
{
    CHECK32(k_wrprotect,
            LOCKED(IMM(0xfd, want(PTWR_AND, 1, NO, M(0, NO, 1, 0)))));
    CHECK32(k_young, LOCKED(IMM(5, want(PTWR_BTR, 4, NO, M(1, NO, 1, 0)))));
    CHECK32(k_btr_reg, LOCKED(want(PTWR_BTR, 4, 2, M(0, NO, 1, 0))));
    CHECK32(k_or_hi, LOCKED(IMM(0x80000000,
                                want(PTWR_OR, 4, NO, M(0, NO, 1, 4)))));
    CHECK32(k_and_ch, LOCKED(H8(want(PTWR_AND, 1, 1, M(3, NO, 1, 0)))));
    CHECK32(k_or16, LOCKED(want(PTWR_OR, 2, 6, M(7, NO, 1, 0))));
}

/* ------------------------------------------------------------ refusals */

struct bad {
    const char *why;
    uint8_t len;
    uint8_t b[15];
};

static const struct bad bad64[] = {
    { "bt (reads only)", 5, { 0x48, 0x0f, 0xba, 0x27, 0x05 } },
    { "lock bt", 6, { 0xf0, 0x48, 0x0f, 0xba, 0x27, 0x05 } },
    { "bt reg", 4, { 0x48, 0x0f, 0xa3, 0x37 } },
    { "0F BA /0", 5, { 0x48, 0x0f, 0xba, 0x07, 0x05 } },
    { "0F BA /3", 5, { 0x48, 0x0f, 0xba, 0x1f, 0x05 } },
    { "btr reg dest", 4, { 0x48, 0x0f, 0xb3, 0xf7 } },
    { "btr imm reg dest", 5, { 0x48, 0x0f, 0xba, 0xf7, 0x05 } },
    { "and reg dest", 4, { 0xf0, 0x48, 0x21, 0xf7 } },
    { "andb imm reg dest", 3, { 0x80, 0xe7, 0xfd } },
    { "and load", 3, { 0x48, 0x23, 0x37 } },
    { "add", 3, { 0x48, 0x01, 0x07 } },
    { "80 /0 add", 3, { 0x80, 0x07, 0x01 } },
    { "81 /2 adc", 6, { 0x81, 0x17, 1, 0, 0, 0 } },
    { "83 /3 sbb", 3, { 0x83, 0x1f, 0x01 } },
    { "83 /5 sub", 3, { 0x83, 0x2f, 0x01 } },
    { "83 /7 cmp", 3, { 0x83, 0x3f, 0x01 } },
    { "82 (not in 64-bit)", 3, { 0x82, 0x27, 0xfd } },
    { "test", 3, { 0x48, 0x85, 0x37 } },
    { "short imm8", 2, { 0x80, 0x27 } },
    { "short imm16", 4, { 0x66, 0x81, 0x27, 0xfd } },
    { "short imm32", 5, { 0x81, 0x27, 0xfd, 0xff, 0xff } },
    { "short bt imm8", 4, { 0x48, 0x0f, 0xba, 0x37 } },
    { "16-bit mov", 3, { 0x66, 0x89, 0x07 } },
    { "16-bit xchg", 3, { 0x66, 0x87, 0x07 } },
    { "16-bit cmpxchg", 4, { 0x66, 0x0f, 0xb1, 0x07 } },
    { "addr32 and", 4, { 0x67, 0x80, 0x27, 0xfd } },
    { "rep or", 3, { 0xf3, 0x09, 0x07 } },
    { "REX before 66", 5, { 0x48, 0x66, 0x83, 0x27, 0xfd } },
};

static const struct bad bad32[] = {
    { "bt", 4, { 0x0f, 0xba, 0x27, 0x05 } },
    { "and reg dest", 3, { 0xf0, 0x21, 0xf7 } },
    { "REX.W is DEC", 5, { 0xf0, 0x48, 0x21, 0x37, 0x00 } },
    { "16-bit mov", 3, { 0x66, 0x89, 0x07 } },
};

static void refuse(const struct bad *t, size_t nr, bool compat)
{
    struct ptwr_insn o;
    size_t i;

    for ( i = 0; i < nr; i++ )
    {
        int failed_before = unit_case_failed;

        unit_case_failed = 0;
        CHECK_EQ(dec(t[i].b, t[i].len, compat, &o), -1);
        CHECK_EQ(o.kind, 0);
        if ( unit_case_failed )
            printf("  ... in %s\n", t[i].why);
        unit_case_failed |= failed_before;
    }
}

static void test_refusals(void)
{
    refuse(bad64, ARRAY_SIZE(bad64), false);
    refuse(bad32, ARRAY_SIZE(bad32), true);
}

/* ------------------------------- bit offsets beyond the operand */

static uint64_t ea(const uint8_t *b, size_t n, bool compat, uint64_t *gpr)
{
    struct ptwr_insn o;

    if ( dec(b, n, compat, &o) )
        return 0xdead;
    return ptwr_linear_address(&o, gpr, 0, 0, compat);
}

static void test_bit_base(void)
{
    const uint64_t p = 0xffff888000100000UL;
    uint64_t gpr[16] = { 0 };

    gpr[7] = gpr[2] = gpr[14] = p;
    gpr[6] = 63;
    CHECK_EQ(ea(BYTES(l_btr_reg), false, gpr), p);
    gpr[6] = 64;
    CHECK_EQ(ea(BYTES(l_btr_reg), false, gpr), p + 8);
    gpr[6] = 1000;                              /* 15 qwords on, bit 40 */
    CHECK_EQ(ea(BYTES(l_btr_reg), false, gpr), p + 15 * 8);
    gpr[6] = -1;                                /* the qword before */
    CHECK_EQ(ea(BYTES(l_btr_reg), false, gpr), p - 8);
    gpr[6] = -65;
    CHECK_EQ(ea(BYTES(l_btr_reg), false, gpr), p - 16);
    gpr[0] = 100;                               /* plus the disp8 */
    CHECK_EQ(ea(BYTES(l_bts_reg), false, gpr), p + 8 + 8);
    gpr[15] = 1ULL << 62;
    CHECK_EQ(ea(BYTES(s_bts64_r15), false, gpr), p + (1ULL << 59));

    /* 32-bit operand: %esi, signed; the upper half is ignored. */
    gpr[6] = 0x12345678ffffffffULL;
    CHECK_EQ(ea(BYTES(s_btr32_reg), false, gpr), p - 4);
    gpr[6] = 0x7fffffff;
    CHECK_EQ(ea(BYTES(s_btr32_reg), false, gpr), p + 0x3ffffff * 4UL);

    /* 16-bit operand: %ax, signed. */
    gpr[0] = 0xffff8000;
    CHECK_EQ(ea(BYTES(s_btr16_reg), false, gpr), p - 4096);
    gpr[0] = 17;
    CHECK_EQ(ea(BYTES(s_btr16_reg), false, gpr), p + 2);

    /* An immediate is taken modulo the operand size: no displacement. */
    CHECK_EQ(ea(BYTES(l_tas_imm), false, gpr), p);
    CHECK_EQ(ea(BYTES(s_bts16_imm), false, gpr), p);

    /* 32-bit code: 4 GiB wrap. */
    gpr[0] = 0x1000;
    gpr[2] = -32;
    CHECK_EQ(ea(BYTES(k_btr_reg), true, gpr), 0xffc);
    gpr[0] = 0xfffffffc;
    gpr[2] = 32;
    CHECK_EQ(ea(BYTES(k_btr_reg), true, gpr), 0);
}

/* ---------------------------------- results against the CPU's own */

#define ARITH_FLAGS 0x8d5               /* CF PF AF ZF SF OF */

/* One instruction on registers, flags in and out (past the red zone). */
#define HOST(insn, w)                                                   \
    asm ( "sub $128, %%rsp; push %[f]; popf\n\t"                        \
          insn " %" w "[s], %" w "[d]\n\t"                              \
          "pushf; pop %[f]; add $128, %%rsp"                            \
          : [d] "+r" (d), [f] "+r" (f) : [s] "r" (s) : "cc" )
#define ALL_SIZES(op) do {                                              \
    switch ( size )                                                     \
    {                                                                   \
    case 1: HOST(op "b", "b"); break;                                   \
    case 2: HOST(op "w", "w"); break;                                   \
    case 4: HOST(op "l", "k"); break;                                   \
    default: HOST(op "q", "q"); break;                                  \
    }                                                                   \
} while ( 0 )
#define WORD_SIZES(op) do {                                             \
    switch ( size )                                                     \
    {                                                                   \
    case 2: HOST(op "w", "w"); break;                                   \
    case 4: HOST(op "l", "k"); break;                                   \
    default: HOST(op "q", "q"); break;                                  \
    }                                                                   \
} while ( 0 )

/* What this CPU's own instruction does; BTx on a register: offset mod size. */
static uint64_t host(unsigned int kind, unsigned int size, uint64_t d,
                     uint64_t s, uint64_t *flags)
{
    uint64_t f = *flags;

    switch ( kind )
    {
    case PTWR_OR:  ALL_SIZES("or"); break;
    case PTWR_AND: ALL_SIZES("and"); break;
    case PTWR_XOR: ALL_SIZES("xor"); break;
    case PTWR_BTS: WORD_SIZES("bts"); break;
    case PTWR_BTR: WORD_SIZES("btr"); break;
    case PTWR_BTC: WORD_SIZES("btc"); break;
    }
    *flags = f;
    return d;
}

static uint64_t rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void check_against_host(const struct ptwr_insn *in, uint64_t *seed)
{
    uint64_t mask = in->size == 8 ? ~0ULL : (1ULL << (in->size * 8)) - 1;
    uint64_t cur = rnd(seed), src = rnd(seed), f0, fm, fh, vm, vh, defined;

    /* Sparse values too, so ZF and the sign get exercised. */
    if ( src & 1 )
        cur &= rnd(seed) & rnd(seed);
    f0 = 0x202 | (rnd(seed) & ARITH_FLAGS);
    fm = fh = f0;
    vm = ptwr_rmw(in, cur, src, &fm);
    vh = host(in->kind, in->size, cur, src, &fh) & mask;
    /* OR/AND/XOR: all six (AF as this CPU leaves it); BTx: CF, and ZF. */
    defined = ptwr_is_bt(in->kind) ? 0x041 : ARITH_FLAGS;
    CHECK_EQ(vm, vh);
    CHECK_EQ(fm & defined, fh & defined);
    CHECK_EQ(fm & ~ARITH_FLAGS, f0 & ~ARITH_FLAGS);
    if ( unit_case_failed )
        printf("  ... kind %u size %u cur %#lx src %#lx\n", in->kind,
               in->size, (unsigned long)cur, (unsigned long)src);
}

static void test_results(void)
{
    static const unsigned int kinds[] = {
        PTWR_OR, PTWR_AND, PTWR_XOR, PTWR_BTS, PTWR_BTR, PTWR_BTC,
    };
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    unsigned int k, size, i;

    for ( k = 0; k < ARRAY_SIZE(kinds); k++ )
        for ( size = 1; size <= 8; size *= 2 )
        {
            struct ptwr_insn in = { .kind = kinds[k], .size = size };

            if ( ptwr_is_bt(in.kind) && size == 1 )
                continue;                   /* no byte form */
            for ( i = 0; i < 2000; i++ )
                check_against_host(&in, &seed);
        }
}

/* Two fixed cases a reader can follow. */
static void test_results_fixed(void)
{
    struct ptwr_insn in = { .kind = PTWR_AND, .size = 1 };
    uint64_t f = 0x202 | 0x8d5;

    /* clear_bit(_PAGE_BIT_RW) on 0x67 (present, RW, user, A, D). */
    CHECK_EQ(ptwr_rmw(&in, 0x67, 0xfd, &f), 0x65);
    CHECK_EQ(f, 0x202 | 0x004);             /* PF: 0x65 has 4 ones */
    /* test_and_clear_bit(_PAGE_BIT_ACCESSED): CF the old bit, ZF kept. */
    in = (struct ptwr_insn){ .kind = PTWR_BTR, .size = 8 };
    f = 0x202 | 0x040;
    CHECK_EQ(ptwr_rmw(&in, 0x8000000000000067ULL, 5, &f),
             0x8000000000000047ULL);
    CHECK_EQ(f, 0x202 | 0x040 | 0x001);
    f = 0x202 | 0x001;
    CHECK_EQ(ptwr_rmw(&in, 0x47, 69, &f), 0x47);  /* 69 mod 64 = 5 */
    CHECK_EQ(f, 0x202);
}

int main(void)
{
    RUN(test_linux_forms);
    RUN(test_sizes);
    RUN(test_compat);
    RUN(test_refusals);
    RUN(test_bit_base);
    RUN(test_results);
    RUN(test_results_fixed);
    UNIT_EXIT();
}
