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

/* Console set-up: early (before the command line), then final. */
void console_init_early(void);
void console_init(void);

/* Non-blocking read of one input character: -1 if none is waiting. */
int console_getc(void);

/* Raw write of a string to every console, no prefix (panic paths). */
void console_puts(const char *s);

#endif /* SHIM_CONSOLE_H */
