/* SPDX-License-Identifier: GPL-2.0-only */
/* Bringing up the shim's backends (backends/backends.h). */
#include "backends/backends.h"
#include "backends/xenstore.h"
#include "pv/event-channel.h"
#include "shim/softirq.h"

/* Local handlers: the image is PIE, and a static address needs no GOT. */
static void console_softirq(void)
{
    pv_console_ring_drain();
}

static void xenstore_softirq(void)
{
    xenstore_ring_work();
}

static void power_button_softirq(void)
{
    xenstore_power_button();
}

void backends_init(void)
{
    open_softirq(CONSOLE_SOFTIRQ, console_softirq);
    xenstore_init(&dom);
    open_softirq(XENSTORE_SOFTIRQ, xenstore_softirq);
    open_softirq(POWER_BUTTON_SOFTIRQ, power_button_softirq);
}
