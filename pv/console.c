/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guest's two consoles: HYPERVISOR_console_io (Xen's own console,
 * printed as "(d1) ..." lines, as xen/drivers/char/console.c does), and
 * the xencons_interface ring (xen/io/console.h) the shim is the backend
 * of, drained to the serial line when the guest notifies or yields.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/io/console.h>
#include "pv/domain.h"
#include "pv/event-channel.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "shim/console.h"

/* One line of guest console_io output, as Xen's kbuf. */
static char line[256];
static unsigned int line_len;

static bool printable(char c)
{
    return (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t';
}

static void line_flush(void)
{
    printk(XENLOG_INFO "(d1) %.*s\n", (int)line_len, line);
    line_len = 0;
}

static void guest_put(char c)
{
    if ( c == '\n' )
    {
        line_flush();
        return;
    }
    line[line_len++] = printable(c) ? c : '?';
    if ( line_len == sizeof(line) )
        line_flush();
}

static long console_write(unsigned long count, unsigned long buffer)
{
    char chunk[128];
    unsigned long done, i;

    if ( !guest_range_ok(buffer, count) )
        return -XEN_EFAULT;
    for ( done = 0; done < count; done += i )
    {
        unsigned long n = MIN(count - done, sizeof(chunk));

        if ( copy_from_guest(chunk, buffer + done, n) )
            return -XEN_EFAULT;
        for ( i = 0; i < n; i++ )
            guest_put(chunk[i]);
    }
    return 0;
}

/* What has arrived on the serial line, up to @count characters. */
static long console_read(unsigned long count, unsigned long buffer)
{
    char chunk[64];
    unsigned long done = 0;
    unsigned int n;
    int c;

    /* The result is a count or an error: counts must stay positive. */
    if ( (int)count < 0 )
        return -XEN_E2BIG;
    while ( done < count )
    {
        for ( n = 0; n < sizeof(chunk) && done + n < count &&
                     (c = console_getc()) >= 0; n++ )
            chunk[n] = c;
        if ( !n )
            break;
        if ( copy_to_guest(buffer + done, chunk, n) )
            return -XEN_EFAULT;
        done += n;
    }
    return done;
}

long do_console_io(unsigned long cmd, unsigned long count,
                   unsigned long buffer)
{
    switch ( cmd )
    {
    case CONSOLEIO_write:
        return console_write(count, buffer);
    case CONSOLEIO_read:
        return console_read(count, buffer);
    default:
        return -XEN_ENOSYS;
    }
}

/*
 * The ring lives in guest memory: read the indexes once, bound what they
 * claim by the ring size, copy, then publish the new consumer index.
 */
void pv_console_ring_drain(void)
{
    struct xencons_interface *intf = dom.console;
    XENCONS_RING_IDX cons, prod;
    char buf[sizeof(intf->out) + 1];
    unsigned int n = 0;

    if ( !intf )
        return;
    cons = ACCESS_ONCE(intf->out_cons);
    prod = ACCESS_ONCE(intf->out_prod);
    asm volatile ( "" ::: "memory" );   /* x86: loads are not reordered */
    if ( prod - cons > sizeof(intf->out) )
        cons = prod - sizeof(intf->out);    /* a bogus producer: keep last */
    while ( cons != prod )
        buf[n++] = intf->out[MASK_XENCONS_IDX(cons++, intf->out)];
    buf[n] = '\0';
    asm volatile ( "" ::: "memory" );
    ACCESS_ONCE(intf->out_cons) = cons;
    console_puts(buf);
}
