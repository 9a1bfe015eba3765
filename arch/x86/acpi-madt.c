/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The MADT (ACPI 6.4 5.2.12): the I/O APICs (5.2.12.3) and the interrupt
 * source overrides (5.2.12.5) that map ISA IRQs to global system
 * interrupts.  Read once by acpi_init(), while boot memory is mapped.
 */
#include "arch/x86/acpi.h"
#include "shim/console.h"

#define MADT_ENTRIES        44      /* header, local APIC address, flags */
#define MADT_IOAPIC         1
#define MADT_ISO            2

struct acpi_madt acpi_madt;

static void add_ioapic(const uint8_t *e)
{
    struct acpi_ioapic *io;

    if ( e[1] < 12 || acpi_madt.nr_ioapics == ARRAY_SIZE(acpi_madt.ioapic) )
        return;
    io = &acpi_madt.ioapic[acpi_madt.nr_ioapics++];
    io->id = e[2];
    memcpy(&io->addr, e + 4, 4);
    memcpy(&io->gsi_base, e + 8, 4);
}

static void add_override(const uint8_t *e)
{
    struct acpi_irq_override *o;

    /* Bus 0 is ISA, the only bus the table defines. */
    if ( e[1] < 10 || e[2] != 0 ||
         acpi_madt.nr_overrides == ARRAY_SIZE(acpi_madt.override) )
        return;
    o = &acpi_madt.override[acpi_madt.nr_overrides++];
    o->isa_irq = e[3];
    memcpy(&o->gsi, e + 4, 4);
    memcpy(&o->flags, e + 8, 2);
}

void acpi_madt_parse(const void *table, uint32_t length)
{
    const uint8_t *p = table, *end = p + length;

    if ( length < MADT_ENTRIES )
        return;
    for ( p += MADT_ENTRIES; p + 2 <= end && p[1] >= 2 && p + p[1] <= end;
          p += p[1] )
    {
        if ( p[0] == MADT_IOAPIC )
            add_ioapic(p);
        else if ( p[0] == MADT_ISO )
            add_override(p);
    }
    printk("ACPI: MADT: %u I/O APIC(s), %u interrupt source override(s)\n",
           acpi_madt.nr_ioapics, acpi_madt.nr_overrides);
}

bool acpi_isa_irq_to_gsi(unsigned int isa_irq, uint32_t *gsi,
                         uint16_t *flags)
{
    unsigned int i;

    for ( i = 0; i < acpi_madt.nr_overrides; i++ )
        if ( acpi_madt.override[i].isa_irq == isa_irq )
        {
            *gsi = acpi_madt.override[i].gsi;
            *flags = acpi_madt.override[i].flags;
            return true;
        }
    *gsi = isa_irq;         /* identity-mapped, conforming to the bus */
    *flags = 0;
    return false;
}
