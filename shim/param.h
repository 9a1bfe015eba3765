/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Command-line parameters, registered next to the variable they set and
 * parsed with Xen's syntax (docs/command-line.md).
 */
#ifndef SHIM_PARAM_H
#define SHIM_PARAM_H

#include "shim/lib.h"

enum param_type {
    PARAM_BOOL,     /* name, no-name, name=<bool> */
    PARAM_UINT,     /* name=<int>, var is unsigned int or unsigned long */
    PARAM_SIZE,     /* name=<size>[KMGT], var is uint64_t, in bytes */
    PARAM_STRING,   /* name=<string>, var is char[len] */
    PARAM_CUSTOM,   /* name[=<value>], handler parses it */
};

struct kernel_param {
    const char *name;
    enum param_type type;
    unsigned int len;               /* sizeof(var) */
    union {
        void *var;
        int (*func)(const char *val);   /* 0 or -XEN_Exxx */
    } par;
};

/* Registered parameters live in their own section, walked by the parser. */
#define __param __used __section("shim_params") __aligned(sizeof(void *))

#define boolean_param(_name, _var) \
    static const struct kernel_param __param_##_var __param = \
        { .name = _name, .type = PARAM_BOOL, .len = sizeof(_var), \
          .par.var = &(_var) }
#define integer_param(_name, _var) \
    static const struct kernel_param __param_##_var __param = \
        { .name = _name, .type = PARAM_UINT, .len = sizeof(_var), \
          .par.var = &(_var) }
#define size_param(_name, _var) \
    static const struct kernel_param __param_##_var __param = \
        { .name = _name, .type = PARAM_SIZE, .len = sizeof(_var), \
          .par.var = &(_var) }
#define string_param(_name, _var) \
    static const struct kernel_param __param_##_var __param = \
        { .name = _name, .type = PARAM_STRING, .len = sizeof(_var), \
          .par.var = &(_var) }
#define custom_param(_name, _fn) \
    static const struct kernel_param __param_##_fn __param = \
        { .name = _name, .type = PARAM_CUSTOM, .len = 0, .par.func = _fn }

/* Longest command line kept; longer ones are truncated with a warning. */
#define CMDLINE_MAX 1024

/*
 * Parse a command line against every registered parameter.  Unknown or
 * malformed options are reported through printk and skipped; never fatal.
 * Returns the number of options that were rejected.
 */
unsigned int cmdline_parse(const char *cmdline);

/*
 * Xen's value parsers, for custom_param handlers too.
 * parse_bool: 1 for 1/yes/on/true/enable, 0 for 0/no/off/false/disable,
 *             -1 otherwise; e (may be NULL) bounds the string.
 * parse_size_and_unit: number with optional K/M/G/T suffix, or B for
 *             bytes; no suffix means KiB, as in Xen.  *ps gets the end;
 *             *overflow is set when the value does not fit.
 */
int parse_bool(const char *s, const char *e);
uint64_t parse_size_and_unit(const char *s, const char **ps, bool *overflow);

#endif /* SHIM_PARAM_H */
