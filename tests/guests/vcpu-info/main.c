/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * VCPUOP_register_vcpu_info and the VCPUOPs on the one vCPU: the move
 * into a guest frame (checked as Xen checks it, once only, contents
 * copied, every selector bit raised, the frame held writable), events and
 * time through the new copy, and Xen's answers to is_up, up, initialise,
 * get_physid, unknown ops and vCPU ids beyond the domain (VCPUOP_down:
 * tests/guests/vcpu-down).
 */
#include "guest.h"
#include "event.h"
#include "mm.h"

const char test_title[] = "VCPUOP_register_vcpu_info and the vCPU ops";

static uint8_t page[PAGE_SIZE] __page_aligned;
static uint8_t ctxt[8192];

static long reg(uint64_t mfn, uint32_t offset)
{
    struct vcpu_register_vcpu_info info = { .mfn = mfn, .offset = offset };

    return vcpu_op(VCPUOP_register_vcpu_info, 0, &info);
}

void test_main(void)
{
    struct vcpu_register_vcpu_info info = { 0 };
    unsigned long mfn = virt_to_mfn(page);
    vcpu_info_t *vi = (vcpu_info_t *)(page + 64);
    uint32_t version;
    long ipi;

    if ( event_init() )
        return test_error("event_init failed");

    /* Xen 4.19's errors: past the page, or a frame number too big ... */
    check_rc(reg(mfn, PAGE_SIZE), -XEN_EINVAL);
    check_rc(reg(mfn, ~0u), -XEN_EINVAL);
    check_rc(reg(~0UL, 0), -XEN_EINVAL);
    check_rc(reg(~0ULL >> 12, PAGE_SIZE - 1), -XEN_EINVAL);   /* ~0 */
    /* ... across its end, or not aligned as an unsigned long (XSA-327) ... */
    check_rc(reg(mfn, PAGE_SIZE - sizeof(vcpu_info_t) + 8), -XEN_ENXIO);
    check_rc(reg(mfn, 66), -XEN_ENXIO);
    check_rc(reg(mfn, 1), -XEN_ENXIO);
    check_rc(reg(mfn, sizeof(long) == 8 ? 68 : 70), -XEN_ENXIO);
    /* ... a frame not the guest's, and one that can't be writable. */
    check_rc(reg(hypervisor_frame(), 0), -XEN_EINVAL);
    check_rc(reg(pt_base_mfn(), 0), -XEN_EACCES);
    check_rc(vcpu_op(VCPUOP_register_vcpu_info, 0, BAD_XEN), -XEN_EFAULT);
    info.mfn = mfn;
    check_rc(vcpu_op(VCPUOP_register_vcpu_info, NO_VCPU, &info), -XEN_ENOENT);

    memset(page, 0xaa, sizeof(page));
    check_rc(reg(mfn, 64), 0);
    if ( vi->evtchn_upcall_mask != 1 || vi->evtchn_upcall_pending != 1 ||
         vi->evtchn_pending_sel != ~0UL )
        test_fail("new vcpu_info: mask %u pending %u sel %#lx",
                  vi->evtchn_upcall_mask, vi->evtchn_upcall_pending,
                  (unsigned long)vi->evtchn_pending_sel);
    if ( (vi->time.version & 1) || vi->time.tsc_to_system_mul !=
                                   event_vcpu_info->time.tsc_to_system_mul )
        test_fail("vcpu_info time not carried over");
    if ( page[0] != 0xaa || page[64 + sizeof(vcpu_info_t)] != 0xaa )
        test_fail("bytes around the vcpu_info were written");
    check_rc(reg(mfn, 64), -XEN_EBUSY);         /* once only */
    check_rc(reg(mfn, 128), -XEN_EBUSY);
    if ( pin_table(1, mfn) == 0 )
        test_fail("the vcpu_info frame was pinned as an L1");

    /* Events now arrive through the new copy. */
    event_vcpu_info = vi;
    vi->evtchn_pending_sel = 0;
    vi->evtchn_upcall_pending = 0;
    ipi = evtchn_bind_ipi_on(0);
    event_log_reset();
    events_enable();
    check_rc(evtchn_send(ipi), 0);
    if ( event_seen(ipi) != 1 )
        test_fail("no upcall through the new vcpu_info");
    if ( shared_info->vcpu_info[0].evtchn_upcall_pending )
        test_fail("the old vcpu_info was raised");
    events_disable();

    /* Time is kept current in the new copy. */
    version = vi->time.version;
    check_rc(set_timer_op(1), 0);
    hypercall_sched_op(SCHEDOP_poll, &(struct sched_poll){ .timeout = 1 });
    if ( vi->time.version == version || (vi->time.version & 1) )
        test_fail("time version %u -> %u", version, vi->time.version);

    check_rc(vcpu_op(VCPUOP_is_up, 0, NULL), 1);
    check_rc(vcpu_op(VCPUOP_up, 0, NULL), 0);
    check_rc(vcpu_op(VCPUOP_initialise, 0, BAD_XEN), -XEN_EFAULT);
    check_rc(vcpu_op(VCPUOP_initialise, 0, ctxt), -XEN_EEXIST);
    check_rc(vcpu_op(VCPUOP_get_physid, 0, ctxt), -XEN_EINVAL);
    check_rc(vcpu_op(99, 0, NULL), -XEN_ENOSYS);
    check_rc(vcpu_op(VCPUOP_is_up, NO_VCPU, NULL), -XEN_ENOENT);
    check_rc(vcpu_op(VCPUOP_up, NO_VCPU, NULL), -XEN_ENOENT);
    check_rc(vcpu_op(VCPUOP_down, NO_VCPU, NULL), -XEN_ENOENT);
    check_rc(vcpu_op(VCPUOP_is_up, ~0u, NULL), -XEN_ENOENT);
    test_success();
}
