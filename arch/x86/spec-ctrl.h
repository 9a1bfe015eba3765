/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Speculative-execution mitigations on entry from and exit to the PV guest:
 * what the CPU offers, the choices Xen makes for a PV guest on it
 * (xen/arch/x86/spec_ctrl.c), and the flags the entry assembly tests.
 */
#ifndef ARCH_X86_SPEC_CTRL_H
#define ARCH_X86_SPEC_CTRL_H

#include "arch/x86/msr.h"     /* MSR_SPEC_CTRL, MSR_PRED_CMD, ... */

/*
 * spec_ctrl_flags: one byte, written once at boot, read by the entry and
 * exit macros (spec-ctrl-asm.h).  Each bit is one action on one path.
 */
#define SCF_ENTRY_IBPB          (1 << 0)   /* IBPB on entry from the guest */
#define SCF_ENTRY_RSB           (1 << 1)   /* overwrite the RSB on entry */
#define SCF_MSR_SPEC_CTRL       (1 << 2)   /* shim's value in, guest's out */
#define SCF_ENTRY_LFENCE        (1 << 3)   /* any entry work, lfence after */
#define SCF_EXIT_VERW           (1 << 4)   /* VERW just before iretq */
#define SCF_EXIT_DIV            (1 << 5)   /* a DIV on exit (AMD Zen1) */

#ifndef __ASSEMBLER__
#include "shim/lib.h"

/* What the CPU says, as Xen reads it: the raw words, untouched. */
struct spec_ctrl_cpu {
    unsigned int vendor;            /* enum cpu_vendor */
    unsigned int family, model, stepping;
    uint32_t ucode_rev;             /* Intel family 6 only, else 0 */
    bool hypervisor;                /* CPUID.1:ECX.31 */
    bool smep;                      /* the shim runs with CR4.SMEP */
    uint32_t cpuid_7d0;             /* CPUID.7.0:EDX */
    uint32_t cpuid_7d2;             /* CPUID.7.2:EDX */
    uint32_t cpuid_e8b;             /* CPUID.0x80000008:EBX */
    uint32_t cpuid_e21a;            /* CPUID.0x80000021:EAX */
    uint32_t arch_caps;             /* MSR_ARCH_CAPABILITIES[31:0], or 0 */
};

/* spec-ctrl= as parsed: -1 is "Xen's default for this CPU". */
struct spec_ctrl_opts {
    int8_t msr_sc_pv;
    int8_t rsb_pv, verw_pv, ibpb_entry_pv, div_scrub;
    int8_t ibrs, stibp, ssbd, psfd, bhi_dis_s;
};

#define SPEC_CTRL_OPTS_DEFAULT ((struct spec_ctrl_opts){                  \
    .msr_sc_pv = 1, .rsb_pv = -1, .verw_pv = -1, .ibpb_entry_pv = -1,   \
    .div_scrub = -1, .ibrs = -1, .stibp = -1, .ssbd = 0, .psfd = -1,       \
    .bhi_dis_s = -1 })

/* What to do, for the shim and for its PV guest. */
struct spec_ctrl_choice {
    bool has_spec_ctrl;             /* MSR_SPEC_CTRL exists: set at boot */
    uint32_t shim_spec_ctrl;        /* MSR_SPEC_CTRL while the shim runs */
    uint8_t flags;                  /* SCF_* */
    bool retpoline_safe;
    /* Why, for the log: Xen's view of the CPU's vulnerabilities. */
    bool mds, msbds_only, useful_md_clear, bhi;
    /* What Xen would also do that the shim doesn't (logged). */
    bool xen_xpti, xen_bhb_entry;
    /* Feature words after Xen's synthesis (BTC_NO, IBPB_BRTYPE, RRSBA). */
    uint32_t e8b, e21a, caps;
};

/*
 * Parse spec-ctrl=@s into @o (Xen's parse_spec_ctrl() syntax): known
 * sub-options are applied left to right; returns -XEN_EINVAL if any was
 * unknown, refused or malformed (the rest still apply, as in Xen).
 */
int spec_ctrl_parse(struct spec_ctrl_opts *o, const char *s);

/*
 * Xen's defaults for a PV guest on @c, overridden by @o.  @pv32: 32-bit
 * PV guests are possible (Xen's opt_pv32); @thunk: retpolines compiled in.
 */
void spec_ctrl_decide(const struct spec_ctrl_cpu *c,
                      const struct spec_ctrl_opts *o, bool pv32, bool thunk,
                      struct spec_ctrl_choice *ch);

/*
 * The boot log's lines, Xen's print_details() where it applies, into @buf
 * ('\n' after each).  Returns what snprintf() returns.
 */
int spec_ctrl_format(const struct spec_ctrl_cpu *c,
                     const struct spec_ctrl_choice *ch, bool thunk,
                     char *buf, size_t len);

/* Boot CPU: detect, decide, log and apply (after cpu_detect()). */
void spec_ctrl_init(void);
/* Every other CPU, as it comes up: the shim's MSR_SPEC_CTRL value. */
void spec_ctrl_init_cpu(void);

/* Read by the entry and exit assembly. */
extern uint8_t spec_ctrl_flags;

/*
 * Xen's evaluate_nospec(): a guest-influenced condition whose both arms
 * end in an lfence, so neither runs ahead speculatively on a mispredicted
 * test; skipped with the entry lfences (spec-ctrl=no).
 */
static always_inline bool evaluate_nospec(bool cond)
{
    if ( cond )
    {
        if ( spec_ctrl_flags & SCF_ENTRY_LFENCE )
            asm volatile ( "lfence" ::: "memory" );
        return true;
    }
    if ( spec_ctrl_flags & SCF_ENTRY_LFENCE )
        asm volatile ( "lfence" ::: "memory" );
    return false;
}
extern uint32_t spec_ctrl_shim_value, spec_ctrl_guest_value;
extern const uint16_t spec_ctrl_verw_sel;
#endif

#endif /* ARCH_X86_SPEC_CTRL_H */
