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
#include "shim/perfc.h"
#include "shim/softirq.h"
#include "shim/timer.h"

/*
 * The ring looked at again without a notification (ring.c, xs_ring_run()):
 * a millisecond after a run that moved bytes, whose stores a guest
 * publishing at the same moment may have missed, as it may have missed
 * ours (a 4-vCPU Linux's xenwatch so waited for good for a reply to the
 * request whose payload it wrote then); and while the connection waits
 * on the guest, each time twice as late, up to RELOOK_MAX_NS, so that a
 * guest that never notifies still gets its replies and costs a few
 * softirqs a second at most.  Nothing moving and nothing waiting: no
 * timer.  CPU 0's, as the softirq.
 */
#define RELOOK_NS       1000000ULL
#define RELOOK_MAX_NS   128000000ULL

static struct timer relook_timer;
static uint64_t relook_ns;

static void relook_fn(void *data)
{
    perfc_incr(xenstore_relooks);
    raise_softirq(XENSTORE_SOFTIRQ);
}

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
    init_timer(&relook_timer, relook_fn, NULL, 0);
}

void xenstore_ring_work(void)
{
    bool notify, more = xs_ring_run(&notify);

    if ( notify )
        pv_evtchn_notify_guest(EVTCHN_STORE_PORT);
    if ( more )
        raise_softirq(XENSTORE_SOFTIRQ);
    else if ( notify || xs_ring_waiting() )
    {
        relook_ns = notify ? RELOOK_NS
                           : MIN(MAX(2 * relook_ns, RELOOK_NS), RELOOK_MAX_NS);
        set_timer(&relook_timer, NOW() + relook_ns);
    }
    xs_shim_watches_run();
}

int xs_shim_write(const char *path, const char *value)
{
    int rc = xs_shim_write_path(path, value);

    xenstore_ring_work();               /* deliver the watch events */
    return rc;
}

/*
 * For the backends' debug key ('b'): the ring's indexes and what waits
 * on either side of it, so a guest stuck in a xenstore request shows
 * whether its request came in whole and its reply went out.
 */
void xenstore_dump(void)
{
    struct xs_ring_state s;

    xs_ring_state(&s);
    if ( !s.attached )
    {
        printk("xenstore: no ring\n");
        return;
    }
    printk("xenstore: req cons %#x prod %#x, rsp cons %#x prod %#x, "
           "connection %u, error %u; %u bytes of a request in, %u of "
           "replies queued, %lu watch events dropped%s\n",
           s.req_cons, s.req_prod, s.rsp_cons, s.rsp_prod, s.connection,
           s.error, s.in_used, s.queued, s.dropped_events,
           s.ignored ? ", the guest ignored (a broken stream)" : "");
}

void xenstore_power_button(void)
{
    printk(XENLOG_INFO "power button: asking the guest to power off\n");
    xs_shim_write("/local/domain/1/control/shutdown", "poweroff");
}
