/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The failsafe callback.  Xen calls it when reloading a vCPU's data
 * segments faults, and reloads them only when it switches vCPUs on a CPU
 * (load_segments(), from a context switch): a mode switch between guest
 * kernel and user swaps the %gs bases and nothing else.  pvshim runs one
 * vCPU per CPU and never switches, so, as on Xen with one vCPU per CPU,
 * selectors whose descriptors went stale keep working from the CPU's
 * cache across every switch, and the callback is never called; a reload
 * the guest does itself faults in the guest.  Registration follows Xen.
 */
#include "guest.h"
#include "user.h"
#include <xen/callback.h>

const char test_title[] = "Failsafe callback: registration, stale selectors";

#define DATA32  0x00cff2000000ffffULL   /* DPL 3 flat data */
#define SEL1    ((1 << 3) | 3)

/*
 * The registers that get the stale selector: A is also read through.  A
 * 32-bit kernel's library reloads %ds and %es on its way back from user
 * mode and from exceptions, which a stale selector can't survive (the
 * point of the last check), so there they are %fs and %gs.
 */
#ifdef __x86_64__
#define SEG_A       "ds"
#define SEG_B       "fs"
#else
#define SEG_A       "fs"
#define SEG_B       "gs"
#endif

void failsafe_entry(void);
asm ( ".pushsection .text\n"
      "failsafe_entry: ud2\n"           /* never: the test's ERROR */
      ".popsection" );

static uint64_t gdt[512] __attribute__((aligned(PAGE_SIZE)));

static unsigned long mfn_of(const void *va)
{
    const unsigned long *p2m = (const unsigned long *)start_info->mfn_list;

    return p2m[(unsigned long)va >> 12];
}

static unsigned int read_seg_a(void)
{
    unsigned int v;

    asm volatile ( "mov %%" SEG_A ", %0" : "=r" (v) );
    return v;
}

static unsigned int read_seg_b(void)
{
    unsigned int v;

    asm volatile ( "mov %%" SEG_B ", %0" : "=r" (v) );
    return v;
}

/* In user mode: the selectors are still there and still work. */
static unsigned long user_check(unsigned long u)
{
    static volatile uint32_t word = 0x600d;
    uint32_t v;

    asm volatile ( "movl %%" SEG_A ":%1, %0" : "=r" (v) : "m" (word) );
    return (read_seg_a() << 16 | read_seg_b()) + (v == 0x600d ? 0 : 1);
}

static void test_register(void)
{
    struct callback_unregister u = { .type = CALLBACKTYPE_failsafe };

    check_rc(user_register_callback(CALLBACKTYPE_failsafe,
                                    (unsigned long)failsafe_entry, 0), 0);
    check_rc(user_register_callback(CALLBACKTYPE_failsafe,
                                    (unsigned long)failsafe_entry,
                                    CALLBACKF_mask_events), 0);
    check_rc(HYPERCALL(__HYPERVISOR_callback_op, CALLBACKOP_unregister, &u,
                       0, 0, 0), -XEN_EINVAL);
#ifdef __x86_64__
    check_rc(HYPERCALL(__HYPERVISOR_set_callbacks, 0,
                       (unsigned long)failsafe_entry, 0, 0, 0), 0);
#else
    /* The compat form: event selector and address, failsafe's. */
    check_rc(HYPERCALL(__HYPERVISOR_set_callbacks, FLAT_KERNEL_CS, 0,
                       FLAT_KERNEL_CS, (unsigned long)failsafe_entry, 0), 0);
#endif
}

static void test_stale(void)
{
    unsigned long mfn = mfn_of(gdt);
    uint64_t pte = ((uint64_t)mfn << 12) | 0x25;
#ifndef __x86_64__
    unsigned int old_a = read_seg_a(), old_b = read_seg_b();
#endif
    exinfo_t ex = 0;

    gdt[1] = DATA32;
    check_rc(hypercall_update_va_mapping((unsigned long)gdt, pte,
                                         UVMF_INVLPG), 0);
    check_rc(HYPERCALL(__HYPERVISOR_set_gdt, &mfn, 2, 0, 0, 0), 0);
    asm volatile ( "mov %0, %%" SEG_A "; mov %0, %%" SEG_B :: "r" (SEL1) );
#ifdef __x86_64__
    asm volatile ( "mov %0, %%es" :: "r" (SEL1) );
#endif

    /* The descriptor goes; the loaded selectors don't notice. */
    check_rc(HYPERCALL_N(__HYPERVISOR_update_descriptor,
                         HC_U64((uint64_t)mfn << 12 | 8), HC_U64(0)), 0);
    check_rc(exec_user(user_check, 0), SEL1 << 16 | SEL1);
    check_rc(exec_user(user_check, 0), SEL1 << 16 | SEL1);
    check_rc(read_seg_a(), SEL1);

    /* Loading it again is the guest's own #GP. */
    asm volatile ( "1: mov %1, %%es; 2:\n\t"
                   ASM_EXTABLE(1b, 2b)
                   : "+a" (ex) : "r" (SEL1) : "memory" );
    check_rc(ex, EXINFO(X86_EXC_GP, SEL1 & ~3));

#ifdef __x86_64__
    asm volatile ( "mov %0, %%ds; mov %0, %%es; mov %0, %%fs"
                   :: "r" (FLAT_USER_DS32) );
#else
    asm volatile ( "mov %0, %%fs; mov %1, %%gs" :: "r" (old_a), "r" (old_b) );
#endif
    check_rc(HYPERCALL(__HYPERVISOR_set_gdt, NULL, 0, 0, 0, 0), 0);
}

void test_main(void)
{
    check_rc(user_init(), 0);
    test_register();
    test_stale();
    test_success();
}
