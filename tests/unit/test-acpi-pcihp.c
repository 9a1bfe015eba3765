/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host tests of the DSDT walk for QEMU's ACPI PCI hotplug
 * (arch/x86/acpi-pcihp.c), on AML built here in QEMU's shapes: the pc
 * machine's bus 0 selector in Scope(PCI0), q35's root ports as Devices
 * with _ADR and BSEL (either first) under PCI0, the PCST region's port;
 * then what is not QEMU's: a bridge behind a bridge, a BSEL past 255, a
 * region in memory space, an opcode the walk does not know (what came
 * before it kept), and tables cut short or whose lengths run past the
 * end, each parsed from a heap copy of exactly its length for ASan.
 */
#include "tests/unit/unit.h"
#include "../../arch/x86/acpi-pcihp.c"

static uint8_t aml[4096];
static unsigned int len;

/* Each open scope's PkgLength position, filled in when it closes. */
static unsigned int open_at[16], depth;

static void byte(uint8_t b)
{
    aml[len++] = b;
}

static void bytes(const char *s, unsigned int n)
{
    memcpy(aml + len, s, n);
    len += n;
}

static void start(void)
{
    memset(aml, 0, sizeof(aml));
    len = ACPI_HEADER_SIZE;
    depth = 0;
}

/* A 3-byte PkgLength for now; written when the scope closes. */
static void open_pkg(void)
{
    open_at[depth++] = len;
    len += 3;
}

static void close_pkg(void)
{
    unsigned int at = open_at[--depth], n = len - at;

    aml[at] = 0x80 | (n & 0x0f);        /* two more bytes follow */
    aml[at + 1] = n >> 4;
    aml[at + 2] = n >> 12;
}

static void scope(const char *path, unsigned int n)
{
    byte(AML_SCOPE);
    open_pkg();
    bytes(path, n);
}

static void device(const char *seg)
{
    byte(AML_EXT);
    byte(AML_DEVICE);
    open_pkg();
    bytes(seg, 4);
}

static void name_int(const char *seg, uint32_t v)
{
    byte(AML_NAME);
    bytes(seg, 4);
    if ( v <= 1 )
        byte(v);                        /* ZeroOp, OneOp */
    else if ( v <= 0xff )
        byte(AML_BYTE), byte(v);
    else
    {
        byte(AML_DWORD);
        memcpy(aml + len, &v, 4);
        len += 4;
    }
}

/* A method QEMU writes, its body never read: bytes that look like BSEL. */
static void method(const char *seg)
{
    byte(AML_METHOD);
    open_pkg();
    bytes(seg, 4);
    byte(0x02);
    byte(AML_NAME);
    bytes("BSEL", 4);
    byte(0x07);
    close_pkg();
}

static void region(const char *seg, uint8_t space, uint32_t at)
{
    byte(AML_EXT);
    byte(AML_OPREGION);
    bytes(seg, 4);
    byte(space);
    byte(AML_DWORD);
    memcpy(aml + len, &at, 4);
    len += 4;
    byte(AML_BYTE);
    byte(0x08);
}

static void field(const char *seg)
{
    byte(AML_EXT);
    byte(AML_FIELD);
    open_pkg();
    bytes(seg, 4);
    byte(0x03);
    bytes("PCIU", 4);
    byte(32);
    close_pkg();
}

static void parse_len(unsigned int n)
{
    uint8_t *copy = malloc(n);

    memcpy(copy, aml, n);
    memset(&acpi_pcihp, 0xa5, sizeof(acpi_pcihp));
    acpi_pcihp_parse(copy, n);
    free(copy);
}

static void parse(void)
{
    CHECK_EQ(depth, 0);
    parse_len(len);
}

/* The \_SB.PCI0 prologue both machines have, with the region at @base. */
static void pci0_regions(uint32_t base)
{
    scope("\\\x2e_SB_PCI0", 10);
    region("PCST", AML_SYSTEM_IO, base);
    field("PCST");
    region("SEJ_", AML_SYSTEM_IO, base + 8);
    method("PCEJ");
    close_pkg();
}

static void test_pc(void)
{
    start();
    scope("\\_SB_", 5);
    device("PCI0");
    name_int("_HID", 0x030ad041);
    name_int("_ADR", 0);
    close_pkg();
    close_pkg();
    pci0_regions(0xae00);
    scope("\\_SB_", 5);
    scope("PCI0", 4);
    name_int("BSEL", 0);
    device("S08_");
    name_int("_ADR", 0x00010000);
    method("_EJ0");
    close_pkg();
    method("PCNT");
    close_pkg();
    close_pkg();
    parse();
    CHECK_EQ(acpi_pcihp.base, 0xae00);
    CHECK_EQ(acpi_pcihp.root_bsel, 0);
    CHECK_EQ(acpi_pcihp.nr, 0);
}

/* q35 with two root ports: 00:02.0 has BSEL 1, 00:03.0 BSEL 0. */
static void q35_ports(bool bsel_first)
{
    start();
    pci0_regions(0x0cc0);
    scope("\\_SB_", 5);
    scope("PCI0", 4);
    device("S00_");
    name_int("_ADR", 0);
    close_pkg();
    device("S10_");
    if ( bsel_first )
        name_int("BSEL", 1);
    name_int("_ADR", 0x00020000);
    if ( !bsel_first )
        name_int("BSEL", 1);
    device("S00_");
    name_int("_ADR", 0);
    name_int("_SUN", 0);
    method("_EJ0");
    close_pkg();
    method("DVNT");
    method("PCNT");
    close_pkg();
    device("S18_");
    name_int("_ADR", 0x00030000);
    name_int("BSEL", 0);
    close_pkg();
    close_pkg();
    close_pkg();
}

static void test_q35(void)
{
    unsigned int order;

    for ( order = 0; order < 2; order++ )
    {
        q35_ports(order);
        parse();
        CHECK_EQ(acpi_pcihp.base, 0x0cc0);
        CHECK_EQ(acpi_pcihp.root_bsel, -1);
        CHECK_EQ(acpi_pcihp.nr, 2);
        CHECK_EQ(acpi_pcihp.bridge[0].adr, 0x00020000);
        CHECK_EQ(acpi_pcihp.bridge[0].bsel, 1);
        CHECK_EQ(acpi_pcihp.bridge[1].adr, 0x00030000);
        CHECK_EQ(acpi_pcihp.bridge[1].bsel, 0);
    }
}

static void test_not_qemus(void)
{
    start();
    scope("\\_SB_", 5);
    region("PCST", 0x00, 0xfe000000);   /* memory space: not ours */
    scope("PCI0", 4);
    device("S10_");
    name_int("_ADR", 0x00020000);
    name_int("BSEL", 0x100);            /* past what a selector can be */
    device("S00_");                     /* a bridge behind a bridge */
    name_int("_ADR", 0);
    name_int("BSEL", 3);
    close_pkg();
    close_pkg();
    device("S18_");
    name_int("_ADR", 0x00030000);
    name_int("BSEL", 2);
    close_pkg();
    device("S20_");                     /* after an unknown opcode */
    name_int("_ADR", 0x00040000);
    byte(0x70);                         /* Store: not walked */
    name_int("BSEL", 4);
    close_pkg();
    device("S28_");                     /* the walk ends in S20 only */
    name_int("_ADR", 0x00050000);
    name_int("BSEL", 5);
    close_pkg();
    close_pkg();
    close_pkg();
    parse();
    CHECK_EQ(acpi_pcihp.base, 0);
    CHECK_EQ(acpi_pcihp.nr, 2);
    CHECK_EQ(acpi_pcihp.bridge[0].adr, 0x00030000);
    CHECK_EQ(acpi_pcihp.bridge[0].bsel, 2);
    CHECK_EQ(acpi_pcihp.bridge[1].adr, 0x00050000);
    CHECK_EQ(acpi_pcihp.bridge[1].bsel, 5);
}

/* Cut anywhere, or a scope's length past the table: nothing read past. */
static void test_truncated(void)
{
    unsigned int n, full;

    q35_ports(false);
    full = len;
    for ( n = 0; n < full; n++ )
    {
        parse_len(n);
        CHECK(acpi_pcihp.nr <= 2);
    }
    /* The outer Scope's PkgLength past the end: the scope is not read. */
    q35_ports(false);
    aml[open_at[0] + 2] = 0xff;
    parse_len(len);
    CHECK_EQ(acpi_pcihp.base, 0x0cc0);
    CHECK_EQ(acpi_pcihp.nr, 0);
    /* A header alone, or less. */
    parse_len(ACPI_HEADER_SIZE);
    CHECK_EQ(acpi_pcihp.base, 0);
    CHECK_EQ(acpi_pcihp.root_bsel, -1);
    parse_len(4);
    CHECK_EQ(acpi_pcihp.nr, 0);
}

int main(void)
{
    RUN(test_pc);
    RUN(test_q35);
    RUN(test_not_qemus);
    RUN(test_truncated);
    UNIT_EXIT();
}
