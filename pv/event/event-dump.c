/* SPDX-License-Identifier: GPL-2.0-only */
/* The 'e' debug key: every port in use, as Xen's dump_evtchn_info(). */
#include "pv/event/private.h"
#include "pv/compat/layout.h"
#include "shim/console.h"

/* Xen's evtchn_port_print_state(): the ABI's view of the port. */
static void print_state(struct domain *d, const struct evtchn *chn,
                        unsigned int port, char *buf, size_t len)
{
    const struct vcpu *v = &d->vcpu[chn->notify_vcpu_id];

    if ( d->evtchn_fifo )
        evtchn_fifo_print_state(d, port, buf, len);
    else if ( d->compat )               /* 32-bit words, elsewhere */
        snprintf(buf, len, "%d",
                 (int)((compat_get(v->vcpu_info, vcpu_info,
                                   evtchn_pending_sel) >> (port / 32)) & 1));
    else
        snprintf(buf, len, "%d",
                 guest_test_bit(port / (sizeof(xen_ulong_t) * 8),
                                &v->vcpu_info->evtchn_pending_sel));
}

static bool port_is_masked(const struct domain *d, unsigned int port)
{
    return d->evtchn_fifo ? evtchn_fifo_is_masked(d, port)
                          : evtchn_2l_is_masked(d, port);
}

static void domain_dump_evtchn_info(struct domain *d)
{
    unsigned int port;
    char state[16], extra[32];

    printk("Event channel information for domain %d:\n"
           "Polling vCPUs: {%s}\n"
           "    port [p/m/s]\n", PV_DOMID, d->vcpu[0].polling ? "0" : "");

    spin_lock_irq_on_wait(&d->event_lock);
    for ( port = 1; port_is_valid(d, port); port++ )
    {
        const struct evtchn *chn = evtchn_from_port(d, port);

        if ( chn->state == ECS_FREE )
            continue;
        print_state(d, chn, port, state, sizeof(state));
        extra[0] = '\0';
        switch ( chn->state )
        {
        case ECS_UNBOUND:
            snprintf(extra, sizeof(extra), " d=%d", chn->remote_dom);
            break;
        case ECS_INTERDOMAIN:
            snprintf(extra, sizeof(extra), " d=%d p=%d", chn->remote_dom,
                     chn->remote_port);
            break;
        case ECS_VIRQ:
            snprintf(extra, sizeof(extra), " v=%d", chn->virq);
            break;
        }
        printk("    %4u [%d/%d/%s]: s=%d n=%d x=%d%s\n", port,
               evtchn_port_is_pending(d, port), port_is_masked(d, port),
               state, chn->state, chn->notify_vcpu_id, 0, extra);
    }
    spin_unlock(&d->event_lock);
}

void pv_dump_evtchn_info(unsigned char key)
{
    printk("'%c' pressed -> dumping event-channel info\n", key);
    domain_dump_evtchn_info(&dom);
}
