/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which flags and addresses a 64-bit PV guest may put in its page-table
 * entries, and how the shim completes them.  Pure, so that
 * tests/unit/test-pte-rules.c runs it on the host.
 */
#include "shim/lib.h"
#include <xen/errno.h>
#include "pv/mm/pte-rules.h"

int pte_check(unsigned int level, uint64_t *e, const struct pte_policy *p,
              const char **why)
{
    return pte_check_inline(level, e, p, why);
}

bool pte_is_superpage(unsigned int level, uint64_t e)
{
    return (level == 2 || level == 3) &&
           (e & (_PAGE_PRESENT | _PAGE_PSE)) == (_PAGE_PRESENT | _PAGE_PSE);
}

bool pte_linear_ok(unsigned int level, uint64_t e)
{
    if ( level < 2 || level > 4 || !(e & _PAGE_PRESENT) )
        return false;

    /* "Attempt to create linear p.t. with write perms" */
    if ( e & _PAGE_RW )
        return false;

    /* pte_check() refuses these already; a linear entry is a table. */
    return !(e & _PAGE_PSE);
}
