/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Debug registers (SDM vol. 3B, 18.2): the bits of DR6 and DR7, with
 * Xen's names (asm/x86-defns.h, asm/debugreg.h), and moves to and from
 * DR0-DR3, DR6 and DR7.
 */
#ifndef ARCH_X86_DEBUGREG_H
#define ARCH_X86_DEBUGREG_H

/*
 * DR6, the status.  The bits that overlap X86_DR6_DEFAULT (BLD, RTM)
 * have inverted polarity: clear means it happened.
 */
#define X86_DR6_B0          (1UL << 0)      /* breakpoint 0 hit */
#define X86_DR6_B1          (1UL << 1)
#define X86_DR6_B2          (1UL << 2)
#define X86_DR6_B3          (1UL << 3)
#define X86_DR6_BLD         (1UL << 11)     /* bus lock */
#define X86_DR6_BD          (1UL << 13)     /* debug-register access */
#define X86_DR6_BS          (1UL << 14)     /* single step */
#define X86_DR6_BT          (1UL << 15)     /* task switch */
#define X86_DR6_RTM         (1UL << 16)     /* in an RTM region */
#define X86_DR6_ZEROS       0x00001000UL    /* forced to 0 */
#define X86_DR6_DEFAULT     0xffff0ff0UL
#define X86_DR6_BP_MASK \
    (X86_DR6_B0 | X86_DR6_B1 | X86_DR6_B2 | X86_DR6_B3)
#define X86_DR6_KNOWN_MASK                                          \
    (X86_DR6_BP_MASK | X86_DR6_BLD | X86_DR6_BD | X86_DR6_BS |      \
     X86_DR6_BT | X86_DR6_RTM)

/* DR7, the control. */
#define X86_DR7_ACTIVE_MASK 0xffUL          /* L0-3, G0-3 */
#define X86_DR7_RTM         (1UL << 11)
#define X86_DR7_GD          (1UL << 13)     /* general detect */
#define X86_DR7_ZEROS       0x0000d000UL    /* forced to 0 */
#define X86_DR7_DEFAULT     0x00000400UL
#define DR_CONTROL_SHIFT    16              /* R/W0 LEN0, R/W1 LEN1, ... */
#define DR_CONTROL_SIZE     4
#define DR_RW_IO            2               /* I/O breakpoint, needs CR4.DE */

#define DEFINE_DR(n)                                                    \
static inline unsigned long read_dr##n(void)                            \
{                                                                       \
    unsigned long v;                                                    \
                                                                        \
    asm volatile ( "mov %%db" #n ", %0" : "=r" (v) );                   \
    return v;                                                           \
}                                                                       \
static inline void write_dr##n(unsigned long v)                         \
{                                                                       \
    asm volatile ( "mov %0, %%db" #n :: "r" (v) );                      \
}
DEFINE_DR(0)
DEFINE_DR(1)
DEFINE_DR(2)
DEFINE_DR(3)
DEFINE_DR(6)
DEFINE_DR(7)
#undef DEFINE_DR

/* Write debug register @reg (0-3, 6 or 7; any other is ignored). */
static inline void write_dr(unsigned int reg, unsigned long v)
{
    switch ( reg )
    {
    case 0: write_dr0(v); break;
    case 1: write_dr1(v); break;
    case 2: write_dr2(v); break;
    case 3: write_dr3(v); break;
    case 6: write_dr6(v); break;
    case 7: write_dr7(v); break;
    }
}

#endif /* ARCH_X86_DEBUGREG_H */
