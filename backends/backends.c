/* SPDX-License-Identifier: GPL-2.0-only */
/* Bringing up the shim's backends (backends/backends.h). */
#include "backends/backends.h"
#include "pv/event-channel.h"
#include "shim/softirq.h"

/* A local handler: the image is PIE, and a static address needs no GOT. */
static void console_softirq(void)
{
    pv_console_ring_drain();
}

void backends_init(void)
{
    open_softirq(CONSOLE_SOFTIRQ, console_softirq);
}
