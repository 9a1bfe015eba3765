/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hostile EVTCHNOP arguments: unusable argument pointers, ports far out
 * of range, and FIFO control blocks or event array pages in frames the
 * guest does not own, that are page tables or descriptor tables, beyond
 * RAM, or at offsets that are misaligned or cross the page.  A frame
 * accepted as a control block holds a writable reference: it can't
 * become a page table.
 */
#include "guest.h"
#include "event.h"
#include "mm.h"

const char test_title[] = "EVTCHNOPs with hostile arguments";

static void bad_pointers(void)
{
    static const int cmds[] = {
        EVTCHNOP_bind_interdomain, EVTCHNOP_bind_virq, EVTCHNOP_bind_pirq,
        EVTCHNOP_close, EVTCHNOP_send, EVTCHNOP_status,
        EVTCHNOP_alloc_unbound, EVTCHNOP_bind_ipi, EVTCHNOP_bind_vcpu,
        EVTCHNOP_unmask, EVTCHNOP_reset, EVTCHNOP_init_control,
        EVTCHNOP_expand_array, EVTCHNOP_set_priority,
    };
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(cmds); i++ )
    {
        check_rc(evtchn_op(cmds[i], BAD_UNMAPPED), -XEN_EFAULT);
        check_rc(evtchn_op(cmds[i], BAD_NONCANONICAL), -XEN_EFAULT);
        check_rc(evtchn_op(cmds[i], BAD_XEN), -XEN_EFAULT);
    }
}

static void bad_ports(void)
{
    static const uint32_t ports[] = { 64, 1024, 4095, 4096, 1u << 17,
                                      1u << 31, ~0u };
    evtchn_status_t st;
    evtchn_bind_vcpu_t bv = { .vcpu = 0 };
    evtchn_bind_interdomain_t b = { .remote_dom = DOMID_SELF };
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(ports); i++ )
    {
        check_rc(evtchn_send(ports[i]), -XEN_EINVAL);
        check_rc(evtchn_close(ports[i]), -XEN_EINVAL);
        check_rc(evtchn_unmask(ports[i]), -XEN_EINVAL);
        check_rc(evtchn_status_of(ports[i], &st), -XEN_EINVAL);
        bv.port = ports[i];
        check_rc(evtchn_op(EVTCHNOP_bind_vcpu, &bv), -XEN_EINVAL);
        b.remote_port = ports[i];
        check_rc(evtchn_op(EVTCHNOP_bind_interdomain, &b), -XEN_EINVAL);
    }
}

static long init_control(uint64_t gfn, uint32_t offset, uint32_t vcpu)
{
    evtchn_init_control_t init = {
        .control_gfn = gfn, .offset = offset, .vcpu = vcpu,
    };

    return evtchn_op(EVTCHNOP_init_control, &init);
}

/* A zeroed frame made the GDT (seg_desc type): never writable. */
static unsigned long gdt_frame(void)
{
    unsigned long mfn = alloc_frame();

    if ( mfn == INVALID_MFN )
        return INVALID_MFN;
    frame_fill(mfn, 0);
    if ( HYPERCALL(__HYPERVISOR_set_gdt, &mfn, 16, 0, 0, 0) )
        return INVALID_MFN;
    return mfn;
}

static void bad_fifo_frames(unsigned long good)
{
    unsigned long gdt = gdt_frame();

    evtchn_expand_array_t ex = { .array_gfn = good };

    check_rc(init_control(good, 0, NO_VCPU), -XEN_ENOENT);
    check_rc(init_control(good, 0, ~0u), -XEN_ENOENT);
    check_rc(init_control(good, PAGE_SIZE - 8, 0), -XEN_EINVAL);
    check_rc(init_control(good, PAGE_SIZE -
                          sizeof(evtchn_fifo_control_block_t) + 8, 0),
             -XEN_EINVAL);
    check_rc(init_control(good, 4, 0), -XEN_EINVAL);
    check_rc(init_control(good, ~0u, 0), -XEN_EINVAL);
    check_rc(init_control(pt_base_mfn(), 0, 0), -XEN_EINVAL);
    check_rc(init_control(hypervisor_frame(), 0, 0), -XEN_EINVAL);
    check_rc(init_control(maximum_ram_page() + 1, 0, 0), -XEN_EINVAL);
    check_rc(init_control(~0UL, 0, 0), -XEN_EINVAL);
    check_rc(init_control(UINT64_C(1) << 40, 0, 0), -XEN_EINVAL);
    if ( gdt == INVALID_MFN )
        test_error("no GDT frame to try");
    else
        check_rc(init_control(gdt, 0, 0), -XEN_EINVAL);
    /* Still 2-level: expand_array is refused. */
    check_rc(evtchn_op(EVTCHNOP_expand_array, &ex), -XEN_EOPNOTSUPP);
}

void test_main(void)
{
    unsigned long cb = alloc_frame(), arr = alloc_frame();
    evtchn_expand_array_t ex;
    evtchn_status_t st;

    if ( event_init() || cb == INVALID_MFN || arr == INVALID_MFN )
        return test_error("set-up failed");
    bad_pointers();
    bad_ports();
    bad_fifo_frames(cb);

    /* Offset at the last place the block fits. */
    check_rc(init_control(cb, PAGE_SIZE - sizeof(evtchn_fifo_control_block_t),
                          0), 0);
    check_rc(init_control(cb, 0, 0), -XEN_EINVAL);     /* only once */
    /* The frame is writable-typed now: it can't be a page table. */
    if ( pin_table(1, cb) == 0 )
        test_fail("a FIFO control block frame was pinned as an L1");
    ex.array_gfn = pt_base_mfn();
    check_rc(evtchn_op(EVTCHNOP_expand_array, &ex), -XEN_EINVAL);
    ex.array_gfn = hypervisor_frame();
    check_rc(evtchn_op(EVTCHNOP_expand_array, &ex), -XEN_EINVAL);
    ex.array_gfn = ~0UL;
    check_rc(evtchn_op(EVTCHNOP_expand_array, &ex), -XEN_EINVAL);
    ex.array_gfn = arr;
    check_rc(evtchn_op(EVTCHNOP_expand_array, &ex), 0);
    if ( pin_table(1, arr) == 0 )
        test_fail("an event array frame was pinned as an L1");

    /* FIFO: ports up to 2^17 are in range for poll, still -EINVAL here. */
    bad_ports();
    check_rc(evtchn_status_of(1, &st), 0);
    check_rc(st.status, EVTCHNSTAT_interdomain);
    test_success();
}
