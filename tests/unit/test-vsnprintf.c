/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of shim/lib/vsnprintf.c, renamed so the C library's snprintf
 * can serve as the reference for every format both define the same way.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>

#include "tests/unit/unit.h"

#define vsnprintf shim_vsnprintf
#define snprintf  shim_snprintf
#include "shim/lib/vsnprintf.c"
#undef vsnprintf
#undef snprintf

static void fail_fmt(const char *fmt, size_t size, const char *got, int gr,
                     const char *want, int wr)
{
    printf("FAIL: %s: \"%s\" size %zu: got \"%s\" (%d), want \"%s\" (%d)\n",
           unit_case_name, fmt, size, got, gr, want, wr);
    unit_case_failed = 1;
}

/*
 * Format with both implementations into buffers of several sizes, from 0
 * to more than enough, and compare text, return value and the bytes past
 * the end (which must stay untouched).
 */
static void __printf(1, 2) cmp(const char *fmt, ...)
{
    char got[300], want[300];
    int gr, wr;
    size_t sizes[] = { 0, 1, 2, 5, 16, sizeof(got) - 8 }, i;
    va_list args, a;

    va_start(args, fmt);
    for ( i = 0; i < ARRAY_SIZE(sizes); i++ )
    {
        memset(got, '#', sizeof(got));
        memset(want, '#', sizeof(want));

        va_copy(a, args);
        gr = shim_vsnprintf(sizes[i] ? got : NULL, sizes[i], fmt, a);
        va_end(a);
        va_copy(a, args);
        wr = vsnprintf(sizes[i] ? want : NULL, sizes[i], fmt, a);
        va_end(a);

        if ( gr != wr || memcmp(got, want, sizeof(got)) )
        {
            got[sizeof(got) - 1] = want[sizeof(want) - 1] = '\0';
            fail_fmt(fmt, sizes[i], got, gr, want, wr);
            break;
        }
    }
    va_end(args);
}

/* The shim's own output, for what the C library prints differently. */
static const char *__printf(1, 2) shim(const char *fmt, ...)
{
    static char buf[300];
    va_list args;

    va_start(args, fmt);
    shim_vsnprintf(buf, sizeof(buf), fmt, args);
    va_end(args);

    return buf;
}

/* Same, without format checking, for malformed formats. */
static const char *raw(const char *fmt, ...)
{
    static char buf[300];
    va_list args;

    va_start(args, fmt);
    shim_vsnprintf(buf, sizeof(buf), fmt, args);
    va_end(args);

    return buf;
}

static void plain_text(void)
{
    CHECK_STR(raw(""), "");
    cmp("hello");
    cmp("hello, world, this is longer than sixteen");
    cmp("100%%");
    cmp("%%%%");
    cmp("%c%%%c", 'a', 'b');
}

static void signed_ints(void)
{
    static const int vals[] = { 0, 1, -1, 42, -42, 12345, INT_MAX, INT_MIN };
    static const char *const fmts[] = {
        "%d", "%i", "%5d", "%-5d|", "%05d", "%+d", "% d", "%+ d", "%.3d",
        "%.0d", "%8.3d", "%-8.3d|", "%-08d|", "%08.3d", "%+08d", "% 08d",
        "%+.0d", "% .0d", "%1d", "%012d", "%-+12d|",
    };
    unsigned int i, j;

    for ( i = 0; i < ARRAY_SIZE(fmts); i++ )
        for ( j = 0; j < ARRAY_SIZE(vals); j++ )
            cmp(fmts[i], vals[j]);
}

static void unsigned_ints(void)
{
    static const unsigned int vals[] = {
        0, 1, 7, 8, 255, 0xdeadbeef, UINT_MAX,
    };
    static const char *const fmts[] = {
        "%u", "%x", "%X", "%o", "%#x", "%#X", "%#o", "%#010x", "%-#10x|",
        "%.8x", "%#.8x", "%#.0x", "%.0x", "%#.0o", "%.0o", "%#.5o", "%#5o",
        "%08o", "%10u", "%-10u|", "%010X", "%#8.4x", "%#-8.4o|",
    };
    unsigned int i, j;

    for ( i = 0; i < ARRAY_SIZE(fmts); i++ )
        for ( j = 0; j < ARRAY_SIZE(vals); j++ )
            cmp(fmts[i], vals[j]);
}

static void length_modifiers(void)
{
    cmp("%hhd %hhd %hhd", (signed char)-56, (signed char)-128,
        (signed char)127);
    cmp("%hhu %hhx %hho", (unsigned char)255, (unsigned char)0xff,
        (unsigned char)0377);
    cmp("%hd %hd %hu %hx", (short)-32768, (short)4464,
        (unsigned short)65535, (unsigned short)0x2345);

    /* Promoted arguments are cut down to the modifier's type. */
    CHECK_STR(raw("%hhd %hhd %hhu %hhx", 200, -129, 257, 0x1ff),
              "-56 127 1 ff");
    CHECK_STR(raw("%hd %hd %hu %hx", 70000, -32769, 70000, 0x12345),
              "4464 32767 4464 2345");
    cmp("%ld %ld %lu %lx", LONG_MIN, LONG_MAX, ULONG_MAX, 0x123456789abcUL);
    cmp("%lld %lld %llu %llX %llo", LLONG_MIN, LLONG_MAX, ULLONG_MAX,
        0xfedcba9876543210ULL, ULLONG_MAX);
    cmp("%zu %zx %zd %zd", SIZE_MAX, (size_t)0x1234, (ssize_t)-5,
        (ssize_t)SSIZE_MAX);
    cmp("%td %td %ti", (ptrdiff_t)-3, PTRDIFF_MAX, PTRDIFF_MIN);
    cmp("%li %lli %+lld %#lx %#llo", -1L, -1LL, 5LL, 0UL, 8ULL);
    cmp("%-20lld| %020llu", LLONG_MIN, ULLONG_MAX);
}

static void star_width_precision(void)
{
    cmp("%*d|", 6, 42);
    cmp("%-*d|", 6, 42);
    cmp("%*d|", -6, 42);
    cmp("%*d|", 0, 42);
    cmp("%.*d|", 4, 42);
    cmp("%.*d|", -4, 42);
    cmp("%.*d|", 0, 0);
    cmp("%*.*x|", 10, 6, 0xabc);
    cmp("%-*.*x|", 10, 6, 0xabc);
    cmp("%0*d|", 8, -7);
    cmp("%.*s|", 2, "abc");
    cmp("%.*s|", -1, "abc");
    cmp("%*s|", -5, "ab");
    cmp("%*c|", 4, 'z');
}

static void chars_and_strings(void)
{
    static const char unterminated[3] = { 'a', 'b', 'c' };

    cmp("%c", 'a');
    cmp("%5c|", 'a');
    cmp("%-5c|", 'a');
    cmp("[%c]", 0);
    cmp("%s", "hello");
    cmp("%s", "");
    cmp("%10s|", "hello");
    cmp("%-10s|", "hello");
    cmp("%.3s|", "hello");
    cmp("%10.3s|", "hello");
    cmp("%-10.3s|", "hello");
    cmp("%.0s|", "hello");
    cmp("%.10s|", "hello");
    cmp("%2s|", "hello");
    cmp("%.3s|", unterminated);     /* ASan: must not read a 4th byte */
    cmp("%s and %s, %d%c", "this", "that", 3, '!');
}

static void null_string(void)
{
    const char *volatile null = NULL;

    CHECK_STR(shim("%s", null), "(null)");
    CHECK_STR(shim("[%8s]", null), "[  (null)]");
    CHECK_STR(shim("[%-8s]", null), "[(null)  ]");
    CHECK_STR(shim("[%.3s]", null), "[(nu]");
}

static void pointers(void)
{
    int x;
    char want[32];

    CHECK_STR(shim("%p", (void *)0x1234), "0x0000000000001234");
    CHECK_STR(shim("%p", NULL), "0x0000000000000000");
    CHECK_STR(shim("%p", (void *)UINTPTR_MAX), "0xffffffffffffffff");
    CHECK_STR(shim("[%20p]", (void *)0xabc), "[  0x0000000000000abc]");
    CHECK_STR(shim("[%-20p]", (void *)0xabc), "[0x0000000000000abc  ]");
    CHECK_STR(shim("[%5p]", (void *)0xabc), "[0x0000000000000abc]");
    snprintf(want, sizeof(want), "0x%016lx", (unsigned long)&x);
    CHECK_STR(shim("%p", (void *)&x), want);
    CHECK_STR(shim("%p%s", (void *)1, "!"), "0x0000000000000001!");
}

static void return_value(void)
{
    char buf[8];

    CHECK_EQ(shim_snprintf(NULL, 0, "%d", 12345), 5);
    CHECK_EQ(shim_snprintf(NULL, 0, "%s", ""), 0);

    memset(buf, 'x', sizeof(buf));
    CHECK_EQ(shim_snprintf(buf, 1, "%s", "abc"), 3);
    CHECK_STR(buf, "");
    CHECK_EQ(buf[1], 'x');

    memset(buf, 'x', sizeof(buf));
    CHECK_EQ(shim_snprintf(buf, 4, "%s", "abcdef"), 6);
    CHECK_STR(buf, "abc");
    CHECK_EQ(buf[4], 'x');

    memset(buf, 'x', sizeof(buf));
    CHECK_EQ(shim_snprintf(buf, sizeof(buf), "%s", "1234567"), 7);
    CHECK_STR(buf, "1234567");

    CHECK_EQ(shim_snprintf(buf, sizeof(buf), "%*d", 5000, 1), 5000);
    CHECK_STR(buf, "       ");
    cmp("%*d", 280, 1);
}

static void malformed(void)
{
    CHECK_STR(raw("%y"), "%y");
    CHECK_STR(raw("abc%"), "abc%");
    CHECK_STR(raw("a%5y|"), "a%y|");
    CHECK_STR(raw("x%l"), "x%");
}

int main(void)
{
    RUN(plain_text);
    RUN(signed_ints);
    RUN(unsigned_ints);
    RUN(length_modifiers);
    RUN(star_width_precision);
    RUN(chars_and_strings);
    RUN(null_string);
    RUN(pointers);
    RUN(return_value);
    RUN(malformed);

    UNIT_EXIT();
}
