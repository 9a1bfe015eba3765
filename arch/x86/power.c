/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * machine_halt(): end the VM with a status a launcher can read, through
 * QEMU's isa-debug-exit device (port 0xf4), or ACPI S5 where it is absent.
 */
#include "arch/x86/acpi.h"
#include "arch/x86/io.h"
#include "arch/x86/irq.h"
#include "arch/x86/time.h"
#include "shim/console.h"
#include "shim/panic.h"

#define DEBUG_EXIT_PORT 0xf4

/*
 * isa-debug-exit makes QEMU exit at once with (value << 1) | 1.  We write
 * status + 1, so every status, poweroff included, has its own exit code
 * (2 * status + 3) apart from both of QEMU's own: 1, QEMU failed, and 0,
 * the VM reset (a triple fault under -no-reboot) or powered off with no
 * status at all.  tools/pvshim-run translates back.
 */
#define DEBUG_EXIT_BIAS 1

noreturn void machine_halt(int status)
{
    local_irq_disable();
    printk("Shutting down the VM, exit status %d\n", status);

    outl(status + DEBUG_EXIT_BIAS, DEBUG_EXIT_PORT);

    /* Still here: no debug-exit device.  S5 loses the status. */
    acpi_poweroff();
    /* The host acts on S5 asynchronously: give it a second. */
    if ( cpu_khz() )
    {
        uint64_t end = rdtsc() + cpu_khz() * 1000;

        while ( rdtsc() < end )
            asm volatile ( "pause" );
    }

    printk(XENLOG_ERR "Cannot power off: halting this CPU\n");
    for ( ;; )
        asm volatile ( "cli; hlt" );
}
