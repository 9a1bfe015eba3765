/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A 32-bit PAE guest (Xen's "compat" PV guest, xen-3.0-x86_32p): what the
 * shim sets up once it knows the kernel is one, before anything of the
 * guest is built (Xen's switch_compat()).
 */
#include "shim/lib.h"
#include "arch/x86/desc.h"
#include "pv/build/build.h"
#include "pv/domain.h"
#include "pv/mm/m2p.h"
#include "pv/mm/mm.h"
#include "shim/console.h"

void pv_compat_domain_init(struct domain *d)
{
    unsigned int i;

    d->compat = true;
    pv_mm_set_compat();
    pv_m2p_compat_init();
    desc_use_compat_gdt();
    for ( i = 0; i < d->max_vcpus; i++ )
        pv_compat_vcpu_init(&d->vcpu[i]);
    printk("Dom1: 32-bit PAE guest: kernel in ring 1, hypercalls by "
           "int $0x82\n");
}
