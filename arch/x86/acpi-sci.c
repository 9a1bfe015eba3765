/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ACPI fixed-feature power button (ACPI 6.4 4.8.2.2.1): the SCI
 * (5.2.9 SCI_INT) fires when PWRBTN_STS (PM1 status, 4.8.3.1) is set and
 * PWRBTN_EN is; the status is cleared by writing 1.  ACPI mode is entered
 * as Linux's acpi_enable() does (SMI_CMD <- ACPI_ENABLE, wait for SCI_EN)
 * if firmware left the machine in legacy mode; every other PM1 event
 * stays disabled, and every GPE but those a driver asks for
 * (acpi_sci_enable_gpe(): QEMU's PCI hotplug), so nothing else can hold
 * the level-triggered SCI up.
 */
#include "arch/x86/acpi.h"
#include "arch/x86/apic.h"
#include "arch/x86/io.h"
#include "arch/x86/ioapic.h"
#include "arch/x86/time.h"
#include "shim/console.h"
#include "shim/softirq.h"

/* FADT offsets (5.2.9, table 5.9): the legacy I/O port fields. */
#define FADT_SCI_INT        46      /* 2 bytes */
#define FADT_SMI_CMD        48
#define FADT_ACPI_ENABLE    52      /* 1 byte */
#define FADT_PM1A_EVT       56
#define FADT_PM1B_EVT       60
#define FADT_PM1A_CNT       64
#define FADT_PM1B_CNT       68
#define FADT_GPE0_BLK       80
#define FADT_GPE1_BLK       84
#define FADT_PM1_EVT_LEN    88
#define FADT_GPE0_LEN       92
#define FADT_GPE1_LEN       93
#define FADT_FLAGS          112
#define  FADT_PWR_BUTTON    (1u << 4)   /* 1: no fixed-feature button */

#define PM1_PWRBTN          (1u << 8)   /* PWRBTN_STS / PWRBTN_EN */
#define PM1_CNT_SCI_EN      (1u << 0)

static uint16_t sci_int, smi_cmd, pm1_evt[2], pm1_cnt[2], gpe_blk[2];
static uint8_t acpi_enable_cmd, pm1_evt_len, gpe_len[2];
static uint32_t fadt_flags;
static bool sci_on;                     /* ACPI mode, the SCI routed */

/* GPEs of GPE0's first byte a driver enabled, each with its softirq. */
#define GPE_MAX     8
static uint8_t gpe_enabled;
static uint8_t gpe_softirq[GPE_MAX];

static uint16_t port_field(const uint8_t *f, uint32_t length, unsigned int off)
{
    uint32_t v = 0;

    if ( length >= off + 4 )
        memcpy(&v, f + off, 4);
    return v <= 0xffff ? v : 0;     /* I/O ports only: 16 bits */
}

void acpi_sci_capture(const void *fadt, uint32_t length)
{
    const uint8_t *f = fadt;

    if ( length < FADT_GPE1_LEN + 1 )
        return;
    memcpy(&sci_int, f + FADT_SCI_INT, 2);
    smi_cmd = port_field(f, length, FADT_SMI_CMD);
    acpi_enable_cmd = f[FADT_ACPI_ENABLE];
    pm1_evt[0] = port_field(f, length, FADT_PM1A_EVT);
    pm1_evt[1] = port_field(f, length, FADT_PM1B_EVT);
    pm1_cnt[0] = port_field(f, length, FADT_PM1A_CNT);
    pm1_cnt[1] = port_field(f, length, FADT_PM1B_CNT);
    gpe_blk[0] = port_field(f, length, FADT_GPE0_BLK);
    gpe_blk[1] = port_field(f, length, FADT_GPE1_BLK);
    pm1_evt_len = f[FADT_PM1_EVT_LEN];
    gpe_len[0] = f[FADT_GPE0_LEN];
    gpe_len[1] = f[FADT_GPE1_LEN];
    if ( length >= FADT_FLAGS + 4 )
        memcpy(&fadt_flags, f + FADT_FLAGS, 4);
}

/* Linux's acpi_enable(): ask the SMI handler, then wait up to 3 s. */
static bool acpi_enter_acpi_mode(void)
{
    uint64_t end;

    if ( inw(pm1_cnt[0]) & PM1_CNT_SCI_EN )
        return true;
    if ( !smi_cmd || !acpi_enable_cmd )
    {
        printk(XENLOG_WARNING "ACPI: SCI_EN clear and no SMI_CMD to set "
               "it\n");
        return false;
    }
    outb(acpi_enable_cmd, smi_cmd);
    for ( end = now_ns() + 3000000000ULL; now_ns() < end; )
        if ( inw(pm1_cnt[0]) & PM1_CNT_SCI_EN )
        {
            printk("ACPI: entered ACPI mode (SMI_CMD %#x <- %#x)\n",
                   smi_cmd, acpi_enable_cmd);
            return true;
        }
    printk(XENLOG_WARNING "ACPI: firmware did not enter ACPI mode\n");
    return false;
}

/* Each GPE block: enable registers (second half) off, status cleared. */
static void gpes_off(void)
{
    unsigned int b, i;

    for ( b = 0; b < 2; b++ )
        for ( i = 0; gpe_blk[b] && i < gpe_len[b] / 2; i++ )
        {
            outb(0, gpe_blk[b] + gpe_len[b] / 2 + i);
            outb(0xff, gpe_blk[b] + i);
        }
}

/* PM1 status of both blocks; the bits found set are cleared (W1C). */
static uint16_t pm1_status_ack(void)
{
    uint16_t sts = 0, s;
    unsigned int b;

    for ( b = 0; b < 2; b++ )
        if ( pm1_evt[b] )
        {
            s = inw(pm1_evt[b]);
            if ( s )
                outw(s, pm1_evt[b]);
            sts |= s;
        }
    return sts;
}

void acpi_sci_init(void)
{
    unsigned int b;

    if ( !pm1_evt[0] || pm1_evt_len < 4 || !pm1_cnt[0] )
    {
        printk(XENLOG_WARNING "ACPI: no PM1 event block; no power button\n");
        return;
    }
    if ( fadt_flags & FADT_PWR_BUTTON )
        printk(XENLOG_WARNING "ACPI: FADT says the power button is not a "
               "fixed feature; enabling PWRBTN_EN anyway\n");
    if ( !acpi_enter_acpi_mode() )
        return;
    gpes_off();
    for ( b = 0; b < 2; b++ )
        if ( pm1_evt[b] )
            outw(b ? 0 : PM1_PWRBTN, pm1_evt[b] + pm1_evt_len / 2);
    pm1_status_ack();
    if ( !ioapic_route_isa_irq(sci_int, ACPI_SCI_VECTOR,
                               ACPI_INTI_LEVEL | ACPI_INTI_ACTIVE_LOW) )
    {
        printk(XENLOG_WARNING "ACPI: SCI (IRQ %u) not routable; no power "
               "button\n", sci_int);
        return;
    }
    sci_on = true;
    printk("ACPI: power button on the SCI, PM1a_EVT %#x\n", pm1_evt[0]);
}

bool acpi_sci_enable_gpe(unsigned int gpe, unsigned int softirq)
{
    if ( !sci_on || gpe >= GPE_MAX || !gpe_blk[0] || gpe_len[0] < 2 )
        return false;
    gpe_softirq[gpe] = softirq;
    gpe_enabled |= 1u << gpe;
    outb(1u << gpe, gpe_blk[0]);                /* a stale status: gone */
    outb(gpe_enabled, gpe_blk[0] + gpe_len[0] / 2);
    return true;
}

/* SCIs in a row with no status of ours: a source we can't quiet. */
#define SCI_STORM   10000

void acpi_sci_interrupt(void)
{
    static unsigned int empty;
    uint16_t sts = pm1_status_ack();
    unsigned int b, i;
    uint8_t gpe = 0, s;

    /*
     * Every GPE status cleared, so none can keep the SCI up; those a
     * driver enabled raise its softirq on CPU 0.
     */
    for ( b = 0; b < 2; b++ )
        for ( i = 0; gpe_blk[b] && i < gpe_len[b] / 2; i++ )
            if ( (s = inb(gpe_blk[b] + i)) )
            {
                outb(s, gpe_blk[b] + i);
                if ( !b && !i )
                    gpe = s & gpe_enabled;
            }
    for ( i = 0; i < GPE_MAX; i++ )
        if ( gpe & (1u << i) )
            cpu_raise_softirq(0, gpe_softirq[i]);
    if ( sts & PM1_PWRBTN )
        raise_softirq(POWER_BUTTON_SOFTIRQ);
    if ( sts || gpe )
        empty = 0;
    else if ( ++empty == SCI_STORM )
    {
        printk(XENLOG_ERR "ACPI: the SCI stays raised with no status; "
               "masked, no power button\n");
        ioapic_mask_isa_irq(sci_int);
    }
}
