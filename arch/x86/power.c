/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * machine_halt(): end the VM with a status a launcher can read.  QEMU's
 * isa-debug-exit device (port 0xf4) exits with (status << 1) | 1; ACPI S5
 * exits 0.  Without either, the CPU stops with interrupts off.
 */
#include "arch/x86/acpi.h"
#include "arch/x86/io.h"
#include "arch/x86/time.h"
#include "shim/console.h"
#include "shim/panic.h"

#define DEBUG_EXIT_PORT 0xf4

noreturn void machine_halt(int status)
{
    asm volatile ( "cli" ::: "memory" );
    printk("Shutting down the VM, exit status %d\n", status);

    if ( status )
        outl(status, DEBUG_EXIT_PORT);
    acpi_poweroff();
    /* The host acts on S5 asynchronously: give it a second. */
    if ( cpu_khz() )
    {
        uint64_t end = rdtsc() + cpu_khz() * 1000;

        while ( rdtsc() < end )
            asm volatile ( "pause" );
    }
    /* Still here: status 0 without ACPI, or no debug-exit device. */
    outl(status, DEBUG_EXIT_PORT);

    printk(XENLOG_ERR "Cannot power off: halting this CPU\n");
    for ( ;; )
        asm volatile ( "cli; hlt" );
}
