/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * VCPUOP_send_nmi as Xen: the argument must be NULL, the vCPU must exist;
 * with no NMI callback the NMI is dropped; with one, it is taken on the
 * way back to the guest, before any event upcall, with events masked.
 * A second NMI is taken once the iret that ends the first unmasks NMIs
 * (Xen's async_exception_cleanup()).  An NMI for a vCPU on another CPU,
 * which only makes hypercalls that take no lock (xen_version), is taken
 * at once: its kick makes it exit, and that exit delivers the NMI.
 * nmi_op registers and unregisters the callback as callback_op does.
 */
#include "guest.h"
#include "event.h"
#include "vcpu.h"
#include <xen/nmi.h>

const char test_title[] = "VCPUOP_send_nmi: checks, callback, events masked";

#define TIMEOUT_NS      10000000000ULL
#define MAX_CALLS       1000    /* vCPU 1's hypercalls before its NMI */

static struct vcpu_guest_context ctx;
static uint8_t stack1[8192] __attribute__((aligned(16)));
static volatile unsigned long v1_calls, v1_calls_at_nmi;
static volatile unsigned int nmi_before = ~0u;
static volatile long v1_ready;

/*
 * vCPU 1: its own NMI callback, then xen_version for ever, noting how
 * many it had made when it first saw its NMI taken.
 */
static void __attribute__((used, noreturn)) vcpu1_main(unsigned long unused)
{
    long rc = nmi_init();

    v1_ready = rc ? rc : 1;
    for ( ;; )
    {
        hypercall_xen_version(XENVER_version, NULL);
        v1_calls++;
        if ( !v1_calls_at_nmi && nmi_count > nmi_before )
            v1_calls_at_nmi = v1_calls;
    }
}

static void test_remote(void)
{
    unsigned int before;
    unsigned long sent, after;
    uint64_t end;

    if ( vcpu_op(VCPUOP_is_up, 1, NULL) == -XEN_ENOENT )
    {
        printf("one vCPU: no NMI for another\n");
        return;
    }
    vcpu_ctx_init(&ctx, (unsigned long)vcpu1_main, 0,
                  stack1 + sizeof(stack1), true);
    check_rc(vcpu_op(VCPUOP_initialise, 1, &ctx), 0);
    check_rc(vcpu_op(VCPUOP_up, 1, NULL), 0);
    end = system_time() + TIMEOUT_NS;
    while ( (!v1_ready || !v1_calls) && system_time() < end )
        ;
    if ( v1_ready != 1 || !v1_calls )
        return test_fail("vCPU 1: not running (%ld)", v1_ready);

    before = nmi_count;
    nmi_before = before;
    check_rc(vcpu_op(VCPUOP_send_nmi, 1, NULL), 0);
    /*
     * Counted from the send's return, when the kick has gone.  (Counted
     * from before the send, they would include whatever vCPU 1 did while
     * a loaded host kept this vCPU off its CPU: thousands, at times.)
     * It may have taken the NMI already.
     */
    sent = v1_calls;
    while ( !v1_calls_at_nmi && system_time() < end )
        ;
    after = v1_calls_at_nmi > sent ? v1_calls_at_nmi - sent : 0;
    if ( !v1_calls_at_nmi )
        test_fail("vCPU 1 never took its NMI");
    else if ( after > MAX_CALLS )
        test_fail("vCPU 1 made %lu hypercalls before its NMI (at most %u)",
                  after, MAX_CALLS);
    else
        printf("vCPU 1 took its NMI after %lu hypercalls\n", after);
}

void nmi_entry(void);                   /* the library's (lib/event.c) */

/*
 * nmi_op, the older way to the NMI callback: taken away, refused a bad
 * argument, given back, and the NMI comes to it again.
 */
static void test_nmi_op(void)
{
    struct xennmi_callback cb = { .handler_address =
                                  (unsigned long)nmi_entry };
    unsigned int before = nmi_count;

    check_rc(HYPERCALL(__HYPERVISOR_nmi_op, XENNMI_unregister_callback,
                       NULL, 0, 0, 0), 0);
    check_rc(vcpu_op(VCPUOP_send_nmi, 0, NULL), 0);
    if ( nmi_count != before )
        test_fail("nmi_op: an NMI reached the callback taken away");
    check_rc(HYPERCALL(__HYPERVISOR_nmi_op, XENNMI_register_callback,
                       BAD_XEN, 0, 0, 0), -XEN_EFAULT);
    check_rc(HYPERCALL(__HYPERVISOR_nmi_op, 2, &cb, 0, 0, 0), -XEN_ENOSYS);
#ifdef __x86_64__
    cb.handler_address = 0x0000800000000000UL;     /* not canonical */
    check_rc(HYPERCALL(__HYPERVISOR_nmi_op, XENNMI_register_callback, &cb,
                       0, 0, 0), -XEN_EINVAL);
    cb.handler_address = (unsigned long)nmi_entry;
#endif
    check_rc(vcpu_op(VCPUOP_send_nmi, 0, NULL), 0);
    if ( nmi_count != before )
        test_fail("nmi_op: an NMI reached a callback refused");
    check_rc(HYPERCALL(__HYPERVISOR_nmi_op, XENNMI_register_callback, &cb,
                       0, 0, 0), 0);
    check_rc(vcpu_op(VCPUOP_send_nmi, 0, NULL), 0);
    if ( nmi_count != before + 1 )
        test_fail("nmi_op: NMI taken %u times after registering, not 1",
                  nmi_count - before);
}

void test_main(void)
{
    long ipi;

    if ( event_init() )
        return test_error("event_init failed");
    check_rc(vcpu_op(VCPUOP_send_nmi, 0, BAD_XEN), -XEN_EINVAL);
    check_rc(vcpu_op(VCPUOP_send_nmi, 0, (void *)8), -XEN_EINVAL);
    check_rc(vcpu_op(VCPUOP_send_nmi, NO_VCPU, NULL), -XEN_ENOENT);

    /* No callback: dropped. */
    check_rc(vcpu_op(VCPUOP_send_nmi, 0, NULL), 0);
    if ( nmi_count )
        test_fail("an NMI reached no callback?");

    /* With a callback, and an event pending too: the NMI comes first. */
    check_rc(nmi_init(), 0);
    ipi = evtchn_bind_ipi_on(0);
    check_rc(evtchn_send(ipi), 0);
    event_log_reset();
    events_enable();
    check_rc(vcpu_op(VCPUOP_send_nmi, 0, NULL), 0);
    if ( nmi_count != 1 || nmi_mask_seen != 1 )
        test_fail("NMI taken %u times, upcall mask %u in it", nmi_count,
                  nmi_mask_seen);
    /* The NMI callback's iret unmasked events: the upcall followed. */
    if ( event_seen(ipi) != 1 )
        test_fail("the pending event was not delivered after the NMI");

    /* A second and a third NMI: each iret unmasked NMIs again. */
    check_rc(vcpu_op(VCPUOP_send_nmi, 0, NULL), 0);
    if ( nmi_count != 2 )
        test_fail("second NMI: taken %u times in all, not 2", nmi_count);
    check_rc(vcpu_op(VCPUOP_send_nmi, 0, NULL), 0);
    if ( nmi_count != 3 )
        test_fail("third NMI: taken %u times in all, not 3", nmi_count);
    events_disable();
    test_nmi_op();
    test_remote();
    test_success();
}
