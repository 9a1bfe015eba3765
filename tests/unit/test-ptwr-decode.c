/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of pv/mm/ptwr-decode.c.  The accepted instructions are
 * assembled here by the same assembler that turns gcc's output into code
 * (the forms gcc emits for *p = v, xchg, cmpxchg and the __sync builtins
 * on 64-bit and 32-bit values, then every addressing form); the refusals
 * are raw bytes.  Every accepted instruction is also refused when cut
 * short by even one byte.  The read-modify-write forms: test-ptwr-rmw.c.
 */
#include "tests/unit/unit.h"

#include "pv/mm/ptwr-decode.c"
#include "tests/unit/ptwr-check.h"

/* ------------------------------------------------ what gcc -O2 emits */

INSN64(g_set, "mov %rsi,(%rdi)");                   /* *p = v */
INSN64(g_set_idx, "mov %rdx,(%rdi,%rsi,8)");        /* p[i] = v */
INSN64(g_clear, "movq $0x0,(%rdi)");                /* *p = 0 */
INSN64(g_set_off, "mov %rax,0x18(%rdi)");           /* p[3] = big */
INSN64(g_set_imm, "movq $0x63,0x18(%rdi)");         /* p[3] = 0x63 */
/* __sync_lock_test_and_set(), __atomic_exchange_n() */
INSN64(g_xchg, "xchg %rax,(%rdi)");
/* __sync_val_compare_and_swap() */
INSN64(g_cmpxchg, "lock cmpxchg %rdx,(%rdi)");
INSN64(g_set32, "mov %esi,(%rdi)");                 /* *(uint32_t *)p = v */
INSN64(g_global, "mov %rsi,(%rax,%rdi,8)");         /* g[i] = v */
INSN64(g_global_rip, "mov %rdi,0x100(%rip)");       /* g[5] = v */

static void test_gcc_forms_64(void)
{
    CHECK64(g_set, want(PTWR_MOV, 8, 6, M(7, NO, 1, 0)));
    CHECK64(g_set_idx, want(PTWR_MOV, 8, 2, M(7, 6, 8, 0)));
    CHECK64(g_clear, IMM(0, want(PTWR_MOV, 8, NO, M(7, NO, 1, 0))));
    CHECK64(g_set_off, want(PTWR_MOV, 8, 0, M(7, NO, 1, 0x18)));
    CHECK64(g_set_imm, IMM(0x63, want(PTWR_MOV, 8, NO, M(7, NO, 1, 0x18))));
    CHECK64(g_xchg, want(PTWR_XCHG, 8, 0, M(7, NO, 1, 0)));
    CHECK64(g_cmpxchg, LOCKED(want(PTWR_CMPXCHG, 8, 2, M(7, NO, 1, 0))));
    CHECK64(g_set32, want(PTWR_MOV, 4, 6, M(7, NO, 1, 0)));
    CHECK64(g_global, want(PTWR_MOV, 8, 6, M(0, 7, 8, 0)));
    CHECK64(g_global_rip, want(PTWR_MOV, 8, 7, RIP(0x100)));
}

/* gcc -m32 -O2 -fno-pic: a 64-bit PTE as two halves, or cmpxchg8b. */
INSN32(k_lo, "mov %edx,(%eax)");
INSN32(k_hi, "mov %ecx,0x4(%eax)");
INSN32(k_idx_lo, "mov %ecx,(%eax,%edx,8)");
INSN32(k_idx_hi, "mov %ebx,0x4(%eax,%edx,8)");
INSN32(k_clear, "movl $0x0,(%eax)");
INSN32(k_imm_hi, "movl $0x80000000,0x1c(%eax)");
INSN32(k_cx8b_ebp, "lock cmpxchg8b 0x0(%ebp)");     /* __sync_*, xchg */
INSN32(k_cx8b, "lock cmpxchg8b (%esi)");
INSN32(k_noba, "mov %edx,0x0(,%eax,8)");            /* g[i] = v */
INSN32(k_moffs, "mov %eax,0x28");                   /* g[5] = v: A3 */
INSN32(k_abs, "mov %edx,0x2c");
INSN32(k_xchg, "xchg %eax,(%ecx)");
INSN32(k_cmpxchg, "lock cmpxchg %ecx,(%ebx)");
INSN32(k_fs, "mov %eax,%fs:(%ecx)");
INSN32(k_es, "mov %eax,%es:0x10(%edi)");
INSN32(k_esp, "mov %eax,(%esp)");

static void test_gcc_forms_32(void)
{
    CHECK32(k_lo, want(PTWR_MOV, 4, 2, M(0, NO, 1, 0)));
    CHECK32(k_hi, want(PTWR_MOV, 4, 1, M(0, NO, 1, 4)));
    CHECK32(k_idx_lo, want(PTWR_MOV, 4, 1, M(0, 2, 8, 0)));
    CHECK32(k_idx_hi, want(PTWR_MOV, 4, 3, M(0, 2, 8, 4)));
    CHECK32(k_clear, IMM(0, want(PTWR_MOV, 4, NO, M(0, NO, 1, 0))));
    CHECK32(k_imm_hi,
            IMM(0x80000000, want(PTWR_MOV, 4, NO, M(0, NO, 1, 0x1c))));
    CHECK32(k_cx8b_ebp, LOCKED(want(PTWR_CMPXCHG8B, 8, NO, M(5, NO, 1, 0))));
    CHECK32(k_cx8b, LOCKED(want(PTWR_CMPXCHG8B, 8, NO, M(6, NO, 1, 0))));
    CHECK32(k_noba, want(PTWR_MOV, 4, 2, M(NO, 0, 8, 0)));
    CHECK32(k_moffs, want(PTWR_MOV, 4, 0, M(NO, NO, 1, 0x28)));
    CHECK32(k_abs, want(PTWR_MOV, 4, 2, M(NO, NO, 1, 0x2c)));
    CHECK32(k_xchg, want(PTWR_XCHG, 4, 0, M(1, NO, 1, 0)));
    CHECK32(k_cmpxchg, LOCKED(want(PTWR_CMPXCHG, 4, 1, M(3, NO, 1, 0))));
    CHECK32(k_fs, want(PTWR_MOV, 4, 0, SEG(PTWR_SEG_FS, M(1, NO, 1, 0))));
    CHECK32(k_es, want(PTWR_MOV, 4, 0, SEG(PTWR_SEG_ES, M(7, NO, 1, 0x10))));
    CHECK32(k_esp, want(PTWR_MOV, 4, 0, M(4, NO, 1, 0)));
}

/* ---------------------------------------- every 64-bit addressing form */

INSN64(a_rax, "mov %rcx,(%rax)");
INSN64(a_rsp, "mov %rcx,(%rsp)");                   /* needs a SIB */
INSN64(a_rbp, "mov %rcx,(%rbp)");                   /* needs a disp8 */
INSN64(a_r12, "mov %rcx,(%r12)");
INSN64(a_r13, "mov %rcx,(%r13)");
INSN64(a_d8, "mov %rcx,-0x8(%rbx)");
INSN64(a_d8max, "mov %rcx,0x7f(%rsi)");
INSN64(a_d32, "mov %rcx,0x12345678(%rsi)");
INSN64(a_d32neg, "mov %rcx,-0x1000(%r8)");
INSN64(a_s1, "mov %rcx,(%rax,%rbx,1)");
INSN64(a_s2, "mov %rcx,0x8(%rax,%rbx,2)");
INSN64(a_s4, "mov %rcx,0x100(%rdx,%rcx,4)");
INSN64(a_s8, "mov %rcx,-0x80(%r15,%r14,8)");
INSN64(a_idx_r12, "mov %rcx,(%rax,%r12,8)");
INSN64(a_rsp_idx, "mov %rcx,0x10(%rsp,%rbp,2)");
INSN64(a_r13_idx, "mov %rcx,(%r13,%rax,1)");
INSN64(a_no_base, "mov %rcx,0x10(,%rcx,8)");
INSN64(a_abs, "mov %rcx,0xffffffff80001000");
INSN64(a_rip_neg, "mov %rcx,-0x20(%rip)");
INSN64(a_fs, "mov %rcx,%fs:0x8(%rax)");
INSN64(a_gs, "mov %rcx,%gs:(%rdx)");
INSN64(a_r15, "mov %r15,(%r14)");
INSN64(a_half_r9, "mov %r9d,0x4(%r10)");
/* REX.B doesn't turn these into r13 (SDM vol. 2A, table 2-5). */
INSN64(a_rexb_nobase, ".byte 0x49, 0x89, 0x0c, 0x05, 0x10, 0, 0, 0");
INSN64(a_rexb_rip, ".byte 0x49, 0x89, 0x0d, 0x10, 0, 0, 0");

static void test_addressing_64(void)
{
    CHECK64(a_rax, want(PTWR_MOV, 8, 1, M(0, NO, 1, 0)));
    CHECK64(a_rsp, want(PTWR_MOV, 8, 1, M(4, NO, 1, 0)));
    CHECK64(a_rbp, want(PTWR_MOV, 8, 1, M(5, NO, 1, 0)));
    CHECK64(a_r12, want(PTWR_MOV, 8, 1, M(12, NO, 1, 0)));
    CHECK64(a_r13, want(PTWR_MOV, 8, 1, M(13, NO, 1, 0)));
    CHECK64(a_d8, want(PTWR_MOV, 8, 1, M(3, NO, 1, -8)));
    CHECK64(a_d8max, want(PTWR_MOV, 8, 1, M(6, NO, 1, 0x7f)));
    CHECK64(a_d32, want(PTWR_MOV, 8, 1, M(6, NO, 1, 0x12345678)));
    CHECK64(a_d32neg, want(PTWR_MOV, 8, 1, M(8, NO, 1, -0x1000)));
    CHECK64(a_s1, want(PTWR_MOV, 8, 1, M(0, 3, 1, 0)));
    CHECK64(a_s2, want(PTWR_MOV, 8, 1, M(0, 3, 2, 8)));
    CHECK64(a_s4, want(PTWR_MOV, 8, 1, M(2, 1, 4, 0x100)));
    CHECK64(a_s8, want(PTWR_MOV, 8, 1, M(15, 14, 8, -0x80)));
    CHECK64(a_idx_r12, want(PTWR_MOV, 8, 1, M(0, 12, 8, 0)));
    CHECK64(a_rsp_idx, want(PTWR_MOV, 8, 1, M(4, 5, 2, 0x10)));
    CHECK64(a_r13_idx, want(PTWR_MOV, 8, 1, M(13, 0, 1, 0)));
    CHECK64(a_no_base, want(PTWR_MOV, 8, 1, M(NO, 1, 8, 0x10)));
    CHECK64(a_abs, want(PTWR_MOV, 8, 1, M(NO, NO, 1, -0x7ffff000)));
    CHECK64(a_rip_neg, want(PTWR_MOV, 8, 1, RIP(-0x20)));
    CHECK64(a_fs, want(PTWR_MOV, 8, 1, SEG(PTWR_SEG_FS, M(0, NO, 1, 8))));
    CHECK64(a_gs, want(PTWR_MOV, 8, 1, SEG(PTWR_SEG_GS, M(2, NO, 1, 0))));
    CHECK64(a_r15, want(PTWR_MOV, 8, 15, M(14, NO, 1, 0)));
    CHECK64(a_half_r9, want(PTWR_MOV, 4, 9, M(10, NO, 1, 4)));
    CHECK64(a_rexb_nobase, want(PTWR_MOV, 8, 1, M(NO, 0, 1, 0x10)));
    CHECK64(a_rexb_rip, want(PTWR_MOV, 8, 1, RIP(0x10)));
}

/* -------------------------------- immediates, xchg, cmpxchg, moffs */

INSN64(i_neg, "movq $-1,(%rdi)");
INSN64(i_half, "movl $0x80000000,0x4(%rdi)");
INSN64(i_max, "movq $0x7fffffff,(%rdi)");
INSN64(i_rip, "movq $0x1,0x10(%rip)");
INSN64(i_sib, "movq $0x63,0x8(%rax,%rcx,8)");
INSN64(i_r13, "movl $0x1,(%r13)");

static void test_immediates(void)
{
    CHECK64(i_neg, IMM(~0UL, want(PTWR_MOV, 8, NO, M(7, NO, 1, 0))));
    CHECK64(i_half, IMM(0x80000000, want(PTWR_MOV, 4, NO, M(7, NO, 1, 4))));
    CHECK64(i_max, IMM(0x7fffffff, want(PTWR_MOV, 8, NO, M(7, NO, 1, 0))));
    CHECK64(i_rip, IMM(1, want(PTWR_MOV, 8, NO, RIP(0x10))));
    CHECK64(i_sib, IMM(0x63, want(PTWR_MOV, 8, NO, M(0, 1, 8, 8))));
    CHECK64(i_r13, IMM(1, want(PTWR_MOV, 4, NO, M(13, NO, 1, 0))));
}

INSN64(x_rev, "xchg (%rsi),%rbx");
INSN64(x_lock, "lock xchg %rcx,(%rdx)");
INSN64(x_32, "xchg %eax,(%rdi)");
INSN64(x_r11, "xchg %r11,0x10(%r12)");

static void test_xchg(void)
{
    CHECK64(x_rev, want(PTWR_XCHG, 8, 3, M(6, NO, 1, 0)));
    CHECK64(x_lock, want(PTWR_XCHG, 8, 1, M(2, NO, 1, 0)));
    CHECK64(x_32, want(PTWR_XCHG, 4, 0, M(7, NO, 1, 0)));
    CHECK64(x_r11, want(PTWR_XCHG, 8, 11, M(12, NO, 1, 0x10)));
}

INSN64(c_plain, "cmpxchg %rdx,(%rdi)");
INSN64(c_sib, "lock cmpxchg %rcx,0x8(%rsi,%rax,8)");
INSN64(c_32, "lock cmpxchg %ecx,(%rdi)");
INSN64(c_r8, "lock cmpxchg %r8,(%r9)");
INSN64(c_8b, "lock cmpxchg8b (%rdi)");
INSN64(c_8b_plain, "cmpxchg8b 0x8(%rsi)");
INSN64(c_8b_r10, "lock cmpxchg8b (%r10)");

static void test_cmpxchg(void)
{
    CHECK64(c_plain, want(PTWR_CMPXCHG, 8, 2, M(7, NO, 1, 0)));
    CHECK64(c_sib, LOCKED(want(PTWR_CMPXCHG, 8, 1, M(6, 0, 8, 8))));
    CHECK64(c_32, LOCKED(want(PTWR_CMPXCHG, 4, 1, M(7, NO, 1, 0))));
    CHECK64(c_r8, LOCKED(want(PTWR_CMPXCHG, 8, 8, M(9, NO, 1, 0))));
    CHECK64(c_8b, LOCKED(want(PTWR_CMPXCHG8B, 8, NO, M(7, NO, 1, 0))));
    CHECK64(c_8b_plain, want(PTWR_CMPXCHG8B, 8, NO, M(6, NO, 1, 8)));
    CHECK64(c_8b_r10, LOCKED(want(PTWR_CMPXCHG8B, 8, NO, M(10, NO, 1, 0))));
}

INSN64(m_64, "movabs %rax,0xffff888000001000");
INSN64(m_32, "movabs %eax,0xffff888000001000");

static void test_moffs(void)
{
    CHECK64(m_64, want(PTWR_MOV, 8, 0, M(NO, NO, 1, 0xffff888000001000)));
    CHECK64(m_32, want(PTWR_MOV, 4, 0, M(NO, NO, 1, 0xffff888000001000)));
}

/* ------------------------------------------------------------ prefixes */

INSN64(p_fs_lock, ".byte 0x64, 0xf0, 0x48, 0x0f, 0xb1, 0x17");
INSN64(p_lock_fs, ".byte 0xf0, 0x64, 0x48, 0x0f, 0xb1, 0x17");
INSN64(p_lock2, ".byte 0xf0, 0xf0, 0x48, 0x87, 0x07");
INSN64(p_gs2, ".byte 0x65, 0x65, 0x48, 0x89, 0x07");
INSN64(p_ds, ".byte 0x3e, 0x48, 0x89, 0x07");       /* no effect in 64-bit */
INSN64(p_ss64, ".byte 0x36, 0x48, 0x89, 0x07");
INSN32(p_ss32, ".byte 0x36, 0x89, 0x07");           /* kept in 32-bit */
INSN32(p_gs_lock32, ".byte 0x65, 0xf0, 0x0f, 0xc7, 0x0b");

static void test_prefixes(void)
{
    struct ptwr_mem fs_rdi = SEG(PTWR_SEG_FS, M(7, NO, 1, 0));

    CHECK64(p_fs_lock, LOCKED(want(PTWR_CMPXCHG, 8, 2, fs_rdi)));
    CHECK64(p_lock_fs, LOCKED(want(PTWR_CMPXCHG, 8, 2, fs_rdi)));
    CHECK64(p_lock2, want(PTWR_XCHG, 8, 0, M(7, NO, 1, 0)));
    CHECK64(p_gs2, want(PTWR_MOV, 8, 0, SEG(PTWR_SEG_GS, M(7, NO, 1, 0))));
    CHECK64(p_ds, want(PTWR_MOV, 8, 0, M(7, NO, 1, 0)));
    CHECK64(p_ss64, want(PTWR_MOV, 8, 0, M(7, NO, 1, 0)));
    CHECK32(p_ss32, want(PTWR_MOV, 4, 0, SEG(PTWR_SEG_SS, M(7, NO, 1, 0))));
    CHECK32(p_gs_lock32, LOCKED(want(PTWR_CMPXCHG8B, 8, NO,
                                     SEG(PTWR_SEG_GS, M(3, NO, 1, 0)))));
}

/* The CPU's limit: 15 bytes (more raise #GP), prefixes included. */
static void test_length_limit(void)
{
    static const uint8_t cx15[] = {
        0xf0, 0xf0, 0xf0, 0xf0, 0xf0, 0xf0,
        0x48, 0x0f, 0xb1, 0x84, 0xc8, 0x78, 0x56, 0x34, 0x12,
    };
    static const uint8_t imm15[] = {
        0x64, 0x64, 0x64, 0x48, 0xc7, 0x84, 0xc8,
        0x78, 0x56, 0x34, 0x12, 0x63, 0x00, 0x00, 0x80,
    };
    uint8_t buf[32];
    struct ptwr_insn o;

    check("cx15", cx15, sizeof(cx15), false,
          LOCKED(want(PTWR_CMPXCHG, 8, 0, M(0, 1, 8, 0x12345678))));
    check("imm15", imm15, sizeof(imm15), false,
          IMM(0xffffffff80000063UL,
              want(PTWR_MOV, 8, NO,
                   SEG(PTWR_SEG_FS, M(0, 1, 8, 0x12345678)))));

    /* One more prefix makes 16 bytes: refused, however many we have. */
    buf[0] = 0xf0;
    memcpy(buf + 1, cx15, sizeof(cx15));
    CHECK_EQ(ptwr_decode(buf, sizeof(cx15) + 1, &o), -1);
    CHECK_EQ(ptwr_decode(buf, sizeof(buf), &o), -1);
    buf[0] = 0x64;
    memcpy(buf + 1, imm15, sizeof(imm15));
    CHECK_EQ(ptwr_decode(buf, sizeof(buf), &o), -1);
    /* A refusal leaves nothing behind. */
    CHECK_EQ(o.kind, 0);
    CHECK_EQ(o.len, 0);
}

/* ------------------------------------------------------------ refusals */

struct bad {
    const char *why;
    uint8_t len;
    uint8_t b[15];
};

static const struct bad bad64[] = {
    { "empty", 0, { 0 } },
    { "nop", 1, { 0x90 } },
    { "only REX", 1, { 0x48 } },
    { "only LOCK", 1, { 0xf0 } },
    { "only 0F", 1, { 0x0f } },
    { "no ModRM", 2, { 0x48, 0x89 } },
    { "no SIB", 3, { 0x48, 0x89, 0x0c } },
    { "short disp32", 6, { 0x48, 0x89, 0x0d, 0x00, 0x00, 0x00 } },
    { "short imm32", 6, { 0x48, 0xc7, 0x07, 0x00, 0x00, 0x00 } },
    { "short moffs64", 9, { 0x48, 0xa3, 1, 2, 3, 4, 5, 6, 7 } },
    { "16-bit store", 3, { 0x66, 0x89, 0x07 } },
    { "66 with REX.W", 4, { 0x66, 0x48, 0x89, 0x07 } },
    { "16-bit imm store", 5, { 0x66, 0xc7, 0x07, 0x01, 0x00 } },
    { "byte store", 2, { 0x88, 0x07 } },
    { "byte imm store", 3, { 0xc6, 0x07, 0x01 } },
    { "register dest", 3, { 0x48, 0x89, 0xc7 } },
    { "xchg reg, reg", 3, { 0x48, 0x87, 0xc7 } },
    { "cmpxchg reg", 4, { 0x48, 0x0f, 0xb1, 0xd7 } },
    { "mov imm to reg", 7, { 0x48, 0xc7, 0xc0, 0x01, 0x00, 0x00, 0x00 } },
    { "lock mov", 4, { 0xf0, 0x48, 0x89, 0x07 } },
    { "lock mov imm", 7, { 0xf0, 0xc7, 0x07, 0x01, 0x00, 0x00, 0x00 } },
    { "lock moffs", 10, { 0xf0, 0x48, 0xa3, 0, 0x10, 0, 0, 0, 0, 0, } },
    { "cmpxchg16b", 5, { 0xf0, 0x48, 0x0f, 0xc7, 0x0f } },
    { "cmpxchg8b reg", 3, { 0x0f, 0xc7, 0xc9 } },
    { "0F C7 /0", 3, { 0x0f, 0xc7, 0x07 } },
    { "vmptrld", 3, { 0x0f, 0xc7, 0x37 } },
    { "C7 /1", 7, { 0x48, 0xc7, 0x0f, 0x01, 0x00, 0x00, 0x00 } },
    { "addr32", 4, { 0x67, 0x48, 0x89, 0x07 } },
    { "rep", 4, { 0xf3, 0x48, 0x89, 0x07 } },
    { "xacquire", 5, { 0xf2, 0xf0, 0x48, 0x87, 0x07 } },
    { "xrelease mov", 4, { 0xf3, 0x48, 0x89, 0x07 } },
    { "REX before LOCK", 5, { 0x48, 0xf0, 0x0f, 0xb1, 0x17 } },
    { "REX before FS", 4, { 0x48, 0x64, 0x89, 0x07 } },
    { "two REX", 4, { 0x48, 0x48, 0x89, 0x07 } },
    { "ES and FS", 5, { 0x26, 0x64, 0x48, 0x89, 0x07 } },
    { "DS and GS", 5, { 0x3e, 0x65, 0x48, 0x89, 0x07 } },
    { "VEX store", 4, { 0xc5, 0xf9, 0x7f, 0x07 } },
    { "load", 3, { 0x48, 0x8b, 0x07 } },
    { "add", 3, { 0x48, 0x01, 0x07 } },
    { "cmpxchg byte", 4, { 0xf0, 0x0f, 0xb0, 0x17 } },
    { "xchg byte", 2, { 0x86, 0x07 } },
    { "moffs8 store", 9, { 0xa2, 0, 0x10, 0, 0, 0, 0, 0, 0 } },
    { "moffs load", 10, { 0x48, 0xa1, 0, 0x10, 0, 0, 0, 0, 0, 0 } },
    { "movnti", 4, { 0x48, 0x0f, 0xc3, 0x07 } },
    { "rep stos", 3, { 0xf3, 0x48, 0xab } },
};

static const struct bad bad32[] = {
    { "REX.W is DEC EAX", 3, { 0x48, 0x89, 0x07 } },
    { "REX is INC EAX", 3, { 0x40, 0x89, 0x07 } },
    { "16-bit store", 3, { 0x66, 0x89, 0x07 } },
    { "addr16", 3, { 0x67, 0x89, 0x07 } },
    { "register dest", 2, { 0x89, 0xc7 } },
    { "lock mov", 3, { 0xf0, 0x89, 0x07 } },
    { "lock moffs", 6, { 0xf0, 0xa3, 0x28, 0x00, 0x00, 0x00 } },
    { "short moffs32", 4, { 0xa3, 0x28, 0x00, 0x00 } },
    { "short disp32", 5, { 0x89, 0x15, 0x2c, 0x00, 0x00 } },
    { "byte store", 2, { 0x88, 0x07 } },
    { "cmpxchg8b reg", 3, { 0x0f, 0xc7, 0xc9 } },
    { "ES and SS", 4, { 0x26, 0x36, 0x89, 0x07 } },
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

static void test_refusals_64(void)
{
    refuse(bad64, ARRAY_SIZE(bad64), false);
}

static void test_refusals_32(void)
{
    refuse(bad32, ARRAY_SIZE(bad32), true);
}

/* ------------------------------------------- addresses and segments */

static uint64_t gpr[16];

static uint64_t ea(const uint8_t *b, size_t n, bool compat, uint64_t rip,
                   uint64_t seg_base)
{
    struct ptwr_insn o;

    if ( dec(b, n, compat, &o) )
        return 0xdead;
    return ptwr_linear_address(&o, gpr, rip, seg_base, compat);
}

static void test_linear_address(void)
{
    const uint64_t rip = 0xffffffff81000000UL;
    unsigned int i;

    for ( i = 0; i < 16; i++ )
        gpr[i] = 0xffff888000000000UL + 0x10000 * i;

    CHECK_EQ(ea(BYTES(g_set_idx), false, rip, 0), gpr[7] + gpr[6] * 8);
    CHECK_EQ(ea(BYTES(a_s8), false, rip, 0), gpr[15] + gpr[14] * 8 - 0x80);
    CHECK_EQ(ea(BYTES(a_d32neg), false, rip, 0), gpr[8] - 0x1000);
    CHECK_EQ(ea(BYTES(a_no_base), false, rip, 0), gpr[1] * 8 + 0x10);
    CHECK_EQ(ea(BYTES(a_abs), false, rip, 0), 0xffffffff80001000UL);
    CHECK_EQ(ea(BYTES(g_global_rip), false, rip, 0), rip + 7 + 0x100);
    CHECK_EQ(ea(BYTES(a_rip_neg), false, rip, 0), rip + 7 - 0x20);
    /* The immediate counts: RIP-relative is from the instruction's end. */
    CHECK_EQ(ea(BYTES(i_rip), false, rip, 0), rip + 11 + 0x10);
    CHECK_EQ(ea(BYTES(a_fs), false, rip, 0x7f0000000000UL),
             0x7f0000000000UL + gpr[0] + 8);
    CHECK_EQ(ea(BYTES(m_64), false, rip, 0), 0xffff888000001000UL);

    /* 32-bit: registers' upper halves ignored, 4 GiB wrap. */
    gpr[0] = 0x1234567fffffff0UL;
    gpr[2] = 0x3;
    CHECK_EQ(ea(BYTES(k_hi), true, 0xc0100000, 0), 0xfffffff4);
    CHECK_EQ(ea(BYTES(k_idx_hi), true, 0xc0100000, 0), 0x0000000c);
    CHECK_EQ(ea(BYTES(k_moffs), true, 0xc0100000, 0x10000), 0x10028);
    CHECK_EQ(ea(BYTES(k_abs), true, 0xc0100000, 0xfffffff0), 0x1c);
    CHECK_EQ(ea(BYTES(k_noba), true, 0xc0100000, 0), 0xffffff80);
}

static void test_segment(void)
{
    struct ptwr_insn o;

    CHECK(!ptwr_decode(BYTES(a_fs), &o));
    CHECK_EQ(ptwr_segment(&o, false), PTWR_SEG_FS);
    CHECK(!ptwr_decode(BYTES(a_rsp), &o));
    CHECK_EQ(ptwr_segment(&o, false), PTWR_SEG_NONE);
    CHECK(!ptwr_decode(BYTES(p_ss64), &o));
    CHECK_EQ(ptwr_segment(&o, false), PTWR_SEG_NONE);

    CHECK(!ptwr_decode_compat(BYTES(k_lo), &o));
    CHECK_EQ(ptwr_segment(&o, true), PTWR_SEG_DS);
    CHECK(!ptwr_decode_compat(BYTES(k_esp), &o));
    CHECK_EQ(ptwr_segment(&o, true), PTWR_SEG_SS);
    CHECK(!ptwr_decode_compat(BYTES(k_cx8b_ebp), &o));
    CHECK_EQ(ptwr_segment(&o, true), PTWR_SEG_SS);
    CHECK(!ptwr_decode_compat(BYTES(k_abs), &o));
    CHECK_EQ(ptwr_segment(&o, true), PTWR_SEG_DS);
    CHECK(!ptwr_decode_compat(BYTES(k_noba), &o));
    CHECK_EQ(ptwr_segment(&o, true), PTWR_SEG_DS);
    CHECK(!ptwr_decode_compat(BYTES(k_es), &o));
    CHECK_EQ(ptwr_segment(&o, true), PTWR_SEG_ES);
    CHECK(!ptwr_decode_compat(BYTES(k_fs), &o));
    CHECK_EQ(ptwr_segment(&o, true), PTWR_SEG_FS);
}

/* The same bytes mean different things in the two modes. */
static void test_modes_differ(void)
{
    struct ptwr_insn o;

    /* 64-bit: mov %rcx,0x10(%rip); 32-bit: mov %ecx,0x10 (absolute). */
    static const uint8_t rip[] = { 0x89, 0x0d, 0x10, 0x00, 0x00, 0x00 };

    CHECK(!ptwr_decode(rip, sizeof(rip), &o));
    CHECK(o.mem.rip_rel);
    CHECK(!ptwr_decode_compat(rip, sizeof(rip), &o));
    CHECK(!o.mem.rip_rel);
    CHECK_EQ(o.mem.base, NO);
    CHECK_EQ(o.mem.disp, 0x10);

    /* A3 takes an 8-byte address in 64-bit code, 4 bytes in 32-bit. */
    CHECK_EQ(ptwr_decode(BYTES(k_moffs), &o), -1);
    CHECK(!ptwr_decode_compat(BYTES(k_moffs), &o));
    CHECK_EQ(o.len, 5);
}

int main(void)
{
    RUN(test_gcc_forms_64);
    RUN(test_gcc_forms_32);
    RUN(test_addressing_64);
    RUN(test_immediates);
    RUN(test_xchg);
    RUN(test_cmpxchg);
    RUN(test_moffs);
    RUN(test_prefixes);
    RUN(test_length_limit);
    RUN(test_refusals_64);
    RUN(test_refusals_32);
    RUN(test_linear_address);
    RUN(test_segment);
    RUN(test_modes_differ);
    UNIT_EXIT();
}
