/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Xen's default speculation choices for a PV guest (xen/arch/x86/
 * spec_ctrl.c as of Xen 4.21: init_speculation_mitigations() and its
 * *_calculations()) as a function of the CPUID/ARCH_CAPS words alone, so
 * they are host-tested on synthetic CPUs.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/spec-ctrl.h"
#include "arch/x86/spec-ctrl-bits.h"

static bool amd_like(const struct spec_ctrl_cpu *c)
{
    return c->vendor == VENDOR_AMD || c->vendor == VENDOR_HYGON;
}

static bool intel_fam6(const struct spec_ctrl_cpu *c)
{
    return c->vendor == VENDOR_INTEL && c->family == 6;
}

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
    if ( SC_HAS(*caps, caps, EIBRS) )
    {
        *caps |= SC_BIT(caps, RRSBA);   /* older microcode lacks it */
        return false;
    }
    if ( SC_HAS(*caps, caps, RSBA) )
        return false;
    if ( SC_HAS(c->cpuid_7d0, 7d0, ARCH_CAPS) )
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
    *caps |= SC_BIT(caps, RSBA);
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
    if ( !intel_fam6(c) || SC_HAS(ch->caps, caps, MDS_NO) )
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
        ch->e8b |= SC_BIT(e8b, BTC_NO);
    if ( c->family < 0x19 && !c->hypervisor && SC_HAS(ch->e8b, e8b, IBPB) )
        ch->e21a |= SC_BIT(e21a, IBPB_BRTYPE);

    if ( !SC_HAS(ch->e8b, e8b, BTC_NO) )
        return true;
    return !SC_HAS(ch->e21a, e21a, SRSO_NO) &&
           SC_HAS(ch->e21a, e21a, IBPB_BRTYPE) &&
           !SC_HAS(ch->e21a, e21a, SRSO_US_NO);
}

/* Xen's cpu_has_bug_bhi(): Branch History Injection. */
static bool bhi(const struct spec_ctrl_cpu *c, uint32_t caps)
{
    if ( !intel_fam6(c) || SC_HAS(caps, caps, BHI_NO) )
        return false;
    return c->hypervisor || SC_HAS(caps, caps, EIBRS);
}

/* The MSR_SPEC_CTRL value the shim runs with (Xen's default_xen_spec_ctrl). */
static uint32_t shim_value(const struct spec_ctrl_cpu *c,
                           const struct spec_ctrl_opts *o, bool ibrs,
                           const struct spec_ctrl_choice *ch)
{
    bool stibp_hw = SC_HAS(c->cpuid_7d0, 7d0, STIBP) ||
                    SC_HAS(c->cpuid_e8b, e8b, AMD_STIBP);
    bool ssbd_hw = SC_HAS(c->cpuid_7d0, 7d0, SSBD) ||
                   SC_HAS(c->cpuid_e8b, e8b, AMD_SSBD);
    bool psfd_hw = SC_HAS(c->cpuid_e8b, e8b, PSFD) ||
                   SC_HAS(c->cpuid_7d2, 7d2, INTEL_PSFD);
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
        stibp = SC_HAS(c->cpuid_e8b, e8b, AMD_STIBP);
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
    if ( bhi_dis_s && SC_HAS(c->cpuid_7d2, 7d2, BHI_CTRL) )
        val |= SPEC_CTRL_BHI_DIS_S;

    return val;
}

/* VERW scrubs buffers only where MD_CLEAR has an effect (or RFDS). */
static bool verw_default(const struct spec_ctrl_cpu *c,
                         struct spec_ctrl_choice *ch)
{
    mds(c, ch);
    ch->useful_md_clear = SC_HAS(c->cpuid_7d0, 7d0, MD_CLEAR) &&
                          (ch->mds || ch->msbds_only);
    return ch->useful_md_clear || SC_HAS(ch->caps, caps, RFDS_CLEAR);
}

/*
 * Xen's has_div_vuln(): Zen1's DIV leaks its last dividend (XSA-439);
 * Zen1 and Zen2 share families 17h/18h, and only Zen2 has STIBP.
 */
static bool div_default(const struct spec_ctrl_cpu *c)
{
    return amd_like(c) && (c->family == 0x17 || c->family == 0x18) &&
           !SC_HAS(c->cpuid_e8b, e8b, AMD_STIBP);
}

void spec_ctrl_decide(const struct spec_ctrl_cpu *c,
                      const struct spec_ctrl_opts *o, bool pv32, bool thunk,
                      struct spec_ctrl_choice *ch)
{
    bool ibrs, msr_sc, rsb, ibpb, verw, div;
    bool ibpb_hw = SC_HAS(c->cpuid_7d0, 7d0, IBRSB) ||
                   SC_HAS(c->cpuid_e8b, e8b, IBPB);

    memset(ch, 0, sizeof(*ch));
    ch->e8b = c->cpuid_e8b;
    ch->e21a = c->cpuid_e21a;
    ch->caps = c->arch_caps;
    ch->has_spec_ctrl = SC_HAS(c->cpuid_7d0, 7d0, IBRSB) ||
                        SC_HAS(c->cpuid_e8b, e8b, IBRS);
    ch->retpoline_safe = retpoline_safe(c, &ch->caps);
    ch->bhi = bhi(c, ch->caps);

    /* IBRS for the shim when retpolines aren't enough (or aren't there). */
    if ( o->ibrs >= 0 )
        ibrs = o->ibrs;
    else
        ibrs = ch->has_spec_ctrl && !(thunk && ch->retpoline_safe);
    ch->shim_spec_ctrl = shim_value(c, o, ibrs, ch);

    /* Switching MSR_SPEC_CTRL on PV entry/exit: Intel's IBRSB only. */
    msr_sc = o->msr_sc_pv && SC_HAS(c->cpuid_7d0, 7d0, IBRSB);

    /* The guest can fill the RSB; SMEP stops only its 64-bit user pages. */
    rsb = o->rsb_pv >= 0 ? o->rsb_pv
                         : pv32 || !c->smep || !rsb_full_width(c);

    ibpb = ibpb_entry_default(c, ch);
    if ( o->ibpb_entry_pv >= 0 )
        ibpb = o->ibpb_entry_pv;
    ibpb = ibpb && ibpb_hw;

    verw = o->verw_pv >= 0 ? o->verw_pv : verw_default(c, ch);
    div = o->div_scrub >= 0 ? o->div_scrub : div_default(c);

    ch->xen_xpti = !amd_like(c) && !SC_HAS(ch->caps, caps, RDCL_NO);
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
