/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ACPI table discovery, S5 and the reset register (ACPI 6.4: 5.2.5 RSDP,
 * 5.2.7/8 RSDT/XSDT, 5.2.9 FADT, 7.4.2 \_Sx, 4.8.3.2.1 PM1 control,
 * 4.8.3.6 reset register).  Only what poweroff, reboot,
 * interrupt routing (the MADT, acpi-madt.c) and the power button (the
 * SCI, acpi-sci.c) need; runs while the boot directmap covers 4 GiB.
 */
#include "arch/x86/acpi.h"
#include "arch/x86/io.h"
#include "arch/x86/layout.h"
#include "shim/console.h"

struct acpi_header {
    char sig[4];
    uint32_t length;
    uint8_t revision, checksum;
    char oem_id[6], oem_table_id[8];
    uint32_t oem_revision, creator_id, creator_revision;
} __packed;
_Static_assert(sizeof(struct acpi_header) == ACPI_HEADER_SIZE,
               "ACPI_HEADER_SIZE is the header's size");

struct acpi_rsdp {
    char sig[8];
    uint8_t checksum;
    char oem_id[6];
    uint8_t revision;
    uint32_t rsdt;
    uint32_t length;
    uint64_t xsdt;
    uint8_t ext_checksum, rsvd[3];
} __packed;

#define FADT_DSDT           40
#define FADT_PM1A_CNT       64
#define FADT_PM1B_CNT       68
#define FADT_PM_TMR_BLK     76
#define FADT_FLAGS          112
#define  FADT_TMR_VAL_EXT   (1u << 8)       /* the PM timer has 32 bits */
#define  FADT_RESET_REG_SUP (1u << 10)      /* RESET_REG is there */
#define FADT_RESET_REG      116             /* a Generic Address Structure */
#define FADT_RESET_VALUE    128
#define GAS_SYSTEM_IO       1
#define FADT_X_DSDT         140
#define SLP_EN              (1u << 13)
#define LOW_4G              (4ULL << 30)

static uint64_t rsdt, xsdt;
static uint16_t pm1a_cnt, pm1b_cnt;
static uint16_t pm_tmr_port;
static bool pm_tmr_32bit;
static uint8_t slp_typa, slp_typb;
static bool s5_ok;
static uint16_t reset_port;             /* 0: no reset register to use */
static uint8_t reset_value;

static const void *acpi_ptr(uint64_t pa, uint64_t len)
{
    if ( !pa || pa + len < pa || pa + len > LOW_4G )
        return NULL;
    return __va(pa);
}

static bool checksum_ok(const void *p, size_t len)
{
    const uint8_t *b = p;
    uint8_t sum = 0;

    while ( len-- )
        sum += *b++;
    return !sum;
}

static const struct acpi_header *map_table(uint64_t pa)
{
    const struct acpi_header *h = acpi_ptr(pa, sizeof(*h));

    if ( !h || h->length < sizeof(*h) || !acpi_ptr(pa, h->length) ||
         !checksum_ok(h, h->length) )
        return NULL;
    return h;
}

static const struct acpi_rsdp *check_rsdp(uint64_t pa)
{
    const struct acpi_rsdp *r = acpi_ptr(pa, sizeof(*r));

    if ( !r || memcmp(r->sig, "RSD PTR ", 8) || !checksum_ok(r, 20) )
        return NULL;
    return r;
}

/* The EBDA's first KiB, then 0xe0000-0xfffff, on 16-byte boundaries. */
static uint64_t scan_rsdp(void)
{
    const uint16_t *ebda_seg = acpi_ptr(0x40e, 2);
    uint64_t pa, ebda = ebda_seg ? (uint64_t)*ebda_seg << 4 : 0;

    for ( pa = ebda; ebda && pa < ebda + 1024; pa += 16 )
        if ( check_rsdp(pa) )
            return pa;
    for ( pa = 0xe0000; pa < 0x100000; pa += 16 )
        if ( check_rsdp(pa) )
            return pa;
    return 0;
}

uint64_t acpi_find_table(const char sig[4])
{
    const struct acpi_header *root = map_table(xsdt ? xsdt : rsdt);
    unsigned int i, n, width = xsdt ? 8 : 4;

    if ( !root )
        return 0;
    n = (root->length - sizeof(*root)) / width;
    for ( i = 0; i < n; i++ )
    {
        const uint8_t *e = (const uint8_t *)(root + 1) + i * width;
        uint64_t pa = 0;
        const struct acpi_header *h;

        memcpy(&pa, e, width);
        h = map_table(pa);
        if ( h && !memcmp(h->sig, sig, 4) )
            return pa;
    }
    return 0;
}

/* One AML integer: ZeroOp, OneOp, BytePrefix n, or a bare byte. */
static const uint8_t *aml_byte(const uint8_t *p, const uint8_t *end,
                               uint8_t *v)
{
    if ( p >= end )
        return NULL;
    if ( *p == 0x0a )
    {
        if ( p + 1 >= end )
            return NULL;
        *v = p[1];
        return p + 2;
    }
    *v = *p == 0x01 ? 1 : *p == 0x00 ? 0 : *p;
    return p + 1;
}

/* Name(_S5_, Package(){ SLP_TYPa, SLP_TYPb, ... }) anywhere in the DSDT. */
static bool find_s5(const struct acpi_header *dsdt)
{
    const uint8_t *p = (const uint8_t *)(dsdt + 1);
    const uint8_t *end = (const uint8_t *)dsdt + dsdt->length;

    for ( ; p + 8 < end; p++ )
    {
        const uint8_t *q;

        if ( memcmp(p, "_S5_", 4) || p[4] != 0x12 ||
             (p[-1] != 0x08 && !(p[-1] == '\\' && p[-2] == 0x08)) )
            continue;
        q = p + 5;
        q += 1 + ((*q >> 6) & 3);       /* PkgLength */
        q++;                            /* NumElements */
        if ( (q = aml_byte(q, end, &slp_typa)) &&
             aml_byte(q, end, &slp_typb) )
            return true;
    }
    return false;
}

/*
 * The reset register, where the FADT says it has one, in I/O space (as
 * QEMU's and every PC chipset's, 0xcf9): Xen's acpi_reboot() takes memory
 * and PCI configuration space too, which no machine the shim runs on
 * uses; those are left to reboot='s other methods.
 */
static void reset_capture(const uint8_t *f, uint32_t length)
{
    uint32_t flags;
    uint64_t addr;

    if ( length < FADT_RESET_VALUE + 1 )
        return;
    memcpy(&flags, f + FADT_FLAGS, 4);
    if ( !(flags & FADT_RESET_REG_SUP) )
        return;
    memcpy(&addr, f + FADT_RESET_REG + 4, 8);
    if ( f[FADT_RESET_REG] != GAS_SYSTEM_IO || !addr || addr > 0xffff )
    {
        printk("ACPI: reset register in address space %u at %#lx: "
               "not used\n", f[FADT_RESET_REG], (unsigned long)addr);
        return;
    }
    reset_port = addr;
    reset_value = f[FADT_RESET_VALUE];
    printk("ACPI: reset via I/O port %#x, value %#x\n", reset_port,
           reset_value);
}

bool acpi_reset(void)
{
    if ( !reset_port )
        return false;
    printk("Rebooting the VM: ACPI reset register\n");
    outb(reset_value, reset_port);
    return true;
}

bool acpi_init(uint64_t rsdp_hint)
{
    const struct acpi_rsdp *r;
    const struct acpi_header *fadt, *dsdt, *h;
    const uint8_t *f;
    uint64_t pa = rsdp_hint, dsdt_pa = 0;

    if ( !pa || !check_rsdp(pa) )
        pa = scan_rsdp();
    if ( !(r = check_rsdp(pa)) )
    {
        printk(XENLOG_WARNING "ACPI: no RSDP found; no S5 poweroff\n");
        return false;
    }
    rsdt = r->rsdt;
    if ( r->revision >= 2 && acpi_ptr(pa, sizeof(*r)) &&
         checksum_ok(r, sizeof(*r)) )
        xsdt = r->xsdt;
    printk("ACPI: RSDP %#lx (v%u %.6s), %s %#lx\n", (unsigned long)pa,
           r->revision, r->oem_id, xsdt ? "XSDT" : "RSDT",
           (unsigned long)(xsdt ? xsdt : rsdt));
    if ( (h = map_table(acpi_find_table("APIC"))) )
        acpi_madt_parse(h, h->length);
    if ( (h = map_table(acpi_find_table("MCFG"))) )
        acpi_mcfg_parse(h, h->length);

    if ( !(fadt = map_table(acpi_find_table("FACP"))) ||
         fadt->length < FADT_PM1B_CNT + 4 )
    {
        printk(XENLOG_WARNING "ACPI: no usable FADT; no S5 poweroff\n");
        return false;
    }
    f = (const uint8_t *)fadt;
    acpi_sci_capture(fadt, fadt->length);
    reset_capture(f, fadt->length);
    memcpy(&pm1a_cnt, f + FADT_PM1A_CNT, 2);
    memcpy(&pm1b_cnt, f + FADT_PM1B_CNT, 2);
    memcpy(&pm_tmr_port, f + FADT_PM_TMR_BLK, 2);
    if ( fadt->length >= FADT_FLAGS + 4 )
        pm_tmr_32bit = f[FADT_FLAGS + 1] & (FADT_TMR_VAL_EXT >> 8);
    if ( fadt->length >= FADT_X_DSDT + 8 )
        memcpy(&dsdt_pa, f + FADT_X_DSDT, 8);
    if ( !dsdt_pa )
        memcpy(&dsdt_pa, f + FADT_DSDT, 4);

    if ( (dsdt = map_table(dsdt_pa)) )
        acpi_pcihp_parse(dsdt, dsdt->length);
    if ( !pm1a_cnt || !dsdt || !find_s5(dsdt) )
    {
        printk(XENLOG_WARNING "ACPI: no PM1a control or \\_S5; "
               "no S5 poweroff\n");
        return false;
    }
    s5_ok = true;
    printk("ACPI: S5 via PM1a_CNT %#x, SLP_TYP %u/%u\n", pm1a_cnt,
           slp_typa, slp_typb);
    return true;
}

uint16_t acpi_pm_timer_port(bool *is_32bit)
{
    *is_32bit = pm_tmr_32bit;
    return pm_tmr_port;
}

void acpi_poweroff(void)
{
    if ( !s5_ok )
        return;
    if ( pm1b_cnt )
        outw((slp_typb << 10) | SLP_EN, pm1b_cnt);
    outw((slp_typa << 10) | SLP_EN, pm1a_cnt);
}
