/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The xenstore backend's place in the shim: the guest's ring page and
 * event channel (pv/pv.h), the softirqs and the power
 * button.  Everything else in backends/xenstore/ runs on the host too.
 */
#include "backends/xenstore.h"
#include "backends/xenstore/xs.h"
#include "pv/pv.h"
#include "shim/console.h"
#include "shim/softirq.h"

void xenstore_init(void)
{
    struct pv_guest_info g;
    struct xs_seed_info info;

    pv_guest_info(&g);
    info = (struct xs_seed_info){
        .nr_pages = g.nr_pages,
        .store_mfn = g.store_mfn,
        .console_mfn = g.console_mfn,
        .vcpus = g.max_vcpus,
        .store_port = EVTCHN_STORE_PORT,
        .console_port = EVTCHN_CONSOLE_PORT,
        .name = "pvshim-guest",
        .uuid = "00000000-0000-0000-0000-000000000001",
    };

    xs_seed(&info);
    xs_ring_attach(pv_store_ring());
}

void xenstore_ring_work(void)
{
    bool notify, more = xs_ring_run(&notify);

    if ( notify )
        pv_evtchn_notify_guest(EVTCHN_STORE_PORT);
    if ( more )
        raise_softirq(XENSTORE_SOFTIRQ);
    xs_shim_watches_run();
}

int xs_shim_write(const char *path, const char *value)
{
    int rc = xs_shim_write_path(path, value);

    xenstore_ring_work();               /* deliver the watch events */
    return rc;
}

void xenstore_power_button(void)
{
    printk(XENLOG_INFO "power button: asking the guest to power off\n");
    xs_shim_write("/local/domain/1/control/shutdown", "poweroff");
}
