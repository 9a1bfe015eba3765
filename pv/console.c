/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HYPERVISOR_console_io, Xen's own console: writes printed as "(d1) ..."
 * lines, reads taking what arrived on the serial line (the input buffer
 * of shim/console-input.h), as xen/drivers/char/console.c does.  The
 * guest's other console, the xencons_interface ring, has its backend in
 * backends/console/.
 */
#include "shim/lib.h"
#include <xen/xen.h>
#include <xen/io/console.h>
#include "pv/domain.h"
#include "pv/pv.h"
#include "pv/guest-access.h"
#include "pv/hypercall.h"
#include "shim/console.h"
#include "shim/console-input.h"
#include "shim/spinlock.h"

/*
 * One line of guest console_io output, as Xen's d->pbuf, under its
 * pbuf_lock: vCPUs write with no domain lock, and two appending at once
 * would run line_len past the end.
 */
static DEFINE_SPINLOCK(pbuf_lock, LOCK_RANK_CONSOLE_PBUF);
static char line[256];
static unsigned int line_len;

/* Xen's is_console_printable(): '\r', escapes and the like are dropped. */
static bool printable(char c)
{
    return (c >= 0x20 && c < 0x7f) || c == '\t';
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
    if ( !printable(c) )
        return;
    line[line_len++] = c;
    if ( line_len == sizeof(line) )
        line_flush();
}

/*
 * As Xen's guest_console_write(): the buffer is read a chunk at a time,
 * each chunk checked as it is copied, so nothing to write reads nothing
 * (0, whatever the pointer) and a bad pointer part-way prints what came
 * before it.  A chunk is copied with no lock, then added to the line
 * under pbuf_lock: two vCPUs' writes meet only at chunk boundaries (a
 * line of up to 128 bytes in one call stays whole, as on Xen).  A long
 * write continues itself every hypercall-batch bytes, as Xen's does
 * between chunks when work is pending: the serial line is slow, the
 * guest's count up to 4 GiB, and a buffer of newlines a line each.
 */
static long console_write(unsigned long count, unsigned long buffer)
{
    char chunk[128];
    unsigned long done, i;

    for ( done = 0; done < count; done += i )
    {
        unsigned long n = MIN(count - done, sizeof(chunk));

        if ( done && hypercall_preempt_check(done) )
            return hypercall_create_continuation(__HYPERVISOR_console_io,
                                                 CONSOLEIO_write,
                                                 count - done,
                                                 buffer + done, 0);

        if ( copy_from_guest(chunk, buffer + done, n) )
            return -XEN_EFAULT;
        spin_lock(&pbuf_lock);
        for ( i = 0; i < n; i++ )
            guest_put(chunk[i]);
        spin_unlock(&pbuf_lock);
    }
    return 0;
}

/*
 * What has arrived on the serial line, up to @count characters: Xen's
 * dom0 path (its serial_rx_ring).  Input waits there until the guest
 * takes it here or, once it uses its console ring, the backend moves it
 * into the ring.
 */
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
        /* The console backend takes input too (on CPU 0, under it). */
        bool taken = pv_backends_lock_unless_held();

        for ( n = 0; n < sizeof(chunk) && done + n < count &&
                     (c = console_input_getc()) >= 0; n++ )
            chunk[n] = c;
        pv_backends_unlock_taken(taken);
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
