/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the alternatives' patching (arch/x86/alternative-patch.c):
 * which replacement a site takes for given flags, the padding left as
 * one instruction, a rel32 jmp moved with its target kept, and entries
 * refused when they don't fit their site.
 */
#include "tests/unit/unit.h"

#include <stdint.h>
#include "arch/x86/alternative-patch.c"

static uint8_t arena[4096];
static struct alt_instr tab[8];

static uint8_t *same(uint8_t *addr)
{
    return addr;
}

/* Entry @i: the site at arena + @site, a replacement at arena + @repl. */
static void entry(unsigned int i, unsigned int site, unsigned int orig_len,
                  unsigned int site_len, unsigned int repl,
                  unsigned int repl_len, uint16_t cond)
{
    struct alt_instr *a = &tab[i];

    a->site = (int32_t)((arena + site) - (uint8_t *)&a->site);
    a->repl = (int32_t)((arena + repl) - (uint8_t *)&a->repl);
    a->cond = cond;
    a->orig_len = orig_len;
    a->repl_len = repl_len;
    a->site_len = site_len;
}

/* Where the one instruction alt_fill() wrote at @p ends. */
static const uint8_t *fill_end(const uint8_t *p, unsigned int n)
{
    int32_t rel;
    unsigned int i;

    if ( n <= 9 )
    {
        /* A NOP: 90, 66 90, or [66] 0f 1f /0 with its ModRM's bytes. */
        i = p[0] == 0x66 && n > 1;
        if ( n == 1 )
            return p[0] == 0x90 ? p + 1 : NULL;
        if ( p[i] == 0x90 )
            return n == 2 ? p + 2 : NULL;
        if ( p[i] != 0x0f || p[i + 1] != 0x1f || (p[i + 2] & 0x38) )
            return NULL;
        return p + n;
    }
    for ( i = p[0] == 0xeb ? 2 : 5; i < n; i++ )
        if ( p[i] != 0xcc )
            return NULL;
    if ( p[0] == 0xeb )
        return p + 2 + (int8_t)p[1];
    if ( p[0] != 0xe9 )
        return NULL;
    memcpy(&rel, p + 1, 4);
    return p + 5 + rel;
}

static void test_fill(void)
{
    unsigned int n;

    for ( n = 1; n <= 255; n++ )
    {
        memset(arena, 0, sizeof(arena));
        alt_fill(arena, n);
        CHECK(fill_end(arena, n) == arena + n);
        CHECK_EQ(arena[n], 0);              /* nothing written past it */
        if ( n > 9 && n <= 129 )
            CHECK_EQ(arena[0], 0xeb);
        if ( n > 129 )
            CHECK_EQ(arena[0], 0xe9);
    }
    arena[0] = 0x5a;
    alt_fill(arena, 0);
    CHECK_EQ(arena[0], 0x5a);
}

/* A site of 3 bytes of original and 7 of padding; replacements below. */
static void site_setup(void)
{
    memset(arena, 0x90, sizeof(arena));
    memcpy(arena, "\x0f\xae\xe8", 3);               /* lfence */
    memcpy(arena + 1024, "\xf3\x90\xf3\x90\xf3\x90\xf3\x90\xf3\x90",
           10);                                     /* 5 x pause */
    memcpy(arena + 1100, "\x0f\x01\xca", 3);        /* clac */
}

static void test_orig_kept(void)
{
    site_setup();
    entry(0, 0, 3, 10, 1024, 10, ALT_IF(0x4));
    CHECK_EQ(alt_apply(tab, tab + 1, 0x3, same), 0);
    CHECK(!memcmp(arena, "\x0f\xae\xe8", 3));
    CHECK(fill_end(arena + 3, 7) == arena + 10);
}

static void test_repl_taken(void)
{
    site_setup();
    entry(0, 0, 3, 10, 1024, 10, ALT_IF(0x6));
    CHECK_EQ(alt_apply(tab, tab + 1, 0x4, same), 1);
    CHECK(!memcmp(arena, arena + 1024, 10));

    /* A shorter one: the rest is one NOP. */
    site_setup();
    entry(0, 0, 3, 10, 1100, 3, ALT_IF(0x1));
    CHECK_EQ(alt_apply(tab, tab + 1, 0x1, same), 1);
    CHECK(!memcmp(arena, "\x0f\x01\xca", 3));
    CHECK(fill_end(arena + 3, 7) == arena + 10);

    /* An empty one: the whole site is one jmp over itself. */
    site_setup();
    entry(0, 0, 3, 10, 1100, 0, ALT_IF(0x1));
    CHECK_EQ(alt_apply(tab, tab + 1, 0x1, same), 1);
    CHECK(fill_end(arena, 10) == arena + 10);
    CHECK_EQ(arena[0], 0xeb);
}

static void test_negated(void)
{
    site_setup();
    entry(0, 0, 3, 10, 1100, 3, ALT_IFNOT(0x8));
    CHECK_EQ(alt_apply(tab, tab + 1, 0x8 | 0x2, same), 0);
    CHECK(!memcmp(arena, "\x0f\xae\xe8", 3));
    CHECK_EQ(alt_apply(tab, tab + 1, 0x2, same), 1);
    CHECK(!memcmp(arena, "\x0f\x01\xca", 3));
    CHECK(alt_holds(ALT_IFNOT(0x18), 0x0));
    CHECK(!alt_holds(ALT_IFNOT(0x18), 0x10));
    CHECK(alt_holds(ALT_IF(0x18), 0x10));
    CHECK(!alt_holds(ALT_IF(0x18), 0x4));
    CHECK(alt_holds(ALT_IF(ALTF_SMAP), ALTF_SMAP));
}

/* ALTERNATIVE_2: the last entry whose condition holds wins. */
static void test_two(void)
{
    static const struct { unsigned int flags; int n; const uint8_t *want; }
        cases[] = {
        { 0x0, 0, (const uint8_t *)"\x0f\xae\xe8" },
        { 0x1, 1, arena + 1024 },
        { 0x2, 1, (const uint8_t *)"\x0f\x01\xca" },
        { 0x3, 1, (const uint8_t *)"\x0f\x01\xca" },
    };
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(cases); i++ )
    {
        uint8_t want[10];

        site_setup();
        memcpy(want, cases[i].want, cases[i].want == arena + 1024 ? 10 : 3);
        entry(0, 0, 3, 10, 1024, 10, ALT_IF(0x1));
        entry(1, 0, 3, 10, 1100, 3, ALT_IF(0x2));
        /* A second site after it, taken whatever the first did. */
        entry(2, 16, 3, 3, 1100, 3, ALT_IFNOT(0x80));
        CHECK_EQ(alt_apply(tab, tab + 3, cases[i].flags, same),
                 cases[i].n + 1);
        CHECK(!memcmp(arena, want, cases[i].want == arena + 1024 ? 10 : 3));
        if ( cases[i].want != arena + 1024 )
            CHECK(fill_end(arena + 3, 7) == arena + 10);
        CHECK(!memcmp(arena + 16, "\x0f\x01\xca", 3));
    }
}

/* A replacement that is a rel32 jmp or call keeps its target. */
static void test_rel32(void)
{
    static const uint8_t ops[] = { 0xe9, 0xe8 };
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(ops); i++ )
    {
        int32_t rel = (int32_t)((arena + 3000) - (arena + 2000 + 5));

        site_setup();
        arena[2000] = ops[i];
        memcpy(arena + 2001, &rel, 4);
        entry(0, 100, 3, 5, 2000, 5, ALT_IF(0x1));
        CHECK_EQ(alt_apply(tab, tab + 1, 0x1, same), 1);
        CHECK_EQ(arena[100], ops[i]);
        memcpy(&rel, arena + 101, 4);
        CHECK(arena + 100 + 5 + rel == arena + 3000);
    }

    /* Anything else is copied as it is. */
    site_setup();
    memcpy(arena + 2000, "\x48\x89\xe8\x90\x90", 5);    /* mov %rbp,%rax */
    entry(0, 100, 3, 5, 2000, 5, ALT_IF(0x1));
    CHECK_EQ(alt_apply(tab, tab + 1, 0x1, same), 1);
    CHECK(!memcmp(arena + 100, "\x48\x89\xe8\x90\x90", 5));
}

/* The writes go through the alias the caller gives, nowhere else. */
static uint8_t *shadow(uint8_t *addr)
{
    return addr + 2048;
}

static void test_alias(void)
{
    site_setup();
    entry(0, 0, 3, 10, 1100, 3, ALT_IF(0x1));
    CHECK_EQ(alt_apply(tab, tab + 1, 0x1, shadow), 1);
    CHECK(!memcmp(arena, "\x0f\xae\xe8", 3));
    CHECK(!memcmp(arena + 2048, "\x0f\x01\xca", 3));
}

static void test_malformed(void)
{
    /* A replacement longer than its site. */
    site_setup();
    entry(0, 0, 3, 4, 1024, 10, ALT_IF(0x1));
    CHECK_EQ(alt_apply(tab, tab + 1, 0x1, same), -1);
    CHECK(!memcmp(arena, "\x0f\xae\xe8", 3));

    /* An original longer than its site. */
    entry(0, 0, 5, 4, 1100, 3, ALT_IF(0x1));
    CHECK_EQ(alt_apply(tab, tab + 1, 0x1, same), -1);

    /* Two entries of one site that disagree on its length. */
    entry(0, 0, 3, 10, 1024, 10, ALT_IF(0x1));
    entry(1, 0, 3, 12, 1100, 3, ALT_IF(0x2));
    CHECK_EQ(alt_apply(tab, tab + 2, 0x3, same), -1);
    CHECK(!memcmp(arena, "\x0f\xae\xe8", 3));
}

int main(void)
{
    RUN(test_fill);
    RUN(test_orig_kept);
    RUN(test_repl_taken);
    RUN(test_negated);
    RUN(test_two);
    RUN(test_rel32);
    RUN(test_alias);
    RUN(test_malformed);
    UNIT_EXIT();
}
