/* SPDX-License-Identifier: GPL-2.0-only */
/* The little of ACPI the shim needs: finding tables, S5 poweroff. */
#ifndef ARCH_X86_ACPI_H
#define ARCH_X86_ACPI_H

#include "shim/lib.h"

/*
 * Find the RSDP (from the boot protocol, else the BIOS areas), the FADT
 * and \_S5, while boot memory is still mapped.  Returns false (and logs
 * why) if S5 poweroff won't be available.
 */
bool acpi_init(uint64_t rsdp_hint);

/* Enter S5 if acpi_init() found how; returns if it could not. */
void acpi_poweroff(void);

/* The FADT's PM timer I/O port (0: none) and whether it counts 32 bits. */
uint16_t acpi_pm_timer_port(bool *is_32bit);

/* Physical address of a table by signature (after acpi_init), or 0. */
uint64_t acpi_find_table(const char sig[4]);

#endif /* ARCH_X86_ACPI_H */
