/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A vCPU's data selectors come from its VCPUOP_initialise context and
 * are loaded by the hypervisor as the vCPU starts, as Xen's
 * load_segments() loads them: a selector keeps its descriptor's base
 * (a 64-bit context's fs_base counts only with a null %fs, as Xen).
 * The guest may take a descriptor away in between (update_descriptor on
 * the vCPU's GDT before VCPUOP_up): that load then faults in the
 * hypervisor, which must survive it, leave that register null, as Xen's
 * loadsegment() fix-up does, and start the vCPU at its failsafe
 * callback with the selectors it had on the frame, as Xen's
 * load_segments() does.
 */
#include "guest.h"
#include "event.h"
#include "mm.h"
#include "smp.h"
#include "vcpu.h"

const char test_title[] = "VCPUOP_up: data selectors, one gone stale";

#ifdef __x86_64__
#define DATA        0x00cff2000000ffffULL   /* flat data, DPL 3 */
#define RPL         3
#else
#define DATA        0x00cfb2000000ffffULL   /* flat data, DPL 1 */
#define RPL         1
#endif
#define SEL(i)      ((i) << 3 | RPL)

static struct vcpu_guest_context ctx;
static uint64_t gdt[512] __page_aligned;
static unsigned long page[512] __page_aligned;
static uint8_t stack[8192] __attribute__((aligned(16)));
static volatile struct {
    unsigned int done, failsafe;
    unsigned int fs, gs;
    unsigned long fs0;
    unsigned long frame_sel[4], frame_ip;
} seen;

/*
 * The failsafe callback's frame, low to high: 64-bit RCX, R11, DS, ES,
 * FS, GS, RIP, ...; 32-bit DS, ES, FS, GS, EIP, ...  Its C half records
 * it and goes on as the vCPU's entry would.
 */
void failsafe_entry(void);
void __attribute__((used, noreturn)) failsafe_c(const unsigned long *f);
#ifdef __x86_64__
#define FRAME_SEL   2
asm ( ".pushsection .text\n"
      "failsafe_entry:\n\t"
      "mov %rsp, %rdi\n\t"
      "and $~15, %rsp\n\t"
      "call failsafe_c\n"
      ".popsection" );
#else
#define FRAME_SEL   0
asm ( ".pushsection .text\n"
      "failsafe_entry:\n\t"
      "mov %esp, %eax\n\t"
      "push %eax\n\t"
      "call failsafe_c\n"
      ".popsection" );
#endif

static void __attribute__((used, noreturn)) vcpu_main(unsigned long n);

void failsafe_c(const unsigned long *f)
{
    unsigned int i;

    for ( i = 0; i < 4; i++ )
        seen.frame_sel[i] = f[FRAME_SEL + i];
    seen.frame_ip = f[FRAME_SEL + 4];
    seen.failsafe = 1;
    vcpu_main(1);
}

static void __attribute__((used, noreturn)) vcpu_main(unsigned long n)
{
    unsigned int fs, gs;
    unsigned long fs0;

    asm volatile ( "mov %%fs, %0; mov %%gs, %1; mov %%fs:0, %2"
                   : "=r" (fs), "=r" (gs), "=r" (fs0) );
    seen.fs = fs & 0xffff;
    seen.gs = gs & 0xffff;
    seen.fs0 = fs0;
    seen.done = 1;
    vcpu_op(VCPUOP_down, n, NULL);
    for ( ;; )
        ;
}

void test_main(void)
{
    unsigned long mfn = virt_to_mfn(gdt);
    unsigned int i;

    if ( map_shared_info() )
        return test_error("can't map shared_info");
    if ( vcpu_op(VCPUOP_is_up, 1, NULL) == -XEN_ENOENT )
        return test_skip("one vCPU only");
    for ( i = 0; i < 512; i++ )
        page[i] = 0xc7ed0000UL | i;

    /*
     * vCPU 1's GDT: entry 1 data based at page[] for its %fs, entry 2
     * for its %gs.
     */
    gdt[1] = desc_set_base(DATA, (unsigned long)page);
    gdt[2] = DATA;
    check_rc(hypercall_update_va_mapping((unsigned long)gdt,
                                         pte_make(mfn, PTE_RO), UVMF_INVLPG),
             0);
    vcpu_ctx_init(&ctx, (unsigned long)vcpu_main, 1, stack + sizeof(stack),
                  true);
    ctx.gdt_frames[0] = mfn;
    ctx.gdt_ents = 3;
    ctx.user_regs.fs = SEL(1);
    ctx.user_regs.gs = SEL(2);
#ifndef __x86_64__
    ctx.failsafe_callback_cs = FLAT_KERNEL_CS;
#endif
    ctx.failsafe_callback_eip = (unsigned long)failsafe_entry;
    check_rc(vcpu_op(VCPUOP_initialise, 1, &ctx), 0);

    /* %gs's descriptor goes before the vCPU runs. */
    check_rc(HYPERCALL_N(__HYPERVISOR_update_descriptor,
                         HC_U64((uint64_t)mfn << PAGE_SHIFT | 16),
                         HC_U64(0)),
             0);
    check_rc(vcpu_op(VCPUOP_up, 1, NULL), 0);

    smp_wait_count(&seen.done, 1, SMP_WAIT_NS, "vCPU 1's report");
    if ( !seen.done )
        return;
    if ( seen.fs != SEL(1) || seen.fs0 != page[0] )
        test_fail("vCPU 1 started with fs %#x reading %#lx, wanted %#x "
                  "reading %#lx", seen.fs, seen.fs0, SEL(1), page[0]);
    if ( seen.gs != 0 )
        test_fail("vCPU 1 started with gs %#x, wanted 0", seen.gs);
    if ( !seen.failsafe )
        test_fail("vCPU 1 never went to its failsafe callback");
    else if ( seen.frame_sel[2] != SEL(1) || seen.frame_sel[3] != SEL(2) ||
              seen.frame_ip != (unsigned long)vcpu_main )
        test_fail("failsafe frame: ds %#lx es %#lx fs %#lx gs %#lx ip %#lx,"
                  " wanted fs %#x gs %#x ip %p", seen.frame_sel[0],
                  seen.frame_sel[1], seen.frame_sel[2], seen.frame_sel[3],
                  seen.frame_ip, SEL(1), SEL(2), vcpu_main);
    printf("vcpu-stale-selector: vCPU 1 started at its failsafe callback "
           "with its fs and a null gs\n");
    test_success();
}
