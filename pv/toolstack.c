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

void pv_set_max_pages(unsigned long pages)
{
    spin_lock(&dom.page_alloc_lock);
    dom.max_pages = MIN(pages, dom.nr_pages);
    spin_unlock(&dom.page_alloc_lock);
}

unsigned long pv_tot_pages(void)
{
    return ACCESS_ONCE(dom.tot_pages);
}

struct xencons_interface *pv_console_ring(void)
{
    return dom.console;
}

struct xenstore_domain_interface *pv_store_ring(void)
{
    return dom.store_mfn ? __va(dom.store_mfn << PAGE_SHIFT) : NULL;
}

/*
 * The backends' lock, an rwlock (docs/architecture.md, "Locks"): the
 * backends' softirqs and the devices' completions read it, each backend's
 * own state under its own lock (a vbd's, a vif's) or on CPU 0 alone (the
 * console, xenstore), so a completion on one CPU runs beside CPU 0's
 * ring work; whatever wants them all still (the VM's end, mm-audit, the
 * 'b' key, CONSOLEIO_read's serial input) writes it.  backends_held[]:
 * how this CPU holds it, if at all.
 */
static DEFINE_RWLOCK(backends_lock, LOCK_RANK_BACKENDS);
enum { HELD_NONE, HELD_READ, HELD_WRITE };
static uint8_t backends_held[NR_CPUS];

bool pv_backend_locked(void)
{
    return backends_held[smp_processor_id()] != HELD_NONE;
}

/*
 * Waited for with interrupts on: its holder may flush (a grant's unmap).
 * A wait here is no stop for a pause (pv_pause_others()): the waiter may
 * get it while the pauser holds the domain lock, and run the backends;
 * it parks after (pv_exit_work(), vcpu_sleep()).  So a pauser that wants
 * the backends still takes this lock after the pause, not before.  A
 * CPU that holds it to read already (a guest crash in a backend's
 * softirq) keeps that: the pause let every other reader finish first.
 */
bool pv_backends_lock_unless_held(void)
{
    if ( pv_backend_locked() )
        return false;
    write_lock_irq_on_wait(&backends_lock);
    backends_held[smp_processor_id()] = HELD_WRITE;
    return true;
}

bool pv_backends_read_lock_unless_held(void)
{
    if ( pv_backend_locked() )
        return false;
    read_lock_irq_on_wait(&backends_lock);
    backends_held[smp_processor_id()] = HELD_READ;
    return true;
}

void pv_backends_unlock_taken(bool taken)
{
    uint8_t *held = &backends_held[smp_processor_id()];

    if ( !taken )
        return;
    if ( *held == HELD_WRITE )
        write_unlock(&backends_lock);
    else
        read_unlock(&backends_lock);
    *held = HELD_NONE;
}
