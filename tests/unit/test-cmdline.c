/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the command-line parser: shim/param.c compiled as is, with
 * parameters registered through the real macros and printk recording what
 * the parser reports.
 */
#include "tests/unit/unit.h"

#include "shim/lib/strtoull.c"
#include "shim/param.c"

#include "tests/unit/log-capture.h"

static bool opt_flag;
boolean_param("flag", opt_flag);
static unsigned char opt_uc_flag;
boolean_param("uc-flag", opt_uc_flag);
static unsigned int opt_int_flag;
boolean_param("int_flag", opt_int_flag);
static bool opt_global_pages;
boolean_param("global-pages", opt_global_pages);
static bool opt_no_foo;
boolean_param("no-foo", opt_no_foo);
static bool opt_foo;
boolean_param("foo", opt_foo);
static bool opt_dup1, opt_dup2;
boolean_param("dup", opt_dup1);
boolean_param("dup", opt_dup2);

static unsigned char opt_u8;
integer_param("u8", opt_u8);
static uint16_t opt_u16;
integer_param("u16", opt_u16);
static unsigned int opt_u32;
integer_param("u32", opt_u32);
static unsigned long opt_u64;
integer_param("u64", opt_u64);

static uint64_t opt_size;
size_param("size", opt_size);
static unsigned int opt_size32;
size_param("size32", opt_size32);

static char opt_str[8];
string_param("str", opt_str);
static char opt_console[32];
string_param("console", opt_console);

static char custom_arg[64];
static int custom_calls;

static int parse_custom(const char *s)
{
    custom_calls++;
    snprintf(custom_arg, sizeof(custom_arg), "%s", s);

    return strcmp(s, "bad") ? 0 : -XEN_EINVAL;
}
custom_param("custom", parse_custom);

/* Defaults, so a case can tell "untouched" from "set". */
static void reset(void)
{
    opt_flag = false;
    opt_uc_flag = 0x55;
    opt_int_flag = 0xdeadbeef;
    opt_global_pages = true;
    opt_no_foo = opt_foo = opt_dup1 = opt_dup2 = false;
    opt_u8 = 7;
    opt_u16 = 7;
    opt_u32 = 7;
    opt_u64 = 7;
    opt_size = 7;
    opt_size32 = 7;
    strcpy(opt_str, "def");
    strcpy(opt_console, "com1");
    custom_arg[0] = '\0';
    custom_calls = 0;
    log_buf[0] = '\0';
    log_len = 0;
}

static unsigned int parse(const char *line)
{
    reset();
    return cmdline_parse(line);
}

static void bool_bare(void)
{
    CHECK_EQ(parse("flag"), 0);
    CHECK(opt_flag);
    CHECK_STR(log_buf, "");
}

static void bool_spellings(void)
{
    static const char *const yes[] = { "1", "yes", "on", "true", "enable" };
    static const char *const no[] = { "0", "no", "off", "false", "disable" };
    char line[64];
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(yes); i++ )
    {
        snprintf(line, sizeof(line), "flag=%s", yes[i]);
        CHECK_EQ(parse(line), 0);
        CHECK(opt_flag);
    }
    for ( i = 0; i < ARRAY_SIZE(no); i++ )
    {
        snprintf(line, sizeof(line), "flag flag=%s", no[i]);
        CHECK_EQ(parse(line), 0);
        CHECK(!opt_flag);
    }
    CHECK_STR(log_buf, "");
}

static void bool_invalid(void)
{
    static const char *const bad[] = {
        "flag=maybe", "flag=", "flag=YES", "flag=10", "flag=2",
        "flag=-1", "flag=truex", "flag=\"\"",
    };
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(bad); i++ )
    {
        CHECK_EQ(parse(bad[i]), 1);
        CHECK(!opt_flag);
    }
    CHECK_EQ(parse("flag=maybe"), 1);
    CHECK_STR(log_buf,
              "<1>parameter \"flag\" has invalid value \"maybe\", rc=-22!\n");
}

static void bool_no_prefix(void)
{
    reset();
    opt_flag = true;
    CHECK_EQ(cmdline_parse("no-flag"), 0);
    CHECK(!opt_flag);

    reset();
    opt_flag = true;
    CHECK_EQ(cmdline_parse("no-flag=1"), 1);
    CHECK(opt_flag);
    CHECK_STR(log_buf,
              "<1>parameter \"no-flag\" has invalid value \"1\", rc=-22!\n");

    reset();
    opt_flag = true;
    CHECK_EQ(cmdline_parse("no-flag=0"), 1);
    CHECK(opt_flag);

    /* The prefix is "no-" exactly. */
    CHECK_EQ(parse("noflag no_flag no--flag"), 3);
    CHECK(!opt_flag);

    CHECK_EQ(parse("flag no-flag"), 0);
    CHECK(!opt_flag);
    CHECK_EQ(parse("no-flag flag"), 0);
    CHECK(opt_flag);
}

static void bool_var_sizes(void)
{
    CHECK_EQ(parse("uc-flag int-flag"), 0);
    CHECK_EQ(opt_uc_flag, 1);
    CHECK_EQ(opt_int_flag, 1);

    CHECK_EQ(parse("no-uc-flag int-flag=off"), 0);
    CHECK_EQ(opt_uc_flag, 0);
    CHECK_EQ(opt_int_flag, 0);
}

static void dash_underscore(void)
{
    CHECK_EQ(parse("int-flag"), 0);
    CHECK_EQ(opt_int_flag, 1);
    CHECK_EQ(parse("int_flag"), 0);
    CHECK_EQ(opt_int_flag, 1);
    CHECK_EQ(parse("global_pages=0"), 0);
    CHECK(!opt_global_pages);
    CHECK_EQ(parse("no-global_pages"), 0);
    CHECK(!opt_global_pages);
    CHECK_EQ(parse("uc_flag"), 0);
    CHECK_EQ(opt_uc_flag, 1);
    CHECK_STR(log_buf, "");
}

static void whole_names_only(void)
{
    CHECK_EQ(parse("no global global-page global-pagesx global-pages-x "
                   "fla flagg u3 u320=1 no-fo uc uc-"), 12);
    CHECK(!opt_flag);
    CHECK(opt_global_pages);
    CHECK(!opt_no_foo);
    CHECK(!opt_foo);
    CHECK_EQ(opt_u32, 7);
    CHECK_EQ(opt_uc_flag, 0x55);
    CHECK(strstr(log_buf, "<1>parameter \"no\" unknown!\n") != NULL);
    CHECK(strstr(log_buf, "<1>parameter \"global\" unknown!\n") != NULL);
    CHECK(strstr(log_buf, "<1>parameter \"u320\" unknown!\n") != NULL);
}

/* A parameter named "no-foo" wins over no-<foo>; "foo" alone is foo. */
static void name_starting_with_no(void)
{
    reset();
    opt_foo = true;
    CHECK_EQ(cmdline_parse("no-foo"), 0);
    CHECK(opt_no_foo);
    CHECK(opt_foo);

    CHECK_EQ(parse("foo"), 0);
    CHECK(opt_foo);
    CHECK(!opt_no_foo);
}

static void global_pages_maybe(void)
{
    CHECK_EQ(parse("global-pages=maybe"), 1);
    CHECK(opt_global_pages);
    CHECK_STR(log_buf, "<1>parameter \"global-pages\" has invalid value "
              "\"maybe\", rc=-22!\n");

    reset();
    opt_global_pages = false;
    CHECK_EQ(cmdline_parse("global-pages=maybe"), 1);
    CHECK(!opt_global_pages);
}

static void unknown_continues(void)
{
    CHECK_EQ(parse("flag bogus u32=5 another=1"), 2);
    CHECK(opt_flag);
    CHECK_EQ(opt_u32, 5);
    CHECK_STR(log_buf, "<1>parameter \"bogus\" unknown!\n"
              "<1>parameter \"another\" unknown!\n");
}

static void uint_values(void)
{
    CHECK_EQ(parse("u32=123 u8=255 u16=65535 u64=18446744073709551615"), 0);
    CHECK_EQ(opt_u32, 123);
    CHECK_EQ(opt_u8, 255);
    CHECK_EQ(opt_u16, 65535);
    CHECK_EQ(opt_u64, ~0UL);

    CHECK_EQ(parse("u32=0x1f u8=010 u16=0 u64=0XFFFFFFFFFFFFFFFF"), 0);
    CHECK_EQ(opt_u32, 0x1f);
    CHECK_EQ(opt_u8, 8);
    CHECK_EQ(opt_u16, 0);
    CHECK_EQ(opt_u64, ~0UL);

    CHECK_EQ(parse("u32=4294967295 u32=1 u32=2"), 0);
    CHECK_EQ(opt_u32, 2);
    CHECK_STR(log_buf, "");
}

static void uint_huge(void)
{
    CHECK_EQ(parse("u64=99999999999999999999999"), 1);
    CHECK_EQ(opt_u64, 7);
    CHECK_STR(log_buf, "<1>parameter \"u64\" has invalid value "
              "\"99999999999999999999999\", rc=-34!\n");
    CHECK_EQ(parse("u64=18446744073709551616 u32=0x10000000000000000"), 2);
    CHECK_EQ(opt_u64, 7);
    CHECK_EQ(opt_u32, 7);
}

static void uint_too_big_for_var(void)
{
    CHECK_EQ(parse("u8=256 u16=65536 u32=4294967296 u8=0x100"), 4);
    CHECK_EQ(opt_u8, 7);
    CHECK_EQ(opt_u16, 7);
    CHECK_EQ(opt_u32, 7);
    CHECK(strstr(log_buf, "<1>parameter \"u8\" has invalid value \"256\", "
                 "rc=-34!\n") != NULL);
}

static void uint_junk(void)
{
    CHECK_EQ(parse("u32=12abc u32= u32 u32=-1 u32=0x u32=+1 no-u32 "
                   "no-u32=1 u32=1.5 u32=09 u32=x1"), 11);
    CHECK_EQ(opt_u32, 7);
    CHECK(strstr(log_buf, "<1>parameter \"u32\" has invalid value \"\", "
                 "rc=-22!\n") != NULL);
}

static void size_suffixes(void)
{
    CHECK_EQ(parse("size=1"), 0);
    CHECK_EQ(opt_size, 1024);           /* no suffix: KiB, as in Xen */
    CHECK_EQ(parse("size=1b"), 0);
    CHECK_EQ(opt_size, 1);
    CHECK_EQ(parse("size=1B"), 0);
    CHECK_EQ(opt_size, 1);
    CHECK_EQ(parse("size=4k"), 0);
    CHECK_EQ(opt_size, 4096);
    CHECK_EQ(parse("size=4K"), 0);
    CHECK_EQ(opt_size, 4096);
    CHECK_EQ(parse("size=2m"), 0);
    CHECK_EQ(opt_size, 2ULL << 20);
    CHECK_EQ(parse("size=2M"), 0);
    CHECK_EQ(opt_size, 2ULL << 20);
    CHECK_EQ(parse("size=3g"), 0);
    CHECK_EQ(opt_size, 3ULL << 30);
    CHECK_EQ(parse("size=3G"), 0);
    CHECK_EQ(opt_size, 3ULL << 30);
    CHECK_EQ(parse("size=5t"), 0);
    CHECK_EQ(opt_size, 5ULL << 40);
    CHECK_EQ(parse("size=5T"), 0);
    CHECK_EQ(opt_size, 5ULL << 40);
    CHECK_EQ(parse("size=0x10M"), 0);
    CHECK_EQ(opt_size, 16ULL << 20);
    CHECK_EQ(parse("size=0"), 0);
    CHECK_EQ(opt_size, 0);
    CHECK_EQ(parse("size32=3G"), 0);
    CHECK_EQ(opt_size32, 3U << 30);
    CHECK_STR(log_buf, "");
}

static void size_invalid(void)
{
    CHECK_EQ(parse("size=16777216T size=99999999999999999999 "
                   "size=18014398509481984 size32=4G"), 4);
    CHECK_EQ(opt_size, 7);
    CHECK_EQ(opt_size32, 7);
    CHECK(strstr(log_buf, "<1>parameter \"size\" has invalid value "
                 "\"16777216T\", rc=-34!\n") != NULL);

    CHECK_EQ(parse("size=16777215T"), 0);
    CHECK_EQ(opt_size, 16777215ULL << 40);
    CHECK_EQ(parse("size=18014398509481983"), 0);
    CHECK_EQ(opt_size, 18014398509481983ULL << 10);

    CHECK_EQ(parse("size= size size=K size=1x size=1KB size=1% size=-1M "
                   "no-size"), 8);
    CHECK_EQ(opt_size, 7);
}

static void string_values(void)
{
    CHECK_EQ(parse("str=abc"), 0);
    CHECK_STR(opt_str, "abc");
    CHECK_EQ(parse("str=1234567"), 0);
    CHECK_STR(opt_str, "1234567");
    CHECK_EQ(parse("console=com2,vga=x"), 0);
    CHECK_STR(opt_console, "com2,vga=x");

    /* A bare name empties the string, as in Xen. */
    CHECK_EQ(parse("str"), 0);
    CHECK_STR(opt_str, "");
    CHECK_EQ(parse("str="), 0);
    CHECK_STR(opt_str, "");
    CHECK_STR(log_buf, "");
}

static void string_too_long(void)
{
    CHECK_EQ(parse("str=12345678"), 1);
    CHECK_STR(opt_str, "def");
    CHECK_STR(log_buf, "<1>parameter \"str\" has invalid value "
              "\"12345678\", rc=-7!\n");
    CHECK_EQ(parse("str=abcdefghijklmnopqrstuvwxyz no-str no-str=x"), 3);
    CHECK_STR(opt_str, "def");
}

static void quotes(void)
{
    CHECK_EQ(parse("console=\"com1 vga\" flag"), 0);
    CHECK_STR(opt_console, "com1 vga");
    CHECK(opt_flag);
    CHECK_EQ(parse("\"console=a  b\""), 0);
    CHECK_STR(opt_console, "a  b");
    CHECK_EQ(parse("console=a\"b c\"d"), 0);
    CHECK_STR(opt_console, "ab cd");
    CHECK_EQ(parse("console=\"\" flag"), 0);
    CHECK_STR(opt_console, "");
    CHECK(opt_flag);
    CHECK_EQ(parse("custom=\"a\tb\""), 0);
    CHECK_STR(custom_arg, "a\tb");
    CHECK_EQ(parse("\"\" flag \"\""), 0);
    CHECK(opt_flag);

    /* An unclosed quote runs to the end of the line. */
    CHECK_EQ(parse("console=\"x y flag"), 0);
    CHECK_STR(opt_console, "x y flag");
    CHECK(!opt_flag);
}

static void whitespace(void)
{
    CHECK_EQ(parse("  flag\t\tu32=7 \n u8=3\r\n\v\f u16=4  "), 0);
    CHECK(opt_flag);
    CHECK_EQ(opt_u32, 7);
    CHECK_EQ(opt_u8, 3);
    CHECK_EQ(opt_u16, 4);
    CHECK_EQ(parse("\tflag\t"), 0);
    CHECK(opt_flag);
    CHECK_STR(log_buf, "");
}

static void empty_line(void)
{
    CHECK_EQ(parse(""), 0);
    CHECK_EQ(parse("   \t  \n"), 0);
    CHECK_EQ(parse(NULL), 0);
    CHECK(!opt_flag);
    CHECK_STR(log_buf, "");
}

/* 4 KiB: the tail is dropped with a warning, earlier options still apply. */
static void long_line(void)
{
    static char line[4097];
    unsigned int cut;
    size_t len;

    strcpy(line, "flag u32=42 ");
    while ( (len = strlen(line)) < 4080 )
        strcat(line, len % 3 ? "u8=1 " : "u16=22 ");
    memset(line + len, ' ', 4088 - len);
    strcpy(line + 4088, "str=late");
    CHECK_EQ(strlen(line), 4096);

    CHECK_EQ(parse(line), 0);
    CHECK(opt_flag);
    CHECK_EQ(opt_u32, 42);
    CHECK_EQ(opt_u8, 1);
    CHECK_STR(opt_str, "def");
    CHECK_EQ(sscanf(log_buf, "<1>cmdline: command line truncated to %u bytes",
                    &cut), 1);
    CHECK(cut <= CMDLINE_MAX - 1 && cut > CMDLINE_MAX - 10);
    CHECK(line[cut] == ' ');
    CHECK(strchr(log_buf, '\n') == log_buf + strlen(log_buf) - 1);
}

/* An option across the limit is dropped whole, not applied cut short. */
static void long_line_straddle(void)
{
    static char line[CMDLINE_MAX + 64];

    memset(line, ' ', sizeof(line));
    memcpy(line, "flag", 4);
    memcpy(line + CMDLINE_MAX - 4, "u32=12345", 9);
    line[CMDLINE_MAX + 5] = '\0';

    CHECK_EQ(parse(line), 0);
    CHECK(opt_flag);
    CHECK_EQ(opt_u32, 7);
    CHECK_EQ(log_len, strlen("<1>cmdline: command line truncated to "
                             "1019 bytes\n"));
    CHECK_STR(log_buf, "<1>cmdline: command line truncated to 1019 bytes\n");

    /* Exactly CMDLINE_MAX - 1 bytes fit, without a warning. */
    memset(line, ' ', sizeof(line));
    memcpy(line + CMDLINE_MAX - 10, "u32=12345", 9);
    line[CMDLINE_MAX - 1] = '\0';
    CHECK_EQ(parse(line), 0);
    CHECK_EQ(opt_u32, 12345);
    CHECK_STR(log_buf, "");

    /* One more byte and it no longer fits. */
    memset(line, ' ', sizeof(line));
    memcpy(line + CMDLINE_MAX - 9, "u32=12345", 9);
    line[CMDLINE_MAX] = '\0';
    CHECK_EQ(parse(line), 0);
    CHECK_EQ(opt_u32, 7);
    CHECK(strstr(log_buf, "truncated") != NULL);

    /* A quoted blank is no place to cut. */
    memset(line, 'x', sizeof(line));
    memcpy(line, "flag console=\"a ", 16);
    line[CMDLINE_MAX + 10] = '\0';
    CHECK_EQ(parse(line), 0);
    CHECK(opt_flag);
    CHECK_STR(opt_console, "com1");
    CHECK_STR(log_buf, "<1>cmdline: command line truncated to 4 bytes\n");

    /* One word longer than the buffer: nothing is left. */
    memset(line, 'x', sizeof(line));
    line[sizeof(line) - 1] = '\0';
    CHECK_EQ(parse(line), 0);
    CHECK_STR(log_buf, "<1>cmdline: command line truncated to 0 bytes\n");
}

static void custom_params(void)
{
    CHECK_EQ(parse("custom"), 0);
    CHECK_EQ(custom_calls, 1);
    CHECK_STR(custom_arg, "");

    CHECK_EQ(parse("custom=abc,def=1"), 0);
    CHECK_EQ(custom_calls, 1);
    CHECK_STR(custom_arg, "abc,def=1");

    CHECK_EQ(parse("no-custom"), 0);
    CHECK_EQ(custom_calls, 1);
    CHECK_STR(custom_arg, "no");

    CHECK_EQ(parse("custom="), 0);
    CHECK_EQ(custom_calls, 1);
    CHECK_STR(custom_arg, "");
    CHECK_STR(log_buf, "");

    CHECK_EQ(parse("no-custom=x"), 1);
    CHECK_EQ(custom_calls, 0);
    CHECK_STR(log_buf, "<1>parameter \"no-custom\" has invalid value "
              "\"x\", rc=-22!\n");

    CHECK_EQ(parse("custom=bad flag"), 1);
    CHECK_EQ(custom_calls, 1);
    CHECK(opt_flag);
    CHECK_STR(log_buf, "<1>parameter \"custom\" has invalid value "
              "\"bad\", rc=-22!\n");
}

static void duplicate_names(void)
{
    CHECK_EQ(parse("dup"), 0);
    CHECK(opt_dup1 && opt_dup2);
    CHECK_EQ(parse("dup=maybe"), 1);
    CHECK(!opt_dup1 && !opt_dup2);
}

static void rejected_count(void)
{
    CHECK_EQ(parse("bogus flag=maybe u32=x flag custom=bad u8=300 "
                   "str=toolongvalue size=1Q no-u16 u64=1"), 8);
    CHECK(opt_flag);
    CHECK_EQ(opt_u64, 1);
    CHECK_EQ(custom_calls, 1);
}

static void parse_bool_direct(void)
{
    const char *s = "yesno";

    CHECK_EQ(parse_bool(s, s + 3), 1);
    CHECK_EQ(parse_bool(s + 3, s + 5), 0);
    CHECK_EQ(parse_bool(s, s + 5), -1);
    CHECK_EQ(parse_bool(s, s), -1);
    CHECK_EQ(parse_bool("", NULL), -1);
    CHECK_EQ(parse_bool("enable", NULL), 1);
    CHECK_EQ(parse_bool("disable", NULL), 0);
    CHECK_EQ(parse_bool("true", NULL), 1);
    CHECK_EQ(parse_bool("false", NULL), 0);
    CHECK_EQ(parse_bool("on", NULL), 1);
    CHECK_EQ(parse_bool("off", NULL), 0);
    CHECK_EQ(parse_bool("o", NULL), -1);
    CHECK_EQ(parse_bool("On", NULL), -1);
    CHECK_EQ(parse_bool("offf", NULL), -1);
    s = "1,";
    CHECK_EQ(parse_bool(s, strchr(s, ',')), 1);
}

static void parse_size_direct(void)
{
    const char *s = "4M,rest", *end;
    bool ovf = true;

    CHECK_EQ(parse_size_and_unit(s, &end, &ovf), 4 << 20);
    CHECK(end == s + 2);
    CHECK(!ovf);

    s = "12";
    CHECK_EQ(parse_size_and_unit(s, &end, NULL), 12 << 10);
    CHECK(end == s + 2);

    CHECK_EQ(parse_size_and_unit("16777216T", NULL, &ovf), ~0ULL);
    CHECK(ovf);
    CHECK_EQ(parse_size_and_unit("9223372036854775807B", NULL, &ovf),
             0x7fffffffffffffffULL);
    CHECK(!ovf);

    /* As in Xen, 'b' is a hex digit after 0x, not the bytes suffix. */
    CHECK_EQ(parse_size_and_unit("0x1b", NULL, NULL), 0x1b << 10);
}

int main(void)
{
    RUN(bool_bare);
    RUN(bool_spellings);
    RUN(bool_invalid);
    RUN(bool_no_prefix);
    RUN(bool_var_sizes);
    RUN(dash_underscore);
    RUN(whole_names_only);
    RUN(name_starting_with_no);
    RUN(global_pages_maybe);
    RUN(unknown_continues);
    RUN(uint_values);
    RUN(uint_huge);
    RUN(uint_too_big_for_var);
    RUN(uint_junk);
    RUN(size_suffixes);
    RUN(size_invalid);
    RUN(string_values);
    RUN(string_too_long);
    RUN(quotes);
    RUN(whitespace);
    RUN(empty_line);
    RUN(long_line);
    RUN(long_line_straddle);
    RUN(custom_params);
    RUN(duplicate_names);
    RUN(rejected_count);
    RUN(parse_bool_direct);
    RUN(parse_size_direct);

    UNIT_EXIT();
}
