/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The MADT (ACPI 6.4 5.2.12): the processors, by their Local APIC
 * (5.2.12.2) and Local x2APIC (5.2.12.12) entries; the I/O APICs
 * (5.2.12.3) and the interrupt source overrides (5.2.12.5) that map ISA
 * IRQs to global system interrupts.  Read once by acpi_init(), while boot
 * memory is mapped.
 */
#include "arch/x86/acpi.h"
#include "shim/console.h"

#define MADT_ENTRIES        44      /* header, local APIC address, flags */
#define MADT_LAPIC          0
#define MADT_IOAPIC         1
#define MADT_ISO            2
#define MADT_X2APIC         9

/* Local APIC flags (ACPI 6.4, table 5.47). */
#define MADT_CPU_ENABLED        (1u << 0)
#define MADT_CPU_ONLINE_CAPABLE (1u << 1)

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

/*
 * One processor: kept if enabled (up to NR_CPUS, each APIC ID once),
 * counted as hotplug if only online-capable.  An ID of all ones is no
 * processor (0xff is the xAPIC broadcast ID).
 */
static void add_cpu(uint32_t apic_id, uint32_t uid, uint32_t flags,
                    uint32_t invalid_id)
{
    unsigned int i;

    if ( apic_id == invalid_id )
        return;
    if ( !(flags & MADT_CPU_ENABLED) )
    {
        if ( flags & MADT_CPU_ONLINE_CAPABLE )
            acpi_madt.nr_hotplug++;
        return;
    }
    for ( i = 0; i < acpi_madt.nr_cpus; i++ )
        if ( acpi_madt.cpu[i].apic_id == apic_id )
            return;                     /* listed twice: once is enough */
    if ( acpi_madt.nr_cpus == ARRAY_SIZE(acpi_madt.cpu) )
    {
        acpi_madt.nr_cpus_dropped++;
        return;
    }
    acpi_madt.cpu[acpi_madt.nr_cpus++] =
        (struct acpi_cpu){ .apic_id = apic_id, .acpi_uid = uid };
}

/* Type 0, 8 bytes: UID (1), APIC ID (1), flags (4). */
static void add_lapic(const uint8_t *e)
{
    uint32_t flags;

    if ( e[1] < 8 )
        return;
    memcpy(&flags, e + 4, 4);
    add_cpu(e[3], e[2], flags, 0xff);
}

/* Type 9, 16 bytes: reserved (2), x2APIC ID (4), flags (4), UID (4). */
static void add_x2apic(const uint8_t *e)
{
    uint32_t id, flags, uid;

    if ( e[1] < 16 )
        return;
    memcpy(&id, e + 4, 4);
    memcpy(&flags, e + 8, 4);
    memcpy(&uid, e + 12, 4);
    add_cpu(id, uid, flags, 0xffffffff);
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
        switch ( p[0] )
        {
        case MADT_LAPIC:
            add_lapic(p);
            break;
        case MADT_IOAPIC:
            add_ioapic(p);
            break;
        case MADT_ISO:
            add_override(p);
            break;
        case MADT_X2APIC:
            add_x2apic(p);
            break;
        }
    }
    printk("ACPI: MADT: %u CPUs (%u hotplug), %u I/O APIC(s), "
           "%u interrupt source override(s)\n", acpi_madt.nr_cpus,
           acpi_madt.nr_hotplug, acpi_madt.nr_ioapics,
           acpi_madt.nr_overrides);
    if ( acpi_madt.nr_cpus_dropped )
        printk(XENLOG_WARNING "ACPI: NR_CPUS limit of %u reached: %u "
               "CPU(s) ignored\n", NR_CPUS, acpi_madt.nr_cpus_dropped);
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
