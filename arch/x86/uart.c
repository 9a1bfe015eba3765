/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 16550 UART (National Semiconductor PC16550D data sheet): output polled,
 * input polled or by the received-data interrupt; the register offsets
 * and bits below are the data sheet's.
 */
#include "arch/x86/io.h"
#include "arch/x86/uart.h"

#define UART_RBR 0      /* receive buffer (read) */
#define UART_THR 0      /* transmit holding (write) */
#define UART_DLL 0      /* divisor latch low (DLAB=1) */
#define UART_IER 1
#define UART_DLM 1      /* divisor latch high (DLAB=1) */
#define UART_LCR 3
#define UART_MCR 4
#define UART_LSR 5
#define UART_SCR 7

#define LCR_DLAB 0x80
#define LSR_DR   0x01
#define LSR_THRE 0x20
#define MCR_DTR  0x01
#define MCR_RTS  0x02
#define MCR_OUT2 0x08   /* on a PC, gates the UART's IRQ line to the PIC */
#define IER_ERBFI 0x01  /* received data available interrupt */

#define UART_CLOCK_HZ 1843200

bool uart_present(const struct uart *u)
{
    if ( !u->io_base )
        return false;
    /* The scratch register answers only if a UART is there. */
    outb(0x5a, u->io_base + UART_SCR);
    return inb(u->io_base + UART_SCR) == 0x5a;
}

bool uart_init(const struct uart *u)
{
    uint16_t b = u->io_base;
    uint8_t lcr;

    if ( !uart_present(u) )
        return false;

    lcr = (u->data_bits - 5) | ((u->stop_bits == 2) << 2);
    switch ( u->parity )
    {
    case 'o': lcr |= 0x08; break;
    case 'e': lcr |= 0x18; break;
    case 'm': lcr |= 0x28; break;
    case 's': lcr |= 0x38; break;
    }

    outb(0, b + UART_IER);                  /* polled */
    if ( u->baud )
    {
        uint32_t div = (u->base_baud ?: UART_CLOCK_HZ / 16) / u->baud;

        outb(lcr | LCR_DLAB, b + UART_LCR);
        outb(div & 0xff, b + UART_DLL);
        outb(div >> 8, b + UART_DLM);
    }
    outb(lcr, b + UART_LCR);
    /*
     * The FIFOs stay as firmware left them: switching them on resets the
     * receive side, losing what was typed before we got here.  Output is
     * polled a character at a time either way.
     */
    outb(MCR_DTR | MCR_RTS, b + UART_MCR);
    return true;
}

void uart_rx_irq(const struct uart *u, bool on)
{
    outb(MCR_DTR | MCR_RTS | (on ? MCR_OUT2 : 0), u->io_base + UART_MCR);
    outb(on ? IER_ERBFI : 0, u->io_base + UART_IER);
}

void uart_putc(const struct uart *u, char c)
{
    unsigned int spins = 1000000;

    /* Bounded wait: a stuck UART must not hang the shim. */
    while ( !(inb(u->io_base + UART_LSR) & LSR_THRE) && --spins )
        asm volatile ( "pause" );
    outb(c, u->io_base + UART_THR);
}

int uart_getc(const struct uart *u)
{
    if ( !(inb(u->io_base + UART_LSR) & LSR_DR) )
        return -1;
    return inb(u->io_base + UART_RBR);
}
