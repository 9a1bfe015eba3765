/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-device budgets for guest-triggered log lines (shim/log-budget.h). */
#include "shim/log-budget.h"

#define USED_MASK       0xffffULL
#define HELD_SHIFT      16
#define HELD_MAX        0xffffU
#define SINCE_SHIFT     32

bool log_budget_take(struct log_budget *b, uint64_t now_s,
                     unsigned int *held)
{
    uint64_t old = __atomic_load_n(&b->word, __ATOMIC_RELAXED), new;
    uint32_t now = now_s;
    bool ok;

    do {
        unsigned int used = old & USED_MASK;
        unsigned int h = (old >> HELD_SHIFT) & HELD_MAX;
        uint32_t since = old >> SINCE_SHIFT;
        /*
         * A line back for each period since the refill clock started;
         * none if another CPU's later clock started it after this one
         * read its own (wrapping, that would refill it all).
         */
        uint32_t back = (int32_t)(now - since) < 0
                        ? 0 : (uint32_t)(now - since) / LOG_BUDGET_REFILL_S;

        if ( used && back )
        {
            used = back >= used ? 0 : used - back;
            since += back * LOG_BUDGET_REFILL_S;
        }
        if ( !used )
            since = now;
        ok = used < LOG_BUDGET_BURST;
        if ( ok )
        {
            used++;
            *held = h;
            h = 0;
        }
        else if ( h < HELD_MAX )
            h++;
        new = used | ((uint64_t)h << HELD_SHIFT) |
              ((uint64_t)since << SINCE_SHIFT);
    } while ( !__atomic_compare_exchange_n(&b->word, &old, new, false,
                                           __ATOMIC_RELAXED,
                                           __ATOMIC_RELAXED) );
    return ok;
}
