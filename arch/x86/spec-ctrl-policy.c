/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pure half of the speculation controls: spec-ctrl= parsing and Xen's
 * default choices for a PV guest (xen/arch/x86/spec_ctrl.c as of Xen
 * 4.21: init_speculation_mitigations() and its *_calculations()), as
 * functions of the CPUID/ARCH_CAPS words alone, so they are host-tested.
 */
#include <xen/errno.h>
#include <xen/arch-x86/cpufeatureset.h>
#include "arch/x86/cpu.h"
#include "arch/x86/spec-ctrl.h"
#include "shim/param.h"

/* Xen's featureset word of each raw word we keep (cpufeatureset.h). */
enum { W_e8b = 8, W_7d0 = 9, W_e21a = 11, W_7d2 = 13, W_caps = 16 };

/* Feature @n's bit, checked at compile time to live in word W_@w. */
#define BIT(w, n)                                                       \
    ((1u << (XEN_X86_FEATURE_##n & 31)) +                               \
     0 * sizeof(char [XEN_X86_FEATURE_##n / 32 == W_##w ? 1 : -1]))
#define HAS(word, w, n) (!!((word) & BIT(w, n)))

static bool amd_like(const struct spec_ctrl_cpu *c)
{
    return c->vendor == VENDOR_AMD || c->vendor == VENDOR_HYGON;
}

static bool intel_fam6(const struct spec_ctrl_cpu *c)
{
    return c->vendor == VENDOR_INTEL && c->family == 6;
}

/* ------------------------------------------------------------ parsing */

/*
 * Xen's parse_boolean(): @name, no-@name or @name=<bool> at [s, e) give
 * 1 or 0; @name=<not a bool> gives -2 (the caller may parse further);
 * anything else -1.
 */
static int parse_boolean(const char *name, const char *s, const char *e)
{
    bool neg = !strncmp(s, "no-", 3);
    size_t nlen = strlen(name), slen;

    if ( neg )
        s += 3;
    slen = e - s;
    if ( slen < nlen || strncmp(s, name, nlen) )
        return -1;
    if ( slen == nlen )
        return !neg;
    if ( neg || s[nlen] != '=' )
        return -1;

    return parse_bool(s + nlen + 1, e) >= 0 ? parse_bool(s + nlen + 1, e)
                                             : -2;
}

/*
 * @name=<bool> or @name=pv=<bool> into *@pv (Xen's {pv,hvm}= sub-forms;
 * there are no HVM guests here, so =hvm=<bool> is refused).  0 if @name
 * didn't match, 1 if applied, -XEN_EINVAL if it matched but was refused.
 */
static int parse_pv_bool(const char *name, const char *s, const char *e,
                         int8_t *pv)
{
    int val = parse_boolean(name, s, e);

    if ( val == -1 )
        return 0;
    if ( val == -2 )
    {
        val = parse_boolean("pv", s + strlen(name) + 1, e);
        if ( val < 0 )
            return -XEN_EINVAL;
    }
    *pv = val;

    return 1;
}

/* The shim's own protections, which both spec-ctrl=no and =no-xen drop. */
static void disable_common(struct spec_ctrl_opts *o)
{
    o->rsb_pv = o->verw_pv = o->ibpb_entry_pv = o->div_scrub = 0;
    o->ibrs = o->ssbd = 0;
    /* Xen leaves these three to their defaults; "no" here means none. */
    o->stibp = o->psfd = o->bhi_dis_s = 0;
}

int spec_ctrl_parse(struct spec_ctrl_opts *o, const char *s)
{
    const char *ss;
    int rc = 0;

    do {
        int8_t v;
        int val, r;

        ss = strchr(s, ',');
        if ( !ss )
            ss = strchr(s, '\0');

        val = parse_bool(s, ss);
        if ( val == 0 )
        {
            o->msr_sc_pv = false;
            disable_common(o);
        }
        else if ( val > 0 )
            rc = -XEN_EINVAL;               /* Xen refuses spec-ctrl=yes */
        else if ( (val = parse_boolean("xen", s, ss)) >= 0 )
        {
            if ( val )
                rc = -XEN_EINVAL;
            else
                disable_common(o);
        }
        else if ( (val = parse_boolean("pv", s, ss)) >= 0 )
        {
            o->msr_sc_pv = val;
            o->rsb_pv = o->verw_pv = o->ibpb_entry_pv = val;
        }
        else if ( (r = parse_pv_bool("msr-sc", s, ss, &v)) != 0 )
        {
            if ( r > 0 )
                o->msr_sc_pv = v;
            else
                rc = r;
        }
        else if ( (r = parse_pv_bool("rsb", s, ss, &o->rsb_pv)) != 0 ||
                  (r = parse_pv_bool("verw", s, ss, &o->verw_pv)) != 0 ||
                  (r = parse_pv_bool("md-clear", s, ss, &o->verw_pv)) != 0 ||
                  (r = parse_pv_bool("ibpb-entry", s, ss,
                                     &o->ibpb_entry_pv)) != 0 )
        {
            if ( r < 0 )
                rc = r;
        }
        /* Bits in MSR_SPEC_CTRL, and the Zen1 DIV scrub. */
        else if ( (val = parse_boolean("ibrs", s, ss)) >= 0 )
            o->ibrs = val;
        else if ( (val = parse_boolean("stibp", s, ss)) >= 0 )
            o->stibp = val;
        else if ( (val = parse_boolean("ssbd", s, ss)) >= 0 )
            o->ssbd = val;
        else if ( (val = parse_boolean("psfd", s, ss)) >= 0 )
            o->psfd = val;
        else if ( (val = parse_boolean("bhi-dis-s", s, ss)) >= 0 )
            o->bhi_dis_s = val;
        else if ( (val = parse_boolean("div-scrub", s, ss)) >= 0 )
            o->div_scrub = val;
        /* hvm=, bti-thunk=, bhb-entry=, ibpb=, eager-fpu=, ...: not here. */
        else
            rc = -XEN_EINVAL;

        s = ss + 1;
    } while ( *ss );

    return rc;
}

/* ------------------------------------------------- Xen's calculations */

/*
 * Xen's retpoline_calculations(): is a retpoline safe on this CPU (no RSB
 * underflow to the BTB)?  Also fills in the RSBA/RRSBA Xen synthesises.
 */
static bool retpoline_safe(const struct spec_ctrl_cpu *c, uint32_t *caps)
{
    if ( amd_like(c) )
        return true;
    if ( !intel_fam6(c) )
        return false;
    if ( HAS(*caps, caps, EIBRS) )
    {
        *caps |= BIT(caps, RRSBA);      /* pre-Aug 2023 microcode lacks it */
        return false;
    }
    if ( HAS(*caps, caps, RSBA) )
        return false;
    if ( HAS(c->cpuid_7d0, 7d0, ARCH_CAPS) )
        return true;

    switch ( c->model )
    {
    case 0x17: case 0x1d:                           /* Penryn, Dunnington */
    case 0x1e: case 0x1f: case 0x1a: case 0x2e:     /* Nehalem */
    case 0x25: case 0x2c: case 0x2f:                /* Westmere */
    case 0x2a: case 0x2d: case 0x3a: case 0x3e:     /* Sandy/Ivy Bridge */
    case 0x3c: case 0x3f: case 0x45: case 0x46:     /* Haswell */
    case 0x1c: case 0x26: case 0x27: case 0x35:     /* older Atoms */
    case 0x36: case 0x37: case 0x4d: case 0x4c:
    case 0x4a: case 0x5a: case 0x5c: case 0x5f:
        return true;
    /* Broadwell: safe from a microcode revision on. */
    case 0x3d: return c->ucode_rev >= 0x2a;
    case 0x47: return c->ucode_rev >= 0x1d;
    case 0x4f: return c->ucode_rev >= 0xb000021;
    case 0x56:
        switch ( c->stepping )
        {
        case 2: return c->ucode_rev >= 0x15;
        case 3: return c->ucode_rev >= 0x7000012;
        case 4: return c->ucode_rev >= 0xf000011;
        case 5: return c->ucode_rev >= 0xe000009;
        }
        break;
    }
    /* Skylake and later, and anything unknown: RSBA. */
    *caps |= BIT(caps, RSBA);
    return false;
}

/* Xen's rsb_is_full_width(): Silvermont/Airmont have a 32-bit RSB. */
static bool rsb_full_width(const struct spec_ctrl_cpu *c)
{
    if ( !intel_fam6(c) )
        return true;
    switch ( c->model )
    {
    case 0x37: case 0x4a: case 0x4c: case 0x4d: case 0x5a:
    case 0x5d: case 0x65: case 0x6e: case 0x75:
        return false;
    }
    return true;
}

/* Xen's mds_calculations(): MDS (all buffers), or store buffers only. */
static void mds(const struct spec_ctrl_cpu *c, struct spec_ctrl_choice *ch)
{
    if ( !intel_fam6(c) || HAS(ch->caps, caps, MDS_NO) )
        return;

    switch ( c->model )
    {
    case 0x1c: case 0x26: case 0x27: case 0x35: case 0x36: case 0x7a:
        return;                                 /* unaffected Atoms */
    case 0x37: case 0x4a: case 0x4c: case 0x4d: case 0x5a:
    case 0x5d: case 0x65: case 0x6e: case 0x75:
        ch->msbds_only = true;                  /* Silvermont/Airmont */
        return;
    case 0x55: ch->mds = c->stepping <= 5;   return;  /* SKX / CLX */
    case 0x8e: ch->mds = c->stepping <= 0xb; return;  /* Kaby/Coffee M */
    case 0x9e: ch->mds = c->stepping <= 0xc; return;  /* Kaby/Coffee D */
    default:
        ch->mds = true;             /* Nehalem to Skylake, and unknown */
        return;
    }
}

/*
 * Xen's ibpb_calculations(), with its AMD synthesis (amd.c: BTC_NO on
 * Zen3; spec_ctrl.c srso_calculations(): IBPB_BRTYPE before Zen3), both
 * only when not virtualised.  IBPB on entry for PV: Branch Type Confusion
 * (up to Zen2), or SRSO where the microcode makes IBPB flush branch types.
 */
static bool ibpb_entry_default(const struct spec_ctrl_cpu *c,
                               struct spec_ctrl_choice *ch)
{
    if ( !amd_like(c) )
        return false;
    if ( c->vendor == VENDOR_AMD && c->family == 0x19 && !c->hypervisor )
        ch->e8b |= BIT(e8b, BTC_NO);
    if ( c->family < 0x19 && !c->hypervisor && HAS(ch->e8b, e8b, IBPB) )
        ch->e21a |= BIT(e21a, IBPB_BRTYPE);

    if ( !HAS(ch->e8b, e8b, BTC_NO) )
        return true;
    return !HAS(ch->e21a, e21a, SRSO_NO) &&
           HAS(ch->e21a, e21a, IBPB_BRTYPE) &&
           !HAS(ch->e21a, e21a, SRSO_US_NO);
}

/* Xen's cpu_has_bug_bhi(): Branch History Injection. */
static bool bhi(const struct spec_ctrl_cpu *c, uint32_t caps)
{
    if ( !intel_fam6(c) || HAS(caps, caps, BHI_NO) )
        return false;
    return c->hypervisor || HAS(caps, caps, EIBRS);
}

/* The MSR_SPEC_CTRL value the shim runs with (Xen's default_xen_spec_ctrl). */
static uint32_t shim_value(const struct spec_ctrl_cpu *c,
                           const struct spec_ctrl_opts *o, bool ibrs,
                           const struct spec_ctrl_choice *ch)
{
    bool stibp_hw = HAS(c->cpuid_7d0, 7d0, STIBP) ||
                    HAS(c->cpuid_e8b, e8b, AMD_STIBP);
    bool ssbd_hw = HAS(c->cpuid_7d0, 7d0, SSBD) ||
                   HAS(c->cpuid_e8b, e8b, AMD_SSBD);
    bool psfd_hw = HAS(c->cpuid_e8b, e8b, PSFD) ||
                   HAS(c->cpuid_7d2, 7d2, INTEL_PSFD);
    int stibp = o->stibp, psfd = o->psfd, bhi_dis_s = o->bhi_dis_s;
    uint32_t val = 0;

    if ( ch->has_spec_ctrl && ibrs )
    {
        if ( stibp < 0 )
            stibp = 1;                  /* IBRS implies STIBP */
        val |= SPEC_CTRL_IBRS;
    }
    /* AMD: STIBP always (Zen2's part of BTC); Intel: only with IBRS. */
    if ( stibp < 0 )
        stibp = HAS(c->cpuid_e8b, e8b, AMD_STIBP);
    if ( stibp && stibp_hw )
        val |= SPEC_CTRL_STIBP;
    if ( o->ssbd > 0 && ssbd_hw )
    {
        if ( psfd < 0 )
            psfd = 1;                   /* SSBD implies PSFD */
        val |= SPEC_CTRL_SSBD;
    }
    if ( psfd > 0 && psfd_hw )
        val |= SPEC_CTRL_PSFD;
    if ( bhi_dis_s < 0 )
        bhi_dis_s = ch->bhi;
    if ( bhi_dis_s && HAS(c->cpuid_7d2, 7d2, BHI_CTRL) )
        val |= SPEC_CTRL_BHI_DIS_S;

    return val;
}

void spec_ctrl_decide(const struct spec_ctrl_cpu *c,
                      const struct spec_ctrl_opts *o, bool pv32, bool thunk,
                      struct spec_ctrl_choice *ch)
{
    bool ibrs, msr_sc, rsb, ibpb, verw, div;
    bool ibpb_hw = HAS(c->cpuid_7d0, 7d0, IBRSB) ||
                   HAS(c->cpuid_e8b, e8b, IBPB);

    memset(ch, 0, sizeof(*ch));
    ch->e8b = c->cpuid_e8b;
    ch->e21a = c->cpuid_e21a;
    ch->caps = c->arch_caps;
    ch->has_spec_ctrl = HAS(c->cpuid_7d0, 7d0, IBRSB) ||
                        HAS(c->cpuid_e8b, e8b, IBRS);
    ch->retpoline_safe = retpoline_safe(c, &ch->caps);
    ch->bhi = bhi(c, ch->caps);

    /* IBRS for the shim when retpolines aren't enough (or aren't there). */
    if ( o->ibrs >= 0 )
        ibrs = o->ibrs;
    else
        ibrs = ch->has_spec_ctrl && !(thunk && ch->retpoline_safe);
    ch->shim_spec_ctrl = shim_value(c, o, ibrs, ch);

    /* Switching MSR_SPEC_CTRL on PV entry/exit: Intel's IBRSB only. */
    msr_sc = o->msr_sc_pv && HAS(c->cpuid_7d0, 7d0, IBRSB);

    /* The guest can fill the RSB; SMEP stops only its 64-bit user pages. */
    rsb = o->rsb_pv >= 0 ? o->rsb_pv
                         : pv32 || !c->smep || !rsb_full_width(c);

    ibpb = ibpb_entry_default(c, ch);
    if ( o->ibpb_entry_pv >= 0 )
        ibpb = o->ibpb_entry_pv;
    ibpb = ibpb && ibpb_hw;

    /* VERW scrubs buffers only where MD_CLEAR has an effect (or RFDS). */
    mds(c, ch);
    ch->useful_md_clear = HAS(c->cpuid_7d0, 7d0, MD_CLEAR) &&
                          (ch->mds || ch->msbds_only);
    verw = o->verw_pv >= 0 ? o->verw_pv
                           : ch->useful_md_clear ||
                             HAS(ch->caps, caps, RFDS_CLEAR);

    /* Zen1's DIV leaks its last dividend (XSA-439). */
    div = o->div_scrub >= 0 ? o->div_scrub
                            : amd_like(c) &&
                              (c->family == 0x17 || c->family == 0x18) &&
                              !HAS(c->cpuid_e8b, e8b, AMD_STIBP);

    ch->xen_xpti = !amd_like(c) && !HAS(ch->caps, caps, RDCL_NO);
    ch->xen_bhb_entry = ch->bhi &&
                        !(ch->shim_spec_ctrl & SPEC_CTRL_BHI_DIS_S);

    /*
     * Each entry action sits behind a test of a flag: a conditional
     * branch, where Xen patches the action in.  So the lfence that Xen
     * keeps only after conditional work closes every entry that does any.
     */
    ch->flags = (ibpb ? SCF_ENTRY_IBPB : 0) | (rsb ? SCF_ENTRY_RSB : 0) |
                (msr_sc ? SCF_MSR_SPEC_CTRL : 0) |
                (ibpb || rsb || msr_sc ? SCF_ENTRY_LFENCE : 0) |
                (verw ? SCF_EXIT_VERW : 0) | (div ? SCF_EXIT_DIV : 0);
}

/* ------------------------------------------------------------ the log */

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

#define NB(w, n) { BIT(w, n), #n }

/* As Xen prints them: the hardware's words, before any synthesis. */
static void put_hints(struct out *o, const struct spec_ctrl_cpu *c)
{
    static const struct name_bit caps[] = {
        NB(caps, RDCL_NO), NB(caps, EIBRS), NB(caps, RSBA), NB(caps, RRSBA),
        NB(caps, SKIP_L1DFL), { BIT(caps, INTEL_SSB_NO), "SSB_NO" },
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
    put_bits(o, c->arch_caps & ~(HAS(c->cpuid_e8b, e8b, SSB_NO) ?
                                 BIT(caps, INTEL_SSB_NO) : 0),
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
        HAS(b, e8b, IBPB) || HAS(d, 7d0, IBRSB) ? " IBPB" : "",
        HAS(b, e8b, IBRS) || HAS(d, 7d0, IBRSB) ? " IBRS" : "",
        HAS(b, e8b, AMD_STIBP) || HAS(d, 7d0, STIBP) ? " STIBP" : "",
        HAS(b, e8b, AMD_SSBD) || HAS(d, 7d0, SSBD) ? " SSBD" : "",
        HAS(b, e8b, PSFD) || HAS(c->cpuid_7d2, 7d2, INTEL_PSFD) ? " PSFD"
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
    const struct {
        bool hw;
        uint32_t bit;
        const char *name;
    } bits[] = {
        { HAS(c->cpuid_7d0, 7d0, IBRSB) || HAS(c->cpuid_e8b, e8b, IBRS),
          SPEC_CTRL_IBRS, "IBRS" },
        { HAS(c->cpuid_7d0, 7d0, STIBP) || HAS(c->cpuid_e8b, e8b, AMD_STIBP),
          SPEC_CTRL_STIBP, "STIBP" },
        { HAS(c->cpuid_7d0, 7d0, SSBD) || HAS(c->cpuid_e8b, e8b, AMD_SSBD),
          SPEC_CTRL_SSBD, "SSBD" },
        { HAS(c->cpuid_e8b, e8b, PSFD) || HAS(c->cpuid_7d2, 7d2, INTEL_PSFD),
          SPEC_CTRL_PSFD, "PSFD" },
        { HAS(c->cpuid_7d2, 7d2, BHI_CTRL), SPEC_CTRL_BHI_DIS_S,
          "BHI_DIS_S" },
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
