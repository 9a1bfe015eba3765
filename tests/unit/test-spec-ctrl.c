/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the speculation controls' pure half: Xen's defaults for a
 * PV guest on synthetic CPUs (a Skylake server, AMD Zen 1/2/3, QEMU's
 * qemu64 with nothing), spec-ctrl= parsing in Xen's syntax, and the log.
 */
#include "tests/unit/unit.h"

#include "shim/lib/strtoull.c"
#include "shim/param.c"
#include "arch/x86/spec-ctrl-parse.c"
#include "arch/x86/spec-ctrl-policy.c"
#include "arch/x86/spec-ctrl-log.c"

#include "tests/unit/log-capture.h"

/* The real option, registered as spec-ctrl.c registers it. */
static struct spec_ctrl_opts opts;
static int parse_spec_ctrl(const char *s)
{
    return spec_ctrl_parse(&opts, s);
}
custom_param("spec-ctrl", parse_spec_ctrl);

#define B(w, n) SC_BIT(w, n)

/* Skylake-SP (06-55-04), 2018 microcode: no ARCH_CAPS, bare metal. */
static const struct spec_ctrl_cpu skylake = {
    .vendor = VENDOR_INTEL, .family = 6, .model = 0x55, .stepping = 4,
    .ucode_rev = 0x2000065, .smep = true,
    .cpuid_7d0 = B(7d0, IBRSB) | B(7d0, STIBP) | B(7d0, SSBD) |
                 B(7d0, MD_CLEAR) | B(7d0, L1D_FLUSH),
};

/* Zen 2 (17-31-00), bare metal. */
static const struct spec_ctrl_cpu zen2 = {
    .vendor = VENDOR_AMD, .family = 0x17, .model = 0x31, .smep = true,
    .cpuid_e8b = B(e8b, IBPB) | B(e8b, IBRS) | B(e8b, AMD_STIBP) |
                 B(e8b, AMD_SSBD),
};

/* Zen 3 (19-01-01), bare metal, without the SRSO microcode. */
static const struct spec_ctrl_cpu zen3 = {
    .vendor = VENDOR_AMD, .family = 0x19, .model = 0x01, .stepping = 1,
    .smep = true,
    .cpuid_e8b = B(e8b, IBPB) | B(e8b, IBRS) | B(e8b, AMD_STIBP) |
                 B(e8b, STIBP_ALWAYS) | B(e8b, IBRS_FAST) |
                 B(e8b, AMD_SSBD) | B(e8b, PSFD),
};

/* QEMU TCG's default qemu64: AMD family 15, none of these features. */
static const struct spec_ctrl_cpu qemu64 = {
    .vendor = VENDOR_AMD, .family = 0xf, .model = 0x6b, .stepping = 1,
    .hypervisor = true,
};

/* QEMU TCG's -cpu EPYC: Zen 1 (17-01-02), SMEP, and still nothing else. */
static const struct spec_ctrl_cpu epyc_tcg = {
    .vendor = VENDOR_AMD, .family = 0x17, .model = 0x01, .stepping = 2,
    .hypervisor = true, .smep = true,
};

static struct spec_ctrl_choice ch;

static void decide(const struct spec_ctrl_cpu *c, const char *cmdline)
{
    opts = SPEC_CTRL_OPTS_DEFAULT;
    if ( cmdline )
        CHECK_EQ(spec_ctrl_parse(&opts, cmdline), 0);
    spec_ctrl_decide(c, &opts, true, true, &ch);
}

static bool logged(const struct spec_ctrl_cpu *c, const char *line)
{
    char buf[1024];

    CHECK(spec_ctrl_format(c, &ch, true, buf, sizeof(buf)) <
          (int)sizeof(buf));
    return strstr(buf, line);
}

static void skylake_defaults(void)
{
    decide(&skylake, NULL);
    /* Retpolines aren't safe on Skylake: IBRS, which implies STIBP. */
    CHECK(!ch.retpoline_safe);
    CHECK(SC_HAS(ch.caps, caps, RSBA));
    CHECK_EQ(ch.shim_spec_ctrl, SPEC_CTRL_IBRS | SPEC_CTRL_STIBP);
    CHECK(ch.mds && ch.useful_md_clear);
    CHECK_EQ(ch.flags, SCF_ENTRY_RSB | SCF_MSR_SPEC_CTRL | SCF_ENTRY_LFENCE |
                       SCF_EXIT_VERW);
    CHECK(ch.xen_xpti && !ch.xen_bhb_entry);
    CHECK(logged(&skylake, "  Hardware features: IBPB IBRS STIBP SSBD "
                           "L1D_FLUSH MD_CLEAR\n"));
    CHECK(logged(&skylake, "SPEC_CTRL: IBRS+ STIBP+ SSBD-, Other: VERW\n"));
    CHECK(logged(&skylake, "Support for PV VMs: MSR_SPEC_CTRL RSB VERW\n"));
    CHECK(logged(&skylake, "PV entry: RSB SPEC_CTRL LFENCE, "
                           "exit: SPEC_CTRL=0 VERW\n"));
    CHECK(logged(&skylake, "Not implemented, Xen would use: XPTI\n"));
}

static void skylake_variants(void)
{
    struct spec_ctrl_cpu c = skylake;

    /* Cascade Lake stepping: MDS fixed, so VERW does nothing useful. */
    c.stepping = 7;
    decide(&c, NULL);
    CHECK(!ch.mds && !(ch.flags & SCF_EXIT_VERW));
    /* Virtualized: Xen assumes BHI, wants its BHB loop (not here). */
    c = skylake;
    c.hypervisor = true;
    decide(&c, NULL);
    CHECK(ch.bhi && ch.xen_bhb_entry);
    CHECK(logged(&c, "Xen would use: XPTI BHB-entry\n"));
    /* ... unless BHI_DIS_S is offered: then it's in MSR_SPEC_CTRL. */
    c.cpuid_7d2 = B(7d2, BHI_CTRL);
    decide(&c, NULL);
    CHECK(!ch.xen_bhb_entry);
    CHECK_EQ(ch.shim_spec_ctrl, SPEC_CTRL_IBRS | SPEC_CTRL_STIBP |
                                SPEC_CTRL_BHI_DIS_S);
    /* 64-bit PV only, with SMEP and a full-width RSB: no RSB overwrite. */
    opts = SPEC_CTRL_OPTS_DEFAULT;
    spec_ctrl_decide(&skylake, &opts, false, true, &ch);
    CHECK(!(ch.flags & SCF_ENTRY_RSB));
    /* No retpolines compiled in: IBRS anyway. */
    spec_ctrl_decide(&skylake, &opts, true, false, &ch);
    CHECK(ch.shim_spec_ctrl & SPEC_CTRL_IBRS);
}

static void haswell_retpoline(void)
{
    struct spec_ctrl_cpu c = skylake;

    c.model = 0x3f;                     /* Haswell-EP: retpoline-safe */
    decide(&c, NULL);
    CHECK(ch.retpoline_safe);
    CHECK_EQ(ch.shim_spec_ctrl, 0);     /* no IBRS, Intel: no STIBP */
    CHECK(ch.flags & SCF_MSR_SPEC_CTRL);
    c.model = 0x3d;                     /* Broadwell: by microcode */
    c.ucode_rev = 0x29;
    decide(&c, NULL);
    CHECK(!ch.retpoline_safe);
    c.ucode_rev = 0x2a;
    decide(&c, NULL);
    CHECK(ch.retpoline_safe);
    /* eIBRS parts are never retpoline-safe; RRSBA is filled in. */
    c.model = 0x6a;
    c.cpuid_7d0 |= B(7d0, ARCH_CAPS);
    c.arch_caps = B(caps, RDCL_NO) | B(caps, EIBRS) | B(caps, MDS_NO);
    decide(&c, NULL);
    CHECK(!ch.retpoline_safe && SC_HAS(ch.caps, caps, RRSBA));
    CHECK(!ch.xen_xpti && !(ch.flags & SCF_EXIT_VERW));
    CHECK(ch.bhi);                      /* eIBRS without BHI_NO */
}

static void zen2_defaults(void)
{
    decide(&zen2, NULL);
    CHECK(ch.retpoline_safe);
    CHECK_EQ(ch.shim_spec_ctrl, SPEC_CTRL_STIBP);   /* AMD: always STIBP */
    CHECK_EQ(ch.flags, SCF_ENTRY_IBPB | SCF_ENTRY_RSB | SCF_ENTRY_LFENCE);
    CHECK(!ch.xen_xpti);
    CHECK(logged(&zen2, "SPEC_CTRL: IBRS- STIBP+ SSBD-, Other:\n"));
    CHECK(logged(&zen2, "Support for PV VMs: RSB IBPB-entry\n"));
    CHECK(logged(&zen2, "PV entry: IBPB RSB LFENCE, exit: nothing\n"));
    CHECK(!logged(&zen2, "Not implemented"));
}

static void zen3_defaults(void)
{
    struct spec_ctrl_cpu c = zen3;

    /* BTC_NO filled in (bare metal); no SRSO microcode: no IBPB. */
    decide(&c, NULL);
    CHECK(SC_HAS(ch.e8b, e8b, BTC_NO));
    CHECK_EQ(ch.flags, SCF_ENTRY_RSB | SCF_ENTRY_LFENCE);
    CHECK_EQ(ch.shim_spec_ctrl, SPEC_CTRL_STIBP);
    /* With it (spec-ctrl.c's SBPB probe): IBPB on entry for SRSO. */
    c.cpuid_e21a = B(e21a, IBPB_BRTYPE) | B(e21a, SBPB);
    decide(&c, NULL);
    CHECK(ch.flags & SCF_ENTRY_IBPB);
    /* ... unless SRSO can't cross user/supervisor (Zen5). */
    c.cpuid_e21a |= B(e21a, SRSO_US_NO);
    decide(&c, NULL);
    CHECK(!(ch.flags & SCF_ENTRY_IBPB));
    /* Virtualized, BTC_NO isn't filled in: IBPB, as Xen. */
    c = zen3;
    c.hypervisor = true;
    decide(&c, NULL);
    CHECK(ch.flags & SCF_ENTRY_IBPB);
}

static void nothing_cpu(void)
{
    struct spec_ctrl_cpu c = qemu64;

    decide(&c, NULL);
    CHECK(!ch.has_spec_ctrl);
    CHECK_EQ(ch.shim_spec_ctrl, 0);
    /* No SMEP: the guest's RSB entries must go. */
    CHECK_EQ(ch.flags, SCF_ENTRY_RSB | SCF_ENTRY_LFENCE);
    CHECK(logged(&c, "  Hardware hints:\n  Hardware features:\n"));
    CHECK(logged(&c, "SPEC_CTRL: No, Other:\n"));
    CHECK(logged(&c, "Support for PV VMs: RSB\n"));
    /* IBPB can't be forced without the hardware. */
    decide(&c, "ibpb-entry");
    CHECK(!(ch.flags & SCF_ENTRY_IBPB));
    /* Intel's qemu64: family 15, no MDS model, but no RDCL_NO either. */
    c.vendor = VENDOR_INTEL;
    decide(&c, NULL);
    CHECK(ch.xen_xpti && !ch.mds && !ch.bhi);
    CHECK_EQ(ch.flags, SCF_ENTRY_RSB | SCF_ENTRY_LFENCE);
    /* EPYC under TCG is Zen 1 without STIBP: DIV on exit (XSA-439). */
    decide(&epyc_tcg, NULL);
    CHECK_EQ(ch.flags, SCF_ENTRY_RSB | SCF_ENTRY_LFENCE | SCF_EXIT_DIV);
    CHECK(logged(&epyc_tcg, "PV entry: RSB LFENCE, exit: DIV\n"));
}

static void spec_ctrl_no(void)
{
    const struct spec_ctrl_cpu *cpus[] = {
        &skylake, &zen2, &zen3, &qemu64, &epyc_tcg,
    };
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(cpus); i++ )
    {
        decide(cpus[i], "no");
        CHECK_EQ(ch.flags, 0);
        CHECK_EQ(ch.shim_spec_ctrl, 0);
        CHECK(logged(cpus[i], "Support for PV VMs: None\n"));
        CHECK(logged(cpus[i], "PV entry: nothing, exit: nothing\n"));
    }
    /* no-xen keeps switching MSR_SPEC_CTRL (for guests), at value 0. */
    decide(&skylake, "no-xen");
    CHECK_EQ(ch.flags, SCF_MSR_SPEC_CTRL | SCF_ENTRY_LFENCE);
    CHECK_EQ(ch.shim_spec_ctrl, 0);
    /* A later option overrides: turn one thing back on. */
    decide(&skylake, "no,verw");
    CHECK_EQ(ch.flags, SCF_EXIT_VERW);
}

static void parse_forms(void)
{
    struct spec_ctrl_opts o;

#define PARSE(s, rc) do {                                               \
    o = SPEC_CTRL_OPTS_DEFAULT;                                         \
    CHECK_EQ(spec_ctrl_parse(&o, s), (unsigned long long)(rc));         \
} while ( 0 )

    PARSE("yes", -XEN_EINVAL);          /* Xen: a positive bool is invalid */
    PARSE("1", -XEN_EINVAL);
    PARSE("", -XEN_EINVAL);
    PARSE("xen", -XEN_EINVAL);
    PARSE("pv=0", 0);
    CHECK(!o.msr_sc_pv && !o.rsb_pv && !o.verw_pv && !o.ibpb_entry_pv);
    PARSE("rsb=0", 0);
    CHECK_EQ(o.rsb_pv, 0);
    PARSE("no-rsb", 0);
    CHECK_EQ(o.rsb_pv, 0);
    PARSE("rsb", 0);
    CHECK_EQ(o.rsb_pv, 1);
    PARSE("rsb=no-pv", 0);              /* the {pv,hvm}= sub-form */
    CHECK_EQ(o.rsb_pv, 0);
    PARSE("rsb=hvm=0", -XEN_EINVAL);    /* no HVM guests here */
    CHECK_EQ(o.rsb_pv, -1);
    PARSE("no-rsb=1", -XEN_EINVAL);
    PARSE("rsbx", -XEN_EINVAL);
    PARSE("msr-sc=pv=0", 0);
    CHECK(!o.msr_sc_pv);
    PARSE("md-clear=1,verw=0", 0);      /* aliases, left to right */
    CHECK_EQ(o.verw_pv, 0);
    PARSE("ibpb-entry=pv", 0);
    CHECK_EQ(o.ibpb_entry_pv, 1);
    PARSE("ibrs,stibp=0,ssbd,psfd=no,bhi-dis-s=1,div-scrub=0", 0);
    CHECK(o.ibrs == 1 && o.stibp == 0 && o.ssbd == 1 && o.psfd == 0 &&
          o.bhi_dis_s == 1 && o.div_scrub == 0);
    /* Refused, and the rest still applies, as in Xen. */
    PARSE("bti-thunk=jmp,rsb=0,hvm=0", -XEN_EINVAL);
    CHECK_EQ(o.rsb_pv, 0);
    PARSE("ibpb=0", -XEN_EINVAL);       /* context switches: none here */
    PARSE("bhb-entry=0", -XEN_EINVAL);
    PARSE("branch-harden=0", -XEN_EINVAL);
#undef PARSE
}

static void command_line(void)
{
    log_len = 0;
    log_buf[0] = '\0';
    opts = SPEC_CTRL_OPTS_DEFAULT;
    CHECK_EQ(cmdline_parse("spec-ctrl=no"), 0);
    CHECK(!opts.msr_sc_pv && opts.rsb_pv == 0);
    opts = SPEC_CTRL_OPTS_DEFAULT;
    CHECK_EQ(cmdline_parse("no-spec-ctrl"), 0);     /* handler gets "no" */
    CHECK(!opts.msr_sc_pv && opts.verw_pv == 0);
    CHECK_EQ(cmdline_parse("spec-ctrl=eager-fpu=0,ssbd"), 1);
    CHECK(opts.ssbd == 1);
    CHECK(strstr(log_buf, "parameter \"spec-ctrl\" has invalid value "
                          "\"eager-fpu=0,ssbd\", rc=-22!"));
}

int main(void)
{
    RUN(skylake_defaults);
    RUN(skylake_variants);
    RUN(haswell_retpoline);
    RUN(zen2_defaults);
    RUN(zen3_defaults);
    RUN(nothing_cpu);
    RUN(spec_ctrl_no);
    RUN(parse_forms);
    RUN(command_line);
    UNIT_EXIT();
}
