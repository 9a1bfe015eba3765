/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the host tests of the writable-page-table decoder: one
 * instruction assembled into .rodata by the host's assembler, what it
 * should decode to, and check(), which also proves the length exact.
 * Include after pv/mm/ptwr-decode.c and tests/unit/unit.h.
 */
#ifndef TESTS_UNIT_PTWR_CHECK_H
#define TESTS_UNIT_PTWR_CHECK_H

#define NO          PTWR_NO_REG

/* One instruction in .rodata, assembled as 64-bit or 32-bit code. */
#define INSN(sym, code, text)                                           \
    extern const uint8_t sym[], sym##_end[];                            \
    asm ( ".pushsection .rodata.ptwr_tests, \"a\"\n\t"                  \
          code "\n" #sym ":\n\t" text "\n" #sym "_end:\n\t"             \
          ".code64\n\t.popsection" )
#define INSN64(sym, text)   INSN(sym, ".code64", text)
#define INSN32(sym, text)   INSN(sym, ".code32", text)
#define BYTES(sym)          sym, (size_t)(sym##_end - sym)

static int dec(const uint8_t *b, size_t n, bool compat, struct ptwr_insn *o)
{
    return compat ? ptwr_decode_compat(b, n, o) : ptwr_decode(b, n, o);
}

/* What a case should decode to. */
static struct ptwr_insn want(unsigned int kind, unsigned int size, int src,
                             struct ptwr_mem mem)
{
    struct ptwr_insn w = {
        .kind = kind, .size = size, .lock = kind == PTWR_XCHG,
        .src_reg = src, .src_hi = NO, .cmp_reg = NO, .cmp_hi = NO,
        .mem = mem,
    };

    if ( kind == PTWR_CMPXCHG )
        w.cmp_reg = PTWR_RAX;
    if ( kind == PTWR_CMPXCHG8B )
    {
        w.src_reg = PTWR_RBX;
        w.src_hi = PTWR_RCX;
        w.cmp_reg = PTWR_RAX;
        w.cmp_hi = PTWR_RDX;
    }

    return w;
}

static struct ptwr_mem M(int base, int index, unsigned int scale,
                         int64_t disp)
{
    return (struct ptwr_mem){ .base = base, .index = index, .scale = scale,
                              .disp = disp };
}

static struct ptwr_mem RIP(int64_t disp)
{
    return (struct ptwr_mem){ .base = NO, .index = NO, .scale = 1,
                              .disp = disp, .rip_rel = true };
}

static struct ptwr_mem SEG(unsigned int seg, struct ptwr_mem m)
{
    m.seg = seg;
    return m;
}

static struct ptwr_insn LOCKED(struct ptwr_insn w)
{
    w.lock = true;
    return w;
}

static struct ptwr_insn IMM(uint64_t imm, struct ptwr_insn w)
{
    w.imm = imm;
    return w;
}

/*
 * @b decodes to @w with length @n exactly; every shorter prefix of it is
 * refused; bytes after it change nothing.
 */
static void check(const char *name, const uint8_t *b, size_t n, bool compat,
                  struct ptwr_insn w)
{
    int failed_before = unit_case_failed;
    uint8_t buf[32];
    struct ptwr_insn o;
    size_t i;

    unit_case_failed = 0;
    CHECK_EQ(dec(b, n, compat, &o), 0);
    CHECK_EQ(o.kind, w.kind);
    CHECK_EQ(o.size, w.size);
    CHECK_EQ(o.len, n);
    CHECK_EQ(o.lock, w.lock);
    CHECK_EQ(o.src_reg, w.src_reg);
    CHECK_EQ(o.src_hi, w.src_hi);
    CHECK_EQ(o.src_high8, w.src_high8);
    CHECK_EQ(o.imm, w.imm);
    CHECK_EQ(o.cmp_reg, w.cmp_reg);
    CHECK_EQ(o.cmp_hi, w.cmp_hi);
    CHECK_EQ(o.mem.base, w.mem.base);
    CHECK_EQ(o.mem.index, w.mem.index);
    CHECK_EQ(o.mem.scale, w.mem.scale);
    CHECK_EQ(o.mem.disp, w.mem.disp);
    CHECK_EQ(o.mem.rip_rel, w.mem.rip_rel);
    CHECK_EQ(o.mem.seg, w.mem.seg);

    for ( i = 0; i < n; i++ )
        CHECK_EQ(dec(b, i, compat, &o), -1);

    memset(buf, 0xcc, sizeof(buf));
    memcpy(buf, b, n);
    CHECK_EQ(dec(buf, sizeof(buf), compat, &o), 0);
    CHECK_EQ(o.len, n);

    if ( unit_case_failed )
        printf("  ... in %s\n", name);
    unit_case_failed |= failed_before;
}

#define CHECK64(sym, w)     check(#sym, BYTES(sym), false, w)
#define CHECK32(sym, w)     check(#sym, BYTES(sym), true, w)

#endif /* TESTS_UNIT_PTWR_CHECK_H */
