/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_iret to a code selector of the test's (an LDT one, say),
 * and a trap handler that comes back: back_entry, for the trap-table
 * entries of what the code there raises, notes the frame the guest got
 * (8 words from its stack pointer) in back_frame and returns from
 * iret_to().  A 64-bit guest's frame: %rcx, %r11, [error code], %rip,
 * %cs...; a 32-bit guest's: [error code], %eip, %cs (the upcall mask in
 * bits 16-23)...
 */
#ifndef GUEST_IRET_TO_H
#define GUEST_IRET_TO_H

extern unsigned long back_frame[8];
void back_entry(void);

/*
 * To @ip in @cs with interrupts on: a 64-bit guest on a stack of its
 * own (FLAT_KERNEL_SS); a 32-bit one in ring 1 on the rest of a stack
 * of its own, where bounce frames land too.
 */
void iret_to(unsigned long ip, unsigned long cs);

#endif /* GUEST_IRET_TO_H */
