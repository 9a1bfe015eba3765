/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * printk and the console: Xen's "(XEN) [   s.us] " line prefix, log-level
 * filtering (loglvl=), and the serial ports chosen with console=, com1=,
 * com2= (syntax as Xen's, docs/command-line.md).
 *
 * One CPU writes at a time (Xen's console_lock, a recursive lock taken
 * with interrupts off): a line from one CPU is never cut by another's,
 * nor by the guest's console ring.  The CPU holding it may print again
 * (an NMI, an exception while printing); a panic breaks it
 * (console_force_unlock()), since the CPU holding it may never let go.
 */
#include <xen/errno.h>
#include "arch/x86/irq.h"
#include "arch/x86/time.h"
#include "arch/x86/uart.h"
#include "shim/console.h"
#include "shim/param.h"
#include "shim/spinlock.h"

static DEFINE_RSPINLOCK(console_lock, LOCK_RANK_CONSOLE);
static bool console_busted;         /* a panic: no lock any more */

enum { LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG };

static struct uart com[2] = {
    { .io_base = 0x3f8, .irq = 4, .baud = 115200, .base_baud = 115200,
      .data_bits = 8, .parity = 'n', .stop_bits = 1 },
    { .io_base = 0x2f8, .irq = 3, .baud = 115200, .base_baud = 115200,
      .data_bits = 8, .parity = 'n', .stop_bits = 1 },
};
static bool com_on[2];              /* selected with console= */
static bool com_up[2];              /* initialised and answering */

/* loglvl=: messages at or below this level are printed. */
static int log_threshold = IS_ENABLED(CONFIG_DEBUG) ? LOG_DEBUG : LOG_INFO;

enum { TS_NONE, TS_BOOT, TS_RAW };
static int timestamps = TS_BOOT;

static bool at_line_start = true;

/* Debug keys print whatever loglvl says (Xen's print_everything). */
static unsigned int log_everything;

void console_start_log_everything(void)
{
    log_everything++;
}

void console_end_log_everything(void)
{
    log_everything--;
}

/* The console to this CPU, interrupts off; @flags for console_unlock(). */
static unsigned long console_lock_irqsave(void)
{
    unsigned long flags;

    local_irq_save(flags);
    if ( !ACCESS_ONCE(console_busted) )
        rspin_lock(&console_lock);
    return flags;
}

static void console_unlock(unsigned long flags)
{
    if ( rspin_is_locked_by_me(&console_lock) )
        rspin_unlock(&console_lock);
    local_irq_restore(flags);
}

/*
 * Xen's console_force_unlock(): from here on nobody waits for the
 * console (a panic, whose CPU may have interrupted the holder, or whose
 * other CPUs may never run again).
 */
void console_force_unlock(void)
{
    ACCESS_ONCE(console_busted) = true;
}

static void console_putc(char c)
{
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(com); i++ )
    {
        if ( !com_up[i] )
            continue;
        if ( c == '\n' )
            uart_putc(&com[i], '\r');
        uart_putc(&com[i], c);
    }
}

static void puts_unlocked(const char *s)
{
    while ( *s )
        console_putc(*s++);
}

void console_puts(const char *s)
{
    unsigned long flags = console_lock_irqsave();

    puts_unlocked(s);
    console_unlock(flags);
}

static void put_prefix(void)
{
    char ts[32];

    puts_unlocked("(XEN) ");
    switch ( timestamps )
    {
    case TS_BOOT:
    {
        uint64_t ns = now_ns();

        snprintf(ts, sizeof(ts), "[%5lu.%06lu] ",
                 (unsigned long)(ns / 1000000000),
                 (unsigned long)(ns % 1000000000) / 1000);
        puts_unlocked(ts);
        break;
    }
    case TS_RAW:
        snprintf(ts, sizeof(ts), "[%016lx] ", (unsigned long)rdtsc());
        puts_unlocked(ts);
        break;
    }
}

void vprintk(const char *fmt, va_list args)
{
    char buf[1024];
    const char *p = buf;
    int level = LOG_INFO;
    unsigned long flags;

    if ( fmt[0] == '<' && fmt[1] >= '0' && fmt[1] <= '3' && fmt[2] == '>' )
    {
        level = fmt[1] - '0';
        fmt += 3;
    }
    if ( level > log_threshold && !log_everything )
        return;

    /* A message too long for the buffer still ends its line. */
    if ( vsnprintf(buf, sizeof(buf), fmt, args) >= (int)sizeof(buf) )
        strlcpy(buf + sizeof(buf) - 5, "...\n", 5);
    flags = console_lock_irqsave();
    for ( ; *p; p++ )
    {
        if ( at_line_start )
            put_prefix();
        console_putc(*p);
        at_line_start = *p == '\n';
    }
    console_unlock(flags);
}

void printk(const char *fmt, ...)
{
    va_list args;

    va_start(args, fmt);
    vprintk(fmt, args);
    va_end(args);
}

void console_write_raw(const char *buf, size_t len)
{
    unsigned long flags = console_lock_irqsave();
    unsigned int i;
    size_t n;

    for ( i = 0; i < ARRAY_SIZE(com); i++ )
        for ( n = 0; com_up[i] && n < len; n++ )
            uart_putc(&com[i], buf[n]);
    console_unlock(flags);
}

unsigned int console_serial_irqs(uint8_t irqs[2])
{
    unsigned int i, n = 0;

    for ( i = 0; i < ARRAY_SIZE(com); i++ )
        if ( com_up[i] )
            irqs[n++] = com[i].irq;
    return n;
}

void console_serial_rx_irq(bool on)
{
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(com); i++ )
        if ( com_up[i] )
            uart_rx_irq(&com[i], on);
}

int console_getc(void)
{
    unsigned int i;
    int c;

    for ( i = 0; i < ARRAY_SIZE(com); i++ )
        if ( com_up[i] && (c = uart_getc(&com[i])) >= 0 )
            return c;
    return -1;
}

/* Before the command line is parsed: COM1 at 115200 8n1. */
void console_init_early(void)
{
    com_on[0] = true;
    com_up[0] = uart_init(&com[0]);
}

/* After it: the ports and settings the command line asked for. */
void console_init(void)
{
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(com); i++ )
        com_up[i] = com_on[i] && uart_init(&com[i]);
}

/* console=<list>: comma-separated com1, com2, none. */
static int __init_console(const char *s)
{
    bool on[2] = { false, false }, none = false;

    if ( !*s || !strcmp(s, "no") )
        return -XEN_EINVAL;             /* bare or no-console: not Xen's */

    while ( *s )
    {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);

        if ( n == 4 && !strncmp(s, "com1", 4) )
            on[0] = true;
        else if ( n == 4 && !strncmp(s, "com2", 4) )
            on[1] = true;
        else if ( n == 3 && !strncmp(s, "vga", 3) )
            printk(XENLOG_WARNING "console: no VGA console, ignored\n");
        else if ( n == 4 && !strncmp(s, "none", 4) )
            none = true;
        else
            return -XEN_EINVAL;         /* nothing changed */
        s += n + !!e;
    }
    /* "vga" alone would leave no console at all: keep COM1. */
    if ( !on[0] && !on[1] && !none )
    {
        printk(XENLOG_WARNING "console: nothing usable asked, keeping com1\n");
        on[0] = true;
    }
    com_on[0] = on[0];
    com_on[1] = on[1];
    return 0;
}
custom_param("console", __init_console);

/*
 * com1=<baud>[/<base-baud>][,<data><parity><stop>[,<io-base>[,<irq>]]]
 * baud may be "auto" (keep the firmware's setting).
 */
static int parse_com(struct uart *u, const char *s)
{
    struct uart n = *u;
    const char *e;
    bool ovf = false;
    unsigned long long v;

    if ( !strncmp(s, "auto", 4) )
    {
        n.baud = 0;
        s += 4;
    }
    else
    {
        v = simple_strtoull(s, &e, 10, &ovf);
        if ( e == s || ovf || v < 50 || v > 4000000 )
            return -XEN_EINVAL;
        n.baud = v;
        s = e;
    }
    if ( *s == '/' )                /* base baud: the UART clock / 16 */
    {
        v = simple_strtoull(s + 1, &e, 0, &ovf);
        if ( e == s + 1 || ovf || v > 4000000 )
            return -XEN_EINVAL;
        n.base_baud = v;
        s = e;
    }
    /* The divisor must be 1 to 65535. */
    if ( n.baud && (n.baud > n.base_baud || n.base_baud / n.baud > 0xffff) )
        return -XEN_EINVAL;
    if ( *s == ',' && s[1] && s[1] != ',' )
    {
        s++;
        if ( s[0] < '5' || s[0] > '8' || !strchr("noems", s[1]) ||
             s[1] == '\0' || (s[2] != '1' && s[2] != '2') )
            return -XEN_EINVAL;
        n.data_bits = s[0] - '0';
        n.parity = s[1];
        n.stop_bits = s[2] - '0';
        s += 3;
    }
    else if ( *s == ',' )
        s++;
    if ( *s == ',' )
        s++;
    if ( *s && *s != ',' )
    {
        v = simple_strtoull(s, &e, 0, &ovf);
        if ( e == s || ovf || v == 0 || v > 0xfff8 )
            return -XEN_EINVAL;
        n.io_base = v;
        s = e;
    }
    if ( *s == ',' )
    {
        v = simple_strtoull(s + 1, &e, 0, &ovf);
        if ( e == s + 1 || ovf || v > 15 )
            return -XEN_EINVAL;
        n.irq = v;
        s = e;
    }
    if ( *s )
        return -XEN_EINVAL;
    *u = n;
    return 0;
}

static int __init_com1(const char *s)
{
    return parse_com(&com[0], s);
}
custom_param("com1", __init_com1);

static int __init_com2(const char *s)
{
    return parse_com(&com[1], s);
}
custom_param("com2", __init_com2);

/* loglvl=<level>[/<level>]: none, error, warning, info, debug, all. */
static int __init_loglvl(const char *s)
{
    static const char *const names[] = {
        "error", "warning", "info", "debug", "all",
    };
    size_t n = strchr(s, '/') ? (size_t)(strchr(s, '/') - s) : strlen(s);
    unsigned int i;

    if ( n == 4 && !strncmp(s, "none", 4) )
    {
        log_threshold = -1;
        return 0;
    }
    for ( i = 0; i < ARRAY_SIZE(names); i++ )
        if ( n == strlen(names[i]) && !strncmp(s, names[i], n) )
        {
            log_threshold = MIN(i, (unsigned int)LOG_DEBUG);
            return 0;
        }
    return -XEN_EINVAL;
}
custom_param("loglvl", __init_loglvl);

/* console_timestamps=<none|boot|raw>. */
static int __init_timestamps(const char *s)
{
    if ( !strcmp(s, "none") )
        timestamps = TS_NONE;
    else if ( !strcmp(s, "boot") || !*s )
        timestamps = TS_BOOT;
    else if ( !strcmp(s, "raw") )
        timestamps = TS_RAW;
    else
        return -XEN_EINVAL;
    return 0;
}
custom_param("console_timestamps", __init_timestamps);
