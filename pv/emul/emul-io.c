/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * I/O ports for the guest, as Xen's pv/emul/emul-priv-op.c treats a PV domU
 * (iopl_ok(), guest_io_read(), guest_io_write()): a domain that owns no
 * ports reads all ones and its writes vanish, but for the RTC index and
 * PCI CONFIG_ADDRESS that Xen latches.  There is no vPIT (a libxl PV domU
 * has none).  Access is the virtual IOPL's, or the guest's own I/O bitmap's
 * (PHYSDEVOP_set_iobitmap).
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include "arch/x86/flush.h"
#include "arch/x86/cr.h"
#include "pv/emul/emulate.h"
#include "pv/guest-access.h"
#include "shim/frame.h"

#define RTC_PORT_INDEX      0x70
#define PCI_CONF_ADDRESS    0xcf8

/*
 * One domain: its latches live here, each one word that any vCPU may
 * write, with no lock (as Xen's d->arch.cmos_idx and pci_cf8): two vCPUs
 * racing for one index are racing on real hardware too.
 */
static uint32_t cmos_idx, pci_cf8;

/* The kernel is CPL 1, or 0 with architectural IOPL; user mode is 3. */
bool pv_iopl_ok(const struct vcpu *v)
{
    unsigned int cpl = !v->kernel_mode ? 3 :
        (dom.vm_assist & (1UL << VMASST_TYPE_architectural_iopl)) ? 0 : 1;

    return (cpl << 12) <= v->iopl;
}

/*
 * Xen's guest_io_okay(): the IOPL, else the guest's bitmap, a clear bit
 * per port allowed, read through the kernel's page tables even from user
 * mode (bytes that can't be read count as set).
 */
bool pv_io_ok(struct vcpu *v, unsigned int port, unsigned int bytes)
{
    uint8_t b[2] = { 0xff, 0xff };
    uint16_t mask;

    if ( pv_iopl_ok(v) )
        return true;
    if ( port + bytes > v->iobmp_limit )
        return false;
    if ( !v->kernel_mode && !dom.compat )
        load_cr3(v->guest_table << PAGE_SHIFT);
    if ( !copy_from_guest(&b[0], v->iobmp + (port >> 3), 1) )
        (void)copy_from_guest(&b[1], v->iobmp + (port >> 3) + 1, 1);
    if ( !v->kernel_mode && !dom.compat )
        load_cr3(v->guest_table_user << PAGE_SHIFT);
    mask = b[0] | (b[1] << 8);
    return !(mask & (((1u << bytes) - 1) << (port & 7)));
}

uint32_t pv_io_read(unsigned int port, unsigned int size)
{
    uint32_t data = 0;
    unsigned int i;

    if ( port == PCI_CONF_ADDRESS && size == 4 )
        return ACCESS_ONCE(pci_cf8);
    for ( i = 0; i < size; i++ )
        data |= (port + i == RTC_PORT_INDEX ? ACCESS_ONCE(cmos_idx) & 0xff
                                            : 0xff) << (i * 8);
    return data;
}

void pv_io_write(unsigned int port, unsigned int size, uint32_t data)
{
    unsigned int i;

    if ( port == PCI_CONF_ADDRESS && size == 4 )
        ACCESS_ONCE(pci_cf8) = data;
    else
        for ( i = 0; i < size; i++ )
            if ( port + i == RTC_PORT_INDEX )
                ACCESS_ONCE(cmos_idx) = (data >> (i * 8)) & 0xff;
}
