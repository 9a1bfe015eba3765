/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A grant's host mapping in the guest's page tables, as Xen's
 * pv/grant_table.c makes it: an L1 entry written in place, found by guest
 * linear address or, with GNTMAP_contains_pte, by the machine address of
 * the entry itself.  The entry holds the references map_grant_ref took,
 * so writing it takes none; the entry it replaces drops its own.
 */
#include "pv/grant/private.h"
#include "pv/grant/grant-rules.h"
#include "arch/x86/page.h"
#include "pv/guest-access.h"
#include "pv/mm/mm.h"
#include "pv/mm/pte-rules.h"

static uint64_t grant_pte_flags(unsigned int flags)
{
    return gnt_pte_flags(flags, page_nx_bit());
}

/*
 * The L1 entry @addr names: with contains_pte the machine address of an
 * aligned entry in a guest frame, else the entry mapping guest linear
 * @addr.  The L1 must be a validated page table of the guest's; it is
 * returned locked (*@locked, for pv_unlock_table()), as Xen's grant
 * mapping takes the L1's page lock.
 */
static uint64_t *find_l1e(uint64_t addr, bool contains_pte,
                          unsigned long *l1_mfn, struct page_info **locked)
{
    struct page_info *pg;
    unsigned int idx;

    if ( contains_pte )
    {
        if ( addr & (sizeof(uint64_t) - 1) )
            return NULL;
        *l1_mfn = addr >> PAGE_SHIFT;
        idx = (addr & (PAGE_SIZE - 1)) / sizeof(uint64_t);
    }
    else if ( !guest_range_ok(addr, 1) ||
              guest_l1_slot(current_vcpu(), addr, l1_mfn, &idx) )
        return NULL;

    if ( !(pg = pv_lock_table(*l1_mfn, PGT_L1)) )
        return NULL;
    *locked = pg;
    return (uint64_t *)__va(*l1_mfn << PAGE_SHIFT) + idx;
}

int create_grant_pv_mapping(uint64_t addr, unsigned long mfn,
                            unsigned int flags)
{
    uint64_t nl1e = ((uint64_t)mfn << PAGE_SHIFT) | grant_pte_flags(flags);
    uint64_t ol1e, *pl1e;
    unsigned long l1_mfn;
    struct page_info *l1pg;

    /* adjust_guest_l1e(): the same completion as any guest L1 entry. */
    if ( pv_check_entry(1, &nl1e) )
        return GNTST_general_error;
    pl1e = find_l1e(addr, flags & GNTMAP_contains_pte, &l1_mfn, &l1pg);
    if ( !pl1e )
    {
        printk(XENLOG_DEBUG "d1: no L1 entry for grant map at %#lx\n",
               (unsigned long)addr);
        return GNTST_general_error;
    }
    ol1e = ACCESS_ONCE(*pl1e);
    ACCESS_ONCE(*pl1e) = nl1e;
    put_page_from_entry(1, ol1e, l1_mfn);
    pv_unlock_table(l1pg);
    return GNTST_okay;
}

/* Xen's steal_linear_address(): take the entry at @linear, leave 0. */
static bool steal_linear_address(uint64_t linear, uint64_t *out)
{
    unsigned long l1_mfn;
    struct page_info *l1pg;
    uint64_t *pl1e = find_l1e(linear, false, &l1_mfn, &l1pg);

    if ( !pl1e )
        return false;
    *out = ACCESS_ONCE(*pl1e);
    ACCESS_ONCE(*pl1e) = 0;
    pv_unlock_table(l1pg);
    return true;
}

int replace_grant_pv_mapping(uint64_t addr, unsigned long mfn,
                             uint64_t new_addr, unsigned int flags)
{
    uint64_t gflags = grant_pte_flags(flags), nl1e = 0, ol1e, *pl1e;
    bool contains_pte = flags & GNTMAP_contains_pte;
    unsigned long l1_mfn;
    struct page_info *l1pg;
    int rc = GNTST_general_error;

    /* Replace is for linear addresses only. */
    if ( contains_pte && new_addr )
        return rc;
    if ( !contains_pte && new_addr && !steal_linear_address(new_addr, &nl1e) )
        return rc;
    pl1e = find_l1e(addr, contains_pte, &l1_mfn, &l1pg);
    if ( !pl1e )
        goto out;

    /* The entry must still map the granted frame, as it was granted. */
    ol1e = ACCESS_ONCE(*pl1e);
    if ( ((ol1e & PADDR_MASK) >> PAGE_SHIFT) != mfn ||
         ((ol1e ^ gflags) & (_PAGE_PRESENT | _PAGE_RW)) )
        printk(XENLOG_DEBUG "d1: PTE %#lx at %#lx doesn't match grant of "
               "mfn %#lx\n", (unsigned long)ol1e, (unsigned long)addr, mfn);
    else
    {
        ACCESS_ONCE(*pl1e) = nl1e;
        rc = GNTST_okay;
    }
    pv_unlock_table(l1pg);

 out:
    /* Failed: the stolen entry is ours to drop. */
    if ( rc )
        put_page_from_entry(1, nl1e, 0);
    return rc;
}
