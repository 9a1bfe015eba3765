/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A second vCPU, on a second CPU: VCPUOP_initialise's refusals (each
 * invalid context rule, a vCPU past max_vcpus, up before initialise, a
 * bad GDT frame or L4, leaving no reference behind), then vCPU 1 brought
 * up on the running L4 with an empty GDT and its own stack: it makes
 * hypercalls, signals vCPU 0 through an IPI event channel (vCPU 0 polls
 * for it, halted on its own CPU), finds a stale writable translation in
 * its TLB flushed when vCPU 0 pins that frame, and takes itself down;
 * brought up again it resumes after its VCPUOP_down, as on Xen.
 */
#include "guest.h"
#include "event.h"
#include "mm.h"
#include "vcpu.h"
#include <xen/sched.h>

const char test_title[] = "VCPUOP_initialise, up, down, is_up on two vCPUs";

static struct vcpu_guest_context ctx;
static uint8_t v1_stack[16384] __attribute__((aligned(16)));
static uint8_t scratch[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));

static volatile unsigned int v1_stage, v1_cmd, v1_ack;
static volatile exinfo_t v1_probe;
static uint8_t window[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));
static volatile long v1_version, v1_is_up, v1_init, v1_send, v1_other;
static volatile unsigned long v1_dr0, v1_dr1, v1_dr7;
static volatile uint32_t ipi_port;

#ifdef __x86_64__
#define NONCANON    0x0000800000000000UL
/* A hypervisor address for DR0: dropped, as set_debugreg refuses it. */
#define DR0_ASKED   0xffff800000001000UL
#define DR0_KEPT    0
#else
/* Every 32-bit address passes Xen's access_ok() (see debugreg). */
#define DR0_ASKED   HYPERVISOR_VIRT_START
#define DR0_KEPT    HYPERVISOR_VIRT_START
#endif

/* vCPU 1's life: hypercalls, an event for vCPU 0, then down. */
static void __attribute__((used, noreturn)) vcpu1_main(void)
{
    evtchn_send_t send = { .port = ipi_port };

    v1_stage = 1;
    v1_version = hypercall_xen_version(XENVER_version, NULL);
    v1_is_up = vcpu_op(VCPUOP_is_up, 1, NULL);
    v1_init = vcpu_op(VCPUOP_initialise, 1, &ctx);   /* -EEXIST */
    v1_other = vcpu_op(VCPUOP_is_up, 0, NULL);
    v1_dr0 = HYPERCALL(__HYPERVISOR_get_debugreg, 0, 0, 0, 0, 0);
    v1_dr1 = HYPERCALL(__HYPERVISOR_get_debugreg, 1, 0, 0, 0, 0);
    v1_dr7 = HYPERCALL(__HYPERVISOR_get_debugreg, 7, 0, 0, 0, 0);
    v1_send = evtchn_op(EVTCHNOP_send, &send);

    /* A writable translation of the window, cached in this CPU's TLB... */
    while ( v1_cmd != 1 )
        ;
    ((volatile uint64_t *)window)[0] = 0;
    v1_ack = 1;
    /* ... must be gone once vCPU 0 made its frame a page table. */
    while ( v1_cmd != 2 )
        ;
    v1_probe = probe_write(&((uint64_t *)window)[5]);
    v1_ack = 2;
    v1_stage = 2;
    vcpu_op(VCPUOP_down, 1, NULL);
    /* VCPUOP_up again: on from here. */
    v1_stage = 3;
    vcpu_op(VCPUOP_down, 1, NULL);
    v1_stage = 99;                      /* never: not brought up again */
    for ( ;; )
        ;
}

/* The minimal context: running L4, empty GDT, its own stack. */
static void good_ctx(void)
{
    vcpu_ctx_init(&ctx, (unsigned long)vcpu1_main, 0,
                  v1_stack + sizeof(v1_stack), false);
}

/* good_ctx() with the library's exception handlers, as vCPU 0 has. */
static void good_ctx_traps(void)
{
    vcpu_ctx_init(&ctx, (unsigned long)vcpu1_main, 0,
                  v1_stack + sizeof(v1_stack), true);
}

static void wait_ack(unsigned int ack)
{
    uint64_t end = system_time() + 10000000000ULL;

    while ( v1_ack < ack && system_time() < end )
        ;
    if ( v1_ack < ack )
        test_fail("vCPU 1 never acknowledged command %u", ack);
}

/*
 * A stale writable translation on the OTHER CPU: vCPU 1 caches one, vCPU
 * 0 removes the mapping without any flush and pins the frame as an L1.
 * The shim's flush must reach CPU 1, so vCPU 1's write faults.
 */
static void remote_stale_tlb(void)
{
    unsigned long w = (unsigned long)window, f = alloc_frame();
    uint64_t e;

    check_rc(map_frame_at(w, f, PTE_RW), 0);
    v1_cmd = 1;
    wait_ack(1);
    check_rc(hypercall_update_va_mapping(w, 0, UVMF_NONE), 0);
    check_rc(pin_table(1, f), 0);
    v1_cmd = 2;
    wait_ack(2);
    if ( !v1_probe )
        test_fail("vCPU 1 wrote through a stale translation into an L1");
    else if ( exinfo_vector(v1_probe) != X86_EXC_PF )
        test_fail("vCPU 1's stale write: vector %u",
                  exinfo_vector(v1_probe));
    frame_read(f, 5 * 8, &e, sizeof(e));
    if ( e )
        test_fail("the pinned L1 changed: entry 5 is %#llx",
                  (unsigned long long)e);
    check_rc(unpin_table(f), 0);
    check_rc(remap_initial(w), 0);
}

static void check_refused(const char *what, long want)
{
    long rc = vcpu_op(VCPUOP_initialise, 1, &ctx);

    if ( rc != want )
        test_fail("%s: initialise returned %ld, wanted %ld", what, rc, want);
    if ( vcpu_op(VCPUOP_is_up, 1, NULL) != 0 )
        test_fail("%s: vCPU 1 is up", what);
}

#define BAD(field, val) do {                                                \
    good_ctx();                                                             \
    ctx.field = (val);                                                      \
    check_refused(#field " = " #val, -XEN_EINVAL);                          \
} while ( 0 )

static void hostile_contexts(void)
{
    unsigned long gdt_mfn;

    check_rc(vcpu_op(VCPUOP_up, 1, NULL), -XEN_EINVAL);
    check_rc(vcpu_op(VCPUOP_is_up, 1, NULL), 0);
    good_ctx();
    check_rc(vcpu_op(VCPUOP_initialise, 64, &ctx), -XEN_ENOENT);
    check_rc(vcpu_op(VCPUOP_up, 64, NULL), -XEN_ENOENT);
    check_rc(vcpu_op(VCPUOP_initialise, 1, BAD_UNMAPPED), -XEN_EFAULT);

#ifdef __x86_64__
    BAD(user_regs.rip, NONCANON);
    BAD(user_regs.rsp, NONCANON);
    BAD(kernel_sp, NONCANON);
    BAD(fs_base, NONCANON);
    BAD(gs_base_kernel, NONCANON);
    BAD(gs_base_user, NONCANON);
    BAD(event_callback_eip, NONCANON);
    BAD(syscall_callback_eip, NONCANON);
    BAD(failsafe_callback_eip, NONCANON);
    BAD(trap_ctxt[14].address, NONCANON);
    BAD(ldt_base, 0xffff800000000000UL);    /* the hypervisor's */
    BAD(flags, 0);                          /* user mode, no ctrlreg[1] */
#endif
    BAD(ldt_base, 0x1000UL + 8);            /* not page aligned */
    BAD(ldt_ents, 8193);
    BAD(gdt_ents, 14 * 512 + 1);

    /* Frames: a writable one as a GDT frame or an L4; beyond RAM. */
    good_ctx();
    ctx.gdt_ents = 1;
    ctx.gdt_frames[0] = virt_to_mfn(scratch);
    check_refused("a writable GDT frame", -XEN_EINVAL);
    BAD(ctrlreg[3], xen_pfn_to_cr3(virt_to_mfn(scratch)));
    BAD(ctrlreg[3], xen_pfn_to_cr3(0xfffffffUL));
#ifdef __x86_64__
    good_ctx();
    ctx.ctrlreg[1] = xen_pfn_to_cr3(virt_to_mfn(scratch));
    check_refused("a writable user L4", -XEN_EINVAL);
#endif

    /* A good GDT frame, then a bad L4: the frame must be free again. */
    gdt_mfn = alloc_frame();
    good_ctx();
    ctx.gdt_ents = 512;
    ctx.gdt_frames[0] = gdt_mfn;
    ctx.ctrlreg[3] = xen_pfn_to_cr3(virt_to_mfn(scratch));
    check_refused("a good GDT frame and a bad L4", -XEN_EINVAL);
    /* Only a frame with no seg_desc type left may be mapped writable. */
    check_rc(hypercall_update_va_mapping((unsigned long)scratch,
                                         pte_make(gdt_mfn, PTE_RW),
                                         UVMF_INVLPG | UVMF_LOCAL), 0);
    check_rc(remap_initial((unsigned long)scratch), 0);
}

static void wait_stage(unsigned int stage)
{
    uint64_t end = system_time() + 10000000000ULL;

    while ( v1_stage < stage && system_time() < end )
        ;
    if ( v1_stage < stage )
        test_fail("vCPU 1 never reached stage %u (at %u)", stage, v1_stage);
}

static void wait_down(void)
{
    uint64_t end = system_time() + 10000000000ULL;

    while ( vcpu_op(VCPUOP_is_up, 1, NULL) && system_time() < end )
        ;
    check_rc(vcpu_op(VCPUOP_is_up, 1, NULL), 0);
}

void test_main(void)
{
    evtchn_port_t port;
    long rc;

    if ( event_init() )
        return test_error("event_init failed");
    if ( vcpu_op(VCPUOP_is_up, 1, NULL) == -XEN_ENOENT )
        return test_skip("one vCPU only");
    hostile_contexts();

    rc = evtchn_bind_ipi_on(0);
    if ( rc < 0 )
        return test_fail("bind_ipi: %ld", rc);
    ipi_port = port = rc;
    shared_info->vcpu_info[1].evtchn_upcall_mask = 1;

    /*
     * The debug registers pass set_debugreg's rules, refusals ignored as
     * in Xen: a hypervisor address (64-bit) and General Detect don't
     * stick.
     */
    good_ctx_traps();
    ctx.debugreg[0] = DR0_ASKED;
    ctx.debugreg[1] = 0x1000;
    ctx.debugreg[7] = 0x2000 | 0x400;   /* DR7.GD */
    check_rc(vcpu_op(VCPUOP_initialise, 1, &ctx), 0);
    check_rc(vcpu_op(VCPUOP_initialise, 1, &ctx), -XEN_EEXIST);
    check_rc(vcpu_op(VCPUOP_is_up, 1, NULL), 0);    /* no VGCF_online */
    check_rc(vcpu_op(VCPUOP_up, 1, NULL), 0);

    /* Halted in SCHEDOP_poll until vCPU 1's event wakes this CPU. */
    rc = sched_poll(&port, 1, system_time() + 10000000000ULL);
    check_rc(rc, 0);
    if ( !evtchn_test_pending(port) )
        test_fail("no event from vCPU 1");
    remote_stale_tlb();
    wait_stage(2);
    wait_down();
    check_rc(v1_version, hypercall_xen_version(XENVER_version, NULL));
    check_rc(v1_is_up, 1);
    check_rc(v1_init, -XEN_EEXIST);
    check_rc(v1_other, 1);
    check_rc(v1_send, 0);
    check_rc(v1_dr0, DR0_KEPT);
    check_rc(v1_dr1, 0x1000);
    check_rc(v1_dr7, 0x400);
    printf("vcpu-smp: vCPU 1 ran, signalled and went down\n");

    /* Up again: it resumes after its VCPUOP_down and goes down again. */
    check_rc(vcpu_op(VCPUOP_up, 1, NULL), 0);
    wait_stage(3);
    wait_down();
    check_rc(vcpu_op(VCPUOP_down, 1, NULL), 0);     /* down already */
    printf("vcpu-smp: vCPU 1 resumed and went down again\n");

    test_success();
}
