/* SPDX-License-Identifier: GPL-2.0-only */
/* Bringing up the shim's backends (backends/backends.h). */
#include "backends/backends.h"
#include "backends/balloon.h"
#include "backends/blk.h"
#include "backends/blk/blkback.h"
#include "backends/console/console.h"
#include "backends/net.h"
#include "backends/net/netback.h"
#include "backends/xenstore.h"
#include "pv/pv.h"
#include "shim/console.h"
#include "shim/keyhandler.h"
#include "shim/param.h"
#include "shim/softirq.h"
#include "shim/timer.h"

/*
 * The grants every backend may hold mapped at once fit the shim's
 * maptrack: each disk's segments, an indirect request's pages while they
 * are read and its rings' pages; each vif's TX maps, its rings and the
 * one frame an RX copy maps.  None of them can run the others short.
 */
#define VBD_ALL_MAPS (VBD_MAPS + BLKIF_MAX_INDIRECT_PAGES_PER_REQUEST +    \
                      VBD_MAX_QUEUES * BLKIF_RING_PAGES_MAX)
#define VIF_ALL_MAPS (NB_TX_MAX_MAPS + 2 * VIF_MAX_QUEUES + 1)
BUILD_BUG_ON(VBD_MAX * VBD_ALL_MAPS + VIF_MAX * VIF_ALL_MAPS >
             PV_BACKEND_MAPS);
BUILD_BUG_ON(VBD_MAPS < VBD_SEGS_MAX);
/*
 * Each disk and NIC watches its frontend; each ring has a port (a NIC's
 * queue two, split), beside the console's and xenstore's.
 */
BUILD_BUG_ON(VBD_MAX + VIF_MAX > XS_SHIM_WATCHES);
BUILD_BUG_ON(2 + VBD_MAX * VBD_MAX_QUEUES + VIF_MAX * VIF_MAX_QUEUES * 2 >
             PV_BACKEND_PORTS);

void backend_watch_frontend(const char *who, const char *name,
                            const char *fe, xs_shim_watch_fn *fn,
                            void *data)
{
    char path[128];                     /* xs_shim_watch() takes 127 */

    snprintf(path, sizeof(path), "%s/state", fe);
    if ( xs_shim_watch(path, fn, data) )
        printk(XENLOG_ERR "%s: %s: cannot watch %s: its frontend is not "
               "heard\n", who, name, path);
}

void backend_forget_frontend(const char *fe, const char *be,
                             xs_shim_watch_fn *fn, void *data)
{
    char path[128];

    snprintf(path, sizeof(path), "%s/state", fe);
    xs_shim_unwatch(path, fn, data);
    xs_shim_rm(fe);
    xs_shim_rm(be);
}

static struct timer remove_timer;

/*
 * backend-remove-timeout=<seconds> (docs/command-line.md): the time a
 * frontend has to close before the host's removal takes its device.
 */
static unsigned int opt_remove_timeout = 10;
integer_param("backend-remove-timeout", opt_remove_timeout);

uint64_t backend_remove_by(void)
{
    return NOW() + (uint64_t)opt_remove_timeout * 1000000000ULL;
}

unsigned int backend_remove_secs(void)
{
    return opt_remove_timeout;
}

static void remove_timeout(void *data)
{
    raise_softirq(BLKBACK_SOFTIRQ);
    raise_softirq(NETBACK_SOFTIRQ);
}

void backend_remove_wake(uint64_t when)
{
    if ( !timer_is_active(&remove_timer) || remove_timer.expires > when )
        set_timer(&remove_timer, when);
}

bool backend_remove_due(uint64_t by)
{
    if ( NOW() >= by )
        return true;
    backend_remove_wake(by);
    return false;
}

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

static void balloon_softirq(void)
{
    balloon_work();
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
 * queues, and the host's balloon (the shim's own key: Xen's backends
 * live in dom0, whose kernel has its own ways to show them).
 */
static void dump_backends(unsigned char key)
{
    bool taken = pv_backends_lock_unless_held();

    printk("'%c' pressed -> dumping the console, xenstore, block and "
           "network backends and the balloon\n", key);
    console_dump();
    xenstore_dump();
    blkback_dump();
    netback_dump();
    balloon_dump();
    pv_backends_unlock_taken(taken);
}

void backends_init(void)
{
    init_timer(&remove_timer, remove_timeout, NULL, 0);
    console_backend_init();
    xenstore_init();
    open_softirq(XENSTORE_SOFTIRQ, xenstore_softirq);
    open_softirq(POWER_BUTTON_SOFTIRQ, power_button_softirq);
    open_softirq(BLKBACK_SOFTIRQ, blkback_softirq);
    blkback_init();
    open_softirq(NETBACK_SOFTIRQ, netback_softirq);
    netback_init();
    open_softirq(BALLOON_SOFTIRQ, balloon_softirq);
    balloon_init();
    register_keyhandler('b', dump_backends,
                        "dump console, xenstore, block and network "
                        "backends, balloon",
                        true);
}
