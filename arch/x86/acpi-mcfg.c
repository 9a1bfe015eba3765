/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The MCFG (PCI Firmware Specification 3.2, 4.1.2): where each PCI segment
 * group's enhanced configuration space (ECAM) is, and for which buses.
 * Read once by acpi_init(), while boot memory is mapped; q35 has one,
 * the i440fx "pc" machine none.
 */
#include "arch/x86/acpi.h"

#define MCFG_ENTRIES        44      /* header, 8 reserved bytes */
#define MCFG_ENTRY_SIZE     16

struct acpi_mcfg acpi_mcfg;

void acpi_mcfg_parse(const void *table, uint32_t length)
{
    const uint8_t *t = table;
    uint32_t off;

    acpi_mcfg.nr = 0;
    for ( off = MCFG_ENTRIES;
          off <= length && length - off >= MCFG_ENTRY_SIZE &&
          acpi_mcfg.nr < ARRAY_SIZE(acpi_mcfg.ecam);
          off += MCFG_ENTRY_SIZE )
    {
        struct acpi_ecam *e = &acpi_mcfg.ecam[acpi_mcfg.nr];

        memcpy(&e->base, t + off, 8);
        memcpy(&e->segment, t + off + 8, 2);
        e->bus_start = t[off + 10];
        e->bus_end = t[off + 11];
        /* 1 MiB a bus, from bus 0's place: a base must fit that. */
        if ( !e->base || e->base & 0xfffff || e->bus_end < e->bus_start )
            continue;
        acpi_mcfg.nr++;
    }
}
