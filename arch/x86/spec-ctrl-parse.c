/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * spec-ctrl= in Xen's syntax (xen/arch/x86/spec_ctrl.c parse_spec_ctrl()),
 * for the sub-options that map to what the shim does.  Pure: host-tested.
 */
#include <xen/errno.h>
#include "arch/x86/spec-ctrl.h"
#include "shim/param.h"

/*
 * Xen's parse_boolean(): @name, no-@name or @name=<bool> at [s, e) give
 * 1 or 0; @name=<not a bool> gives -2 (the caller may parse further);
 * anything else -1.
 */
static int parse_boolean(const char *name, const char *s, const char *e)
{
    bool neg = !strncmp(s, "no-", 3);
    size_t nlen = strlen(name), slen;
    int val;

    if ( neg )
        s += 3;
    slen = e - s;
    if ( slen < nlen || strncmp(s, name, nlen) )
        return -1;
    if ( slen == nlen )
        return !neg;
    if ( neg || s[nlen] != '=' )
        return -1;

    val = parse_bool(s + nlen + 1, e);

    return val >= 0 ? val : -2;
}

/* The shim's own protections, which both spec-ctrl=no and =no-xen drop. */
static void disable_common(struct spec_ctrl_opts *o)
{
    o->rsb_pv = o->verw_pv = o->ibpb_entry_pv = o->div_scrub = 0;
    o->ibrs = o->ssbd = 0;
    /* Xen leaves these three to their defaults; "no" here means none. */
    o->stibp = o->psfd = o->bhi_dis_s = 0;
}

#define OPT(name, field, pv_form) \
    { name, offsetof(struct spec_ctrl_opts, field), pv_form }

/*
 * The name=<bool> sub-options.  Those Xen gives {pv,hvm}= forms also take
 * name=pv=<bool>; name=hvm=<bool> is refused, as there are no HVM guests.
 */
static const struct {
    const char *name;
    size_t off;                 /* of an int8_t in struct spec_ctrl_opts */
    bool pv_form;
} subopts[] = {
    OPT("msr-sc", msr_sc_pv, true), OPT("rsb", rsb_pv, true),
    OPT("verw", verw_pv, true), OPT("md-clear", verw_pv, true),
    OPT("ibpb-entry", ibpb_entry_pv, true),
    /* Bits in MSR_SPEC_CTRL, and the Zen1 DIV scrub. */
    OPT("ibrs", ibrs, false), OPT("stibp", stibp, false),
    OPT("ssbd", ssbd, false), OPT("psfd", psfd, false),
    OPT("bhi-dis-s", bhi_dis_s, false), OPT("div-scrub", div_scrub, false),
};

/* One comma-separated item, [s, e): 0, or -XEN_EINVAL if refused. */
static int parse_one(struct spec_ctrl_opts *o, const char *s, const char *e)
{
    int val = parse_bool(s, e);
    unsigned int i;

    if ( val > 0 )
        return -XEN_EINVAL;             /* Xen refuses spec-ctrl=yes */
    if ( val == 0 )
    {
        o->msr_sc_pv = 0;
        disable_common(o);
        return 0;
    }
    if ( (val = parse_boolean("xen", s, e)) >= 0 )
    {
        if ( val )
            return -XEN_EINVAL;
        disable_common(o);
        return 0;
    }
    if ( (val = parse_boolean("pv", s, e)) >= 0 )
    {
        o->msr_sc_pv = o->rsb_pv = o->verw_pv = o->ibpb_entry_pv = val;
        return 0;
    }

    for ( i = 0; i < ARRAY_SIZE(subopts); i++ )
    {
        val = parse_boolean(subopts[i].name, s, e);
        if ( val == -1 )
            continue;
        if ( val == -2 && subopts[i].pv_form )
            val = parse_boolean("pv", s + strlen(subopts[i].name) + 1, e);
        if ( val < 0 )
            return -XEN_EINVAL;
        *((int8_t *)o + subopts[i].off) = val;
        return 0;
    }

    /* hvm=, bti-thunk=, bhb-entry=, ibpb=, eager-fpu=, ...: not here. */
    return -XEN_EINVAL;
}

int spec_ctrl_parse(struct spec_ctrl_opts *o, const char *s)
{
    const char *e;
    int rc = 0, r;

    do {
        e = strchr(s, ',');
        if ( !e )
            e = strchr(s, '\0');
        r = parse_one(o, s, e);
        if ( r && !rc )
            rc = r;
        s = e + 1;
    } while ( *e );

    return rc;
}
