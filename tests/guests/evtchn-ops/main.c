/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every EVTCHNOP on the 2-level ABI, with the errors Xen's
 * common/event_channel.c gives a domU: unbound and loopback interdomain
 * ports, VIRQs (per-vCPU and global), IPIs, bind_vcpu, unmask, close,
 * status, bind_pirq refused, reset (reconnecting the console port to its
 * backend afterwards), and the event_channel_op_compat form.
 */
#include "guest.h"
#include "event.h"

const char test_title[] = "EVTCHNOPs: bind, send, status, close, reset";

static void check_status(uint32_t port, uint32_t status, const char *what)
{
    evtchn_status_t st;

    check_rc(evtchn_status_of(port, &st), 0);
    if ( st.status != status )
        test_fail("%s: port %u status %u, expected %u", what, port,
                  st.status, status);
}

static void unbound_and_loopback(void)
{
    evtchn_alloc_unbound_t a = { .dom = DOMID_SELF, .remote_dom = DOMID_SELF };
    evtchn_bind_interdomain_t b = { .remote_dom = DOMID_SELF };
    evtchn_status_t st;
    long rport;

    rport = evtchn_alloc_unbound_self();
    if ( rport != 3 )
        test_fail("first free port %ld, expected 3", rport);
    check_rc(evtchn_status_of(rport, &st), 0);
    if ( st.status != EVTCHNSTAT_unbound || st.u.unbound.dom != 1 )
        test_fail("unbound: status %u dom %u", st.status, st.u.unbound.dom);
    check_rc(evtchn_send(rport), 0);            /* dropped */
    if ( evtchn_test_pending(rport) )
        test_fail("a send on an unbound port raised it");

    b.remote_port = rport;
    check_rc(evtchn_op(EVTCHNOP_bind_interdomain, &b), 0);
    if ( b.local_port != 4 )
        test_fail("loopback local port %u, expected 4", b.local_port);
    if ( !evtchn_test_pending(b.local_port) )
        test_fail("bind_interdomain left the local port not pending");
    check_rc(evtchn_status_of(b.local_port, &st), 0);
    if ( st.status != EVTCHNSTAT_interdomain || st.u.interdomain.dom != 1 ||
         (long)st.u.interdomain.port != rport )
        test_fail("loopback status %u dom %u port %u", st.status,
                  st.u.interdomain.dom, st.u.interdomain.port);
    check_rc(evtchn_send(b.local_port), 0);
    if ( !evtchn_test_pending(rport) )
        test_fail("send on the local end did not raise the remote end");

    /* The remote end is bound now: binding to it again fails. */
    check_rc(evtchn_op(EVTCHNOP_bind_interdomain, &b), -XEN_EINVAL);
    b.remote_port = 60;                         /* free: not unbound */
    check_rc(evtchn_op(EVTCHNOP_bind_interdomain, &b), -XEN_EINVAL);
    b.remote_port = 100;                        /* beyond the table */
    check_rc(evtchn_op(EVTCHNOP_bind_interdomain, &b), -XEN_EINVAL);
    b.remote_dom = 9;
    check_rc(evtchn_op(EVTCHNOP_bind_interdomain, &b), -XEN_ESRCH);

    /* Closing one end leaves the other unbound, to us. */
    check_rc(evtchn_close(4), 0);
    check_rc(evtchn_status_of(rport, &st), 0);
    if ( st.status != EVTCHNSTAT_unbound || st.u.unbound.dom != 1 )
        test_fail("after close: status %u dom %u", st.status,
                  st.u.unbound.dom);
    check_status(4, EVTCHNSTAT_closed, "closed end");
    check_rc(evtchn_close(4), -XEN_EINVAL);
    check_rc(evtchn_close(rport), 0);

    a.dom = 0;
    check_rc(evtchn_op(EVTCHNOP_alloc_unbound, &a), -XEN_EPERM);
    a.dom = 7;
    check_rc(evtchn_op(EVTCHNOP_alloc_unbound, &a), -XEN_ESRCH);
    a.dom = 1;                                  /* our own id */
    a.remote_dom = 0;
    check_rc(evtchn_op(EVTCHNOP_alloc_unbound, &a), 0);
    check_rc(evtchn_status_of(a.port, &st), 0);
    if ( st.u.unbound.dom != 0 )
        test_fail("unbound to dom0: status says dom %u", st.u.unbound.dom);
    check_rc(evtchn_close(a.port), 0);
}

static void virqs_and_ipis(void)
{
    evtchn_bind_vcpu_t bv = { .vcpu = 0 };
    evtchn_status_t st;
    long timer, con, ipi, unb;

    timer = evtchn_bind_virq_on(VIRQ_TIMER, 0);
    check_rc(evtchn_status_of(timer, &st), 0);
    if ( st.status != EVTCHNSTAT_virq || st.u.virq != VIRQ_TIMER ||
         st.vcpu != 0 )
        test_fail("virq status %u virq %u vcpu %u", st.status, st.u.virq,
                  st.vcpu);
    check_rc(evtchn_bind_virq_on(VIRQ_TIMER, 0), -XEN_EEXIST);
    check_rc(evtchn_bind_virq_on(VIRQ_TIMER, NO_VCPU), -XEN_ENOENT);
    check_rc(evtchn_bind_virq_on(VIRQ_CONSOLE, 1), -XEN_EINVAL);
    check_rc(evtchn_bind_virq_on(NR_VIRQS, 0), -XEN_EINVAL);
    check_rc(evtchn_bind_virq_on(~0u, 0), -XEN_EINVAL);
    check_rc(evtchn_bind_virq_on(VIRQ_TIMER, ~0u), -XEN_ENOENT);
    con = evtchn_bind_virq_on(VIRQ_CONSOLE, 0);
    if ( con < 0 )
        test_fail("bind VIRQ_CONSOLE: %ld", con);
    check_rc(evtchn_bind_virq_on(VIRQ_DEBUG, 0) > 0, 1);
    check_rc(evtchn_send(timer), -XEN_EINVAL);  /* virqs can't be sent */

    ipi = evtchn_bind_ipi_on(0);
    check_status(ipi, EVTCHNSTAT_ipi, "ipi");
    check_rc(evtchn_bind_ipi_on(NO_VCPU), -XEN_ENOENT);
    check_rc(evtchn_send(ipi), 0);
    if ( !evtchn_test_pending(ipi) )
        test_fail("send on an IPI port did not raise it");

    /* bind_vcpu: global virqs, unbound and interdomain ports only. */
    unb = evtchn_alloc_unbound_self();
    bv.port = unb;
    check_rc(evtchn_op(EVTCHNOP_bind_vcpu, &bv), 0);
    bv.port = con;
    check_rc(evtchn_op(EVTCHNOP_bind_vcpu, &bv), 0);
    bv.port = timer;
    check_rc(evtchn_op(EVTCHNOP_bind_vcpu, &bv), -XEN_EINVAL);
    bv.port = ipi;
    check_rc(evtchn_op(EVTCHNOP_bind_vcpu, &bv), -XEN_EINVAL);
    bv.port = 50;
    check_rc(evtchn_op(EVTCHNOP_bind_vcpu, &bv), -XEN_EINVAL);
    bv.port = 5000;
    check_rc(evtchn_op(EVTCHNOP_bind_vcpu, &bv), -XEN_EINVAL);
    bv.port = unb;
    bv.vcpu = NO_VCPU;
    check_rc(evtchn_op(EVTCHNOP_bind_vcpu, &bv), -XEN_ENOENT);

    /* Closing a virq frees it for binding again. */
    check_rc(evtchn_close(timer), 0);
    check_rc(evtchn_bind_virq_on(VIRQ_TIMER, 0), timer);
}

static void unmask_raises(void)
{
    long ipi = evtchn_bind_ipi_on(0);

    event_vcpu_info->evtchn_upcall_pending = 0;
    event_vcpu_info->evtchn_pending_sel = 0;
    evtchn_mask(ipi);
    check_rc(evtchn_send(ipi), 0);
    if ( !evtchn_test_pending(ipi) || event_vcpu_info->evtchn_pending_sel ||
         event_vcpu_info->evtchn_upcall_pending )
        test_fail("a masked port raised its selector or the upcall");
    check_rc(evtchn_unmask(ipi), 0);
    if ( evtchn_test_masked(ipi) ||
         !(event_vcpu_info->evtchn_pending_sel &
           ((xen_ulong_t)1 << (ipi / EVTCHN_WORD_BITS))) ||
         !event_vcpu_info->evtchn_upcall_pending )
        test_fail("unmask of a pending port raised no upcall");
    check_rc(evtchn_unmask(0), 0);              /* reserved: still valid */
    check_rc(evtchn_unmask(64), -XEN_EINVAL);
    event_vcpu_info->evtchn_upcall_pending = 0;
}

static void pirq_priority_fifo_ops(void)
{
    evtchn_bind_pirq_t p = { .pirq = 1 };
    evtchn_set_priority_t sp = { .port = 1, .priority = 3 };
    evtchn_expand_array_t ex = { .array_gfn = 0 };

    check_rc(evtchn_op(EVTCHNOP_bind_pirq, &p), -XEN_EPERM);
    p.pirq = 100000;
    check_rc(evtchn_op(EVTCHNOP_bind_pirq, &p), -XEN_EINVAL);
    check_rc(evtchn_op(EVTCHNOP_set_priority, &sp), -XEN_ENOSYS);
    sp.port = 100;
    check_rc(evtchn_op(EVTCHNOP_set_priority, &sp), -XEN_EINVAL);
    check_rc(evtchn_op(EVTCHNOP_expand_array, &ex), -XEN_EOPNOTSUPP);
    check_rc(evtchn_op(99, &ex), -XEN_ENOSYS);
}

static void compat_form(void)
{
    evtchn_op_t op = { .cmd = EVTCHNOP_alloc_unbound };

    op.u.alloc_unbound.dom = DOMID_SELF;
    op.u.alloc_unbound.remote_dom = DOMID_SELF;
    check_rc(HYPERCALL(__HYPERVISOR_event_channel_op_compat, &op, 0, 0, 0, 0),
             0);
    check_status(op.u.alloc_unbound.port, EVTCHNSTAT_unbound, "compat");
    op.cmd = EVTCHNOP_init_control;
    check_rc(HYPERCALL(__HYPERVISOR_event_channel_op_compat, &op, 0, 0, 0, 0),
             -XEN_ENOSYS);
    check_rc(HYPERCALL(__HYPERVISOR_event_channel_op_compat, BAD_XEN,
                       0, 0, 0, 0), -XEN_EFAULT);
}

static void reset_and_reconnect(void)
{
    evtchn_reset_t r = { .dom = DOMID_SELF };
    evtchn_bind_interdomain_t b = { .remote_dom = 0, .remote_port = 2 };
    evtchn_status_t st;

    r.dom = 0;
    check_rc(evtchn_op(EVTCHNOP_reset, &r), -XEN_EPERM);
    r.dom = 3;
    check_rc(evtchn_op(EVTCHNOP_reset, &r), -XEN_ESRCH);
    r.dom = DOMID_SELF;
    check_rc(evtchn_op(EVTCHNOP_reset, &r), 0);
    check_status(1, EVTCHNSTAT_closed, "xenstore after reset");
    check_status(2, EVTCHNSTAT_closed, "console after reset");
    check_status(5, EVTCHNSTAT_closed, "port 5 after reset");
    check_status(0, EVTCHNSTAT_closed, "port 0");
    check_rc(evtchn_close(0), -XEN_EINVAL);

    /* The shim's console end waits for us: bind to it again. */
    check_rc(evtchn_op(EVTCHNOP_bind_interdomain, &b), 0);
    if ( b.local_port != 1 )
        test_fail("reconnected console on port %u, expected 1",
                  b.local_port);
    check_rc(evtchn_status_of(b.local_port, &st), 0);
    if ( st.status != EVTCHNSTAT_interdomain || st.u.interdomain.dom != 0 ||
         st.u.interdomain.port != 2 )
        test_fail("reconnected: status %u dom %u port %u", st.status,
                  st.u.interdomain.dom, st.u.interdomain.port);
    check_rc(evtchn_send(b.local_port), 0);
    check_rc(evtchn_op(EVTCHNOP_bind_interdomain, &b), -XEN_EINVAL);
    b.remote_port = 5;
    check_rc(evtchn_op(EVTCHNOP_bind_interdomain, &b), -XEN_EINVAL);
}

/* Every VIRQ may be bound by a domU, once per vCPU. */
static void every_virq(void)
{
    unsigned int virq;
    evtchn_status_t st;
    long port;

    for ( virq = 0; virq < NR_VIRQS; virq++ )
    {
        if ( virq == VIRQ_TIMER || virq == VIRQ_CONSOLE || virq == VIRQ_DEBUG )
            continue;                           /* bound above */
        port = evtchn_bind_virq_on(virq, 0);
        if ( port <= 0 )
        {
            test_fail("bind virq %u: %ld", virq, port);
            continue;
        }
        check_rc(evtchn_status_of(port, &st), 0);
        if ( st.status != EVTCHNSTAT_virq || st.u.virq != virq )
            test_fail("virq %u: status %u virq %u", virq, st.status,
                      st.u.virq);
        check_rc(evtchn_bind_virq_on(virq, 0), -XEN_EEXIST);
    }
}

void test_main(void)
{
    if ( event_init() )
        return test_error("event_init failed");
    check_status(1, EVTCHNSTAT_interdomain, "xenstore");
    check_status(2, EVTCHNSTAT_interdomain, "console");
    unbound_and_loopback();
    virqs_and_ipis();
    every_virq();
    unmask_raises();
    pirq_priority_fifo_ops();
    compat_form();
    reset_and_reconnect();
    test_success();
}
