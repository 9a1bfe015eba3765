/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The speculation controls' boot log: Xen's print_details() lines where
 * they apply ("Speculative mitigation facilities:"), and what each guest
 * path does.  Pure: formatted into a buffer, host-tested.
 */
#include "arch/x86/spec-ctrl.h"
#include "arch/x86/spec-ctrl-bits.h"

struct out {
    char *buf;
    size_t len;
    int n;
};

static void put(struct out *o, const char *fmt, ...) __printf(2, 3);
static void put(struct out *o, const char *fmt, ...)
{
    va_list args;
    size_t at = MIN((size_t)o->n, o->len ? o->len - 1 : 0);
    int n;

    va_start(args, fmt);
    n = vsnprintf(o->buf + at, o->len - at, fmt, args);
    va_end(args);
    if ( n > 0 )
        o->n += n;
}

/* " NAME" for each set bit of @word named in @names (bit, name pairs). */
struct name_bit {
    uint32_t bit;
    const char *name;
};

static void put_bits(struct out *o, uint32_t word, const struct name_bit *nb,
                     size_t nr)
{
    size_t i;

    for ( i = 0; i < nr; i++ )
        if ( word & nb[i].bit )
            put(o, " %s", nb[i].name);
}

#define NB(w, n) { SC_BIT(w, n), #n }

/* As Xen prints them: the hardware's words, before any synthesis. */
static void put_hints(struct out *o, const struct spec_ctrl_cpu *c)
{
    static const struct name_bit caps[] = {
        NB(caps, RDCL_NO), NB(caps, EIBRS), NB(caps, RSBA), NB(caps, RRSBA),
        NB(caps, SKIP_L1DFL), { SC_BIT(caps, INTEL_SSB_NO), "SSB_NO" },
        NB(caps, MDS_NO), NB(caps, TAA_NO), NB(caps, PBRSB_NO),
        NB(caps, GDS_NO), NB(caps, RFDS_NO), NB(caps, BHI_NO),
    }, e8b[] = {
        NB(e8b, SSB_NO), NB(e8b, IBRS_ALWAYS), NB(e8b, STIBP_ALWAYS),
        NB(e8b, IBRS_FAST), NB(e8b, IBRS_SAME_MODE), NB(e8b, BTC_NO),
        NB(e8b, IBPB_RET),
    }, e21a[] = {
        NB(e21a, IBPB_BRTYPE), NB(e21a, SRSO_NO), NB(e21a, SRSO_US_NO),
    };

    put(o, "  Hardware hints:");
    /* Xen prints one SSB_NO for either enumeration. */
    put_bits(o, c->arch_caps & ~(SC_HAS(c->cpuid_e8b, e8b, SSB_NO) ?
                                 SC_BIT(caps, INTEL_SSB_NO) : 0),
             caps, ARRAY_SIZE(caps));
    put_bits(o, c->cpuid_e8b, e8b, ARRAY_SIZE(e8b));
    put_bits(o, c->cpuid_e21a, e21a, ARRAY_SIZE(e21a));
    put(o, "\n");
}

static void put_features(struct out *o, const struct spec_ctrl_cpu *c)
{
    static const struct name_bit d0[] = {
        NB(7d0, L1D_FLUSH), NB(7d0, MD_CLEAR), NB(7d0, SRBDS_CTRL),
    }, e8b[] = {
        NB(e8b, VIRT_SSBD),
    }, d2[] = {
        NB(7d2, BHI_CTRL),
    }, caps[] = {
        NB(caps, FB_CLEAR), NB(caps, GDS_CTRL), NB(caps, RFDS_CLEAR),
    }, e21a[] = {
        NB(e21a, SRSO_MSR_FIX),
    };
    uint32_t d = c->cpuid_7d0, b = c->cpuid_e8b;

    put(o, "  Hardware features:%s%s%s%s%s",
        SC_HAS(b, e8b, IBPB) || SC_HAS(d, 7d0, IBRSB) ? " IBPB" : "",
        SC_HAS(b, e8b, IBRS) || SC_HAS(d, 7d0, IBRSB) ? " IBRS" : "",
        SC_HAS(b, e8b, AMD_STIBP) || SC_HAS(d, 7d0, STIBP) ? " STIBP" : "",
        SC_HAS(b, e8b, AMD_SSBD) || SC_HAS(d, 7d0, SSBD) ? " SSBD" : "",
        SC_HAS(b, e8b, PSFD) || SC_HAS(c->cpuid_7d2, 7d2, INTEL_PSFD) ? " PSFD"
                                                                 : "");
    put_bits(o, d, d0, ARRAY_SIZE(d0));
    put_bits(o, b, e8b, ARRAY_SIZE(e8b));
    put_bits(o, c->cpuid_7d2, d2, ARRAY_SIZE(d2));
    put_bits(o, c->arch_caps, caps, ARRAY_SIZE(caps));
    put_bits(o, c->cpuid_e21a, e21a, ARRAY_SIZE(e21a));
    put(o, "\n");
}

/* "IBRS+ STIBP- ...": each bit the CPU has, on or off. */
static void put_spec_ctrl(struct out *o, const struct spec_ctrl_cpu *c,
                          uint32_t val)
{
    uint32_t d = c->cpuid_7d0, b = c->cpuid_e8b, d2 = c->cpuid_7d2;
    const struct {
        bool hw;
        uint32_t bit;
        const char *name;
    } bits[] = {
        { SC_HAS(d, 7d0, IBRSB) || SC_HAS(b, e8b, IBRS),
          SPEC_CTRL_IBRS, "IBRS" },
        { SC_HAS(d, 7d0, STIBP) || SC_HAS(b, e8b, AMD_STIBP),
          SPEC_CTRL_STIBP, "STIBP" },
        { SC_HAS(d, 7d0, SSBD) || SC_HAS(b, e8b, AMD_SSBD),
          SPEC_CTRL_SSBD, "SSBD" },
        { SC_HAS(b, e8b, PSFD) || SC_HAS(d2, 7d2, INTEL_PSFD),
          SPEC_CTRL_PSFD, "PSFD" },
        { SC_HAS(d2, 7d2, BHI_CTRL), SPEC_CTRL_BHI_DIS_S, "BHI_DIS_S" },
    };
    bool any = false;
    size_t i;

    for ( i = 0; i < ARRAY_SIZE(bits); i++ )
        if ( bits[i].hw )
        {
            put(o, "%s%s%c", any ? " " : "", bits[i].name,
                val & bits[i].bit ? '+' : '-');
            any = true;
        }
    if ( !any )
        put(o, "No");
}

int spec_ctrl_format(const struct spec_ctrl_cpu *c,
                     const struct spec_ctrl_choice *ch, bool thunk,
                     char *buf, size_t len)
{
    struct out o = { .buf = buf, .len = len };
    uint8_t f = ch->flags;

    if ( len )
        buf[0] = '\0';
    put(&o, "Speculative mitigation facilities:\n");
    put_hints(&o, c);
    put_features(&o, c);
    if ( thunk )
        put(&o, "  Compiled-in support: INDIRECT_THUNK\n");
    put(&o, "  Shim settings: %sSPEC_CTRL: ",
        thunk ? "BTI-Thunk: RETPOLINE, " : "");
    put_spec_ctrl(&o, c, ch->shim_spec_ctrl);
    put(&o, ", Other:%s%s\n", f & SCF_EXIT_VERW ? " VERW" : "",
        f & SCF_EXIT_DIV ? " DIV" : "");
    put(&o, "  Support for PV VMs:%s%s%s%s%s\n",
        f & (SCF_MSR_SPEC_CTRL | SCF_ENTRY_RSB | SCF_ENTRY_IBPB |
             SCF_EXIT_VERW) ? "" : " None",
        f & SCF_MSR_SPEC_CTRL ? " MSR_SPEC_CTRL" : "",
        f & SCF_ENTRY_RSB ? " RSB" : "", f & SCF_EXIT_VERW ? " VERW" : "",
        f & SCF_ENTRY_IBPB ? " IBPB-entry" : "");
    put(&o, "  PV entry:%s%s%s%s%s, exit:%s%s%s%s\n",
        f & (SCF_ENTRY_IBPB | SCF_ENTRY_RSB | SCF_MSR_SPEC_CTRL |
             SCF_ENTRY_LFENCE) ? "" : " nothing",
        f & SCF_ENTRY_IBPB ? " IBPB" : "", f & SCF_ENTRY_RSB ? " RSB" : "",
        f & SCF_MSR_SPEC_CTRL ? " SPEC_CTRL" : "",
        f & SCF_ENTRY_LFENCE ? " LFENCE" : "",
        f & (SCF_MSR_SPEC_CTRL | SCF_EXIT_DIV | SCF_EXIT_VERW) ? ""
                                                               : " nothing",
        f & SCF_MSR_SPEC_CTRL ? " SPEC_CTRL=0" : "",
        f & SCF_EXIT_DIV ? " DIV" : "", f & SCF_EXIT_VERW ? " VERW" : "");
    if ( ch->xen_xpti || ch->xen_bhb_entry )
        put(&o, "  Not implemented, Xen would use:%s%s\n",
            ch->xen_xpti ? " XPTI" : "",
            ch->xen_bhb_entry ? " BHB-entry" : "");

    return o.n;
}
