/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory types on the APs: the boot CPU's MTRRs and PAT, as firmware left
 * them, copied onto each AP (SDM vol. 3A, 11.11.8: every processor must
 * have the same MTRRs).  Firmware that never starts the APs (qboot) leaves
 * theirs at reset values; firmware that does usually matches already, and
 * then only the PAT is written.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/cr.h"
#include "arch/x86/msr.h"
#include "arch/x86/mtrr.h"

#define MSR_MTRRCAP         0x000000fe
#define  MTRRCAP_VCNT       0xff
#define  MTRRCAP_FIX        (1u << 8)
#define MSR_MTRR_PHYSBASE0  0x00000200  /* base 2n, mask 2n + 1 */
#define MSR_MTRR_DEF_TYPE   0x000002ff
#define MTRR_VAR_MAX        16

static const uint32_t fixed_msrs[] = {
    0x250, 0x258, 0x259, 0x268, 0x269, 0x26a, 0x26b, 0x26c, 0x26d, 0x26e,
    0x26f,
};

static struct {
    bool pat, mtrr, fixed;
    unsigned int nr_var;
    uint64_t def_type, pat_val;
    uint64_t var[2 * MTRR_VAR_MAX];
    uint64_t fix[ARRAY_SIZE(fixed_msrs)];
} boot;

void mtrr_save_boot(void)
{
    unsigned int i;
    uint64_t cap;

    boot.pat = cpu_has(X86_FEATURE_PAT);
    if ( boot.pat )
        boot.pat_val = rdmsr(MSR_IA32_CR_PAT);
    if ( !cpu_has(X86_FEATURE_MTRR) )
        return;
    cap = rdmsr(MSR_MTRRCAP);
    boot.mtrr = true;
    boot.fixed = cap & MTRRCAP_FIX;
    boot.nr_var = MIN(cap & MTRRCAP_VCNT, MTRR_VAR_MAX);
    boot.def_type = rdmsr(MSR_MTRR_DEF_TYPE);
    for ( i = 0; i < 2 * boot.nr_var; i++ )
        boot.var[i] = rdmsr(MSR_MTRR_PHYSBASE0 + i);
    for ( i = 0; boot.fixed && i < ARRAY_SIZE(fixed_msrs); i++ )
        boot.fix[i] = rdmsr(fixed_msrs[i]);
}

static bool mtrr_differ(void)
{
    unsigned int i;

    if ( rdmsr(MSR_MTRR_DEF_TYPE) != boot.def_type )
        return true;
    for ( i = 0; i < 2 * boot.nr_var; i++ )
        if ( rdmsr(MSR_MTRR_PHYSBASE0 + i) != boot.var[i] )
            return true;
    for ( i = 0; boot.fixed && i < ARRAY_SIZE(fixed_msrs); i++ )
        if ( rdmsr(fixed_msrs[i]) != boot.fix[i] )
            return true;
    return false;
}

/*
 * The SDM's procedure (11.11.7.2): caches off and flushed, MTRRs off,
 * written, flushed again, on.  Runs before paging_init_cpu(), so CR4.PGE
 * is clear and a CR3 write flushes the TLB.
 */
void mtrr_load(void)
{
    unsigned long cr0 = read_cr0();
    unsigned int i;

    if ( boot.pat )
        wrmsr(MSR_IA32_CR_PAT, boot.pat_val);
    if ( !boot.mtrr || !mtrr_differ() )
        return;
    write_cr0((cr0 | X86_CR0_CD) & ~X86_CR0_NW);
    asm volatile ( "wbinvd" ::: "memory" );
    write_cr3(read_cr3());
    wrmsr(MSR_MTRR_DEF_TYPE, 0);
    for ( i = 0; i < 2 * boot.nr_var; i++ )
        wrmsr(MSR_MTRR_PHYSBASE0 + i, boot.var[i]);
    for ( i = 0; boot.fixed && i < ARRAY_SIZE(fixed_msrs); i++ )
        wrmsr(fixed_msrs[i], boot.fix[i]);
    asm volatile ( "wbinvd" ::: "memory" );
    write_cr3(read_cr3());
    wrmsr(MSR_MTRR_DEF_TYPE, boot.def_type);
    write_cr0(cr0);
}
