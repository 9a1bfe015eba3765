/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Guest user mode for test kernels, as XTF's exec_user(): user space
 * shares the kernel's address space (64-bit: the kernel's L4 is also the
 * user one, MMUEXT_NEW_USER_BASEPTR, and its pages are all user-accessible
 * under PV; 32-bit: one address space, whose start-of-day pages
 * user_init() makes user-accessible); a function runs in user mode
 * (ring 3), on its own stack, and comes back to the kernel through a
 * DPL-3 trap-table vector.
 */
#ifndef GUEST_USER_H
#define GUEST_USER_H

#include "guest.h"

/* The trap-table vector user code returns to the kernel through. */
#define USER_RET_VECTOR 0x21

/*
 * Give user mode its address space (above), a way back (USER_RET_VECTOR,
 * DPL 3) and the kernel a stack for entries from user mode
 * (stack_switch).  0 or the failing hypercall's error.
 */
long user_init(void);

/*
 * Run @fn(@arg) in guest user mode, with RFLAGS @rflags (IF decides the
 * event mask, IOPL the virtual one under architectural_iopl), and return
 * what it returned.  Faults in @fn reach the library's handlers in the
 * kernel, so TRY() works there as in the kernel.
 */
unsigned long exec_user_flags(unsigned long (*fn)(unsigned long),
                              unsigned long arg, unsigned long rflags);

static inline unsigned long exec_user(unsigned long (*fn)(unsigned long),
                                      unsigned long arg)
{
    return exec_user_flags(fn, arg, 0x202);
}

#ifndef __x86_64__
/*
 * A 32-bit guest's exec_user() to the ring its selectors @cs and @ss
 * name (ring 2, with DPL-2 descriptors of the test's own GDT).
 */
unsigned long exec_user_sel(unsigned long (*fn)(unsigned long),
                            unsigned long arg, unsigned int cs,
                            unsigned int ss);
#endif

#ifdef __x86_64__
/* Where user_l4() maps user code: L4 slot 0, L3 slot 1, away from the kernel. */
#define USER_VA     0x40000000UL

/*
 * A user L4 of its own (MMUEXT_NEW_USER_BASEPTR), pinned, nothing of the
 * kernel in it: frame @code (read-only) at USER_VA and a fresh stack
 * page after it; its mfn.  exec_user_raw(USER_VA, USER_VA + 2 *
 * PAGE_SIZE, ...) runs the code.
 */
unsigned long user_l4(unsigned long code);
#endif

/* Enter user mode at @rip on @rsp; back through USER_RET_VECTOR or
 * user_fault_ret_entry, returning %rax (%eax). */
unsigned long exec_user_raw(unsigned long rip, unsigned long rsp,
                            unsigned long rflags);

/* A handler that ends the user-mode run, its frame in user_frame (vector
 * 0xff); for a trap-table entry or a callback. */
extern const char user_fault_ret_entry[];

/* The kernel stack stack_switch names: entries from user mode land here. */
extern uint8_t user_kernel_stack[];
#define USER_KERNEL_STACK_SIZE (4 * PAGE_SIZE)

/*
 * The frame of the last exception taken through user_trap_record()'s
 * stubs, as Xen wrote it (rcx, r11, [error code], rip, cs, rflags, rsp,
 * ss; for a 32-bit guest two zero words, then [error code], eip, cs,
 * eflags, esp, ss), and its vector.  user_trap_record() puts those stubs
 * in the trap table for every exception vector (DPL as the library's);
 * trap_init() restores the library's.
 */
extern unsigned long user_frame[9];
extern unsigned int user_frame_vector;
long user_trap_record(void);
extern const unsigned long user_record_entry[X86_NR_EXC];

/*
 * user_frame's words, for a frame with or without an error code (a
 * 32-bit guest's eip, eflags and esp in rip, rflags and rsp, its %cs
 * without the saved upcall mask of bits 16-23; rcx and r11 are 0).
 */
struct bounce_frame {
    unsigned long rcx, r11, error_code, rip, cs, rflags, rsp, ss;
    bool has_error_code;
};
struct bounce_frame user_last_frame(bool has_error_code);

/* CALLBACKOP_register of @type at @eip, @flags (CALLBACKF_mask_events). */
long user_register_callback(unsigned int type, unsigned long eip,
                            unsigned int flags);

/*
 * Syscall callbacks that record their frame in user_frame (vector 0x100),
 * the %rax they got and the event mask (*user_mask_ptr, if set), and go
 * back to user mode with HYPERVISOR_iret (and VGCF_in_syscall for a
 * 64-bit guest), %rax = user_syscall_result; for a 32-bit guest it is the
 * syscall32 callback and %eax.  The sysenter one (vector 0x101) returns
 * to %rdx on stack %rcx, as Linux's sysenter convention, since Xen's
 * frame has neither.
 */
extern const char user_syscall_entry[], user_sysenter_entry[];
extern unsigned long user_syscall_result, user_syscall_rax;
extern unsigned int user_syscall_count, user_syscall_mask;
extern const uint8_t *user_mask_ptr;

#endif /* GUEST_USER_H */
