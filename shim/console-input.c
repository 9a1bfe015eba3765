/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Serial input, as Xen's serial_rx_ring (drivers/char/console.c): the
 * UARTs' receive interrupt (or a poll, where there is no I/O APIC) moves
 * what arrived into one buffer, each byte offered first to the input
 * hook, and raises CONSOLE_SOFTIRQ for the console backend.  When the
 * buffer is full the receive interrupt is held off, so the bytes wait in
 * the UART (and, under QEMU, in its character device) instead of being
 * dropped; taking a byte out lets them in again.
 */
#include "shim/console-input.h"
#include "arch/x86/acpi.h"
#include "arch/x86/apic.h"
#include "arch/x86/ioapic.h"
#include "shim/console.h"
#include "shim/softirq.h"
#include "shim/timer.h"

#define RX_SIZE         4096            /* a power of two */
#define RX_MASK(i)      ((i) & (RX_SIZE - 1))
#define RX_POLL_NS      20000000ULL

static char rx_ring[RX_SIZE];
static unsigned int rx_cons, rx_prod;
static bool rx_by_irq;          /* the UARTs interrupt us */
static bool rx_held;            /* buffer full: their interrupt is off */
static console_input_hook_t rx_hook;
static struct timer rx_poll_timer;

/* Take what the UARTs hold, while there is room; true if any was kept. */
static bool rx_fill(const struct cpu_regs *regs)
{
    bool kept = false;
    int c;

    while ( rx_prod - rx_cons < RX_SIZE && (c = console_getc()) >= 0 )
    {
        if ( rx_hook && rx_hook(c, regs) )
            continue;
        rx_ring[RX_MASK(rx_prod++)] = c;
        kept = true;
    }
    if ( rx_by_irq && !rx_held && rx_prod - rx_cons == RX_SIZE )
    {
        rx_held = true;
        console_serial_rx_irq(false);
    }
    return kept;
}

void console_input_interrupt(const struct cpu_regs *regs)
{
    if ( rx_fill(regs) )
        raise_softirq(CONSOLE_SOFTIRQ);
}

static void rx_poll(void *unused)
{
    if ( rx_fill(NULL) )
        raise_softirq(CONSOLE_SOFTIRQ);
    set_timer(&rx_poll_timer, NOW() + RX_POLL_NS);
}

int console_input_getc(void)
{
    int c;

    if ( !rx_by_irq )
        rx_fill(NULL);
    if ( rx_cons == rx_prod )
        return -1;
    c = (unsigned char)rx_ring[RX_MASK(rx_cons++)];
    if ( rx_held )
    {
        rx_held = false;
        console_serial_rx_irq(true);    /* a byte waiting raises the line */
    }
    return c;
}

unsigned int console_input_pending(void)
{
    if ( !rx_by_irq )
        rx_fill(NULL);
    return rx_prod - rx_cons;
}

void console_input_dump(void)
{
    printk("serial input: buffer cons %#x prod %#x (%u waiting), %s%s\n",
           rx_cons, rx_prod, rx_prod - rx_cons,
           rx_by_irq ? "by interrupt" : "polled",
           rx_held ? ", held off (full)" : "");
}

/*
 * From the hook, in interrupt context: bytes for the guest ahead of the
 * one being looked at (the debug keys' held-back switch characters).
 * What finds the buffer full is dropped, as Xen's serial_rx_ring does.
 */
void console_input_inject(const char *buf, unsigned int len)
{
    unsigned int i;

    for ( i = 0; i < len && rx_prod - rx_cons < RX_SIZE; i++ )
        rx_ring[RX_MASK(rx_prod++)] = buf[i];
    if ( i )
        raise_softirq(CONSOLE_SOFTIRQ);
}

void console_input_set_hook(console_input_hook_t hook)
{
    rx_hook = hook;
}

void console_input_init(void)
{
    uint8_t irqs[2];
    unsigned int i, n = console_serial_irqs(irqs);
    bool routed = n;

    for ( i = 0; i < n; i++ )
        routed = ioapic_route_isa_irq(irqs[i], SERIAL_VECTOR,
                                      ACPI_INTI_EDGE |
                                      ACPI_INTI_ACTIVE_HIGH) && routed;
    if ( routed )
    {
        rx_by_irq = true;
        console_serial_rx_irq(true);
        printk("console: serial input by interrupt\n");
    }
    else if ( n )
    {
        init_timer(&rx_poll_timer, rx_poll, NULL, 0);
        set_timer(&rx_poll_timer, NOW() + RX_POLL_NS);
        printk(XENLOG_WARNING "console: serial input polled every %llu "
               "ms\n", RX_POLL_NS / 1000000);
    }
}
