/* SPDX-License-Identifier: GPL-2.0-only */
/* Bringing up the shim's backends (backends/backends.h). */
#include "backends/backends.h"
#include "backends/blk.h"
#include "backends/console/console.h"
#include "backends/net.h"
#include "backends/xenstore.h"
#include "shim/console.h"
#include "shim/keyhandler.h"
#include "shim/softirq.h"

/* Local handlers: the image is PIE, and a static address needs no GOT. */
static void xenstore_softirq(void)
{
    xenstore_ring_work();
}

static void blkback_softirq(void)
{
    blkback_work();
}

static void netback_softirq(void)
{
    netback_work();
}

/*
 * The VM's power button (arch/x86/acpi-sci.c): ask the guest to power
 * off, as the toolstack does (control/shutdown = "poweroff").
 */
static void power_button_softirq(void)
{
    printk("power button pressed\n");
    xenstore_power_button();
}

/*
 * 'b': the block and network backends, ring by ring, and their devices'
 * queues (the shim's own key: Xen's backends live in dom0, whose kernel
 * has its own ways to show them).
 */
static void dump_backends(unsigned char key)
{
    printk("'%c' pressed -> dumping block and network backends\n", key);
    blkback_dump();
    netback_dump();
}

void backends_init(void)
{
    console_backend_init();
    xenstore_init();
    open_softirq(XENSTORE_SOFTIRQ, xenstore_softirq);
    open_softirq(POWER_BUTTON_SOFTIRQ, power_button_softirq);
    open_softirq(BLKBACK_SOFTIRQ, blkback_softirq);
    blkback_init();
    open_softirq(NETBACK_SOFTIRQ, netback_softirq);
    netback_init();
    register_keyhandler('b', dump_backends,
                        "dump block and network backends", true);
}
