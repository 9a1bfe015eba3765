/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the MADT parser (arch/x86/acpi-madt.c): processors from
 * Local APIC and Local x2APIC entries (IDs above 255, disabled, online-
 * capable, duplicate, invalid, beyond NR_CPUS), I/O APICs and ISA
 * interrupt source overrides kept, other entries and buses skipped, and a
 * malformed entry (too short, past the end, zero length) never read
 * beyond the table: each table is parsed from a heap copy of exactly its
 * length, so ASan catches any overrun.
 */
#include "tests/unit/unit.h"
#include "../../arch/x86/acpi-madt.c"

void printk(const char *fmt, ...)
{
    (void)fmt;
}

static uint8_t table[4096];
static unsigned int len;

/* Parse the first @n bytes from a buffer of exactly that size. */
static void parse(unsigned int n)
{
    uint8_t *copy = malloc(n ? n : 1);

    memcpy(copy, table, n);
    acpi_madt_parse(copy, n);
    free(copy);
}

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

static void put_lapic(uint8_t uid, uint8_t id, uint32_t flags)
{
    uint8_t e[8] = { 0, 8, uid, id };

    memcpy(e + 4, &flags, 4);
    add(e);
}

static void put_x2apic(uint32_t id, uint32_t flags, uint32_t uid)
{
    uint8_t e[16] = { 9, 16 };

    memcpy(e + 4, &id, 4);
    memcpy(e + 8, &flags, 4);
    memcpy(e + 12, &uid, 4);
    add(e);
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
    parse(len);
    CHECK_EQ(acpi_madt.nr_cpus, 1);
    CHECK_EQ(acpi_madt.cpu[0].apic_id, 0);
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
    parse(len);
    CHECK_EQ(acpi_madt.nr_ioapics, 0);
    CHECK_EQ(acpi_madt.nr_overrides, 1);

    /* An entry running past the table's end is not read. */
    start();
    add(ioapic);
    parse(len - 1);
    CHECK_EQ(acpi_madt.nr_ioapics, 0);

    /* Shorter than the fixed header: nothing. */
    start();
    parse(10);
    CHECK_EQ(acpi_madt.nr_ioapics + acpi_madt.nr_overrides, 0);
}

static void test_limits(void)
{
    unsigned int i;

    start();
    for ( i = 0; i < 20; i++ )
        add(iso_9);
    parse(len);
    CHECK_EQ(acpi_madt.nr_overrides, ARRAY_SIZE(acpi_madt.override));
}

/* QEMU -smp 4: four enabled Local APIC entries, IDs 0-3. */
static void test_cpus_xapic(void)
{
    unsigned int i;

    start();
    for ( i = 0; i < 4; i++ )
        put_lapic(i, i, 1);
    add(ioapic);
    parse(len);
    CHECK_EQ(acpi_madt.nr_cpus, 4);
    for ( i = 0; i < 4; i++ )
    {
        CHECK_EQ(acpi_madt.cpu[i].apic_id, i);
        CHECK_EQ(acpi_madt.cpu[i].acpi_uid, i);
    }
    CHECK_EQ(acpi_madt.nr_hotplug, 0);
    CHECK_EQ(acpi_madt.nr_ioapics, 1);
}

/* x2APIC entries, as firmware lists IDs of 255 and above. */
static void test_cpus_x2apic(void)
{
    start();
    put_lapic(0, 0, 1);
    put_lapic(1, 0xfe, 1);
    put_x2apic(0xff, 1, 2);
    put_x2apic(0x100, 1, 3);
    put_x2apic(0x12345678, 1, 0x9abcdef0);
    parse(len);
    CHECK_EQ(acpi_madt.nr_cpus, 5);
    CHECK_EQ(acpi_madt.cpu[1].apic_id, 0xfe);
    CHECK_EQ(acpi_madt.cpu[2].apic_id, 0xff);
    CHECK_EQ(acpi_madt.cpu[3].apic_id, 0x100);
    CHECK_EQ(acpi_madt.cpu[3].acpi_uid, 3);
    CHECK_EQ(acpi_madt.cpu[4].apic_id, 0x12345678);
    CHECK_EQ(acpi_madt.cpu[4].acpi_uid, 0x9abcdef0);
}

/*
 * Disabled entries are no CPUs; online-capable ones are counted as
 * hotplug; invalid IDs (0xff in a Local APIC entry, all ones in an
 * x2APIC one) and repeated IDs are skipped.
 */
static void test_cpus_flags(void)
{
    start();
    put_lapic(0, 0, 1);
    put_lapic(1, 1, 0);                 /* disabled */
    put_lapic(2, 2, 2);                 /* online-capable */
    put_x2apic(0x200, 2, 3);            /* online-capable */
    put_x2apic(0x201, 0, 4);            /* disabled */
    put_lapic(5, 0xff, 1);              /* the broadcast ID */
    put_x2apic(0xffffffff, 1, 6);
    put_lapic(7, 0, 1);                 /* 0 again */
    put_x2apic(0, 1, 8);                /* and again, as x2APIC */
    put_lapic(9, 3, 3);                 /* enabled wins over capable */
    put_lapic(10, 4, 0xfffffffd);       /* other bits don't matter */
    parse(len);
    CHECK_EQ(acpi_madt.nr_cpus, 3);
    CHECK_EQ(acpi_madt.cpu[0].apic_id, 0);
    CHECK_EQ(acpi_madt.cpu[0].acpi_uid, 0);
    CHECK_EQ(acpi_madt.cpu[1].apic_id, 3);
    CHECK_EQ(acpi_madt.cpu[2].apic_id, 4);
    CHECK_EQ(acpi_madt.nr_hotplug, 2);
    CHECK_EQ(acpi_madt.nr_cpus_dropped, 0);
}

/* More than NR_CPUS: the first NR_CPUS kept, the rest counted. */
static void test_cpus_limit(void)
{
    unsigned int i;

    start();
    for ( i = 0; i < NR_CPUS + 6; i++ )
        if ( i & 1 )
            put_x2apic(0x1000 + i, 1, i);
        else
            put_lapic(i, i, 1);
    parse(len);
    CHECK_EQ(acpi_madt.nr_cpus, NR_CPUS);
    CHECK_EQ(acpi_madt.nr_cpus_dropped, 6);
    CHECK_EQ(acpi_madt.cpu[NR_CPUS - 1].apic_id, 0x1000 + NR_CPUS - 1);
    CHECK_EQ(acpi_madt.cpu[NR_CPUS - 2].apic_id, NR_CPUS - 2);
}

/*
 * Truncated processor entries: too short for their type (skipped), cut
 * off by the table's end at every byte (never read past it), and a table
 * whose only entry has length 1 (the walk stops).
 */
static void test_cpus_truncated(void)
{
    static const uint8_t short_lapic[6] = { 0, 6, 1, 1, 1, 0 };
    static const uint8_t short_x2apic[12] = { 9, 12, 0, 0, 5, 0, 0, 0,
                                              1, 0, 0, 0 };
    static const uint8_t one[2] = { 9, 1 };
    unsigned int cut, full;

    start();
    add(short_lapic);
    add(short_x2apic);
    put_lapic(2, 2, 1);
    parse(len);
    CHECK_EQ(acpi_madt.nr_cpus, 1);
    CHECK_EQ(acpi_madt.cpu[0].apic_id, 2);

    start();
    put_lapic(0, 0, 1);
    put_x2apic(0x300, 1, 1);
    full = len;
    for ( cut = 0; cut < full; cut++ )
    {
        memset(&acpi_madt, 0, sizeof(acpi_madt));
        parse(cut);
        CHECK_EQ(acpi_madt.nr_cpus, cut < MADT_ENTRIES + 8 ? 0
                                    : cut < full ? 1 : 2);
    }

    start();
    add(one);
    put_lapic(0, 0, 1);
    parse(len);
    CHECK_EQ(acpi_madt.nr_cpus, 0);
}

/* Random bytes after the header: whatever is kept, nothing overruns. */
static void test_garbage(void)
{
    unsigned int round, i;

    srand(9);
    for ( round = 0; round < 2000; round++ )
    {
        start();
        len = MADT_ENTRIES + rand() % 200;
        for ( i = MADT_ENTRIES; i < len; i++ )
            table[i] = rand() % 4 ? rand() : rand() % 20;
        parse(len);
        CHECK(acpi_madt.nr_cpus <= NR_CPUS);
        CHECK(acpi_madt.nr_ioapics <= ARRAY_SIZE(acpi_madt.ioapic));
        CHECK(acpi_madt.nr_overrides <= ARRAY_SIZE(acpi_madt.override));
    }
}

int main(void)
{
    RUN(test_qemu_like);
    RUN(test_malformed);
    RUN(test_limits);
    RUN(test_cpus_xapic);
    RUN(test_cpus_x2apic);
    RUN(test_cpus_flags);
    RUN(test_cpus_limit);
    RUN(test_cpus_truncated);
    RUN(test_garbage);
    UNIT_EXIT();
}
