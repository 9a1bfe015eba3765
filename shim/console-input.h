/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Serial input (shim/console-input.c): what arrives on the console's
 * serial ports, buffered for the guest.  The console backend feeds the
 * guest's ring from it, CONSOLEIO_read takes from it.
 */
#ifndef SHIM_CONSOLE_INPUT_H
#define SHIM_CONSOLE_INPUT_H

#include "shim/lib.h"
#include "arch/x86/regs.h"

/*
 * Boot, after the I/O APIC: route the ports' IRQs to SERIAL_VECTOR and
 * turn their receive interrupt on; without an I/O APIC, poll (20 ms).
 */
void console_input_init(void);

/* SERIAL_VECTOR (arch/x86/apic.c do_IRQ): read what the UARTs hold. */
void console_input_interrupt(const struct cpu_regs *regs);

/* The next input byte, -1 if none; bytes waiting in the buffer. */
int console_input_getc(void);
unsigned int console_input_pending(void);

/* For a debug key: the buffer's indexes and how the UARTs are read. */
void console_input_dump(void);

/*
 * The shim's own keys (issue 9's debug keys): @hook sees every byte
 * first, in interrupt context (@regs: where the interrupt came from; NULL
 * when polled), and returns true to keep it from the guest.  One hook.
 */
typedef bool (*console_input_hook_t)(char c, const struct cpu_regs *regs);
void console_input_set_hook(console_input_hook_t hook);
/* From the hook: @len bytes for the guest, ahead of the one it sees. */
void console_input_inject(const char *buf, unsigned int len);

#endif /* SHIM_CONSOLE_INPUT_H */
