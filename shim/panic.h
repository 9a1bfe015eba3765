/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Ending the VM, and the exit statuses that tell a launcher why.  Keep in
 * step with tools/pvshim-run and docs/architecture.md.
 */
#ifndef SHIM_PANIC_H
#define SHIM_PANIC_H

#include "shim/lib.h"

enum shim_exit {
    SHIM_EXIT_POWEROFF      = 0,    /* clean: the guest (or demo) is done */
    SHIM_EXIT_REBOOT        = 2,    /* the guest asked for a reboot */
    SHIM_EXIT_GUEST_CRASH   = 3,    /* the guest crashed; the shim is fine */
    SHIM_EXIT_PANIC         = 4,    /* the shim gave up (boot failure) */
    SHIM_EXIT_FAULT         = 5,    /* unexpected exception in the shim */
    SHIM_EXIT_BAD_GUEST     = 6,    /* the guest kernel was refused */
};

/* A shim bug or boot failure: report, then end the VM. */
noreturn void panic(const char *fmt, ...) __printf(1, 2);

/*
 * arch/x86/power.c: power the VM off with @status.  isa-debug-exit carries
 * every status (status + 1 is written, so QEMU exits 2 * status + 3);
 * ACPI S5, which loses the status, is the fallback where the device is
 * absent.
 */
noreturn void machine_halt(int status);
/*
 * The same for a guest's reboot (@status SHIM_EXIT_REBOOT): where no
 * debug-exit device took the status, restart the VM as reboot= says.
 */
noreturn void machine_reboot(int status);

#endif /* SHIM_PANIC_H */
