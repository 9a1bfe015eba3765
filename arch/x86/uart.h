/* SPDX-License-Identifier: GPL-2.0-only */
/* A 16550 UART: output polled, input polled or interrupt-driven. */
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
/*
 * The received-data interrupt on or off (IER.ERBFI, and MCR.OUT2, which
 * gates the IRQ line on a PC).  The line stays up while data waits: an
 * edge-triggered handler must read until uart_getc() says -1.
 */
void uart_rx_irq(const struct uart *u, bool on);

#endif /* ARCH_X86_UART_H */
