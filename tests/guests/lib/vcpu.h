/* SPDX-License-Identifier: GPL-2.0-only */
/* Contexts for VCPUOP_initialise (tests/guests/lib/vcpu.c). */
#ifndef GUEST_VCPU_H
#define GUEST_VCPU_H

#include "guest.h"

/*
 * The minimal context a second vCPU starts from: kernel mode on the
 * running page tables, an empty GDT, @stack_top its stack, @entry the
 * address of its first code, @arg its argument (in %rdi, or on a 32-bit
 * guest's stack: @entry may be a C function of one unsigned long); with
 * @traps, the library's exception handlers, as vCPU 0 has them.
 */
void vcpu_ctx_init(struct vcpu_guest_context *c, unsigned long entry,
                   unsigned long arg, void *stack_top, bool traps);

#endif /* GUEST_VCPU_H */
