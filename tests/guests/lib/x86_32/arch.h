/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What differs for a 32-bit PAE PV guest (Xen's compat ABI, kernel in
 * ring 1): the hypercall registers, pointer-sized assembler data, the
 * exception frame's register names, and addresses no hypercall may
 * accept.  lib/x86_64/arch.h is the 64-bit guest's.
 */
#ifndef GUEST_ARCH_H
#define GUEST_ARCH_H

#define GUEST_ENV_NAME      "PV 32bit PAE"
#define GUEST_SI_MAGIC      "xen-3.0-x86_32p"   /* start_info's magic */
#define GUEST_WIDTH         32

/* A pointer-sized datum in assembler, and its alignment. */
#define ASM_PTR             ".long"
#define ASM_PTR_ALIGN       "4"

/*
 * The compat ABI (xen-x86_32.h): number in %eax (the stub loads it and
 * makes `int $0x82`), arguments in %ebx, %ecx, %edx, %esi, %edi, result
 * in %eax; the argument registers may come back clobbered.  Each argument
 * is one 32-bit register: a 64-bit value (a PTE, a timeout) is two
 * arguments, low half first, and the wrappers in hypercall.h split it.
 * An argument wider than a register fails to build rather than losing
 * its upper half.
 */
#define HYPERCALL(nr, a1, a2, a3, a4, a5) ({                                \
    _Static_assert(sizeof(a1) <= 4 && sizeof(a2) <= 4 &&                    \
                   sizeof(a3) <= 4 && sizeof(a4) <= 4 && sizeof(a5) <= 4,   \
                   "a 64-bit hypercall argument: split it in two");         \
    unsigned long a1_ = (unsigned long)(a1);                                \
    unsigned long a2_ = (unsigned long)(a2);                                \
    unsigned long a3_ = (unsigned long)(a3);                                \
    unsigned long a4_ = (unsigned long)(a4);                                \
    unsigned long a5_ = (unsigned long)(a5);                                \
    long rc_;                                                               \
                                                                            \
    asm volatile ( "call hypercall_page + %c[off]"                          \
                   : "=a" (rc_), "+b" (a1_), "+c" (a2_), "+d" (a3_),        \
                     "+S" (a4_), "+D" (a5_)                                 \
                   : [off] "i" ((nr) * 32)                                  \
                   : "memory" );                                            \
    rc_;                                                                    \
})

/*
 * exinfo_t (guest.h), one register as XTF's: bit 31 says a fault
 * happened, bits 16-23 hold the vector, bits 0-15 the error code (the
 * frame's error-code slot, whose upper half entry.S gives the vector, as
 * struct cpu_user_regs of xen-x86_32.h has it).
 */
#define EXINFO_FAULT        (1UL << 31)
#define EXINFO_VEC_SHIFT    16
#define EXINFO_EC_MASK      0xffffUL

/* The exception frame (struct cpu_user_regs, xen-x86_32.h) by role. */
#define regs_ip(r)          ((r)->eip)
#define regs_ax(r)          ((r)->eax)

/* A callback's address as xen_callback_t holds it: selector and offset. */
#define XEN_CALLBACK(fn)    ((xen_callback_t){ .cs = FLAT_KERNEL_CS,     \
                                              .eip = (unsigned long)(fn) })

/*
 * Guest-virtual addresses that no hypercall may accept as a buffer.  A
 * 32-bit address is never non-canonical, and Xen's native access checks
 * (__addr_ok()) take any of them: only the compat translations
 * (compat_handle_okay()) refuse the hypervisor's area, from
 * HYPERVISOR_VIRT_START up.  So both "bad" addresses there are ones
 * nothing maps, which faults whoever reads them: not the read-only M2P
 * at HYPERVISOR_VIRT_START (Xen reads it for the guest like any of its
 * memory), but the top of the area, past the M2P's end in Xen
 * (MACH2PHYS_COMPAT_VIRT_END, 0xffe00000), where only a host with over
 * 160 GiB of RAM has M2P entries.  BAD_NONCANONICAL is the last page.
 * L3 slot 2 (2-3 GiB) has no L2 in the builder's tables.
 */
#define BAD_UNMAPPED     ((void *)0x80000000UL)
#define BAD_NONCANONICAL ((void *)0xfffff000UL)
#define BAD_XEN          ((void *)0xffe00000UL)

#endif /* GUEST_ARCH_H */
