/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Translations of the physdev operations whose arguments differ for
 * compat guests (xlat.lst lists none: Xen's x86_64/physdev.c redefines
 * these four by hand).  See pv/compat/xlat.h.
 */
#include "pv/compat/xlat.h"
#include <xen/errno.h>

void xlat_physdev_set_iobitmap_from_compat(struct physdev_set_iobitmap *n,
                                           const void *c)
{
    memset(n, 0, sizeof(*n));
    set_xen_guest_handle(n->bitmap,
        compat_get_handle(c, physdev_set_iobitmap, bitmap));
    n->nr_ports = compat_get(c, physdev_set_iobitmap, nr_ports);
}

void xlat_physdev_apic_from_compat(struct physdev_apic *n, const void *c)
{
    memset(n, 0, sizeof(*n));
    n->apic_physbase = compat_get(c, physdev_apic, apic_physbase);
    n->reg = compat_get(c, physdev_apic, reg);
    n->value = compat_get(c, physdev_apic, value);
}

int xlat_physdev_apic_to_compat(void *c, const struct physdev_apic *n)
{
    memset(c, 0, COMPAT_SIZEOF(physdev_apic));
    compat_put(c, physdev_apic, reg, n->reg);
    compat_put(c, physdev_apic, value, n->value);
    return compat_put_fit(c, physdev_apic, apic_physbase, n->apic_physbase)
           ? 0 : -XEN_ERANGE;
}

void xlat_physdev_map_pirq_from_compat(struct physdev_map_pirq *n,
                                       const void *c)
{
    memset(n, 0, sizeof(*n));
    n->domid = compat_get(c, physdev_map_pirq, domid);
    n->type = compat_get(c, physdev_map_pirq, type);
    n->index = compat_get(c, physdev_map_pirq, index);
    n->pirq = compat_get(c, physdev_map_pirq, pirq);
    n->bus = compat_get(c, physdev_map_pirq, bus);
    n->devfn = compat_get(c, physdev_map_pirq, devfn);
    n->entry_nr = compat_get(c, physdev_map_pirq, entry_nr);
    n->table_base = compat_get(c, physdev_map_pirq, table_base);
}

void xlat_physdev_map_pirq_to_compat(void *c,
                                     const struct physdev_map_pirq *n)
{
    memset(c, 0, COMPAT_SIZEOF(physdev_map_pirq));
    compat_put(c, physdev_map_pirq, domid, n->domid);
    compat_put(c, physdev_map_pirq, type, n->type);
    compat_put(c, physdev_map_pirq, index, n->index);
    compat_put(c, physdev_map_pirq, pirq, n->pirq);
    compat_put(c, physdev_map_pirq, bus, n->bus);
    compat_put(c, physdev_map_pirq, devfn, n->devfn);
    compat_put(c, physdev_map_pirq, entry_nr, n->entry_nr);
    compat_put(c, physdev_map_pirq, table_base, n->table_base);
}

void xlat_physdev_pirq_eoi_gmfn_from_compat(
    struct physdev_pirq_eoi_gmfn *n, const void *c)
{
    memset(n, 0, sizeof(*n));
    n->gmfn = compat_get(c, physdev_pirq_eoi_gmfn, gmfn);
}
