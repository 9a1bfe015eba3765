/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of backends/balloon/plan.h: the guest's target for what the
 * host wants (the shim's spare frames first, never below 0), its maximum
 * (the target and libxl's 1 MiB, never past what it was built with), and
 * how many frames may go to the host now (what the guest returned and
 * the spare ones, never the allocator's last frames) or must come back.
 */
#include "tests/unit/unit.h"
#include "backends/balloon/plan.h"

#define NR      109490UL    /* a guest of 427 MiB */
#define SPARE   1000UL

static void guest_target(void)
{
    CHECK_EQ(balloon_guest_target(NR, SPARE, 0), NR);
    /* The spare frames go first: the guest gives nothing for them. */
    CHECK_EQ(balloon_guest_target(NR, SPARE, SPARE - 1), NR);
    CHECK_EQ(balloon_guest_target(NR, SPARE, SPARE), NR);
    CHECK_EQ(balloon_guest_target(NR, SPARE, SPARE + 1), NR - 1);
    CHECK_EQ(balloon_guest_target(NR, SPARE, 20480), NR - (20480 - SPARE));
    CHECK_EQ(balloon_guest_target(NR, 0, 20480), NR - 20480);
    /* All of it, and more than there is: 0, not a wrapped count. */
    CHECK_EQ(balloon_guest_target(NR, SPARE, NR + SPARE), 0);
    CHECK_EQ(balloon_guest_target(NR, SPARE, NR + SPARE + 1), 0);
    CHECK_EQ(balloon_guest_target(NR, SPARE, ~0UL), 0);
    CHECK_EQ(balloon_guest_target(NR, ~0UL, ~0UL), NR);
    CHECK_EQ(balloon_guest_target(0, 0, 5), 0);
}

static void max_pages(void)
{
    CHECK_EQ(balloon_max_pages(NR, NR), NR);
    CHECK_EQ(balloon_max_pages(NR, NR - 1), NR);
    CHECK_EQ(balloon_max_pages(NR, NR - BALLOON_SLACK_PAGES), NR);
    CHECK_EQ(balloon_max_pages(NR, NR - BALLOON_SLACK_PAGES - 1), NR - 1);
    CHECK_EQ(balloon_max_pages(NR, 0), BALLOON_SLACK_PAGES);
    CHECK_EQ(balloon_max_pages(NR, 88000), 88000 + BALLOON_SLACK_PAGES);
    /* A guest smaller than the slack: never past its own size. */
    CHECK_EQ(balloon_max_pages(100, 0), 100);
    CHECK_EQ(balloon_max_pages(100, 50), 100);
    CHECK_EQ(balloon_max_pages(0, 0), 0);
}

#define FLOOR   2048UL
#define FREE    100000UL

static void to_give(void)
{
    CHECK_EQ(balloon_to_give(0, 0, 1000, FREE, FLOOR), 0);
    CHECK_EQ(balloon_to_give(0, 500, 1000, FREE, FLOOR), 500);
    CHECK_EQ(balloon_to_give(200, 500, 1000, FREE, FLOOR), 300);
    /* No more than the guest returned (and the spare ones). */
    CHECK_EQ(balloon_to_give(0, 500, 120, FREE, FLOOR), 120);
    CHECK_EQ(balloon_to_give(100, 500, 120, FREE, FLOOR), 20);
    CHECK_EQ(balloon_to_give(120, 500, 120, FREE, FLOOR), 0);
    CHECK_EQ(balloon_to_give(130, 500, 120, FREE, FLOOR), 0);
    CHECK_EQ(balloon_to_give(0, 500, 0, FREE, FLOOR), 0);
    /* The allocator never below the floor, whatever was returned. */
    CHECK_EQ(balloon_to_give(0, 500, 1000, FLOOR + 10, FLOOR), 10);
    CHECK_EQ(balloon_to_give(0, 500, 1000, FLOOR, FLOOR), 0);
    CHECK_EQ(balloon_to_give(0, 500, 1000, FLOOR - 1, FLOOR), 0);
    CHECK_EQ(balloon_to_give(0, 500, 1000, 0, FLOOR), 0);
    /* Held already what is wanted, or more: nothing. */
    CHECK_EQ(balloon_to_give(500, 500, 1000, FREE, FLOOR), 0);
    CHECK_EQ(balloon_to_give(600, 500, 1000, FREE, FLOOR), 0);
}

static void to_take(void)
{
    CHECK_EQ(balloon_to_take(0, 0), 0);
    CHECK_EQ(balloon_to_take(0, 500), 0);
    CHECK_EQ(balloon_to_take(500, 500), 0);
    CHECK_EQ(balloon_to_take(600, 500), 100);
    CHECK_EQ(balloon_to_take(600, 0), 600);
}

int main(void)
{
    RUN(guest_target);
    RUN(max_pages);
    RUN(to_give);
    RUN(to_take);
    UNIT_EXIT();
}
