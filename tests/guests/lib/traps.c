/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The trap table, the exception fix-up table, and what happens to an
 * exception that no test expected.
 */
#include "guest.h"
#include "lib.h"
#include "smp.h"

struct extable_entry {
    unsigned long fault, fixup;
};
extern const struct extable_entry __start_ex_table[], __stop_ex_table[];

unsigned long last_pf_cr2 = ~0UL;

static trap_info_t trap_table[X86_NR_EXC + 1];  /* zero address ends it */

/* Install a handler for every exception vector: the PV `lidt`. */
long trap_init(void)
{
    unsigned int vec;

    for ( vec = 0; vec < X86_NR_EXC; vec++ )
    {
        trap_info_t *ti = &trap_table[vec];

        ti->vector = vec;
        ti->cs = FLAT_KERNEL_CS;
        ti->address = exception_entry[vec];
        /* int3 and into may be used from any ring, as on bare metal. */
        TI_SET_DPL(ti, (vec == X86_EXC_BP || vec == X86_EXC_OF) ? 3 : 0);
        TI_SET_IF(ti, 1);       /* mask events on entry: an interrupt gate */
    }

    return hypercall_set_trap_table(trap_table);
}

static const struct extable_entry *search_extable(unsigned long rip)
{
    const struct extable_entry *e;

    for ( e = __start_ex_table; e < __stop_ex_table; e++ )
        if ( e->fault == rip )
            return e;

    return NULL;
}

static const char *const exc_names[X86_NR_EXC] = {
    [0] = "#DE", [1] = "#DB", [2] = "NMI", [3] = "#BP", [4] = "#OF",
    [5] = "#BR", [6] = "#UD", [7] = "#NM", [8] = "#DF", [10] = "#TS",
    [11] = "#NP", [12] = "#SS", [13] = "#GP", [14] = "#PF", [16] = "#MF",
    [17] = "#AC", [18] = "#MC", [19] = "#XM", [20] = "#VE", [21] = "#CP",
};

const char *exc_name(unsigned int vec)
{
    const char *name = vec < X86_NR_EXC ? exc_names[vec] : NULL;

    return name ? name : "reserved";
}

/*
 * Called by entry.S for every exception.  One that a test expected (its
 * RIP is in the fix-up table) resumes at the fix-up with %rax = exinfo_t;
 * any other ends the test in ERROR.  The nesting is counted per vCPU
 * (smp.h's, by the stack it runs on; any other stack counts as vCPU
 * 0's): expected faults on two vCPUs at once are no fault in a handler.
 */
void do_exception(struct cpu_user_regs *regs)
{
    static unsigned int depths[SMP_MAX_VCPUS];
    unsigned int *depth = &depths[smp_id()];
    const struct extable_entry *fix;

    if ( ++*depth > 1 )
    {
        /* Faulted while handling a fault: nothing left to trust. */
        hypercall_shutdown(SHUTDOWN_crash);
        for ( ;; )
            hypercall_sched_op(SCHEDOP_yield, NULL);
    }

    if ( regs->entry_vector == X86_EXC_PF && shared_info )
        last_pf_cr2 = shared_info->vcpu_info[0].arch.cr2;

    fix = search_extable(regs_ip(regs));
    if ( !fix )
    {
        dump_regs(regs);
        test_error("unexpected exception");
        test_exit();
    }

    regs_ax(regs) = EXINFO(regs->entry_vector, regs->error_code);
    regs_ip(regs) = fix->fixup;
    --*depth;
}

/* A page-aligned page whose mapping map_shared_info() replaces. */
static uint8_t shared_info_page[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));
shared_info_t *shared_info;

/* x86 PTE bits (SDM vol. 3 section 4.5). */
#define PTE_P   0x001UL
#define PTE_RW  0x002UL
#define PTE_A   0x020UL
#define PTE_D   0x040UL

long map_shared_info(void)
{
    long rc = hypercall_update_va_mapping(
        (unsigned long)shared_info_page,
        (uint64_t)start_info->shared_info | PTE_P | PTE_RW | PTE_A | PTE_D,
        UVMF_INVLPG);

    if ( rc == 0 )
        shared_info = (shared_info_t *)shared_info_page;

    return rc;
}
