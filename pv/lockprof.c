/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The domain's profiled locks ("Domain 1 ..." in the 'l' printout), and
 * XEN_SYSCTL_lockprof_op for a guest the command line trusts with it
 * (Xen's spinlock_profile_control(); Xen refuses it to a domU); the
 * debug build's proof that its lock order check is live.
 */
#define __XEN_TOOLS__ 1                 /* sysctl.h */
#undef __XEN_INTERFACE_VERSION__
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/errno.h>
#include <xen/sysctl.h>
#include "shim/console.h"
#include "shim/panic.h"
#include "shim/param.h"
#include "shim/spinlock.h"
#include "pv/domain.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/lockprof.h"

/*
 * lock-profile-guest: answer the guest's XEN_SYSCTL_lockprof_op (Xen's
 * XSM policy lets only the control domain profile); off by default.
 */
bool opt_lock_profile_guest;
boolean_param("lock-profile-guest", opt_lock_profile_guest);

/*
 * lock-order-selftest: the boot takes the domain's page_alloc_lock and
 * then its event_lock, which ranks before it, so the debug build's
 * order check must panic naming both; off by default, and only a
 * warning in a build without the check.
 */
static bool opt_lock_order_selftest;
boolean_param("lock-order-selftest", opt_lock_order_selftest);

#define PV_DOMID    1

static void lock_order_selftest(struct domain *d)
{
    if ( !IS_ENABLED(CONFIG_DEBUG) )
    {
        printk(XENLOG_WARNING "lock-order-selftest: this build has no "
               "lock order check\n");
        return;
    }
    printk("lock-order-selftest: event_lock after page_alloc_lock\n");
    spin_lock(&d->page_alloc_lock);
    spin_lock(&d->event_lock);
    panic("lock-order-selftest: the lock order check let it pass");
}

void pv_domain_locks_init(struct domain *d)
{
    spin_lock_init_prof(d, page_alloc_lock, LOCK_RANK_PAGE_ALLOC);
    spin_lock_init_prof(d, event_lock, LOCK_RANK_EVENT);
    spin_lock_init_prof(d, domain_lock, LOCK_RANK_DOMAIN);
    spin_lock_init_prof(d, watchdog_lock, LOCK_RANK_WATCHDOG);
    for ( unsigned int i = 0; i < ARRAY_SIZE(d->vcpu); i++ )
        spin_lock_init(&d->vcpu[i].gdt_lock, LOCK_RANK_GDT);
    /* The grant table's, named as their fields in Xen's struct grant_table. */
    _rwlock_init_prof(&d->grant_table.lock, &d->profile_head, "gt->lock",
                      LOCK_RANK(LOCK_RANK_GRANT_TABLE));
    _spin_lock_init_prof(&d->grant_table.maptrack_lock, &d->profile_head,
                         "gt->maptrack_lock", LOCK_RANK(LOCK_RANK_MAPTRACK));
    lock_profile_register_struct(LOCKPROF_TYPE_PERDOM, d, PV_DOMID);
    if ( opt_lock_order_selftest )
        lock_order_selftest(d);
}

struct lock_profile_qhead *pv_lock_profile_head(void)
{
    return &dom.profile_head;
}

struct ucopy {
    struct xen_sysctl_lockprof_op *pc;
    int rc;
};

/*
 * One lock into the guest's array: elements past max_elem are counted,
 * not written, so nr_elem says how many there are; the first copy that
 * faults ends the query with -EFAULT.
 */
static void ucopy_elem(struct lock_profile *data, int32_t type, int32_t idx,
                       void *par)
{
    struct ucopy *p = par;
    struct xen_sysctl_lockprof_data elem;

    if ( p->rc )
        return;
    if ( p->pc->nr_elem < p->pc->max_elem )
    {
        memset(&elem, 0, sizeof(elem));
        strlcpy(elem.name, data->name, sizeof(elem.name));
        elem.type = type;
        elem.idx = idx;
        elem.lock_cnt = data->lock_cnt;
        elem.block_cnt = data->block_cnt;
        elem.lock_time = data->time_hold;
        elem.block_time = data->time_block;
        if ( copy_to_guest_offset((unsigned long)p->pc->data.p,
                                  p->pc->nr_elem, &elem, sizeof(elem)) )
            p->rc = -XEN_EFAULT;
    }
    if ( !p->rc )
        p->pc->nr_elem++;
}

long pv_sysctl_lockprof(struct xen_sysctl_lockprof_op *pc)
{
    struct ucopy par = { .pc = pc };

    switch ( pc->cmd )
    {
    case XEN_SYSCTL_LOCKPROF_reset:
        spinlock_profile_reset('\0');
        return 0;

    case XEN_SYSCTL_LOCKPROF_query:
        pc->nr_elem = 0;
        pc->time = spinlock_profile_iterate(ucopy_elem, &par);
        return par.rc;

    default:
        return -XEN_EINVAL;
    }
}
