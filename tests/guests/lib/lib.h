/* SPDX-License-Identifier: GPL-2.0-only */
/* Internals shared by the guest library's files; tests use guest.h. */
#ifndef GUEST_LIB_H
#define GUEST_LIB_H

#include "guest.h"

/* Print the one result line and power the VM off. */
void __noreturn test_exit(void);

/* Write @len bytes to the hypervisor's console (CONSOLEIO_write). */
void console_write(const char *buf, size_t len);

void do_exception(struct cpu_user_regs *regs);

/* "#GP" and the like, for vector @vec. */
const char *exc_name(unsigned int vec);
/* An unexpected exception's frame, as the width's frame.c knows it. */
void dump_regs(const struct cpu_user_regs *regs);
void __noreturn start_guest(void);

#endif /* GUEST_LIB_H */
