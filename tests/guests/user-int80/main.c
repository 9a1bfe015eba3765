/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * int $n from guest user mode, as Xen delivers it to a 64-bit PV kernel:
 * through the trap table when its DPL is 3 (the kernel's levels are 1-2),
 * else #GP with the architectural error code (n << 3) | 2 at the int,
 * decoded from the instruction (QEMU's TCG reports (n << 4) | 2).
 * int $0x80 takes Xen's fast path: delivered whenever it has a handler.
 * int3 and int $3 are #BP from any ring.
 */
#include "guest.h"
#include "user.h"

const char test_title[] = "Guest user mode: int $n, int $0x80";

#define IDT_ERR(n)  (((n) << 3) | 2)

static long set_trap(unsigned int vec, unsigned int dpl, unsigned long eip)
{
    trap_info_t t[2] = {
        { .vector = vec, .flags = dpl, .cs = FLAT_KERNEL_CS,
          .address = eip },
    };

    return hypercall_set_trap_table(t);
}

static unsigned long int80(unsigned long unused)
{
    return TRY("int $0x80", "i" (0));
}

static unsigned long int81(unsigned long unused)
{
    return TRY("int $0x81", "i" (0));
}

static unsigned long int_pf(unsigned long unused)
{
    return TRY("int $14", "i" (0));
}

static unsigned long int_nmi(unsigned long unused)
{
    return TRY("int $2", "i" (0));
}

static unsigned long int3(unsigned long unused)
{
    return TRY("int3", "i" (0));
}

static unsigned long int_3(unsigned long unused)
{
    return TRY(".byte 0xcd, 0x03", "i" (0));
}

/*
 * A prefixed int: the vector is still the immediate (REX.W; in 32-bit
 * code, where 0x48 is an instruction, a DS override).
 */
static unsigned long rex_int81(unsigned long unused)
{
#ifdef __x86_64__
    return TRY(".byte 0x48; int $0x81", "i" (0));
#else
    return TRY(".byte 0x3e; int $0x81", "i" (0));
#endif
}

#ifdef __x86_64__
/* int $0x80 from 32-bit user code (FLAT_USER_CS32), and far back. */
void int80_32(void);
extern const char int80_32_insn[], int80_32_after[];
asm ( ".pushsection .text\n"
      "int80_32:\n\t"
      "lea 1f(%rip), %rax\n\t"
      "movl %eax, far32(%rip)\n\t"
      "movw $0xe023, far32 + 4(%rip)\n\t"
      "ljmpl *far32(%rip)\n"
      ".code32\n"
      "1:\n"
      "int80_32_insn: int $0x80\n"
      "int80_32_after: ljmpl $0xe033, $2f\n"
      ".code64\n"
      "2: ret\n"
      ".pushsection .ex_table, \"a\"; .balign 8\n"
      ".quad int80_32_insn, int80_32_after\n"
      ".quad int80_32_after, int80_32_after\n"
      ".popsection\n"
      ".popsection\n"
      ".pushsection .data\n"
      "far32: .long 0; .word 0\n"
      ".popsection" );

static unsigned long int80_compat(unsigned long unused)
{
    asm volatile ( "call int80_32" ::: "rax", "memory" );
    return 0;
}

static void test_compat(unsigned long bp)
{
    struct bounce_frame f;

    check_rc(hypercall_set_trap_table(NULL), 0);
    check_rc(user_init(), 0);
    check_rc(user_trap_record(), 0);
    exec_user(int80_compat, 0);
    f = user_last_frame(true);
    if ( user_frame_vector != X86_EXC_GP || f.error_code != IDT_ERR(0x80) ||
         f.rip != (unsigned long)int80_32_insn || f.cs != FLAT_USER_CS32 )
        test_fail("32-bit int $0x80, no entry: vector %u ec %#lx rip %#lx "
                  "cs %#lx", user_frame_vector, f.error_code, f.rip, f.cs);
    check_rc(set_trap(0x80, 3, bp), 0);
    exec_user(int80_compat, 0);
    f = user_last_frame(false);
    if ( user_frame_vector != X86_EXC_BP ||
         f.rip != (unsigned long)int80_32_after || f.cs != FLAT_USER_CS32 )
        test_fail("32-bit int $0x80: vector %u rip %#lx cs %#lx",
                  user_frame_vector, f.rip, f.cs);
}
#endif

static void check(const char *what, exinfo_t got, unsigned int vec,
                  uint32_t ec)
{
    printf("  %-28s vector %u, error code %#x\n", what, exinfo_vector(got),
           exinfo_error(got));
    if ( got != EXINFO(vec, ec) )
        test_fail("%s: exinfo %#lx, expected vector %u error code %#x",
                  what, got, vec, ec);
}

/* The frame the #BP stub was reached by: user context, after the int. */
static void check_user_frame(const char *what)
{
    struct bounce_frame f = user_last_frame(false);

    if ( f.cs != FLAT_USER_CS || f.ss != FLAT_USER_SS )
        test_fail("%s: frame cs %#lx ss %#lx, wanted user mode's", what,
                  f.cs, f.ss);
}

void test_main(void)
{
    unsigned long bp = user_record_entry[X86_EXC_BP];

    check_rc(user_init(), 0);
    check_rc(user_trap_record(), 0);

    check("int $0x80, no entry", exec_user(int80, 0), X86_EXC_GP,
          IDT_ERR(0x80));
    check_rc(set_trap(0x80, 3, bp), 0);
    check("int $0x80, DPL 3", exec_user(int80, 0), X86_EXC_BP, 0);
    check_user_frame("int $0x80");
    check_rc(set_trap(0x80, 0, bp), 0);
    check("int $0x80, DPL 0 (fast path)", exec_user(int80, 0), X86_EXC_BP,
          0);

    check("int $0x81, no entry", exec_user(int81, 0), X86_EXC_GP,
          IDT_ERR(0x81));
    check_rc(set_trap(0x81, 1, bp), 0);
    check("int $0x81, DPL 1", exec_user(int81, 0), X86_EXC_GP,
          IDT_ERR(0x81));
    check("int $0x81, DPL 1, kernel", int81(0), X86_EXC_BP, 0);
    check_rc(set_trap(0x81, 2, bp), 0);
    check("int $0x81, DPL 2", exec_user(int81, 0), X86_EXC_GP,
          IDT_ERR(0x81));
    check_rc(set_trap(0x81, 3, bp), 0);
    check("int $0x81, DPL 3", exec_user(int81, 0), X86_EXC_BP, 0);
    check_user_frame("int $0x81");
    check("rex.w int $0x81, DPL 3", exec_user(rex_int81, 0), X86_EXC_BP,
          0);

    /* Exception vectors by int: #GP unless the table says DPL 3. */
    check("int $14", exec_user(int_pf, 0), X86_EXC_GP, IDT_ERR(14));
    check("int $2", exec_user(int_nmi, 0), X86_EXC_GP, IDT_ERR(2));
    check("int3", exec_user(int3, 0), X86_EXC_BP, 0);
    check("int $3", exec_user(int_3, 0), X86_EXC_BP, 0);
    check_user_frame("int $3");

#ifdef __x86_64__
    test_compat(bp);                    /* a 32-bit guest's is all 32-bit */
#endif
    check_rc(trap_init(), 0);
    test_success();
}
