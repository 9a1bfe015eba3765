/* SPDX-License-Identifier: GPL-2.0-only */
/* The PV console backend (backends/console/console.c). */
#ifndef BACKENDS_CONSOLE_CONSOLE_H
#define BACKENDS_CONSOLE_CONSOLE_H

/* Once the guest is built: its softirq, and a flush before the VM ends. */
void console_backend_init(void);

#endif /* BACKENDS_CONSOLE_CONSOLE_H */
