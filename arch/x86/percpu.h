/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-CPU data.  Each CPU's stack block is STACK_SIZE-aligned, and its
 * struct cpu_info sits at the top, so any code on any of that CPU's stacks
 * finds it from %rsp alone: no %gs, which a PV guest owns (as in Xen).
 * CPU 0's block, GDT and struct percpu are in the image (setup.c); an
 * AP's are in its PERCPU_VIRT_START area (smpboot.c).
 */
#ifndef ARCH_X86_PERCPU_H
#define ARCH_X86_PERCPU_H

#include "arch/x86/layout.h"
#include "arch/x86/regs.h"

struct tss64 {
    uint32_t _rsvd0;
    uint64_t rsp[3];
    uint64_t _rsvd1;
    uint64_t ist[7];            /* ist[0] is IST1 */
    uint64_t _rsvd2;
    uint16_t _rsvd3;
    uint16_t iomap_base;
} __packed;

struct percpu {
    unsigned int cpu_id;
    void *stack;                /* base of the STACK_SIZE block */
    struct tss64 tss __aligned(16);
    /*
     * The GDT: GDT_ENTRIES descriptors.  Entries below GDT_RESERVED_ENTRY
     * (selector 0xe000) are the guest's, empty (not present) until it
     * installs validated ones; the page from 0xe000 is Xen's reserved one.
     */
    uint64_t *gdt;
    unsigned long nr_irqs;      /* interrupts taken (do_IRQ()) */
};

/*
 * At the top of each CPU's primary stack.  guest_regs is where the CPU
 * pushes its frame on an entry from a lower privilege level (TSS.RSP0
 * points just past it) and where the syscall entry builds the same frame:
 * the guest's registers are always at one known place, as in Xen.
 */
struct cpu_info {
    struct cpu_regs guest_regs;
    unsigned long softirq_bits;     /* pending softirqs (shim/softirq.h) */
    struct percpu *percpu;
    unsigned int cpu_id;
    void *current;                  /* the vCPU this CPU runs, if any */
};
/*
 * The CPU aligns its stack to 16 bytes before it pushes a frame from
 * ring 3, and guest_regs must end exactly where that frame starts
 * (TSS.RSP0): what follows it to the stack's (16-byte aligned) top must
 * be whole 16-byte units.
 */
_Static_assert((sizeof(struct cpu_info) - sizeof(struct cpu_regs) -
                offsetof(struct cpu_info, guest_regs)) % 16 == 0,
               "guest_regs must end 16-byte aligned");

/* The last byte of this CPU's stack block, where cpu_info ends. */
static inline unsigned long cpu_stack_top(void)
{
    unsigned long sp;

    asm ( "mov %%rsp, %0" : "=r" (sp) );
    return sp | (STACK_SIZE - 1);
}

static inline struct cpu_info *get_cpu_info(void)
{
    return (struct cpu_info *)(cpu_stack_top() + 1) - 1;
}

/*
 * cpu_info's field @f from cpu_stack_top()'s @top, as one displacement
 * from it: several fields read this way share @top's two instructions
 * (get_cpu_info() for each would have the compiler share the struct's
 * address instead, one subtraction more).
 */
#define CPU_INFO_FIELD(top, f)                                          \
    (*(typeof(((struct cpu_info *)0)->f) *)                            \
     ((top) + 1 + offsetof(struct cpu_info, f) - sizeof(struct cpu_info)))

static inline struct percpu *this_cpu(void)
{
    return get_cpu_info()->percpu;
}

static inline unsigned int smp_processor_id(void)
{
    return get_cpu_info()->cpu_id;
}

/* Where TSS.RSP0 points: the end of the guest frame. */
static inline unsigned long cpu_info_rsp0(struct cpu_info *ci)
{
    return (unsigned long)(&ci->guest_regs + 1);
}

/*
 * Drop everything on this CPU's primary stack and call @fn (a function
 * name; it must not return) on a fresh one: %rsp just below guest_regs,
 * as Xen's reset_stack_and_jump().  A macro, for a direct call.
 */
#define reset_stack_and_call(fn) ({                                     \
    asm volatile ( "lea -8(%0), %%rsp; call " #fn                       \
                   :: "r" (&get_cpu_info()->guest_regs) : "memory" );   \
    __builtin_unreachable();                                            \
})

extern struct percpu *percpu_area[NR_CPUS];

/* CPU @cpu's cpu_info, from any CPU (its area allocated). */
static inline struct cpu_info *cpu_info_of(unsigned int cpu)
{
    return (struct cpu_info *)((char *)percpu_area[cpu]->stack +
                               STACK_SIZE) - 1;
}

/*
 * Map and fill in AP @cpu's area (arch/x86/percpu.c), or return the one an
 * earlier attempt left unused; NULL if out of memory.
 */
struct percpu *percpu_alloc(unsigned int cpu);
extern char cpu0_stack[STACK_SIZE];

#endif /* ARCH_X86_PERCPU_H */
