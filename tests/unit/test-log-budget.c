/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of shim/log-budget.c: a device's first LOG_BUDGET_BURST
 * lines all pass whatever the clock, a flood then gets one line each
 * LOG_BUDGET_REFILL_S seconds with the count of those held back, a quiet
 * device gets its whole budget back, and the clock's 32-bit seconds wrap
 * harmlessly.
 */
#include "tests/unit/unit.h"
#include "../../shim/log-budget.c"

static unsigned int take_n(struct log_budget *b, uint64_t now,
                           unsigned int n, unsigned int *last_held)
{
    unsigned int ok = 0, held;

    while ( n-- )
        if ( log_budget_take(b, now, &held) )
        {
            ok++;
            *last_held = held;
        }
    return ok;
}

static void test_burst_then_held(void)
{
    struct log_budget b = { 0 };
    unsigned int held = ~0u;

    CHECK_EQ(take_n(&b, 1000, LOG_BUDGET_BURST, &held), LOG_BUDGET_BURST);
    CHECK_EQ(held, 0);
    /* The same second, then a period less one second: nothing more. */
    CHECK_EQ(take_n(&b, 1000, 10, &held), 0);
    CHECK_EQ(take_n(&b, 1000 + LOG_BUDGET_REFILL_S - 1, 5, &held), 0);
    /* A period on: one line, which says the fifteen held back. */
    CHECK_EQ(take_n(&b, 1000 + LOG_BUDGET_REFILL_S, 3, &held), 1);
    CHECK_EQ(held, 15);
    /* Two periods later: two lines, the first saying the two before. */
    CHECK_EQ(take_n(&b, 1000 + 3 * LOG_BUDGET_REFILL_S, 1, &held), 1);
    CHECK_EQ(held, 2);
    CHECK_EQ(take_n(&b, 1000 + 3 * LOG_BUDGET_REFILL_S, 3, &held), 1);
    CHECK_EQ(held, 0);
}

static void test_quiet_refills(void)
{
    struct log_budget b = { 0 };
    unsigned int held;

    CHECK_EQ(take_n(&b, 50, LOG_BUDGET_BURST + 7, &held), LOG_BUDGET_BURST);
    /* Quiet for a whole budget's periods: all of it back, and no more. */
    CHECK_EQ(take_n(&b, 50 + LOG_BUDGET_BURST * LOG_BUDGET_REFILL_S,
                    2 * LOG_BUDGET_BURST, &held), LOG_BUDGET_BURST);
    /* Ten used, five periods quiet: five back (the clock ran from the first). */
    memset(&b, 0, sizeof(b));
    CHECK_EQ(take_n(&b, 0, 10, &held), 10);
    CHECK_EQ(take_n(&b, 5 * LOG_BUDGET_REFILL_S, LOG_BUDGET_BURST, &held),
             LOG_BUDGET_BURST - 5);
}

static void test_held_saturates(void)
{
    struct log_budget b = { 0 };
    unsigned int held;

    CHECK_EQ(take_n(&b, 7, LOG_BUDGET_BURST + 70000, &held),
             LOG_BUDGET_BURST);
    CHECK_EQ(take_n(&b, 7 + LOG_BUDGET_REFILL_S, 1, &held), 1);
    CHECK_EQ(held, 0xffff);
}

static void test_wrap(void)
{
    struct log_budget b = { 0 };
    unsigned int held;
    uint64_t t = 0xffffffffULL - 10;

    CHECK_EQ(take_n(&b, t, LOG_BUDGET_BURST + 1, &held), LOG_BUDGET_BURST);
    /* 32-bit seconds wrap: a period later is still a period later. */
    CHECK_EQ(take_n(&b, t + LOG_BUDGET_REFILL_S, 2, &held), 1);
    CHECK_EQ(held, 1);
}

/*
 * Two CPUs: one's clock read a second before the other's line restarted
 * the refill clock: no refill for it (time going back is none, not the
 * wrap of four billion seconds).
 */
static void test_clock_behind(void)
{
    struct log_budget b = { 0 };
    unsigned int held;

    CHECK_EQ(take_n(&b, 100, LOG_BUDGET_BURST + 3, &held), LOG_BUDGET_BURST);
    CHECK_EQ(take_n(&b, 100 + LOG_BUDGET_REFILL_S, 1, &held), 1);
    CHECK_EQ(take_n(&b, 100 + LOG_BUDGET_REFILL_S - 1, 10, &held), 0);
}

int main(void)
{
    RUN(test_burst_then_held);
    RUN(test_quiet_refills);
    RUN(test_held_saturates);
    RUN(test_wrap);
    RUN(test_clock_behind);
    UNIT_EXIT();
}
