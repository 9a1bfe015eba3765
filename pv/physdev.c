/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_physdev_op, as Xen's x86 physdev.c answers an unprivileged
 * PV domain with no physical devices: its virtual IOPL and I/O bitmap
 * are its own to set; its interrupts (pirqs) and every device, APIC or
 * MSI operation are the toolstack's or dom0's (-EPERM from XSM's
 * default policy, once the argument is read).
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/errno.h>
#include <xen/physdev.h>
#include "arch/x86/eflags.h"
#include "pv/domain.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "pv/compat/handle.h"
#include "pv/compat/xlat.h"
#include "pv/mm/mm.h"

#define IOBMP_BYTES             8192    /* a bit for each of 65536 ports */

/* The largest argument any sub-op reads, for the refused ones. */
union physdev_arg {
    struct physdev_manage_pci manage_pci;
    struct physdev_manage_pci_ext manage_pci_ext;
    struct physdev_pci_device_add pci_device_add;
    struct physdev_pci_device pci_device;
    struct physdev_restore_msi restore_msi;
    struct physdev_setup_gsi setup_gsi;
    struct physdev_pci_mmcfg_reserved mmcfg;
    struct physdev_dbgp_op dbgp;
    struct physdev_apic apic;
    struct physdev_map_pirq map_pirq;
    struct physdev_unmap_pirq unmap_pirq;
};

static long set_iopl(unsigned long arg)
{
    struct physdev_set_iopl op;

    if ( copy_from_guest(&op, arg, sizeof(op)) )
        return -XEN_EFAULT;
    if ( op.iopl > 3 )
        return -XEN_EINVAL;
    current_vcpu()->iopl = op.iopl << X86_EFLAGS_IOPL_SHIFT;
    return 0;
}

/*
 * The guest's own I/O bitmap, read (as the guest could) on every in/out
 * its IOPL doesn't allow: a clear bit lets the port through
 * (pv/emul/emul-io.c).  Xen checks the whole bitmap's range up front
 * (a 32-bit guest's below its hole: Xen's compat build of physdev.c
 * checks with compat_handle_okay()).
 */
static always_inline long set_iobitmap(unsigned long arg, bool compat)
{
    uint8_t c[COMPAT_SIZEOF(physdev_set_iobitmap)];
    struct physdev_set_iobitmap op;
    struct vcpu *v = current_vcpu();
    unsigned long bitmap;

    if ( compat )
    {
        if ( copy_from_guest(c, arg, sizeof(c)) )
            return -XEN_EFAULT;
        xlat_physdev_set_iobitmap_from_compat(&op, c);
    }
    else if ( copy_from_guest(&op, arg, sizeof(op)) )
        return -XEN_EFAULT;
    bitmap = (unsigned long)op.bitmap.p;
    if ( (compat ? !compat_handle_okay(bitmap, IOBMP_BYTES, 1)
                 : !guest_range_ok(bitmap, IOBMP_BYTES)) ||
         op.nr_ports > 65536 )
        return -XEN_EINVAL;
    v->iobmp = bitmap;
    v->iobmp_limit = op.nr_ports;
    return 0;
}

/* A no-op kept for old kernels: the vector is the IRQ number. */
static long alloc_irq_vector(unsigned long arg)
{
    struct physdev_irq op;

    if ( copy_from_guest(&op, arg, sizeof(op)) )
        return -XEN_EFAULT;
    op.vector = op.irq;
    return copy_to_guest(arg, &op, sizeof(op)) ? -XEN_EFAULT : 0;
}

/* Read the argument, then refuse: the guest may not do this. */
static long refuse(unsigned long arg, size_t size, long rc)
{
    union physdev_arg a;

    if ( copy_from_guest(&a, arg, size) )
        return -XEN_EFAULT;
    return rc;
}

/*
 * The answer to an operation on a pirq: the shim passes no interrupt
 * through, so the domain has none (Xen's irq >= nr_pirqs, or no pirq
 * bound there: -EINVAL).
 */
static long no_pirq(unsigned long arg, size_t size)
{
    return refuse(arg, size, -XEN_EINVAL);
}

/*
 * Xen's cmd is an int: only the low 32 bits count.  A 32-bit guest's
 * arguments are its own layout where it differs (Xen's x86_64/physdev.c
 * builds the same code on the compat structures): the I/O bitmap's
 * handle, and how much of an APIC, map_pirq or pirq_eoi_gmfn argument
 * is read before the refusal.
 */
static always_inline long physdev_op(unsigned long cmd, unsigned long arg,
                                     bool compat)
{
    switch ( (unsigned int)cmd )
    {
    case PHYSDEVOP_set_iopl:
        return set_iopl(arg);
    case PHYSDEVOP_set_iobitmap:
        return set_iobitmap(arg, compat);
    case PHYSDEVOP_irq_status_query:
        return no_pirq(arg, sizeof(struct physdev_irq_status_query));
    case PHYSDEVOP_alloc_irq_vector:
        return alloc_irq_vector(arg);

    case PHYSDEVOP_eoi:
        return no_pirq(arg, sizeof(struct physdev_eoi));
    case PHYSDEVOP_get_free_pirq:
        return refuse(arg, sizeof(struct physdev_get_free_pirq),
                      -XEN_ENOSPC);
    case PHYSDEVOP_pirq_eoi_gmfn_v1:
    case PHYSDEVOP_pirq_eoi_gmfn_v2:
        return no_pirq(arg, compat ? COMPAT_SIZEOF(physdev_pirq_eoi_gmfn)
                                   : sizeof(struct physdev_pirq_eoi_gmfn));

    case PHYSDEVOP_map_pirq:
        return refuse(arg, compat ? COMPAT_SIZEOF(physdev_map_pirq)
                                  : sizeof(struct physdev_map_pirq),
                      -XEN_EPERM);
    case PHYSDEVOP_unmap_pirq:
        return refuse(arg, sizeof(struct physdev_unmap_pirq), -XEN_EPERM);
    case PHYSDEVOP_apic_read:
    case PHYSDEVOP_apic_write:
        return refuse(arg, compat ? COMPAT_SIZEOF(physdev_apic)
                                  : sizeof(struct physdev_apic), -XEN_EPERM);
    case PHYSDEVOP_manage_pci_add:
    case PHYSDEVOP_manage_pci_remove:
        return refuse(arg, sizeof(struct physdev_manage_pci), -XEN_EPERM);
    case PHYSDEVOP_manage_pci_add_ext:
        return refuse(arg, sizeof(struct physdev_manage_pci_ext),
                      -XEN_EPERM);
    case PHYSDEVOP_pci_device_add:
        return refuse(arg, sizeof(struct physdev_pci_device_add),
                      -XEN_EPERM);
    case PHYSDEVOP_pci_device_remove:
    case PHYSDEVOP_restore_msi_ext:
    case PHYSDEVOP_prepare_msix:
    case PHYSDEVOP_release_msix:
        return refuse(arg, sizeof(struct physdev_pci_device), -XEN_EPERM);
    case PHYSDEVOP_restore_msi:
        return refuse(arg, sizeof(struct physdev_restore_msi), -XEN_EPERM);
    case PHYSDEVOP_setup_gsi:
        return refuse(arg, sizeof(struct physdev_setup_gsi), -XEN_EPERM);
    case PHYSDEVOP_pci_mmcfg_reserved:
        return refuse(arg, sizeof(struct physdev_pci_mmcfg_reserved),
                      -XEN_EPERM);
    case PHYSDEVOP_dbgp_op:
        return refuse(arg, sizeof(struct physdev_dbgp_op), -XEN_EPERM);

    default:
        return -XEN_ENOSYS;
    }
}

long do_physdev_op(unsigned long cmd, unsigned long arg)
{
    return physdev_op(cmd, arg, false);
}

long compat_physdev_op(unsigned long cmd, unsigned long arg)
{
    return physdev_op(cmd, arg, true);
}
