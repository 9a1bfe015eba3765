/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The console: printk with Xen's log levels and timestamps, over the
 * serial line chosen with console= (and com1=/com2=).
 */
#ifndef SHIM_CONSOLE_H
#define SHIM_CONSOLE_H

#include "shim/lib.h"

/* Xen's level prefixes: a format string may begin with one of these. */
#define XENLOG_ERR      "<0>"
#define XENLOG_WARNING  "<1>"
#define XENLOG_INFO     "<2>"
#define XENLOG_DEBUG    "<3>"

/* Print a message; no prefix means XENLOG_INFO. */
void printk(const char *fmt, ...) __printf(1, 2);
void vprintk(const char *fmt, va_list args);

/* Around the debug keys' output: print every level (Xen's). */
void console_start_log_everything(void);
void console_end_log_everything(void);

/* Console set-up: early (before the command line), then final. */
void console_init_early(void);
void console_init(void);

/*
 * Non-blocking read of one character from the serial ports themselves: -1
 * if none is waiting.  Input for the guest goes through the buffer of
 * shim/console-input.h, which reads with this.
 */
int console_getc(void);
/* The ISA IRQs of the ports in use (at most 2); their receive interrupt. */
unsigned int console_serial_irqs(uint8_t irqs[2]);
void console_serial_rx_irq(bool on);

/* Bytes as they are (a guest's terminal stream), to every serial port. */
void console_write_raw(const char *buf, size_t len);

/* Raw write of a string to every console, no prefix (panic paths). */
void console_puts(const char *s);
void console_force_unlock(void);

#endif /* SHIM_CONSOLE_H */
