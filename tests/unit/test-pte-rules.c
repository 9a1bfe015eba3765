/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of pv/mm/pte-rules.c: one case per rule at every level, with and
 * without NX and global pages, the physical-address-width boundary, and a
 * cross-check of every bit against Xen's own disallow masks, written in
 * Xen's 24-bit flags form.
 */
#include "tests/unit/unit.h"

#include "pv/mm/pte-rules.c"

#define P       _PAGE_PRESENT
#define RW      _PAGE_RW
#define US      _PAGE_USER
#define A       _PAGE_ACCESSED
#define D       _PAGE_DIRTY
#define G       _PAGE_GLOBAL
#define GK      PTE_GUEST_KERNEL
#define FRAME   0x12345000UL

static const struct pte_policy pol_all = { true, true, 52, false };
static const struct pte_policy pol_none = { false, false, 52, false };
static const struct pte_policy pol_nx = { true, false, 46, false };
static const struct pte_policy pol_g = { false, true, 46, false };
/* 32-bit PAE guests. */
static const struct pte_policy pol32_all = { true, true, 52, true };
static const struct pte_policy pol32_none = { false, false, 40, true };
static const struct pte_policy *const pols[] = {
    &pol_all, &pol_none, &pol_nx, &pol_g,
};
/* For the cross-checks against Xen's masks: both guest widths. */
static const struct pte_policy *const pols_both[] = {
    &pol_all, &pol_none, &pol_nx, &pol_g, &pol32_all, &pol32_none,
};

/* pte_check() accepts @e at @level under @p; returns the adjusted entry. */
static uint64_t accept(unsigned int level, uint64_t e,
                       const struct pte_policy *p)
{
    const char *why = "untouched";
    uint64_t v = e;

    CHECK_EQ(pte_check(level, &v, p, &why), 0);
    CHECK_STR(why, "untouched");
    return v;
}

/* pte_check() refuses @e at @level under @p for reason @want. */
static void refuse(unsigned int level, uint64_t e,
                   const struct pte_policy *p, const char *want)
{
    const char *why = NULL;
    uint64_t v = e;

    CHECK_EQ(pte_check(level, &v, p, &why), -XEN_EINVAL);
    CHECK_EQ(v, e);
    CHECK(why != NULL);
    if ( why )
        CHECK_STR(why, want);
}

static void test_bad_level(void)
{
    refuse(0, P | FRAME, &pol_all, "no such page-table level");
    refuse(5, P | FRAME, &pol_all, "no such page-table level");
    refuse(5, 0, &pol_all, "no such page-table level");
}

/* Xen checks nothing in a non-present entry (no L1TF check in a shim). */
static void test_not_present_any_bits(void)
{
    unsigned int l, i;

    for ( i = 0; i < ARRAY_SIZE(pols); i++ )
        for ( l = 1; l <= 4; l++ )
        {
            CHECK_EQ(accept(l, 0, pols[i]), 0);
            CHECK_EQ(accept(l, ~P, pols[i]), ~P);
            CHECK_EQ(accept(l, RW | US | G | _PAGE_PSE | _PAGE_NX | FRAME,
                            pols[i]),
                     RW | US | G | _PAGE_PSE | _PAGE_NX | FRAME);
        }
}

/*
 * Every bit a guest may set, at every level, all at once.  The entry has
 * USER, and bit 52 (the kernel marker) among the software bits, so no
 * adjustment applies: a user L1 entry the guest marked stays local.
 */
static void test_allowed_bits(void)
{
    uint64_t e = P | RW | US | A | D | PTE_AVAIL | PTE_AVAIL_HIGH | FRAME;
    unsigned int l;

    for ( l = 1; l <= 4; l++ )
    {
        CHECK_EQ(accept(l, e, &pol_all), e);
        CHECK_EQ(accept(l, e, &pol_none), e);
        CHECK_EQ(accept(l, e | _PAGE_NX, &pol_nx), e | _PAGE_NX);
    }
}

static void test_nx_with_cpu_nx(void)
{
    unsigned int l;

    for ( l = 1; l <= 4; l++ )
    {
        CHECK(accept(l, P | _PAGE_NX | FRAME, &pol_all) & _PAGE_NX);
        CHECK(accept(l, P | _PAGE_NX | FRAME, &pol_nx) & _PAGE_NX);
    }
}

static void test_nx_without_cpu_nx(void)
{
    unsigned int l;

    for ( l = 1; l <= 4; l++ )
    {
        refuse(l, P | _PAGE_NX | FRAME, &pol_none,
               "NX bit set but the CPU has no NX");
        refuse(l, P | US | RW | _PAGE_NX | FRAME, &pol_g,
               "NX bit set but the CPU has no NX");
    }
}

static void test_superpage_l2_l3(void)
{
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(pols); i++ )
    {
        refuse(2, P | RW | _PAGE_PSE | 0x200000, pols[i],
               "superpage (PSE) at L2/L3");
        refuse(3, P | _PAGE_PSE | 0x40000000, pols[i],
               "superpage (PSE) at L2/L3");
    }
}

static void test_l4_bit7_reserved(void)
{
    refuse(4, P | _PAGE_PSE | FRAME, &pol_all, "reserved bit 7 (PS) at L4");
    refuse(4, P | _PAGE_PSE | FRAME, &pol_none, "reserved bit 7 (PS) at L4");
}

static void test_l1_cache_attrs(void)
{
    static const char why[] =
        "cache attributes (PAT/PCD/PWT) at L1 without I/O memory";
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(pols); i++ )
    {
        refuse(1, P | PTE_PAT | FRAME, pols[i], why);
        refuse(1, P | _PAGE_PCD | FRAME, pols[i], why);
        refuse(1, P | _PAGE_PWT | FRAME, pols[i], why);
        refuse(1, P | RW | PTE_CACHE_ATTRS | FRAME, pols[i], why);
    }
}

static void test_table_cache_attrs(void)
{
    static const char why[] = "cache attributes (PCD/PWT) in a table entry";
    unsigned int l;

    for ( l = 2; l <= 4; l++ )
    {
        refuse(l, P | _PAGE_PCD | FRAME, &pol_all, why);
        refuse(l, P | _PAGE_PWT | FRAME, &pol_none, why);
    }
}

static void test_global_in_table_entry(void)
{
    unsigned int l, i;

    for ( i = 0; i < ARRAY_SIZE(pols); i++ )
        for ( l = 2; l <= 4; l++ )
            refuse(l, P | RW | G | FRAME, pols[i],
                   "global bit in a table entry (L2-L4)");
}

/* Xen's adjust_guest_l1e(), with global pages on. */
static void test_l1_adjust_global_on(void)
{
    /* Kernel mapping: made user-accessible and marked, not made global. */
    CHECK_EQ(accept(1, P | RW | FRAME, &pol_all), P | RW | US | GK | FRAME);
    /* User mapping: made global. */
    CHECK_EQ(accept(1, P | US | FRAME, &pol_all), P | US | G | FRAME);
    /* The guest's own _PAGE_GLOBAL is kept, on either kind (Xen warns). */
    CHECK_EQ(accept(1, P | G | FRAME, &pol_all), P | US | GK | G | FRAME);
    CHECK_EQ(accept(1, P | US | G | FRAME, &pol_g), P | US | G | FRAME);
    /* A user entry the guest marked with bit 52 is left local. */
    CHECK_EQ(accept(1, P | US | GK | FRAME, &pol_all), P | US | GK | FRAME);
}

/* global-pages off: no guest entry is global. */
static void test_l1_adjust_global_off(void)
{
    CHECK_EQ(accept(1, P | RW | FRAME, &pol_none), P | RW | US | GK | FRAME);
    CHECK_EQ(accept(1, P | US | FRAME, &pol_none), P | US | FRAME);
    CHECK_EQ(accept(1, P | G | FRAME, &pol_nx), P | US | GK | FRAME);
    CHECK_EQ(accept(1, P | US | G | FRAME, &pol_none), P | US | FRAME);
}

/* adjust_guest_l2e() .. adjust_guest_l4e(). */
static void test_table_adjust(void)
{
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(pols); i++ )
    {
        CHECK_EQ(accept(2, P | RW | FRAME, pols[i]), P | RW | US | FRAME);
        CHECK_EQ(accept(3, P | FRAME, pols[i]), P | US | FRAME);
        CHECK_EQ(accept(4, P | RW | FRAME, pols[i]), P | RW | US | A | FRAME);
        CHECK_EQ(accept(4, P | US | A | FRAME, pols[i]), P | US | A | FRAME);
    }
}

/* The highest address bit the CPU has is fine; the next one is not. */
static void test_paddr_boundary(void)
{
    static const unsigned int widths[] = { 36, 39, 40, 46, 48, 51 };
    unsigned int i, l;

    for ( i = 0; i < ARRAY_SIZE(widths); i++ )
        for ( l = 1; l <= 4; l++ )
        {
            struct pte_policy p = { true, true, widths[i], false };
            uint64_t top = 1UL << (widths[i] - 1);

            accept(l, P | top, &p);
            accept(l, P | ((top << 1) - 0x1000), &p);
            refuse(l, P | (top << 1), &p,
                   "address above the CPU's physical address width");
            refuse(l, P | (1UL << 51), &p,
                   "address above the CPU's physical address width");
            /* Not present: not looked at. */
            accept(l, top << 1, &p);
        }
}

static void test_paddr_52(void)
{
    unsigned int l;

    for ( l = 1; l <= 4; l++ )
        CHECK_EQ(accept(l, P | US | PADDR_MASK, &pol_none) & PADDR_MASK,
                 PADDR_MASK);
}

/* Every single bit, against Xen's masks in its get_pte_flags() form. */
static uint32_t xen_flags(uint64_t e)
{
    return ((uint32_t)(e >> 40) & ~0xfffU) | ((uint32_t)e & 0xfffU);
}

static bool xen_accepts(unsigned int level, uint64_t e,
                        const struct pte_policy *p)
{
    /* arch_init_memory(): PRESENT, RW, USER, A, D, AVAIL, AVAIL_HIGH, NX */
    uint32_t base = ~(0x001U | 0x002U | 0x004U | 0x020U | 0x040U | 0xe00U |
                      (0x7ffU << 12) | (p->nx ? 1U << 23 : 0)) & 0xffffffU;
    uint32_t mask = level == 1 ? base & ~0x100U : base;
    uint64_t addr = e & PADDR_MASK;

    /* l3_disallow_mask() for is_pv_32bit_domain(); no guest L4 there. */
    if ( p->compat && level == 3 )
        mask = 0xFFFFF198U;
    if ( p->compat && level == 4 )
        return false;
    return !(xen_flags(e) & mask) && !(addr >> p->paddr_bits);
}

/* What Xen's adjust_guest_l<N>e() adds (and the shim's global rule). */
static uint64_t xen_adjusted(unsigned int level, uint64_t e,
                             const struct pte_policy *p)
{
    if ( !p->compat )
        return 0;                       /* the 64-bit tests cover these */
    switch ( level )
    {
    case 1:
        return p->global_pages ? e : e & ~G;
    case 3:
        return e | US | RW | A;
    default:
        return e;
    }
}

static void test_every_bit_matches_xen(void)
{
    unsigned int i, l, b;

    for ( i = 0; i < ARRAY_SIZE(pols_both); i++ )
        for ( l = 1; l <= 4; l++ )
            for ( b = 1; b < 64; b++ )
            {
                uint64_t e = P | (1UL << b);
                const char *why = NULL;
                uint64_t v = e;
                int rc = pte_check(l, &v, pols_both[i], &why);

                CHECK_EQ(rc == 0, xen_accepts(l, e, pols_both[i]));
                /* Adjusting only ever adds USER, A, G or the marker. */
                if ( !rc && !pols_both[i]->compat )
                    CHECK_EQ((v ^ e) & ~(US | A | G | GK), 0);
                if ( !rc && pols_both[i]->compat )
                    CHECK_EQ(v, xen_adjusted(l, e, pols_both[i]));
            }
}

/* Random multi-bit entries: same verdict as Xen's masks, same adjustment. */
static void test_random_matches_xen(void)
{
    uint64_t x = 0x9e3779b97f4a7c15UL;
    unsigned int n, i, l;

    for ( n = 0; n < 20000; n++ )
    {
        uint64_t e;

        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        /* Few flag bits at a time, so that accepted entries occur too. */
        e = (x & x >> 5 & x >> 11) | P;
        for ( i = 0; i < ARRAY_SIZE(pols_both); i++ )
            for ( l = 1; l <= 4; l++ )
            {
                const char *why = NULL;
                uint64_t v = e;
                int rc = pte_check(l, &v, pols_both[i], &why);

                CHECK_EQ(rc == 0, xen_accepts(l, e, pols_both[i]));
                CHECK(rc ? why != NULL && v == e : why == NULL);
                if ( !rc && !pols_both[i]->compat )
                    CHECK(v & US);
                if ( !rc && pols_both[i]->compat )
                    CHECK_EQ(v, xen_adjusted(l, e, pols_both[i]));
            }
    }
}

/* A 32-bit guest: ring-1 kernel mappings stay supervisor; PDPTEs. */
static void test_compat(void)
{
    CHECK_EQ(accept(1, P | RW | FRAME, &pol32_all), P | RW | FRAME);
    CHECK_EQ(accept(1, P | US | G | FRAME, &pol32_all), P | US | G | FRAME);
    CHECK_EQ(accept(1, P | US | G | FRAME, &pol32_none), P | US | FRAME);
    CHECK_EQ(accept(1, P | _PAGE_NX | FRAME, &pol32_all),
             P | _PAGE_NX | FRAME);
    CHECK_EQ(accept(2, P | RW | FRAME, &pol32_all), P | RW | FRAME);
    CHECK_EQ(accept(3, P | FRAME, &pol32_all), P | RW | US | A | FRAME);
    refuse(3, P | _PAGE_NX | FRAME, &pol32_all,
           "bits a 32-bit guest's L3 (PDPT) entry can't have");
    refuse(3, P | _PAGE_PCD | FRAME, &pol32_all,
           "bits a 32-bit guest's L3 (PDPT) entry can't have");
    refuse(3, P | (1UL << 52) | FRAME, &pol32_all,
           "bits a 32-bit guest's L3 (PDPT) entry can't have");
    refuse(4, P | FRAME, &pol32_all, "no L4 entries for a 32-bit guest");
    refuse(2, P | _PAGE_PSE | FRAME, &pol32_all, "superpage (PSE) at L2/L3");
    refuse(1, P | (1UL << 40) | FRAME, &pol32_none,
           "address above the CPU's physical address width");
    CHECK_EQ(accept(4, FRAME, &pol32_all), FRAME);    /* not present */
}

static void test_is_superpage(void)
{
    CHECK(pte_is_superpage(2, P | _PAGE_PSE | 0x200000));
    CHECK(pte_is_superpage(3, P | RW | _PAGE_PSE | 0x40000000));
    CHECK(!pte_is_superpage(2, _PAGE_PSE | 0x200000));
    CHECK(!pte_is_superpage(2, P | FRAME));
    CHECK(!pte_is_superpage(1, P | PTE_PAT | FRAME));
    CHECK(!pte_is_superpage(4, P | _PAGE_PSE | FRAME));
    CHECK(!pte_is_superpage(0, P | _PAGE_PSE));
}

static void test_linear(void)
{
    unsigned int l;

    for ( l = 2; l <= 4; l++ )
    {
        CHECK(pte_linear_ok(l, P | FRAME));
        CHECK(pte_linear_ok(l, P | US | A | FRAME));
        /* "Attempt to create linear p.t. with write perms" */
        CHECK(!pte_linear_ok(l, P | RW | FRAME));
        CHECK(!pte_linear_ok(l, FRAME));
        CHECK(!pte_linear_ok(l, P | _PAGE_PSE | FRAME));
    }
    CHECK(!pte_linear_ok(1, P | FRAME));
    CHECK(!pte_linear_ok(0, P | FRAME));
    CHECK(!pte_linear_ok(5, P | FRAME));
}

/* A read-only recursive entry passes both checks at every table level. */
static void test_linear_after_check(void)
{
    unsigned int l;

    for ( l = 2; l <= 4; l++ )
        CHECK(pte_linear_ok(l, accept(l, P | A | FRAME, &pol_all)));
}

int main(void)
{
    RUN(test_bad_level);
    RUN(test_compat);
    RUN(test_not_present_any_bits);
    RUN(test_allowed_bits);
    RUN(test_nx_with_cpu_nx);
    RUN(test_nx_without_cpu_nx);
    RUN(test_superpage_l2_l3);
    RUN(test_l4_bit7_reserved);
    RUN(test_l1_cache_attrs);
    RUN(test_table_cache_attrs);
    RUN(test_global_in_table_entry);
    RUN(test_l1_adjust_global_on);
    RUN(test_l1_adjust_global_off);
    RUN(test_table_adjust);
    RUN(test_paddr_boundary);
    RUN(test_paddr_52);
    RUN(test_every_bit_matches_xen);
    RUN(test_random_matches_xen);
    RUN(test_is_superpage);
    RUN(test_linear);
    RUN(test_linear_after_check);
    UNIT_EXIT();
}
