/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the MCFG parser (arch/x86/acpi-mcfg.c): q35's one entry,
 * several, and tables that are short, truncated mid-entry, or hold
 * entries no ECAM can have (an unaligned or zero base, buses backwards),
 * each parsed from a heap copy of exactly its length for ASan.
 */
#include "tests/unit/unit.h"
#include "../../arch/x86/acpi-mcfg.c"

static uint8_t table[256];
static unsigned int len;

static void start(void)
{
    memset(table, 0, sizeof(table));
    memset(&acpi_mcfg, 0xa5, sizeof(acpi_mcfg));
    len = MCFG_ENTRIES;
}

static void add(uint64_t base, uint16_t seg, uint8_t first, uint8_t last)
{
    memcpy(table + len, &base, 8);
    memcpy(table + len + 8, &seg, 2);
    table[len + 10] = first;
    table[len + 11] = last;
    len += MCFG_ENTRY_SIZE;
}

static void parse(unsigned int n)
{
    uint8_t *copy = malloc(n ? n : 1);

    memcpy(copy, table, n);
    acpi_mcfg_parse(copy, n);
    free(copy);
}

static void test_q35(void)
{
    start();
    add(0xb0000000, 0, 0, 0xff);
    parse(len);
    CHECK_EQ(acpi_mcfg.nr, 1);
    CHECK_EQ(acpi_mcfg.ecam[0].base, 0xb0000000);
    CHECK_EQ(acpi_mcfg.ecam[0].segment, 0);
    CHECK_EQ(acpi_mcfg.ecam[0].bus_start, 0);
    CHECK_EQ(acpi_mcfg.ecam[0].bus_end, 0xff);
}

static void test_several(void)
{
    unsigned int i;

    start();
    for ( i = 0; i < 6; i++ )
        add(0xe0000000ULL + i * 0x10000000ULL, i, 0, 0x0f);
    parse(len);
    CHECK_EQ(acpi_mcfg.nr, ARRAY_SIZE(acpi_mcfg.ecam));
    CHECK_EQ(acpi_mcfg.ecam[3].segment, 3);
    CHECK_EQ(acpi_mcfg.ecam[3].base, 0x110000000ULL);
}

static void test_malformed(void)
{
    start();
    parse(0);
    CHECK_EQ(acpi_mcfg.nr, 0);
    parse(MCFG_ENTRIES - 1);
    CHECK_EQ(acpi_mcfg.nr, 0);
    add(0xb0000000, 0, 0, 0xff);
    parse(len - 1);                         /* truncated entry: ignored */
    CHECK_EQ(acpi_mcfg.nr, 0);

    start();
    add(0xb0000800, 0, 0, 0xff);            /* not 1 MiB aligned */
    add(0, 0, 0, 0xff);                     /* no base */
    add(0xc0000000, 0, 0x10, 0x0f);         /* buses backwards */
    add(0xd0000000, 1, 0x10, 0x10);         /* one bus: fine */
    parse(len);
    CHECK_EQ(acpi_mcfg.nr, 1);
    CHECK_EQ(acpi_mcfg.ecam[0].base, 0xd0000000);
}

int main(void)
{
    RUN(test_q35);
    RUN(test_several);
    RUN(test_malformed);
    UNIT_EXIT();
}
