/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest as the shim's backends see it, the shim being its toolstack
 * ("domain 0"): its size and vCPUs, and the console and xenstore pages
 * the builder gave it, reached through the shim's directmap (pv/pv.h).
 */
#include "shim/lib.h"
#include "arch/x86/layout.h"
#include "shim/frame.h"
#include "pv/domain.h"
#include "pv/pv.h"
#include "pv/vcpu/smp.h"

void pv_guest_info(struct pv_guest_info *info)
{
    info->nr_pages = dom.nr_pages;
    info->max_vcpus = dom.max_vcpus;
    info->compat = dom.compat;
    info->store_mfn = dom.store_mfn;
    info->console_mfn = dom.console_mfn;
}

struct xencons_interface *pv_console_ring(void)
{
    return dom.console;
}

struct xenstore_domain_interface *pv_store_ring(void)
{
    return dom.store_mfn ? __va(dom.store_mfn << PAGE_SHIFT) : NULL;
}

static DEFINE_SPINLOCK(backends_lock, LOCK_RANK_BACKENDS);

bool pv_backend_locked(void)
{
    return spin_is_locked_by_me(&backends_lock);
}

/*
 * Waited for with interrupts on: its holder may flush (a grant's unmap).
 * A wait here is no stop for a pause (pv_pause_others()): the waiter may
 * get it while the pauser holds the domain lock, and run the backends;
 * it parks after (pv_exit_work(), vcpu_sleep()).  So a pauser that wants
 * the backends still takes this lock after the pause, not before.
 */
bool pv_backends_lock_unless_held(void)
{
    if ( pv_backend_locked() )
        return false;
    spin_lock_irq_on_wait(&backends_lock);
    return true;
}

void pv_backends_unlock_taken(bool taken)
{
    if ( taken )
        spin_unlock(&backends_lock);
}
