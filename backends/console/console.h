/* SPDX-License-Identifier: GPL-2.0-only */
/* The PV console backend (backends/console/console.c). */
#ifndef BACKENDS_CONSOLE_CONSOLE_H
#define BACKENDS_CONSOLE_CONSOLE_H

/* Once the guest is built: its softirq, and a flush before the VM ends. */
void console_backend_init(void);

/*
 * For the backends' debug key ('b'): the ring's indexes, whether input
 * goes to it yet, and the serial input waiting for it.
 */
void console_dump(void);

#endif /* BACKENDS_CONSOLE_CONSOLE_H */
