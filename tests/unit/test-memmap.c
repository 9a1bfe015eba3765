/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of shim/memmap.c: sanitising raw boot memory maps and carving
 * reservations out of them.
 */
#include "tests/unit/unit.h"
#include "../../shim/memmap.c"

#define KB(x)   ((uint64_t)(x) << 10)
#define MB(x)   ((uint64_t)(x) << 20)
#define GB(x)   ((uint64_t)(x) << 30)
#define TOP     (~0ULL)                 /* the map's exclusive end */

#define RAM     MEMMAP_RAM
#define RSV     MEMMAP_RESERVED

/* An expected entry, as [start, end). */
struct range {
    uint64_t start, end;
    uint32_t type;
};

static struct memmap m;

static const uint32_t all_types[] = {
    MEMMAP_RAM, MEMMAP_RESERVED, MEMMAP_ACPI, MEMMAP_NVS, MEMMAP_UNUSABLE,
    MEMMAP_DISABLED, MEMMAP_PMEM, MEMMAP_SHIM, MEMMAP_MODULE, MEMMAP_BOOT,
    MEMMAP_ALLOC, 0, 8, 0xffffffff,
};

static void set_map(const struct range *r, unsigned int nr)
{
    unsigned int i;

    memset(&m, 0, sizeof(m));
    for ( i = 0; i < nr; i++ )
        m.map[m.nr++] = (struct memmap_entry){
            r[i].start, r[i].end - r[i].start, r[i].type };
}

static void print_map(const char *what)
{
    unsigned int i;

    printf("  %s (%u entries):\n", what, m.nr);
    for ( i = 0; i < m.nr; i++ )
        printf("    %#018llx-%#018llx %#x\n",
               (unsigned long long)m.map[i].addr,
               (unsigned long long)(m.map[i].addr + m.map[i].size),
               m.map[i].type);
}

static bool map_is(const struct range *r, unsigned int nr)
{
    unsigned int i;

    if ( m.nr == nr )
    {
        for ( i = 0; i < nr; i++ )
            if ( m.map[i].addr != r[i].start ||
                 m.map[i].size != r[i].end - r[i].start ||
                 m.map[i].type != r[i].type )
                break;
        if ( i == nr )
            return true;
    }
    print_map("got");
    return false;
}

#define SET(...) do {                                                      \
    const struct range in_[] = { __VA_ARGS__ };                            \
    set_map(in_, ARRAY_SIZE(in_));                                         \
} while ( 0 )

#define EXPECT(...) do {                                                   \
    const struct range out_[] = { __VA_ARGS__ };                           \
    CHECK(map_is(out_, ARRAY_SIZE(out_)));                                 \
} while ( 0 )

/* Sorted, non-overlapping, no empty entries, RAM in whole pages, merged. */
static bool map_sane(const struct memmap *mm)
{
    unsigned int i;

    if ( mm->nr > MEMMAP_MAX )
        return false;
    for ( i = 0; i < mm->nr; i++ )
    {
        const struct memmap_entry *e = &mm->map[i], *p = e - 1;

        if ( e->size == 0 || e->size > TOP - e->addr )
            return false;
        if ( e->type == RAM && (e->addr % KB(4) || e->size % KB(4)) )
            return false;
        if ( i && p->addr + p->size > e->addr )
            return false;
        if ( i && p->addr + p->size == e->addr && p->type == e->type )
            return false;
    }
    return true;
}

static void test_add(void)
{
    unsigned int i;

    memset(&m, 0, sizeof(m));
    CHECK_EQ(memmap_add(&m, 0x1000, 0, RAM), 0);
    CHECK_EQ(m.nr, 0);
    for ( i = 0; i < MEMMAP_MAX; i++ )
        CHECK_EQ(memmap_add(&m, i * KB(8), KB(4), RAM), 0);
    CHECK_EQ(memmap_add(&m, GB(1), KB(4), RAM), -1);
    CHECK_EQ(m.nr, MEMMAP_MAX);
    CHECK_EQ(m.map[5].addr, KB(40));
    CHECK_EQ(m.map[5].size, KB(4));
    CHECK_EQ(m.map[5].type, RAM);
}

static void test_empty(void)
{
    memset(&m, 0, sizeof(m));
    CHECK_EQ(memmap_sanitise(&m), 0);
    CHECK_EQ(m.nr, 0);
    CHECK_EQ(memmap_ram_end(&m), 0);
}

static void test_already_sane(void)
{
    SET({ 0, KB(636), RAM }, { KB(636), KB(640), RSV },
        { MB(1), MB(128), RAM }, { GB(4), GB(5), MEMMAP_PMEM });
    CHECK_EQ(memmap_sanitise(&m), 0);
    EXPECT({ 0, KB(636), RAM }, { KB(636), KB(640), RSV },
           { MB(1), MB(128), RAM }, { GB(4), GB(5), MEMMAP_PMEM });
}

static void test_unsorted(void)
{
    SET({ GB(4), GB(8), RAM }, { MB(1), MB(2), RAM }, { 0, KB(64), RSV },
        { MB(3), MB(4), MEMMAP_ACPI });
    CHECK_EQ(memmap_sanitise(&m), 2);
    EXPECT({ 0, KB(64), RSV }, { MB(1), MB(2), RAM },
           { MB(3), MB(4), MEMMAP_ACPI }, { GB(4), GB(8), RAM });
}

static void test_zero_size(void)
{
    SET({ 0, MB(1), RAM }, { KB(64), KB(64), RSV }, { MB(1), MB(1), RAM },
        { MB(2), MB(3), RAM });
    CHECK_EQ(memmap_sanitise(&m), 2);
    EXPECT({ 0, MB(1), RAM }, { MB(2), MB(3), RAM });

    /* Nothing but zero sizes. */
    SET({ 5, 5, RAM }, { 0, 0, RSV });
    CHECK_EQ(memmap_sanitise(&m), 2);
    CHECK_EQ(m.nr, 0);
}

static void test_wrap(void)
{
    /* Reserved wrapping past 2^64: clamped at the top. */
    memset(&m, 0, sizeof(m));
    m.map[m.nr++] = (struct memmap_entry){ MB(1), MB(1), RAM };
    m.map[m.nr++] = (struct memmap_entry){ TOP - KB(8), KB(64), RSV };
    CHECK_EQ(memmap_sanitise(&m), 1);
    EXPECT({ MB(1), MB(2), RAM }, { TOP - KB(8), TOP, RSV });

    /* RAM wrapping: clamped, then shrunk to whole pages. */
    memset(&m, 0, sizeof(m));
    m.map[m.nr++] = (struct memmap_entry){ TOP - MB(1) + 1, MB(2), RAM };
    CHECK_EQ(memmap_sanitise(&m), 2);
    EXPECT({ TOP - MB(1) + 1, TOP - KB(4) + 1, RAM });

    /* The largest size at address 0, and at the top. */
    memset(&m, 0, sizeof(m));
    m.map[m.nr++] = (struct memmap_entry){ 0, ~0ULL, RAM };
    m.map[m.nr++] = (struct memmap_entry){ TOP, ~0ULL, RSV };
    m.map[m.nr++] = (struct memmap_entry){ GB(1), ~0ULL, RSV };
    CHECK_EQ(memmap_sanitise(&m), 5);
    EXPECT({ 0, GB(1), RAM }, { GB(1), TOP, RSV });
    CHECK(map_sane(&m));
}

static void test_unaligned_ram(void)
{
    SET({ 0x500, 0x9fc00, RAM }, { MB(1), MB(1) + 0x800, RAM },
        { MB(2) + 1, MB(3) - 1, RAM }, { MB(4) + 0x10, MB(4) + 0x20, RSV });
    CHECK_EQ(memmap_sanitise(&m), 3);
    EXPECT({ 0x1000, 0x9f000, RAM }, { MB(2) + KB(4), MB(3) - KB(4), RAM },
           { MB(4) + 0x10, MB(4) + 0x20, RSV });

    /* Unaligned non-RAM cutting into RAM leaves the partial page out. */
    SET({ 0, MB(1), RAM }, { KB(100) + 1, KB(101), RSV });
    CHECK_EQ(memmap_sanitise(&m), 3);
    EXPECT({ 0, KB(100), RAM }, { KB(100) + 1, KB(101), RSV },
           { KB(104), MB(1), RAM });
}

static void test_merge(void)
{
    SET({ MB(2), MB(3), RAM }, { 0, MB(1), RAM }, { MB(1), MB(2), RAM },
        { MB(3), MB(4), RSV }, { MB(4), MB(5), RSV }, { MB(5), MB(6), RAM },
        { MB(6), MB(6) + 0x800, RAM }, { MB(6) + 0x800, MB(7), RAM });
    CHECK_EQ(memmap_sanitise(&m), 1);
    EXPECT({ 0, MB(3), RAM }, { MB(3), MB(5), RSV }, { MB(5), MB(7), RAM });
}

static uint32_t winner(uint32_t a, uint32_t b)
{
    if ( a == RAM )
        return b;
    if ( b == RAM )
        return a;
    return MAX(a, b);
}

/* out[] gets [s, e) of @type, merged into the previous piece if it can. */
static void add_range(struct range *out, unsigned int *nr, uint64_t s,
                      uint64_t e, uint32_t type)
{
    if ( *nr && out[*nr - 1].end == s && out[*nr - 1].type == type )
        out[*nr - 1].end = e;
    else
        out[(*nr)++] = (struct range){ s, e, type };
}

/*
 * Every pair of types, every way two ranges can overlap, in both input
 * orders: pieces covered by both take the winner's type.
 */
static void test_overlap_pairs(void)
{
    static const struct {
        uint64_t a0, a1, b0, b1;
    } shapes[] = {
        { MB(1), MB(3), MB(2), MB(4) },     /* a overlaps b's start */
        { MB(2), MB(4), MB(1), MB(3) },     /* a overlaps b's end */
        { MB(1), MB(4), MB(2), MB(3) },     /* b nested in a */
        { MB(1), MB(4), MB(1), MB(3) },     /* b nested, same start */
        { MB(1), MB(4), MB(2), MB(4) },     /* b nested, same end */
        { MB(1), MB(2), MB(1), MB(2) },     /* identical */
    };
    unsigned int i, j, s, order;

    for ( i = 0; i < ARRAY_SIZE(all_types); i++ )
        for ( j = 0; j < ARRAY_SIZE(all_types); j++ )
            for ( s = 0; s < ARRAY_SIZE(shapes); s++ )
                for ( order = 0; order < 2; order++ )
                {
                    uint32_t a = all_types[i], b = all_types[j];
                    uint64_t a0 = shapes[s].a0, a1 = shapes[s].a1;
                    uint64_t b0 = shapes[s].b0, b1 = shapes[s].b1;
                    uint64_t lo = MAX(a0, b0), hi = MIN(a1, b1);
                    struct range exp[3];
                    unsigned int nr = 0;

                    if ( order )
                        SET({ b0, b1, b }, { a0, a1, a });
                    else
                        SET({ a0, a1, a }, { b0, b1, b });

                    add_range(exp, &nr, MIN(a0, b0), lo,
                              a0 < b0 ? a : b);
                    add_range(exp, &nr, lo, hi, winner(a, b));
                    if ( hi < MAX(a1, b1) )
                        add_range(exp, &nr, hi, MAX(a1, b1),
                                  a1 > b1 ? a : b);
                    if ( exp[0].start == exp[0].end )
                    {
                        exp[0] = exp[1];
                        exp[1] = exp[2];
                        nr--;
                    }

                    CHECK(memmap_sanitise(&m) >= 1);
                    if ( !map_is(exp, nr) )
                    {
                        printf("FAIL: %s: types %#x %#x shape %u order %u\n",
                               unit_case_name, a, b, s, order);
                        unit_case_failed = 1;
                    }
                }
}

static void test_nested(void)
{
    SET({ 0, MB(16), RAM }, { MB(1), MB(2), RSV },
        { MB(1) + KB(512), MB(1) + KB(768), MEMMAP_ACPI },
        { MB(1) + KB(600), MB(1) + KB(604), RAM });
    CHECK_EQ(memmap_sanitise(&m), 3);
    EXPECT({ 0, MB(1), RAM }, { MB(1), MB(1) + KB(512), RSV },
           { MB(1) + KB(512), MB(1) + KB(768), MEMMAP_ACPI },
           { MB(1) + KB(768), MB(2), RSV }, { MB(2), MB(16), RAM });

    /* RAM inside reserved vanishes; NVS inside ACPI wins (higher type). */
    SET({ MB(4), MB(5), RAM }, { MB(3), MB(6), RSV },
        { MB(8), MB(10), MEMMAP_ACPI }, { MB(9), MB(10), MEMMAP_NVS });
    CHECK_EQ(memmap_sanitise(&m), 3);
    EXPECT({ MB(3), MB(6), RSV }, { MB(8), MB(9), MEMMAP_ACPI },
           { MB(9), MB(10), MEMMAP_NVS });
}

static void test_duplicates(void)
{
    SET({ MB(1), MB(2), RAM }, { MB(1), MB(2), RAM }, { MB(1), MB(2), RAM },
        { 0, KB(4), RSV }, { 0, KB(4), RSV });
    CHECK_EQ(memmap_sanitise(&m), 4);
    EXPECT({ 0, KB(4), RSV }, { MB(1), MB(2), RAM });
}

static void set_qemu_map(void)
{
    SET({ 0, 0x9fc00, RAM }, { 0x9fc00, 0xa0000, RSV },
        { 0xf0000, 0x100000, RSV }, { 0x100000, 0x7fe0000, RAM },
        { 0x7fe0000, 0x8000000, RSV }, { 0xfeffc000, 0xff000000, RSV },
        { 0xfffc0000, 0x100000000, RSV }, { GB(4), GB(6), RAM });
}

static void test_qemu_map(void)
{
    set_qemu_map();
    CHECK_EQ(memmap_sanitise(&m), 1);
    EXPECT({ 0, 0x9f000, RAM }, { 0x9fc00, 0xa0000, RSV },
           { 0xf0000, 0x100000, RSV }, { 0x100000, 0x7fe0000, RAM },
           { 0x7fe0000, 0x8000000, RSV }, { 0xfeffc000, 0xff000000, RSV },
           { 0xfffc0000, 0x100000000, RSV }, { GB(4), GB(6), RAM });
    CHECK_EQ(memmap_total(&m, RAM), 0x9f000 + 0x7ee0000 + GB(2));
    CHECK_EQ(memmap_total(&m, RSV),
             0x400 + 0x10000 + 0x20000 + 0x4000 + 0x40000);
    CHECK_EQ(memmap_total(&m, MEMMAP_ACPI), 0);
    CHECK_EQ(memmap_ram_end(&m), GB(6));

    /* Sanitising a sane map is a no-op. */
    CHECK_EQ(memmap_sanitise(&m), 0);
    CHECK_EQ(m.nr, 8);
}

static void test_reserve(void)
{
    set_qemu_map();
    memmap_sanitise(&m);

    /* The shim image, unaligned: rounded outwards. */
    CHECK_EQ(memmap_reserve(&m, MB(1) + 0x800, MB(1), MEMMAP_SHIM), 0);
    /* A module straddling the end of RAM at 0x7fe0000. */
    CHECK_EQ(memmap_reserve(&m, 0x7f00000, MB(2), MEMMAP_MODULE), 0);
    /* Two overlapping modules, the second running into the first. */
    CHECK_EQ(memmap_reserve(&m, MB(8), MB(2), MEMMAP_MODULE), 0);
    CHECK_EQ(memmap_reserve(&m, MB(7), MB(2), MEMMAP_MODULE), 0);
    /* Boot data over all of the low 1 MiB: only RAM changes. */
    CHECK_EQ(memmap_reserve(&m, 0, MB(1), MEMMAP_BOOT), 0);
    /* Entirely outside RAM, and of zero size: nothing changes. */
    CHECK_EQ(memmap_reserve(&m, 0xfeffc000, KB(4), MEMMAP_MODULE), 0);
    CHECK_EQ(memmap_reserve(&m, MB(20), 0, MEMMAP_MODULE), 0);
    /* At the very end of the map. */
    CHECK_EQ(memmap_reserve(&m, GB(6) - 1, 1, MEMMAP_ALLOC), 0);

    EXPECT({ 0, 0x9f000, MEMMAP_BOOT }, { 0x9fc00, 0xa0000, RSV },
           { 0xf0000, 0x100000, RSV },
           { MB(1), MB(2) + KB(4), MEMMAP_SHIM },
           { MB(2) + KB(4), MB(7), RAM }, { MB(7), MB(10), MEMMAP_MODULE },
           { MB(10), 0x7f00000, RAM }, { 0x7f00000, 0x7fe0000, MEMMAP_MODULE },
           { 0x7fe0000, 0x8000000, RSV }, { 0xfeffc000, 0xff000000, RSV },
           { 0xfffc0000, 0x100000000, RSV }, { GB(4), GB(6) - KB(4), RAM },
           { GB(6) - KB(4), GB(6), MEMMAP_ALLOC });
    CHECK(map_sane(&m));
    CHECK_EQ(memmap_ram_end(&m), GB(6) - KB(4));

    /* A range spanning several RAM entries and holes, wrapping 2^64. */
    CHECK_EQ(memmap_reserve(&m, MB(64), ~0ULL, MEMMAP_UNUSABLE), 0);
    EXPECT({ 0, 0x9f000, MEMMAP_BOOT }, { 0x9fc00, 0xa0000, RSV },
           { 0xf0000, 0x100000, RSV },
           { MB(1), MB(2) + KB(4), MEMMAP_SHIM },
           { MB(2) + KB(4), MB(7), RAM }, { MB(7), MB(10), MEMMAP_MODULE },
           { MB(10), MB(64), RAM }, { MB(64), 0x7f00000, MEMMAP_UNUSABLE },
           { 0x7f00000, 0x7fe0000, MEMMAP_MODULE },
           { 0x7fe0000, 0x8000000, RSV }, { 0xfeffc000, 0xff000000, RSV },
           { 0xfffc0000, 0x100000000, RSV },
           { GB(4), GB(6) - KB(4), MEMMAP_UNUSABLE },
           { GB(6) - KB(4), GB(6), MEMMAP_ALLOC });
    CHECK(map_sane(&m));
    CHECK_EQ(memmap_ram_end(&m), MB(64));
}

static void test_reserve_edges(void)
{
    /* Reserving all of a RAM entry, and its first and last pages. */
    SET({ MB(1), MB(2), RAM }, { MB(4), MB(5), RAM });
    CHECK_EQ(memmap_reserve(&m, MB(1), MB(1), MEMMAP_MODULE), 0);
    CHECK_EQ(memmap_reserve(&m, MB(4), 1, MEMMAP_SHIM), 0);
    CHECK_EQ(memmap_reserve(&m, MB(5) - 1, 1, MEMMAP_SHIM), 0);
    EXPECT({ MB(1), MB(2), MEMMAP_MODULE }, { MB(4), MB(4) + KB(4), 0x100 },
           { MB(4) + KB(4), MB(5) - KB(4), RAM },
           { MB(5) - KB(4), MB(5), 0x100 });

    /* The middle of it: the shim pieces merge into one. */
    CHECK_EQ(memmap_reserve(&m, MB(4), MB(1), MEMMAP_SHIM), 0);
    EXPECT({ MB(1), MB(2), MEMMAP_MODULE }, { MB(4), MB(5), MEMMAP_SHIM });

    /* At the top of the address space. */
    SET({ TOP - MB(1) + 1, TOP - KB(4) + 1, RAM });
    CHECK_EQ(memmap_reserve(&m, TOP - KB(4) - 10, 100, MEMMAP_MODULE), 0);
    EXPECT({ TOP - MB(1) + 1, TOP - KB(8) + 1, RAM },
           { TOP - KB(8) + 1, TOP - KB(4) + 1, MEMMAP_MODULE });
    CHECK_EQ(memmap_reserve(&m, TOP, 1, MEMMAP_SHIM), 0);
    CHECK_EQ(m.nr, 2);

    /* An empty map. */
    memset(&m, 0, sizeof(m));
    CHECK_EQ(memmap_reserve(&m, 0, MB(1), MEMMAP_SHIM), 0);
    CHECK_EQ(m.nr, 0);
}

static void test_reserve_full(void)
{
    struct memmap saved;
    unsigned int i;

    memset(&m, 0, sizeof(m));
    for ( i = 0; i < MEMMAP_MAX - 1; i++ )
        memmap_add(&m, i * MB(2), MB(1), RAM);
    CHECK_EQ(memmap_sanitise(&m), 0);
    CHECK_EQ(m.nr, MEMMAP_MAX - 1);

    /* One more entry fits. */
    CHECK_EQ(memmap_reserve(&m, 0, KB(4), MEMMAP_SHIM), 0);
    CHECK_EQ(m.nr, MEMMAP_MAX);

    /* Splitting a RAM entry in three does not: the map stays as it was. */
    saved = m;
    CHECK_EQ(memmap_reserve(&m, MB(10) + KB(4), KB(4), MEMMAP_SHIM), -1);
    CHECK(!memcmp(&saved, &m, sizeof(m)));

    /* Converting whole entries, even across holes, still works. */
    CHECK_EQ(memmap_reserve(&m, MB(10), MB(1), MEMMAP_SHIM), 0);
    CHECK_EQ(memmap_reserve(&m, MB(13), MB(4), MEMMAP_MODULE), 0);
    CHECK_EQ(m.nr, MEMMAP_MAX);
    CHECK(map_sane(&m));
}

static void test_map_full(void)
{
    unsigned int i;

    /*
     * RAM from 0 to 1 GiB with MEMMAP_MAX - 1 holes punched in it at 2 MiB,
     * 4 MiB, ...: 2 * MEMMAP_MAX - 1 pieces, of which the lowest
     * MEMMAP_MAX are kept; one problem per overlap, one for the cut.
     */
    memset(&m, 0, sizeof(m));
    memmap_add(&m, 0, GB(1), RAM);
    for ( i = 1; i < MEMMAP_MAX; i++ )
        memmap_add(&m, i * MB(2), MB(1), MEMMAP_ACPI + i % 2);
    BUILD_BUG_ON(MEMMAP_MAX * MB(2) > GB(1));
    CHECK_EQ(memmap_sanitise(&m), (MEMMAP_MAX - 1) + 1);
    CHECK_EQ(m.nr, MEMMAP_MAX);
    CHECK(map_sane(&m));
    CHECK_EQ(m.map[0].addr, 0);
    CHECK_EQ(m.map[0].size, MB(2));
    CHECK_EQ(m.map[0].type, RAM);
    for ( i = 1; i < MEMMAP_MAX; i++ )
    {
        CHECK_EQ(m.map[i].addr, (i + 1) * MB(1));
        CHECK_EQ(m.map[i].size, MB(1));
        CHECK_EQ(m.map[i].type,
                 i % 2 ? MEMMAP_ACPI + (i + 1) / 2 % 2 : RAM);
    }

    /* A bogus count is clamped. */
    m.nr = MEMMAP_MAX + 5;
    CHECK_EQ(memmap_sanitise(&m), 1);
    CHECK_EQ(m.nr, MEMMAP_MAX);
}

static void test_names(void)
{
    CHECK_STR(memmap_type_name(MEMMAP_RAM), "RAM");
    CHECK_STR(memmap_type_name(MEMMAP_RESERVED), "reserved");
    CHECK_STR(memmap_type_name(MEMMAP_ACPI), "ACPI data");
    CHECK_STR(memmap_type_name(MEMMAP_NVS), "ACPI NVS");
    CHECK_STR(memmap_type_name(MEMMAP_UNUSABLE), "unusable");
    CHECK_STR(memmap_type_name(MEMMAP_DISABLED), "disabled");
    CHECK_STR(memmap_type_name(MEMMAP_PMEM), "persistent");
    CHECK_STR(memmap_type_name(MEMMAP_SHIM), "shim");
    CHECK_STR(memmap_type_name(MEMMAP_MODULE), "module");
    CHECK_STR(memmap_type_name(MEMMAP_BOOT), "boot data");
    CHECK_STR(memmap_type_name(MEMMAP_ALLOC), "allocator");
    CHECK_STR(memmap_type_name(0), "unknown");
    CHECK_STR(memmap_type_name(8), "unknown");
    CHECK_STR(memmap_type_name(0xffffffff), "unknown");
}

/* splitmix64: a fixed sequence for the random tests. */
static uint64_t rng_state = 0x5eed5eed12345678ULL;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A boundary near a few interesting places, often unaligned. */
static uint64_t rnd_addr(void)
{
    static const uint64_t bases[] = { 0, MB(1), GB(4), TOP - MB(1) + 1 };
    uint64_t a = bases[rnd() % ARRAY_SIZE(bases)] + (rnd() % 64) * KB(4);

    return rnd() % 4 ? a : a + rnd() % KB(4);
}

#define HOLE (-1LL)

/* The type the raw map @in gives byte @addr: the winner, or HOLE. */
static int64_t type_in(const struct memmap *in, uint64_t addr)
{
    int64_t t = HOLE;
    unsigned int i;

    for ( i = 0; i < in->nr; i++ )
    {
        const struct memmap_entry *e = &in->map[i];

        if ( addr >= e->addr && addr - e->addr < e->size )
            t = t == HOLE ? e->type : winner(t, e->type);
    }
    return t;
}

static int64_t type_out(uint64_t addr)
{
    unsigned int i;

    for ( i = 0; i < m.nr; i++ )
        if ( addr >= m.map[i].addr && addr - m.map[i].addr < m.map[i].size )
            return m.map[i].type;
    return HOLE;
}

/* Is every byte of the page at @page RAM in the raw map @in? */
static bool page_ram_in(const struct memmap *in, uint64_t page)
{
    uint64_t end = page + KB(4), cur = page;
    unsigned int i;

    if ( page > TOP - KB(4) )
        return false;           /* cut short by the map's end */

    for ( i = 0; i < in->nr; i++ )
    {
        const struct memmap_entry *e = &in->map[i];

        if ( e->type != RAM && e->addr < end &&
             (page < e->addr || page - e->addr < e->size) && e->size )
            return false;
    }
    while ( cur < end )
    {
        uint64_t next = cur;

        for ( i = 0; i < in->nr; i++ )
        {
            const struct memmap_entry *e = &in->map[i];

            if ( e->type == RAM && cur >= e->addr &&
                 cur - e->addr < e->size )
                next = MAX(next, e->size >= end - e->addr
                                 ? end : e->addr + e->size);
        }
        if ( next == cur )
            return false;
        cur = next;
    }
    return true;
}

/* Does the sanitised map agree with the raw map @in at @addr? */
static bool same_at(const struct memmap *in, uint64_t addr)
{
    int64_t want = type_in(in, addr), got = type_out(addr);
    uint64_t page = ROUNDDOWN(addr, KB(4));

    if ( want != RAM )
        return got == want;     /* holes and non-RAM exactly kept */
    if ( got == RAM )
        return page_ram_in(in, page);
    return got == HOLE && !page_ram_in(in, page);
}

static void random_map(unsigned int nr)
{
    unsigned int i;

    memset(&m, 0, sizeof(m));
    for ( i = 0; i < nr; i++ )
    {
        uint64_t a = rnd_addr(), e, size;
        unsigned int r = rnd() % 16;

        if ( r == 0 )
            size = 0;
        else if ( r == 1 )
            size = ~0ULL - rnd() % MB(1);       /* wraps */
        else
        {
            e = rnd_addr();
            size = e > a ? e - a : rnd() % MB(2) + 1;
        }
        m.map[m.nr++] = (struct memmap_entry){
            a, size, rnd() % 2 ? RAM : all_types[rnd() % 14] };
    }
}

/*
 * Random raw maps from a fixed seed: the result must be sane, stable under
 * a second pass, and agree with the raw map at every boundary and at
 * random places: non-RAM and holes kept exactly, RAM kept or given up
 * exactly according to whether its whole page was RAM.
 */
/* The trampoline page: the highest whole RAM page below the limit. */
static void test_low_page(void)
{
    static const struct range qemu[] = {
        { 0, 0x9fc00, RAM }, { 0x9fc00, 0xa0000, RSV },
        { 0xf0000, MB(1), RSV }, { MB(1), MB(512), RAM },
    };
    static const struct range split[] = {
        { 0x1000, 0x3000, RAM }, { 0x3000, 0x5000, RSV },
        { 0x5000, 0x6800, RAM }, { 0x7000, 0x7fff, RAM },
    };
    static const struct range none[] = {
        { 0, 0x1000, RAM }, { 0x1000, MB(1), RSV }, { MB(1), MB(2), RAM },
    };
    static const struct range straddle[] = {
        { 0x80000, MB(4), RAM },
    };

    set_map(qemu, ARRAY_SIZE(qemu));
    CHECK_EQ(memmap_low_page(&m, MB(1)), 0x9e000);
    set_map(split, ARRAY_SIZE(split));
    CHECK_EQ(memmap_low_page(&m, MB(1)), 0x5000);  /* 0x7000 not whole */
    CHECK_EQ(memmap_low_page(&m, 0x5800), 0x2000);
    set_map(none, ARRAY_SIZE(none));
    CHECK_EQ(memmap_low_page(&m, MB(1)), 0);       /* page 0 never */
    set_map(straddle, ARRAY_SIZE(straddle));
    CHECK_EQ(memmap_low_page(&m, MB(1)), MB(1) - 0x1000);
    CHECK_EQ(memmap_low_page(&m, 0x80000), 0);
    m.nr = 0;
    CHECK_EQ(memmap_low_page(&m, MB(1)), 0);
}

static void test_random(void)
{
    static struct memmap in;
    unsigned int iter, i, k;
    BUILD_BUG_ON(ARRAY_SIZE(all_types) != 14);

    for ( iter = 0; iter < 3000 && !unit_case_failed; iter++ )
    {
        uint64_t limit = TOP;

        random_map(1 + rnd() % (iter % 10 ? 24 : MEMMAP_MAX));
        in = m;
        memmap_sanitise(&m);
        CHECK(map_sane(&m));
        if ( m.nr == MEMMAP_MAX )       /* may have been cut short */
            limit = m.map[m.nr - 1].addr + m.map[m.nr - 1].size;

        for ( i = 0; i < in.nr + 16 && !unit_case_failed; i++ )
            for ( k = 0; k < 4; k++ )
            {
                const struct memmap_entry *e = &in.map[MIN(i, in.nr - 1)];
                uint64_t a = i >= in.nr ? rnd_addr()
                             : k < 2 ? e->addr + k - 1
                             : e->addr + e->size + k - 3;

                if ( a >= limit )
                    continue;
                if ( !same_at(&in, a) )
                {
                    printf("FAIL: %s: iteration %u at %#llx\n",
                           unit_case_name, iter, (unsigned long long)a);
                    print_map("sanitised");
                    unit_case_failed = 1;
                    break;
                }
            }

        in = m;
        CHECK_EQ(memmap_sanitise(&m), 0);
        CHECK(!memcmp(&in, &m, sizeof(m)));
    }
}

int main(void)
{
    RUN(test_add);
    RUN(test_empty);
    RUN(test_already_sane);
    RUN(test_unsorted);
    RUN(test_zero_size);
    RUN(test_wrap);
    RUN(test_unaligned_ram);
    RUN(test_merge);
    RUN(test_overlap_pairs);
    RUN(test_nested);
    RUN(test_duplicates);
    RUN(test_qemu_map);
    RUN(test_reserve);
    RUN(test_reserve_edges);
    RUN(test_reserve_full);
    RUN(test_map_full);
    RUN(test_names);
    RUN(test_low_page);
    RUN(test_random);
    UNIT_EXIT();
}
