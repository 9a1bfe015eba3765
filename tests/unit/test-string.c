/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of shim/lib/string.c and shim/lib/strtoull.c, renamed so the
 * C library's versions stay available as the reference.
 */
#include "tests/unit/unit.h"

#define memcpy  shim_memcpy
#define memmove shim_memmove
#define memset  shim_memset
#define memcmp  shim_memcmp
#define strlen  shim_strlen
#define strnlen shim_strnlen
#define strcmp  shim_strcmp
#define strncmp shim_strncmp
#define strchr  shim_strchr
#define strlcpy shim_strlcpy
#include "shim/lib/string.c"
#include "shim/lib/strtoull.c"
#undef memcpy
#undef memmove
#undef memset
#undef memcmp
#undef strlen
#undef strnlen
#undef strcmp
#undef strncmp
#undef strchr
#undef strlcpy

static int sign(int x)
{
    return (x > 0) - (x < 0);
}

static void fill_pattern(unsigned char *p, size_t n)
{
    size_t i;

    for ( i = 0; i < n; i++ )
        p[i] = (unsigned char)(i * 7 + 3);
}

static void test_memcpy(void)
{
    unsigned char src[80], dst[80], ref[80];
    size_t off, n;

    fill_pattern(src, sizeof(src));
    for ( off = 0; off < 8; off++ )
        for ( n = 0; n + off <= 64; n++ )
        {
            memset(dst, 0xee, sizeof(dst));
            memcpy(ref, dst, sizeof(ref));
            memcpy(ref + off, src + 3, n);
            CHECK(shim_memcpy(dst + off, src + 3, n) == dst + off);
            CHECK(!memcmp(dst, ref, sizeof(dst)));
        }
}

/* Every overlap, both ways, against a copy through a temporary buffer. */
static void test_memmove(void)
{
    unsigned char buf[64], ref[64], tmp[64];
    size_t d, s, n;

    for ( d = 0; d < 24; d++ )
        for ( s = 0; s < 24; s++ )
            for ( n = 0; n <= 40; n++ )
            {
                fill_pattern(buf, sizeof(buf));
                fill_pattern(ref, sizeof(ref));
                memcpy(tmp, ref + s, n);
                memcpy(ref + d, tmp, n);
                CHECK(shim_memmove(buf + d, buf + s, n) == buf + d);
                if ( memcmp(buf, ref, sizeof(buf)) )
                {
                    printf("FAIL: %s: d=%zu s=%zu n=%zu\n", unit_case_name,
                           d, s, n);
                    unit_case_failed = 1;
                    return;
                }
            }
}

static void test_memset(void)
{
    unsigned char buf[80], ref[80];
    size_t off, n;

    for ( off = 0; off < 8; off++ )
        for ( n = 0; n + off <= 64; n++ )
        {
            fill_pattern(buf, sizeof(buf));
            fill_pattern(ref, sizeof(ref));
            memset(ref + off, 0xa5, n);
            CHECK(shim_memset(buf + off, 0x1a5, n) == buf + off);
            CHECK(!memcmp(buf, ref, sizeof(buf)));
        }
}

static void test_memcmp(void)
{
    static const char *const pairs[][2] = {
        { "abc", "abc" }, { "abc", "abd" }, { "abd", "abc" },
        { "a\x80", "a\x7f" }, { "a\x7f", "a\x80" }, { "\xff", "\x01" },
        { "", "" },
    };
    unsigned int i;
    size_t n;

    for ( i = 0; i < ARRAY_SIZE(pairs); i++ )
        for ( n = 0; n <= strlen(pairs[i][0]); n++ )
            CHECK_EQ(sign(shim_memcmp(pairs[i][0], pairs[i][1], n)),
                     sign(memcmp(pairs[i][0], pairs[i][1], n)));

    /* Bytes after a NUL still count. */
    CHECK(shim_memcmp("a\0b", "a\0c", 3) < 0);
}

static void test_strlen(void)
{
    static const char fixed[4] = { 'a', 'b', 'c', 'd' };   /* no NUL */

    CHECK_EQ(shim_strlen(""), 0);
    CHECK_EQ(shim_strlen("a"), 1);
    CHECK_EQ(shim_strlen("hello world"), 11);
    CHECK_EQ(shim_strlen("ab\0cd"), 2);

    CHECK_EQ(shim_strnlen("hello", 0), 0);
    CHECK_EQ(shim_strnlen("hello", 3), 3);
    CHECK_EQ(shim_strnlen("hello", 5), 5);
    CHECK_EQ(shim_strnlen("hello", 6), 5);
    CHECK_EQ(shim_strnlen("hello", (size_t)-1), 5);
    CHECK_EQ(shim_strnlen(fixed, sizeof(fixed)), 4);   /* reads no further */
}

static void test_strcmp(void)
{
    static const char *const pairs[][2] = {
        { "", "" }, { "a", "" }, { "", "a" }, { "abc", "abc" },
        { "abc", "abd" }, { "abd", "abc" }, { "ab", "abc" }, { "abc", "ab" },
        { "a\x80", "a\x7f" }, { "\xff", "\x01" }, { "global", "global-pages" },
    };
    unsigned int i;
    size_t n;

    for ( i = 0; i < ARRAY_SIZE(pairs); i++ )
    {
        CHECK_EQ(sign(shim_strcmp(pairs[i][0], pairs[i][1])),
                 sign(strcmp(pairs[i][0], pairs[i][1])));
        for ( n = 0; n <= 14; n++ )
            CHECK_EQ(sign(shim_strncmp(pairs[i][0], pairs[i][1], n)),
                     sign(strncmp(pairs[i][0], pairs[i][1], n)));
    }

    /* Nothing past the NUL is compared. */
    CHECK_EQ(shim_strncmp("ab\0x", "ab\0y", 4), 0);
}

static void test_strchr(void)
{
    const char *s = "hello, world";

    CHECK(shim_strchr(s, 'h') == s);
    CHECK(shim_strchr(s, 'o') == s + 4);
    CHECK(shim_strchr(s, 'd') == s + 11);
    CHECK(shim_strchr(s, 'z') == NULL);
    CHECK(shim_strchr(s, '\0') == s + 12);
    CHECK(shim_strchr(s, 0x100 + 'w') == s + 7);
    CHECK(shim_strchr("", 'a') == NULL);
    CHECK(shim_strchr("a\xe9", 0xe9) == strchr("a\xe9", 0xe9));
}

static void test_strlcpy(void)
{
    char buf[8];

    memset(buf, 'x', sizeof(buf));
    CHECK_EQ(shim_strlcpy(buf, "hello", 0), 5);
    CHECK_EQ(buf[0], 'x');

    CHECK_EQ(shim_strlcpy(buf, "hello", 1), 5);
    CHECK_STR(buf, "");
    CHECK_EQ(buf[1], 'x');

    CHECK_EQ(shim_strlcpy(buf, "hello", sizeof(buf)), 5);
    CHECK_STR(buf, "hello");

    CHECK_EQ(shim_strlcpy(buf, "1234567", sizeof(buf)), 7);
    CHECK_STR(buf, "1234567");

    CHECK_EQ(shim_strlcpy(buf, "123456789abc", sizeof(buf)), 12);
    CHECK_STR(buf, "1234567");

    CHECK_EQ(shim_strlcpy(buf, "", sizeof(buf)), 0);
    CHECK_STR(buf, "");
}

static void strtoull_bases(void)
{
    const char *s, *end;
    bool ovf = true;

    s = "12345xyz";
    CHECK_EQ(simple_strtoull(s, &end, 10, &ovf), 12345);
    CHECK(end == s + 5);
    CHECK(!ovf);

    s = "0x1fZ";
    CHECK_EQ(simple_strtoull(s, &end, 0, NULL), 0x1f);
    CHECK(end == s + 4);
    CHECK_EQ(simple_strtoull(s, &end, 16, NULL), 0x1f);
    CHECK(end == s + 4);
    CHECK_EQ(simple_strtoull(s, &end, 10, NULL), 0);
    CHECK(end == s + 1);

    CHECK_EQ(simple_strtoull("0XABCdef", &end, 0, NULL), 0xabcdef);
    CHECK_EQ(simple_strtoull("ff", &end, 16, NULL), 0xff);
    CHECK_EQ(simple_strtoull("ff", &end, 0, NULL), 0);
    CHECK_EQ(simple_strtoull("0755", &end, 0, NULL), 0755);
    CHECK_EQ(simple_strtoull("0758", &end, 0, NULL), 075);
    CHECK_EQ(*end, '8');
    CHECK_EQ(simple_strtoull("0755", &end, 10, NULL), 755);
    CHECK_EQ(simple_strtoull("0", &end, 0, NULL), 0);
    CHECK_EQ(*end, '\0');

    /* A bare prefix: the 0 is the number. */
    s = "0x";
    CHECK_EQ(simple_strtoull(s, &end, 0, NULL), 0);
    CHECK(end == s + 1);
    s = "0xg";
    CHECK_EQ(simple_strtoull(s, &end, 16, NULL), 0);
    CHECK(end == s + 1);

    /* No digits at all. */
    s = "";
    CHECK_EQ(simple_strtoull(s, &end, 0, &ovf), 0);
    CHECK(end == s);
    CHECK(!ovf);
    s = "-1";
    CHECK_EQ(simple_strtoull(s, &end, 0, NULL), 0);
    CHECK(end == s);

    CHECK_EQ(simple_strtoull("42", NULL, 10, NULL), 42);
}

static void strtoull_overflow(void)
{
    const char *s, *end;
    bool ovf;

    CHECK_EQ(simple_strtoull("18446744073709551615", &end, 10, &ovf), ~0ULL);
    CHECK(!ovf);
    CHECK_EQ(simple_strtoull("0xffffffffffffffff", &end, 0, &ovf), ~0ULL);
    CHECK(!ovf);
    CHECK_EQ(simple_strtoull("01777777777777777777777", &end, 0, &ovf),
             ~0ULL);
    CHECK(!ovf);

    s = "18446744073709551616 ";
    CHECK_EQ(simple_strtoull(s, &end, 10, &ovf), ~0ULL);
    CHECK(ovf);
    CHECK(end == s + 20);

    CHECK_EQ(simple_strtoull("18446744073709551620", &end, 0, &ovf), ~0ULL);
    CHECK(ovf);
    CHECK_EQ(simple_strtoull("99999999999999999999999", &end, 0, &ovf),
             ~0ULL);
    CHECK(ovf);
    CHECK_EQ(*end, '\0');
    CHECK_EQ(simple_strtoull("0x10000000000000000", &end, 0, &ovf), ~0ULL);
    CHECK(ovf);
    CHECK_EQ(simple_strtoull("02000000000000000000000", &end, 0, &ovf),
             ~0ULL);
    CHECK(ovf);

    /* A wrapped value that happens to look small is still caught. */
    CHECK_EQ(simple_strtoull("36893488147419103232", &end, 10, &ovf), ~0ULL);
    CHECK(ovf);
}

int main(void)
{
    RUN(test_memcpy);
    RUN(test_memmove);
    RUN(test_memset);
    RUN(test_memcmp);
    RUN(test_strlen);
    RUN(test_strcmp);
    RUN(test_strchr);
    RUN(test_strlcpy);
    RUN(strtoull_bases);
    RUN(strtoull_overflow);

    UNIT_EXIT();
}
