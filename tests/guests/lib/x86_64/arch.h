/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What differs for a 64-bit PV guest (kernel in ring 3): the hypercall
 * registers, pointer-sized assembler data, the exception frame's register
 * names, and addresses no hypercall may accept.  lib/x86_32/arch.h is the
 * compat guest's.
 */
#ifndef GUEST_ARCH_H
#define GUEST_ARCH_H

#define GUEST_ENV_NAME      "PV 64bit"
#define GUEST_SI_MAGIC      "xen-3.0-x86_64"    /* start_info's magic */
#define GUEST_WIDTH         64

/* A pointer-sized datum in assembler, and its alignment. */
#define ASM_PTR             ".quad"
#define ASM_PTR_ALIGN       "8"

/*
 * The 64-bit PV ABI: number in %rax (the stub loads it), arguments in
 * %rdi, %rsi, %rdx, %r10, %r8, result in %rax.  The stub saves and
 * restores %rcx and %r11 around its `syscall`; the argument registers may
 * come back clobbered (a debug Xen poisons them), so all five are outputs.
 */
#define HYPERCALL(nr, a1, a2, a3, a4, a5) ({                                \
    unsigned long a1_ = (unsigned long)(a1);                                \
    unsigned long a2_ = (unsigned long)(a2);                                \
    unsigned long a3_ = (unsigned long)(a3);                                \
    register unsigned long a4_ asm ( "r10" ) = (unsigned long)(a4);         \
    register unsigned long a5_ asm ( "r8" ) = (unsigned long)(a5);          \
    long rc_;                                                               \
                                                                            \
    asm volatile ( "call hypercall_page + %c[off]"                          \
                   : "=a" (rc_), "+D" (a1_), "+S" (a2_), "+d" (a3_),        \
                     "+r" (a4_), "+r" (a5_)                                 \
                   : [off] "i" ((nr) * 32)                                  \
                   : "memory" );                                            \
    rc_;                                                                    \
})

/*
 * exinfo_t (guest.h): bit 63 says a fault happened, bits 32-39 hold the
 * vector, bits 0-31 the error code.
 */
#define EXINFO_FAULT        (1UL << 63)
#define EXINFO_VEC_SHIFT    32
#define EXINFO_EC_MASK      0xffffffffUL

/* The exception frame (struct cpu_user_regs, xen-x86_64.h) by role. */
#define regs_ip(r)          ((r)->rip)
#define regs_ax(r)          ((r)->rax)

/* A callback's address as xen_callback_t holds it (callback.h). */
#define XEN_CALLBACK(fn)    ((xen_callback_t)(unsigned long)(fn))

/* Guest-virtual addresses that no hypercall may accept as a buffer. */
#define BAD_UNMAPPED     ((void *)(1UL << 46))  /* L4 slot 128: never built */
#define BAD_NONCANONICAL ((void *)0x8000000000000000UL)
#define BAD_XEN          ((void *)HYPERVISOR_VIRT_START) /* hypervisor's */

#endif /* GUEST_ARCH_H */
