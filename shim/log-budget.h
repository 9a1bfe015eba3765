/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A budget for the log lines a guest can make come again and again: a
 * frontend that connects and breaks its ring in a loop makes its
 * backend say so each time.  Xen rate-limits such lines (XENLOG_G_*,
 * printk_ratelimit(): ten in five seconds, shared by all); here each
 * device has its own budget of LOG_BUDGET_BURST lines, and one line more
 * each LOG_BUDGET_REFILL_S seconds, so that every line of a device that
 * behaves (a boot, a reboot of its driver, a test's hostile
 * steps) appears whatever the timing, and a flood costs the console one
 * line a minute for each device.  The lines held back are counted and
 * their number said before the next line let through.  Lock-free: a
 * device's lines come from its state machine and from its rings' CPUs.
 */
#ifndef SHIM_LOG_BUDGET_H
#define SHIM_LOG_BUDGET_H

#include "shim/lib.h"
#include "shim/console.h"
#include "shim/timer.h"                     /* NOW() */

#define LOG_BUDGET_BURST        128
#define LOG_BUDGET_REFILL_S     60

/* Zero-initialised: the whole budget. */
struct log_budget {
    uint64_t word;      /* used (16 bits), held back (16), since (32: s) */
};

/*
 * Take one line of @b at @now_s (seconds): true if it may be printed,
 * with *@held the lines held back since the last one let through.
 */
bool log_budget_take(struct log_budget *b, uint64_t now_s,
                     unsigned int *held);

/*
 * printk() a line of @b, a device called @name: "@prefix: @name: N lines
 * held back" first if any were, as a warning whatever the line's level
 * (what was held back may have been warnings).
 */
#define budget_printk(b, level, prefix, name, fmt, ...) do {                \
    unsigned int held_;                                                     \
                                                                            \
    if ( log_budget_take(b, NOW() / 1000000000ULL, &held_) )                \
    {                                                                       \
        if ( held_ )                                                        \
            printk(XENLOG_WARNING "%s: %s: %u lines held back (a line a "   \
                   "minute after the first %u)\n", prefix, name, held_,     \
                   LOG_BUDGET_BURST);                                       \
        printk(level fmt, ##__VA_ARGS__);                                   \
    }                                                                       \
} while ( 0 )

#endif /* SHIM_LOG_BUDGET_H */
