/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Exceptions bounced to the trap table, HYPERVISOR_iret back, and
 * set_trap_table's errors as Xen's do_set_trap_table() (pv/callback.c)
 * returns them: -EFAULT for an unreadable table, -EINVAL for a
 * non-canonical handler, with the entries before it already installed.
 */
#include "guest.h"

const char test_title[] = "Exceptions, HYPERVISOR_iret and set_trap_table";

static void check_fault(const char *what, exinfo_t ex,
                        unsigned int vec, uint32_t ec)
{
    if ( ex == EXINFO(vec, ec) )
        printf("  %-24s vector %u, error code 0x%x\n", what, vec, ec);
    else if ( !ex )
        test_fail("%s: no exception, expected vector %u", what, vec);
    else
        test_fail("%s: vector %u error code 0x%x, expected %u and 0x%x",
                  what, exinfo_vector(ex), exinfo_error(ex), vec, ec);
}

static exinfo_t raise_ud(void)
{
    return TRY("ud2");
}

static exinfo_t raise_bp(void)
{
    /* int3 traps: the frame's RIP is the instruction after it. */
    return TRY("int3");
}

static exinfo_t raise_de(void)
{
    exinfo_t ex = 0;
    unsigned int high = 0;

    asm volatile ( "1: divl %[zero]; 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex), "+d" (high) : [zero] "c" (0) : "memory" );
    return ex;
}

static void test_exceptions(void)
{
    long rc = map_shared_info();

    check_fault("ud2", raise_ud(), X86_EXC_UD, 0);
    check_fault("int3", raise_bp(), X86_EXC_BP, 0);
    check_fault("divide by zero", raise_de(), X86_EXC_DE, 0);
#ifdef __x86_64__
    check_fault("non-canonical read", probe_read(BAD_NONCANONICAL),
                X86_EXC_GP, 0);
#else
    /* Nothing of the hypervisor's is mapped above its M2P. */
    check_fault("read below 4 GiB", probe_read(BAD_NONCANONICAL),
                X86_EXC_PF, 0);
#endif

    /* Not present, from the guest kernel: Xen clears the user bit. */
    check_fault("unmapped read", probe_read(BAD_UNMAPPED), X86_EXC_PF, 0);
    if ( rc )
        printf("  CR2 not checked: update_va_mapping of shared_info: %ld\n",
               rc);
    else if ( last_pf_cr2 != (unsigned long)BAD_UNMAPPED )
        test_fail("#PF: vcpu_info.arch.cr2 %#lx, expected %p",
                  last_pf_cr2, BAD_UNMAPPED);
    check_fault("unmapped write", probe_write(BAD_UNMAPPED), X86_EXC_PF, 2);
}

#ifdef __x86_64__
/*
 * Xen returns to an exception handler with `sysret`, which clobbers %rcx
 * and %r11: they travel in the bounce frame, and HYPERVISOR_iret puts
 * them back.  Every register but %rax (the exinfo_t) must survive.
 */
static void test_registers_survive(void)
{
    static const char *const names[] = {
        "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12",
        "r15",
    };
    register unsigned long r8 asm ( "r8" ) = 0x0808080808080808UL;
    register unsigned long r9 asm ( "r9" ) = 0x0909090909090909UL;
    register unsigned long r10 asm ( "r10" ) = 0x1010101010101010UL;
    register unsigned long r11 asm ( "r11" ) = 0x1111111111111111UL;
    register unsigned long r12 asm ( "r12" ) = 0x1212121212121212UL;
    register unsigned long r15 asm ( "r15" ) = 0x1515151515151515UL;
    unsigned long rbx = 0xbbbbbbbbbbbbbbbbUL, rcx = 0xccccccccccccccccUL;
    unsigned long rdx = 0xddddddddddddddddUL, rsi = 0x5151515151515151UL;
    unsigned long rdi = 0xd1d1d1d1d1d1d1d1UL;
    const unsigned long want[] = {
        rbx, rcx, rdx, rsi, rdi, r8, r9, r10, r11, r12, r15,
    };
    exinfo_t ex = 0;
    unsigned int i;

    asm volatile ( "1: ud2; 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex), "+b" (rbx), "+c" (rcx), "+d" (rdx),
                     "+S" (rsi), "+D" (rdi), "+r" (r8), "+r" (r9),
                     "+r" (r10), "+r" (r11), "+r" (r12), "+r" (r15)
                   :: "memory" );

    /* Copied before any call: a call may reuse the registers. */
    const unsigned long got[] = {
        rbx, rcx, rdx, rsi, rdi, r8, r9, r10, r11, r12, r15,
    };

    check_fault("ud2, registers set", ex, X86_EXC_UD, 0);
    for ( i = 0; i < ARRAY_SIZE(got); i++ )
        if ( got[i] != want[i] )
            test_fail("%%%s: 0x%016lx after the exception, was 0x%016lx",
                      names[i], got[i], want[i]);
}
#else
/*
 * A compat guest's registers stay in the CPU across the bounce and
 * HYPERVISOR_iret, but for %eax (the exinfo_t, and what the iret stub
 * pushes): every other one must survive.  (%ebp too, which gcc won't
 * let an asm name here: entry.S saves it with the rest.)
 */
static void test_registers_survive(void)
{
    static const char *const names[] = { "ebx", "ecx", "edx", "esi", "edi" };
    unsigned long ebx = 0xbbbbbbbbUL, ecx = 0xccccccccUL;
    unsigned long edx = 0xddddddddUL, esi = 0x51515151UL;
    unsigned long edi = 0xd1d1d1d1UL;
    const unsigned long want[] = { ebx, ecx, edx, esi, edi };
    exinfo_t ex = 0;
    unsigned int i;

    asm volatile ( "1: ud2; 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex), "+b" (ebx), "+c" (ecx), "+d" (edx),
                     "+S" (esi), "+D" (edi)
                   :: "memory" );

    /* Copied before any call: a call may reuse the registers. */
    const unsigned long got[] = { ebx, ecx, edx, esi, edi };

    check_fault("ud2, registers set", ex, X86_EXC_UD, 0);
    for ( i = 0; i < ARRAY_SIZE(got); i++ )
        if ( got[i] != want[i] )
            test_fail("%%%s: 0x%08lx after the exception, was 0x%08lx",
                      names[i], got[i], want[i]);
}
#endif

static void test_set_trap_table_errors(void)
{
    trap_info_t table[3] = {
        /* #UD to the #DB stub: a #UD then reports vector 1. */
        { .vector = X86_EXC_UD, .cs = FLAT_KERNEL_CS,
          .address = exception_entry[X86_EXC_DB] },
        { .vector = X86_EXC_BP, .cs = FLAT_KERNEL_CS,
          .address = (unsigned long)BAD_NONCANONICAL },
        { 0 },
    };

    /* An unreadable table changes nothing. */
    check_rc(hypercall_set_trap_table(BAD_UNMAPPED), -XEN_EFAULT);
    check_rc(hypercall_set_trap_table(BAD_NONCANONICAL), -XEN_EFAULT);
    check_rc(hypercall_set_trap_table(BAD_XEN), -XEN_EFAULT);
    check_fault("ud2 after -EFAULT", raise_ud(), X86_EXC_UD, 0);

#ifdef __x86_64__
    /* Entries are installed one by one, up to the bad one. */
    check_rc(hypercall_set_trap_table(table), -XEN_EINVAL);
    check_fault("ud2 after -EINVAL", raise_ud(), X86_EXC_DB, 0);
#else
    /*
     * Every 32-bit address is canonical: compat_set_trap_table() checks
     * none and installs the table to its end (the #BP entry is left
     * out, as nothing could take it).
     */
    table[1] = table[2];
    check_rc(hypercall_set_trap_table(table), 0);
    check_fault("ud2, moved to #DB's stub", raise_ud(), X86_EXC_DB, 0);
#endif

    check_rc(trap_init(), 0);
    check_fault("ud2, table restored", raise_ud(), X86_EXC_UD, 0);
}

void test_main(void)
{
    test_exceptions();
    test_registers_survive();
    test_set_trap_table_errors();

    test_success();
}
