/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A tiny harness for host unit tests: each test binary compiles shim
 * sources for the host (with sanitizers) and prints one line per case,
 * "PASS: <case>" or "FAIL: <case>: <why>", which `make check` counts.
 */
#ifndef TESTS_UNIT_H
#define TESTS_UNIT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int unit_failed_cases, unit_case_failed;
static const char *unit_case_name;

#define CHECK(cond) do {                                                   \
    if ( !(cond) )                                                         \
    {                                                                      \
        printf("FAIL: %s: %s:%d: %s\n", unit_case_name, __FILE__,          \
               __LINE__, #cond);                                           \
        unit_case_failed = 1;                                              \
    }                                                                      \
} while ( 0 )

#define CHECK_EQ(a, b) do {                                                \
    unsigned long long a_ = (unsigned long long)(a);                       \
    unsigned long long b_ = (unsigned long long)(b);                       \
    if ( a_ != b_ )                                                        \
    {                                                                      \
        printf("FAIL: %s: %s:%d: %s == %s (%#llx != %#llx)\n",             \
               unit_case_name, __FILE__, __LINE__, #a, #b, a_, b_);        \
        unit_case_failed = 1;                                              \
    }                                                                      \
} while ( 0 )

#define CHECK_STR(a, b) do {                                               \
    const char *a_ = (a), *b_ = (b);                                       \
    if ( strcmp(a_, b_) )                                                  \
    {                                                                      \
        printf("FAIL: %s: %s:%d: \"%s\" != \"%s\"\n", unit_case_name,       \
               __FILE__, __LINE__, a_, b_);                                \
        unit_case_failed = 1;                                              \
    }                                                                      \
} while ( 0 )

/* RUN(fn): run one case, a void function of no arguments. */
#define RUN(fn) do {                                                       \
    unit_case_name = #fn;                                                  \
    unit_case_failed = 0;                                                  \
    fn();                                                                  \
    if ( unit_case_failed )                                                \
        unit_failed_cases++;                                               \
    else                                                                   \
        printf("PASS: %s\n", #fn);                                         \
} while ( 0 )

#define UNIT_EXIT() return unit_failed_cases ? 1 : 0

#endif /* TESTS_UNIT_H */
