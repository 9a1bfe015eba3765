/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The PV console backend, as xenconsoled (tools/console/daemon/io.c) and
 * Xen's pv-shim consoled (drivers/char/consoled.c) serve a domU: the
 * guest's output half (out[], xen/io/console.h) goes to the serial line
 * when the guest notifies the console port, and the guest is notified
 * once it is consumed, so a writer waiting for room wakes; serial input
 * (shim/console-input.h) goes into the input half (in[]) with a
 * notification.  Both run from CONSOLE_SOFTIRQ, raised by the guest's
 * EVTCHNOP_send or by the UART's interrupt.
 */
#include "backends/console/console.h"
#include "shim/lib.h"
#include "arch/x86/barrier.h"
#include <xen/xen.h>
#include <xen/io/console.h>
#include "pv/pv.h"
#include "shim/console.h"
#include "shim/console-input.h"
#include "shim/shutdown.h"
#include "shim/softirq.h"

/*
 * Input goes where the guest reads it: its ring once it has used the
 * ring (written output or taken input), CONSOLEIO_read until then.
 */
static bool ring_in_use;
/* The last byte written out was '\r': a '\n' after it needs none. */
static bool last_cr;

/*
 * Copy the output half out of the shared page (its indexes read once, a
 * producer more than a ring ahead clamped to the last ring's worth), then
 * publish the new consumer index.  The guest's own "\r\n" passes as it is
 * and a bare '\n' gets its '\r': a terminal stream, every other byte raw
 * (a shell's escapes and backspaces included).  True if anything moved.
 */
static bool ring_output(struct xencons_interface *intf)
{
    char out[sizeof(intf->out)], text[2 * sizeof(intf->out)];
    XENCONS_RING_IDX cons, prod;
    unsigned int n = 0, i, len = 0;

    cons = ACCESS_ONCE(intf->out_cons);
    prod = ACCESS_ONCE(intf->out_prod);
    smp_rmb();                          /* indexes, then the text */
    if ( prod - cons > sizeof(intf->out) )
        cons = prod - sizeof(intf->out);
    while ( cons != prod )
        out[n++] = ACCESS_ONCE(intf->out[MASK_XENCONS_IDX(cons++, intf->out)]);
    barrier();                          /* the text read, then out_cons */
    if ( ACCESS_ONCE(intf->out_cons) == cons )
        return false;
    ACCESS_ONCE(intf->out_cons) = cons;

    for ( i = 0; i < n; i++ )
    {
        if ( out[i] == '\n' && !last_cr )
            text[len++] = '\r';
        text[len++] = out[i];
        last_cr = out[i] == '\r';
    }
    console_write_raw(text, len);
    return true;
}

/*
 * Serial input into the input half, while it has room (a producer the
 * guest moved out of range leaves the ring alone).  True if the guest
 * should look: something was written, or input waits for room.
 */
static bool ring_input(struct xencons_interface *intf)
{
    XENCONS_RING_IDX cons, prod;
    bool wrote = false;
    int c;

    cons = ACCESS_ONCE(intf->in_cons);
    prod = ACCESS_ONCE(intf->in_prod);
    barrier();                          /* indexes, then the text */
    if ( prod - cons > sizeof(intf->in) )
        return false;
    while ( prod - cons < sizeof(intf->in) &&
            (c = console_input_getc()) >= 0 )
    {
        intf->in[MASK_XENCONS_IDX(prod++, intf->in)] = c;
        wrote = true;
    }
    smp_wmb();                          /* the text, then in_prod */
    ACCESS_ONCE(intf->in_prod) = prod;
    return wrote || console_input_pending();
}

static void console_softirq(void)
{
    struct xencons_interface *intf = pv_console_ring();
    bool notify;

    if ( !intf )
        return;
    notify = ring_output(intf);
    if ( notify || ACCESS_ONCE(intf->in_cons) )
        ring_in_use = true;
    if ( ring_in_use && console_input_pending() )
        notify |= ring_input(intf);
    if ( notify )
        pv_evtchn_notify_guest(EVTCHN_CONSOLE_PORT);
}

/*
 * Before the VM ends: what the guest wrote but never notified (a guest
 * that shuts down right after writing) still reaches the serial line.
 */
static void console_flush(void)
{
    struct xencons_interface *intf = pv_console_ring();

    if ( intf )
        ring_output(intf);
}

void console_dump(void)
{
    struct xencons_interface *intf = pv_console_ring();

    if ( !intf )
        printk("console: no ring\n");
    else
        printk("console: out cons %#x prod %#x, in cons %#x prod %#x; "
               "input to %s\n",
               ACCESS_ONCE(intf->out_cons), ACCESS_ONCE(intf->out_prod),
               ACCESS_ONCE(intf->in_cons), ACCESS_ONCE(intf->in_prod),
               ring_in_use ? "the ring" : "CONSOLEIO_read");
    console_input_dump();
}

void console_backend_init(void)
{
    open_softirq(CONSOLE_SOFTIRQ, console_softirq);
    shutdown_hook_register(console_flush);
}
