/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A 32-bit vCPU's data selectors come from its VCPUOP_initialise context
 * and are loaded by the hypervisor as the vCPU starts.  The guest may
 * take the descriptor away in between (update_descriptor on the vCPU's
 * GDT before VCPUOP_up): the load then faults in the hypervisor, which
 * must survive it and start the vCPU with that register null, as Xen's
 * loadsegment() fix-up does.  (A 64-bit vCPU's data selectors are null.)
 */
#include "guest.h"
#include "event.h"
#include "mm.h"
#include "smp.h"
#include "vcpu.h"

const char test_title[] = "VCPUOP_up with a data selector gone stale";

#ifdef __x86_64__
void test_main(void)
{
    test_skip("a 32-bit guest's data selectors only");
}
#else

#define DATA_R1     0x00cfb2000000ffffULL   /* flat data, DPL 1 */
#define SEL1        ((1 << 3) | 1)

static struct vcpu_guest_context ctx;
static uint64_t gdt[512] __page_aligned;
static uint8_t stack[8192] __attribute__((aligned(16)));
static volatile struct {
    unsigned int done;
    unsigned int fs, ds;
} seen;

static void __attribute__((used, noreturn)) vcpu_main(unsigned long n)
{
    unsigned int fs, ds;

    asm volatile ( "mov %%fs, %0; mov %%ds, %1" : "=r" (fs), "=r" (ds) );
    seen.fs = fs;
    seen.ds = ds;
    seen.done = 1;
    vcpu_op(VCPUOP_down, n, NULL);
    for ( ;; )
        ;
}

void test_main(void)
{
    unsigned long mfn = virt_to_mfn(gdt);

    if ( map_shared_info() )
        return test_error("can't map shared_info");
    if ( vcpu_op(VCPUOP_is_up, 1, NULL) == -XEN_ENOENT )
        return test_skip("one vCPU only");

    /* vCPU 1's GDT: entry 1 a ring-1 data segment; its %fs names it. */
    gdt[1] = DATA_R1;
    check_rc(hypercall_update_va_mapping((unsigned long)gdt,
                                         pte_make(mfn, PTE_RO), UVMF_INVLPG),
             0);
    vcpu_ctx_init(&ctx, (unsigned long)vcpu_main, 1, stack + sizeof(stack),
                  true);
    ctx.gdt_frames[0] = mfn;
    ctx.gdt_ents = 2;
    ctx.user_regs.fs = SEL1;
    check_rc(vcpu_op(VCPUOP_initialise, 1, &ctx), 0);

    /* The descriptor goes before the vCPU runs. */
    check_rc(HYPERCALL_N(__HYPERVISOR_update_descriptor,
                         HC_U64((uint64_t)mfn << PAGE_SHIFT | 8), HC_U64(0)),
             0);
    check_rc(vcpu_op(VCPUOP_up, 1, NULL), 0);

    smp_wait_count(&seen.done, 1, SMP_WAIT_NS, "vCPU 1's report");
    if ( !seen.done )
        return;
    if ( seen.fs != 0 || seen.ds != FLAT_KERNEL_DS )
        test_fail("vCPU 1 started with fs %#x ds %#x, wanted 0 and %#x",
                  seen.fs, seen.ds, FLAT_KERNEL_DS);
    printf("vcpu-stale-selector: vCPU 1 started with a null fs\n");
    test_success();
}
#endif
