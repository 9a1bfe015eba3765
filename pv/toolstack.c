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

bool pv_backend_locked(void)
{
    return pv_domain_locked();
}
