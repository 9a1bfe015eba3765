/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The host's balloon in numbers (backends/balloon/balloon.c), pure so the
 * host tests check them: from the pages the host wants, the guest's
 * memory target and maximum, and how many frames may go to the host now
 * or must come back from it.  All counts are 4 KiB pages.
 */
#ifndef BACKENDS_BALLOON_PLAN_H
#define BACKENDS_BALLOON_PLAN_H

#include "shim/lib.h"

/*
 * What the guest may hold beyond its target, as libxl's xl mem-set sets
 * the domain's maximum (LIBXL_MAXMEM_CONSTANT, 1 MiB): a balloon driver
 * that overshoots by a little is not refused.
 */
#define BALLOON_SLACK_PAGES     256UL

/*
 * The guest's target when the host wants @wanted pages: the shim's
 * @spare (frames it had free beyond its reserve when the guest started)
 * go first, the rest comes out of the guest's @nr_pages; 0 if the host
 * wants more than both (the guest gives what it can).
 */
static inline unsigned long balloon_guest_target(unsigned long nr_pages,
                                                 unsigned long spare,
                                                 unsigned long wanted)
{
    unsigned long from_guest = wanted > spare ? wanted - spare : 0;

    return from_guest >= nr_pages ? 0 : nr_pages - from_guest;
}

/* The guest's maximum reservation for @target: never above @nr_pages. */
static inline unsigned long balloon_max_pages(unsigned long nr_pages,
                                              unsigned long target)
{
    return target >= nr_pages - MIN(nr_pages, BALLOON_SLACK_PAGES)
           ? nr_pages : target + BALLOON_SLACK_PAGES;
}

/*
 * Frames to hand the host now: what it still wants beyond the @held it
 * has, out of the @returned frames it may have at all (the spare ones
 * and those the guest gave back), and never so many that the
 * allocator's @free falls to @floor.  What the shim took for itself
 * since the guest started (a grant table grown) is its reserve's, not
 * the host's: counting what the guest returned, not what is free
 * beyond the reserve, gives the host exactly what it asked for.
 */
static inline unsigned long balloon_to_give(unsigned long held,
                                            unsigned long wanted,
                                            unsigned long returned,
                                            unsigned long free,
                                            unsigned long floor)
{
    if ( held >= wanted || held >= returned || free <= floor )
        return 0;
    return MIN(MIN(wanted - held, returned - held), free - floor);
}

/* Frames to take back: what the host holds beyond what it wants. */
static inline unsigned long balloon_to_take(unsigned long held,
                                            unsigned long wanted)
{
    return held > wanted ? held - wanted : 0;
}

#endif /* BACKENDS_BALLOON_PLAN_H */
