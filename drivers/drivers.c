/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drivers_init(): the PCI scan and which driver takes which function.
 * Devices nobody drives are left as firmware set them up.
 */
#include "arch/x86/cpu.h"
#include "arch/x86/smp.h"
#include "drivers/dma.h"
#include "drivers/drivers.h"
#include "drivers/pci.h"
#include "shim/console.h"
#include "shim/param.h"

/*
 * pci-probe=<boolean>: look for PCI devices at boot and drive those we
 * know (default on).  Off, the shim touches no PCI device: the guest gets
 * no disk and no network from them.
 */
static bool opt_pci_probe = true;
boolean_param("pci-probe", opt_pci_probe);

void drivers_init(void)
{
    if ( !opt_pci_probe )
    {
        printk("PCI: device probing off (pci-probe=0)\n");
        return;
    }
    /*
     * QEMU TCG with one vCPU may drop our fences (dma_mb()); with more
     * it keeps them (and QEMU 8.1 on always does), at the cost of a
     * helper call per fence here where it is not needed.
     */
    if ( boot_cpu.hv == HV_TCG && num_online_cpus() == 1 )
    {
        dma_mb_tcg = true;
        printk("PCI: QEMU TCG with one vCPU: device fences also flush a "
               "page (QEMU's TLB lock)\n");
    }
    pci_init();
    pci_hotplug_init();
}

void drivers_probe(struct pci_dev *d)
{
    if ( virtio_blk_probe(d) )
        return;
    if ( virtio_net_probe(d) )
        return;
    if ( nvme_probe(d) )
        return;
    if ( virtio_balloon_probe(d) )
        return;
}
