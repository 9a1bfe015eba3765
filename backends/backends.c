/* SPDX-License-Identifier: GPL-2.0-only */
/* Bringing up the shim's backends (backends/backends.h). */
#include "backends/backends.h"
#include "pv/event-channel.h"
#include "shim/softirq.h"

void backends_init(void)
{
    open_softirq(CONSOLE_SOFTIRQ, pv_console_ring_drain);
}
