/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The I/O APICs (Intel 82093AA I/O APIC data sheet, 3.2: IOREGSEL at 0,
 * IOWIN at 0x10; register 1 the version and last redirection entry; the
 * 64-bit redirection entries from register 0x10).  Pins are masked until
 * ioapic_route_isa_irq() unmasks one.
 */
#include "arch/x86/acpi.h"
#include "arch/x86/apic.h"
#include "arch/x86/ioapic.h"
#include "arch/x86/layout.h"
#include "arch/x86/page.h"
#include "shim/console.h"
#include "shim/frame.h"

#define IOREGSEL            0x00
#define IOWIN               0x10
#define IOAPIC_VER          0x01
#define IOAPIC_REDTBL(pin)  (0x10 + 2 * (pin))
#define  RTE_POLARITY_LOW   (1u << 13)
#define  RTE_LEVEL          (1u << 15)
#define  RTE_MASKED         (1u << 16)
#define  RTE_DEST_SHIFT     24      /* in the high word: physical APIC ID */

static struct {
    volatile uint32_t *regs;
    uint32_t gsi_base;
    unsigned int nr_pins;
} ioapic[ARRAY_SIZE(acpi_madt.ioapic)];
static unsigned int nr_ioapics;

static uint32_t ioapic_read(unsigned int i, unsigned int reg)
{
    ioapic[i].regs[IOREGSEL / 4] = reg;
    return ioapic[i].regs[IOWIN / 4];
}

static void ioapic_write(unsigned int i, unsigned int reg, uint32_t val)
{
    ioapic[i].regs[IOREGSEL / 4] = reg;
    ioapic[i].regs[IOWIN / 4] = val;
}

/* The low word last when unmasking, first when masking (a pin is live). */
static void write_rte(unsigned int i, unsigned int pin, uint32_t lo,
                      uint32_t hi)
{
    ioapic_write(i, IOAPIC_REDTBL(pin), RTE_MASKED);
    ioapic_write(i, IOAPIC_REDTBL(pin) + 1, hi);
    ioapic_write(i, IOAPIC_REDTBL(pin), lo);
}

bool ioapic_init(void)
{
    unsigned int i, pin;

    for ( i = 0; i < acpi_madt.nr_ioapics; i++ )
    {
        const struct acpi_ioapic *a = &acpi_madt.ioapic[i];
        unsigned long base = a->addr & ~(PAGE_SIZE - 1);

        if ( !a->addr || a->addr & 0xf )
            continue;
        map_pages((unsigned long)__va(base), base, PAGE_SIZE,
                  _PAGE_RW | _PAGE_PCD | _PAGE_PWT);
        ioapic[nr_ioapics].regs = __va(a->addr);
        ioapic[nr_ioapics].gsi_base = a->gsi_base;
        ioapic[nr_ioapics].nr_pins =
            ((ioapic_read(nr_ioapics, IOAPIC_VER) >> 16) & 0xff) + 1;
        for ( pin = 0; pin < ioapic[nr_ioapics].nr_pins; pin++ )
            write_rte(nr_ioapics, pin, RTE_MASKED, 0);
        printk("IOAPIC[%u]: id %u at %#x, GSI %u-%u, all masked\n",
               nr_ioapics, a->id, a->addr, a->gsi_base,
               a->gsi_base + ioapic[nr_ioapics].nr_pins - 1);
        nr_ioapics++;
    }
    if ( !nr_ioapics )
        printk(XENLOG_WARNING "IOAPIC: none in the MADT; serial input "
               "polled, no power button\n");
    return nr_ioapics;
}

/* The I/O APIC holding @gsi (its pin in *pin), or -1. */
static int find_pin(uint32_t gsi, unsigned int *pin)
{
    unsigned int i;

    for ( i = 0; i < nr_ioapics; i++ )
        if ( gsi >= ioapic[i].gsi_base &&
             gsi - ioapic[i].gsi_base < ioapic[i].nr_pins )
        {
            *pin = gsi - ioapic[i].gsi_base;
            return i;
        }
    return -1;
}

void ioapic_mask_isa_irq(unsigned int isa_irq)
{
    unsigned int pin;
    uint16_t inti;
    uint32_t gsi;
    int i;

    acpi_isa_irq_to_gsi(isa_irq, &gsi, &inti);
    if ( (i = find_pin(gsi, &pin)) >= 0 )
        ioapic_write(i, IOAPIC_REDTBL(pin),
                     ioapic_read(i, IOAPIC_REDTBL(pin)) | RTE_MASKED);
}

bool ioapic_route_isa_irq(unsigned int isa_irq, uint8_t vector,
                          uint16_t default_inti)
{
    uint32_t gsi, lo = vector;
    uint16_t inti, polarity, trigger;
    unsigned int pin;
    int i;

    acpi_isa_irq_to_gsi(isa_irq, &gsi, &inti);
    /* Each field of the override may still "conform to the bus". */
    polarity = inti & ACPI_INTI_POLARITY_MASK ?:
               default_inti & ACPI_INTI_POLARITY_MASK;
    trigger = inti & ACPI_INTI_TRIGGER_MASK ?:
              default_inti & ACPI_INTI_TRIGGER_MASK;
    if ( polarity == ACPI_INTI_ACTIVE_LOW )
        lo |= RTE_POLARITY_LOW;
    if ( trigger == ACPI_INTI_LEVEL )
        lo |= RTE_LEVEL;

    if ( (i = find_pin(gsi, &pin)) < 0 )
        return false;
    write_rte(i, pin, lo, lapic_id() << RTE_DEST_SHIFT);
    printk("IOAPIC: IRQ %u -> GSI %u (%s, active %s) -> vector %#x\n",
           isa_irq, gsi, lo & RTE_LEVEL ? "level" : "edge",
           lo & RTE_POLARITY_LOW ? "low" : "high", vector);
    return true;
}
