/* SPDX-License-Identifier: GPL-2.0-only */
/* Bringing up the shim's backends (backends/backends.h). */
#include "backends/backends.h"
#include "backends/console/console.h"
#include "shim/console.h"
#include "shim/softirq.h"

/*
 * The VM's power button (arch/x86/acpi-sci.c).  A stand-in until the
 * xenstore backend registers the handler that asks the guest to power
 * off (control/shutdown = "poweroff"): replace this registration.
 */
static void power_button_softirq(void)
{
    printk("power button pressed\n");
}

void backends_init(void)
{
    console_backend_init();
    open_softirq(POWER_BUTTON_SOFTIRQ, power_button_softirq);
}
