/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the MADT parser (arch/x86/acpi-madt.c): I/O APICs and ISA
 * interrupt source overrides kept, other entries and buses skipped, and
 * a malformed entry (too short, past the end, zero length) never read
 * beyond the table.
 */
#include "tests/unit/unit.h"
#include "../../arch/x86/acpi-madt.c"

void printk(const char *fmt, ...)
{
    (void)fmt;
}

static uint8_t table[256];
static unsigned int len;

static void start(void)
{
    memset(table, 0, sizeof(table));
    memset(&acpi_madt, 0, sizeof(acpi_madt));
    len = MADT_ENTRIES;
}

static void add(const uint8_t *e)
{
    memcpy(table + len, e, e[1] ? e[1] : 2);
    len += e[1] ? e[1] : 2;
}

static const uint8_t lapic[8] = { 0, 8, 0, 0, 1, 0, 0, 0 };
static const uint8_t ioapic[12] = { 1, 12, 7, 0, 0x00, 0x00, 0xc0, 0xfe,
                                    0, 0, 0, 0 };
static const uint8_t iso_0_2[10] = { 2, 10, 0, 0, 2, 0, 0, 0, 0, 0 };
static const uint8_t iso_9[10] = { 2, 10, 0, 9, 9, 0, 0, 0, 0x0d, 0 };
static const uint8_t iso_bus1[10] = { 2, 10, 1, 5, 20, 0, 0, 0, 0, 0 };

static void test_qemu_like(void)
{
    uint32_t gsi;
    uint16_t flags;

    start();
    add(lapic);
    add(ioapic);
    add(iso_0_2);
    add(iso_9);
    add(iso_bus1);
    acpi_madt_parse(table, len);
    CHECK_EQ(acpi_madt.nr_ioapics, 1);
    CHECK_EQ(acpi_madt.ioapic[0].id, 7);
    CHECK_EQ(acpi_madt.ioapic[0].addr, 0xfec00000);
    CHECK_EQ(acpi_madt.ioapic[0].gsi_base, 0);
    CHECK_EQ(acpi_madt.nr_overrides, 2);
    CHECK(acpi_isa_irq_to_gsi(0, &gsi, &flags));
    CHECK_EQ(gsi, 2);
    CHECK(acpi_isa_irq_to_gsi(9, &gsi, &flags));
    CHECK_EQ(flags & ACPI_INTI_TRIGGER_MASK, ACPI_INTI_LEVEL);
    CHECK_EQ(flags & ACPI_INTI_POLARITY_MASK, ACPI_INTI_ACTIVE_HIGH);
    CHECK(!acpi_isa_irq_to_gsi(4, &gsi, &flags));
    CHECK_EQ(gsi, 4);
    CHECK_EQ(flags, 0);
    CHECK(!acpi_isa_irq_to_gsi(5, &gsi, &flags));   /* bus 1 ignored */
}

static void test_malformed(void)
{
    static const uint8_t short_ioapic[6] = { 1, 6, 1, 0, 0, 0 };
    static const uint8_t zero[2] = { 2, 0 };

    start();
    add(short_ioapic);                  /* too short: skipped */
    add(iso_9);
    add(zero);                          /* zero length: the walk stops */
    add(ioapic);
    acpi_madt_parse(table, len);
    CHECK_EQ(acpi_madt.nr_ioapics, 0);
    CHECK_EQ(acpi_madt.nr_overrides, 1);

    /* An entry running past the table's end is not read. */
    start();
    add(ioapic);
    acpi_madt_parse(table, len - 1);
    CHECK_EQ(acpi_madt.nr_ioapics, 0);

    /* Shorter than the fixed header: nothing. */
    start();
    acpi_madt_parse(table, 10);
    CHECK_EQ(acpi_madt.nr_ioapics + acpi_madt.nr_overrides, 0);
}

static void test_limits(void)
{
    unsigned int i;

    start();
    for ( i = 0; i < 20; i++ )
        add(iso_9);
    acpi_madt_parse(table, len);
    CHECK_EQ(acpi_madt.nr_overrides, ARRAY_SIZE(acpi_madt.override));
}

int main(void)
{
    RUN(test_qemu_like);
    RUN(test_malformed);
    RUN(test_limits);
    UNIT_EXIT();
}
