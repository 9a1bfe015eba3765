/* SPDX-License-Identifier: GPL-2.0-only */
/* A polled 16550 UART. */
#ifndef ARCH_X86_UART_H
#define ARCH_X86_UART_H

#include "shim/lib.h"

struct uart {
    uint16_t io_base;       /* 0: absent */
    uint8_t irq;
    uint32_t baud;          /* 0: keep what firmware set ("auto") */
    uint32_t base_baud;     /* UART clock / 16: 115200 on a PC */
    uint8_t data_bits;      /* 5..8 */
    char parity;            /* 'n', 'o', 'e', 'm', 's' */
    uint8_t stop_bits;      /* 1, 2 */
};

/* Does a UART answer at io_base? */
bool uart_present(const struct uart *u);
/* Program the line; returns false if no UART answers at io_base. */
bool uart_init(const struct uart *u);
void uart_putc(const struct uart *u, char c);
int uart_getc(const struct uart *u);   /* -1 if nothing is waiting */

#endif /* ARCH_X86_UART_H */
