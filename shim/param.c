/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The command-line parser: Xen's option syntax (xen/common/kernel.c,
 * docs/misc/xen-command-line.pandoc) applied to the parameters that
 * boolean_param() and friends place in the "shim_params" section.
 */
#include <xen/errno.h>

#include "shim/console.h"
#include "shim/param.h"

extern const struct kernel_param __start_shim_params[], __stop_shim_params[];

/*
 * The parsed copy of the line.  Options are cut out of it in place, so a
 * custom_param() handler's argument points in here: copy what you keep.
 */
static char cmdline_buf[CMDLINE_MAX];

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
           c == '\f';
}

int parse_bool(const char *s, const char *e)
{
    static const struct {
        const char *word;
        bool val;
    } words[] = {
        { "0", false }, { "no", false }, { "off", false },
        { "false", false }, { "disable", false },
        { "1", true }, { "yes", true }, { "on", true },
        { "true", true }, { "enable", true },
    };
    size_t len = e ? (size_t)(e - s) : strlen(s);
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(words); i++ )
        if ( strlen(words[i].word) == len && !strncmp(words[i].word, s, len) )
            return words[i].val;

    return -1;
}

/*
 * As in Xen, a number without a suffix counts KiB ("Without a size suffix,
 * the default will be kilo"); "B" asks for bytes, except after a hex
 * number, where it is a digit.  A suffix is consumed; anything after it is
 * left at *ps for the caller to judge.
 */
uint64_t parse_size_and_unit(const char *s, const char **ps, bool *overflow)
{
    const char *end;
    bool ovf;
    unsigned int shift;
    uint64_t val = simple_strtoull(s, &end, 0, &ovf);

    switch ( *end )
    {
    case 'T': case 't': shift = 40; end++; break;
    case 'G': case 'g': shift = 30; end++; break;
    case 'M': case 'm': shift = 20; end++; break;
    case 'K': case 'k': shift = 10; end++; break;
    case 'B': case 'b': shift = 0;  end++; break;
    default:            shift = 10;        break;
    }

    if ( val > (UINT64_MAX >> shift) )
        ovf = true;
    if ( ps )
        *ps = end;
    if ( overflow )
        *overflow = ovf;

    return ovf ? UINT64_MAX : val << shift;
}

/* Store into a 1, 2, 4 or 8-byte variable, refusing values that don't fit. */
static int assign(const struct kernel_param *p, uint64_t val)
{
    switch ( p->len )
    {
    case 1:
        if ( val > UINT8_MAX )
            return -XEN_ERANGE;
        *(uint8_t *)p->par.var = val;
        return 0;
    case 2:
        if ( val > UINT16_MAX )
            return -XEN_ERANGE;
        *(uint16_t *)p->par.var = val;
        return 0;
    case 4:
        if ( val > UINT32_MAX )
            return -XEN_ERANGE;
        *(uint32_t *)p->par.var = val;
        return 0;
    case 8:
        *(uint64_t *)p->par.var = val;
        return 0;
    default:
        return -XEN_EINVAL;         /* registered with an odd-sized var */
    }
}

/* name -> true, no-name -> false, name=<bool>; no-name=<x> is an error. */
static int set_bool(const struct kernel_param *p, const char *val, bool neg)
{
    int b = !neg;

    if ( val && (neg || (b = parse_bool(val, NULL)) < 0) )
        return -XEN_EINVAL;

    return assign(p, b);
}

/*
 * name=<integer> (decimal, 0x hex or 0 octal) or name=<size>.  Unlike Xen
 * no minus sign is taken, and junk, an empty value or a value too big for
 * the variable is refused, leaving the variable as it was.
 */
static int set_number(const struct kernel_param *p, const char *val, bool neg)
{
    const char *end;
    bool ovf;
    uint64_t n;

    if ( neg || !val || *val < '0' || *val > '9' )
        return -XEN_EINVAL;

    if ( p->type == PARAM_SIZE )
        n = parse_size_and_unit(val, &end, &ovf);
    else
        n = simple_strtoull(val, &end, 0, &ovf);

    if ( *end )
        return -XEN_EINVAL;
    if ( ovf )
        return -XEN_ERANGE;

    return assign(p, n);
}

/*
 * name=<string>; a bare name empties it, as in Xen.  Where Xen truncates a
 * value that does not fit, we refuse it and keep the old one.
 */
static int set_string(const struct kernel_param *p, const char *val, bool neg)
{
    size_t len;

    if ( neg )
        return -XEN_EINVAL;
    if ( !val )
        val = "";

    len = strlen(val);
    if ( len >= p->len )
        return -XEN_E2BIG;
    memcpy(p->par.var, val, len + 1);

    return 0;
}

/*
 * As in Xen the handler gets the text after '=', "" for a bare name and
 * "no" for no-name; no-name=<x> is an error.
 */
static int set_custom(const struct kernel_param *p, const char *val, bool neg)
{
    if ( neg )
    {
        if ( val )
            return -XEN_EINVAL;
        val = "no";
    }

    return p->par.func(val ? val : "");
}

static int set_param(const struct kernel_param *p, const char *val, bool neg)
{
    switch ( p->type )
    {
    case PARAM_BOOL:
        return set_bool(p, val, neg);
    case PARAM_UINT:
    case PARAM_SIZE:
        return set_number(p, val, neg);
    case PARAM_STRING:
        return set_string(p, val, neg);
    case PARAM_CUSTOM:
        return set_custom(p, val, neg);
    }

    return -XEN_EINVAL;
}

/* Whole-name match, with '-' and '_' interchangeable. */
static char fold(char c)
{
    return c == '-' ? '_' : c;
}

static bool name_eq(const char *name, const char *key)
{
    for ( ; *name; name++, key++ )
        if ( fold(*name) != fold(*key) )
            return false;

    return !*key;
}

/* Set every parameter called name; *rc gets the first error. */
static bool set_named(const char *name, const char *val, bool neg, int *rc)
{
    const struct kernel_param *p;
    bool found = false;

    for ( p = __start_shim_params; p < __stop_shim_params; p++ )
    {
        int ret;

        if ( !name_eq(p->name, name) )
            continue;

        found = true;
        ret = set_param(p, val, neg);
        if ( !*rc )
            *rc = ret;
    }

    return found;
}

/*
 * Apply key[=val], trying no-<name> only when no parameter is called key
 * itself.  Returns false, saying why, if the option is unknown or refused.
 */
static bool apply_option(const char *key, const char *val)
{
    int rc = 0;
    bool found = set_named(key, val, false, &rc);

    if ( !found && !strncmp(key, "no-", 3) )
        found = set_named(key + 3, val, true, &rc);

    if ( !found )
        printk(XENLOG_WARNING "parameter \"%s\" unknown!\n", key);
    else if ( rc )
        printk(XENLOG_WARNING "parameter \"%s\" has invalid value \"%s\", "
               "rc=%d!\n", key, val ? val : "", rc);

    return found && !rc;
}

/*
 * Cut the next option out of *pp in place: a run of non-blanks, where a
 * double-quoted part may hold blanks and loses its quotes.  NULL at the end.
 */
static char *next_option(char **pp)
{
    char *r = *pp, *w, *opt;
    bool quoted = false;

    while ( is_space(*r) )
        r++;
    if ( !*r )
        return NULL;

    for ( opt = w = r; *r && (quoted || !is_space(*r)); r++ )
        if ( *r == '"' )
            quoted = !quoted;
        else
            *w++ = *r;

    *pp = *r ? r + 1 : r;
    *w = '\0';

    return opt;
}

/*
 * How much of the line to keep: all of it if it fits in cmdline_buf, else
 * up to the last blank outside quotes that does, so no option is cut.
 */
static size_t fit_cmdline(const char *s)
{
    size_t i, cut = 0;
    bool quoted = false;

    if ( strnlen(s, CMDLINE_MAX) < CMDLINE_MAX )
        return strlen(s);

    for ( i = 0; i < CMDLINE_MAX; i++ )
        if ( s[i] == '"' )
            quoted = !quoted;
        else if ( !quoted && is_space(s[i]) )
            cut = i;

    printk(XENLOG_WARNING "cmdline: command line truncated to %u bytes\n",
           (unsigned int)cut);

    return cut;
}

unsigned int cmdline_parse(const char *cmdline)
{
    unsigned int rejected = 0;
    char *p = cmdline_buf, *opt, *val;
    size_t len;

    if ( !cmdline )
        return 0;

    len = fit_cmdline(cmdline);
    memcpy(cmdline_buf, cmdline, len);
    cmdline_buf[len] = '\0';

    while ( (opt = next_option(&p)) != NULL )
    {
        if ( !*opt )
            continue;               /* "" */

        val = strchr(opt, '=');
        if ( val )
            *val++ = '\0';

        if ( !apply_option(opt, val) )
            rejected++;
    }

    return rejected;
}
