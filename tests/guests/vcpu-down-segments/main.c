/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A vCPU taken down and brought up again resumes after its VCPUOP_down
 * as it was (Linux's CPU hot-unplug: xen_pv_play_dead() goes down and,
 * brought up, carries on from there with its per-CPU %gs): its data
 * selectors and its segment bases too, whatever it loaded them with
 * since it started (Xen saves them as the vCPU is descheduled and loads
 * them again).  Here they come from its LDT, mapped on demand, which the
 * hypervisor's own loads map too (Xen's handle_ldt_mapping_fault()), as
 * does SEGBASE_GS_USER_SEL with an LDT selector.
 */
#include "guest.h"
#include "event.h"
#include "mm.h"
#include "smp.h"
#include "vcpu.h"

const char test_title[] = "VCPUOP_down and up keep a vCPU's segments";

#ifdef __x86_64__
#define LDT_DATA    0x00cff2000000ffffULL   /* DPL 3 RW data, base 0 */
#define SEL(i)      ((i) << 3 | 4 | 3)      /* LDT, RPL 3 */
#define MSR_SHADOW_GS_BASE  0xc0000102
#else
#define LDT_DATA    0x00cfb2000000ffffULL   /* DPL 1 RW data, base 0 */
#define SEL(i)      ((i) << 3 | 4 | 1)      /* LDT, RPL 1 */
#endif

static struct vcpu_guest_context ctx;
static uint8_t stack[8192] __attribute__((aligned(16)));
static uint8_t win[PAGE_SIZE] __page_aligned;
static unsigned long page_a[512] __page_aligned;
static unsigned long page_b[512] __page_aligned;
static unsigned long page_c[512] __page_aligned;

/* What vCPU 1 sees of its segments, before going down and after. */
struct segs {
    unsigned int es, fs, gs;
    unsigned long fs0, gs0;             /* %fs:0, %gs:0, or ~0 */
    uint64_t user_gs_base;              /* 64-bit: SHADOW_GS_BASE */
};
static volatile struct segs before, after;
static volatile unsigned int stage;

#define READ_SEG0(seg) ({                                               \
    exinfo_t ex_ = 0;                                                   \
    unsigned long v_ = 0;                                               \
                                                                        \
    asm volatile ( "1: mov %%" seg ":0, %1; 2:\n\t"                     \
                   ASM_EXTABLE(1b, 2b)                                  \
                   : "+a" (ex_), "+r" (v_) :: "memory" );               \
    ex_ ? ~0UL : v_;                                                    \
})

#define SREG(seg) ({                                                    \
    unsigned int s_;                                                    \
                                                                        \
    asm volatile ( "mov %%" seg ", %0" : "=r" (s_) );                   \
    s_ & 0xffff;                                                        \
})

static void look(volatile struct segs *s)
{
#ifdef __x86_64__
    uint64_t base;
#endif

    s->es = SREG("es");
    s->fs = SREG("fs");
    s->gs = SREG("gs");
    s->fs0 = READ_SEG0("fs");
    s->gs0 = READ_SEG0("gs");
#ifdef __x86_64__
    s->user_gs_base = rdmsr_safe(MSR_SHADOW_GS_BASE, &base) ? ~0ULL : base;
#endif
}

static void __attribute__((used, noreturn)) vcpu_main(unsigned long n)
{
    check_rc(mmuext_set_ldt((unsigned long)win, 3), 0);
    asm volatile ( "mov %0, %%es; mov %1, %%fs"
                   :: "r" (SEL(2)), "r" (SEL(0)) : "memory" );
#ifdef __x86_64__
    /* The kernel's %gs base by hypercall, the user's from the LDT. */
    check_rc(HYPERCALL(__HYPERVISOR_set_segment_base, SEGBASE_GS_KERNEL,
                       (unsigned long)page_c, 0, 0, 0), 0);
    check_rc(HYPERCALL(__HYPERVISOR_set_segment_base, SEGBASE_GS_USER_SEL,
                       SEL(1), 0, 0, 0), 0);
#else
    asm volatile ( "mov %0, %%gs" :: "r" (SEL(1)) : "memory" );
#endif
    look(&before);
    stage = 1;
    vcpu_op(VCPUOP_down, n, NULL);
    look(&after);
    stage = 2;
    vcpu_op(VCPUOP_down, n, NULL);
    for ( ;; )
        ;
}

static void wait_down(void)
{
    uint64_t end = smp_time() + SMP_WAIT_NS;

    while ( vcpu_op(VCPUOP_is_up, 1, NULL) && smp_time() < end )
        cpu_relax();
    if ( vcpu_op(VCPUOP_is_up, 1, NULL) )
        test_fail("vCPU 1 never went down");
}

static void expect(const char *when, const volatile struct segs *s)
{
    if ( s->es != SEL(2) || s->fs != SEL(0) || s->gs != SEL(1) )
        test_fail("%s: es %#x fs %#x gs %#x, wanted %#x %#x %#x", when,
                  s->es, s->fs, s->gs, SEL(2), SEL(0), SEL(1));
    if ( s->fs0 != page_a[0] )
        test_fail("%s: %%fs:0 %#lx, wanted %#lx", when, s->fs0, page_a[0]);
#ifdef __x86_64__
    if ( s->gs0 != page_c[0] )
        test_fail("%s: %%gs:0 %#lx, wanted the kernel's %#lx", when, s->gs0,
                  page_c[0]);
    if ( s->user_gs_base != (unsigned long)page_b )
        test_fail("%s: user GS base %#llx, wanted %p", when,
                  (unsigned long long)s->user_gs_base, page_b);
#else
    if ( s->gs0 != page_b[0] )
        test_fail("%s: %%gs:0 %#lx, wanted %#lx", when, s->gs0, page_b[0]);
#endif
}

void test_main(void)
{
    unsigned long ldt = alloc_frame();
    unsigned int i;

    if ( map_shared_info() )
        return test_error("can't map shared_info");
    if ( vcpu_op(VCPUOP_is_up, 1, NULL) == -XEN_ENOENT )
        return test_skip("one vCPU only");
    for ( i = 0; i < 512; i++ )
    {
        page_a[i] = 0xaaaa0000UL | i;
        page_b[i] = 0xbbbb0000UL | i;
        page_c[i] = 0xcccc0000UL | i;
    }
    frame_set_pte(ldt, 0, desc_set_base(LDT_DATA, (unsigned long)page_a));
    frame_set_pte(ldt, 1, desc_set_base(LDT_DATA, (unsigned long)page_b));
    frame_set_pte(ldt, 2, LDT_DATA);
    check_rc(map_frame_at((unsigned long)win, ldt, PTE_RO), 0);

    vcpu_ctx_init(&ctx, (unsigned long)vcpu_main, 1, stack + sizeof(stack),
                  true);
    check_rc(vcpu_op(VCPUOP_initialise, 1, &ctx), 0);
    check_rc(vcpu_op(VCPUOP_up, 1, NULL), 0);
    smp_wait_count(&stage, 1, SMP_WAIT_NS, "vCPU 1's segments");
    expect("before VCPUOP_down", &before);
    wait_down();

    check_rc(vcpu_op(VCPUOP_up, 1, NULL), 0);
    smp_wait_count(&stage, 2, SMP_WAIT_NS, "vCPU 1 back up");
    expect("after VCPUOP_up", &after);
    wait_down();
    printf("vcpu-down-segments: vCPU 1 resumed with its segments\n");
    test_success();
}
