/* SPDX-License-Identifier: GPL-2.0-only */
/* The little of ACPI the shim needs: finding tables, S5, the reset register. */
#ifndef ARCH_X86_ACPI_H
#define ARCH_X86_ACPI_H

#include "shim/lib.h"
#include "arch/x86/layout.h"

/*
 * Find the RSDP (from the boot protocol, else the BIOS areas), the FADT
 * and \_S5, while boot memory is still mapped.  Returns false (and logs
 * why) if S5 poweroff won't be available.
 */
bool acpi_init(uint64_t rsdp_hint);

/* Enter S5 if acpi_init() found how; returns if it could not. */
void acpi_poweroff(void);
/* Write the FADT's reset register (said first); false if there is none. */
bool acpi_reset(void);

/* The FADT's PM timer I/O port (0: none) and whether it counts 32 bits. */
uint16_t acpi_pm_timer_port(bool *is_32bit);

/* Physical address of a table by signature (after acpi_init), or 0. */
uint64_t acpi_find_table(const char sig[4]);

/* What the MADT says about interrupt routing (arch/x86/acpi-madt.c). */
struct acpi_ioapic {
    uint8_t id;
    uint32_t addr;          /* its registers' physical address */
    uint32_t gsi_base;      /* the GSI of its pin 0 */
};
struct acpi_irq_override {
    uint8_t isa_irq;
    uint32_t gsi;
    uint16_t flags;         /* MPS INTI flags: polarity, trigger mode */
};
#define ACPI_INTI_POLARITY_MASK 0x3
#define  ACPI_INTI_ACTIVE_HIGH  0x1
#define  ACPI_INTI_ACTIVE_LOW   0x3
#define ACPI_INTI_TRIGGER_MASK  0xc
#define  ACPI_INTI_EDGE         0x4
#define  ACPI_INTI_LEVEL        0xc
/* A processor: its Local APIC (type 0) or Local x2APIC (type 9) entry. */
struct acpi_cpu {
    uint32_t apic_id;       /* x2APIC IDs may exceed 255 */
    uint32_t acpi_uid;      /* the ACPI processor UID */
};
struct acpi_madt {
    unsigned int nr_ioapics, nr_overrides;
    /*
     * Enabled processors in table order, the first NR_CPUS of them;
     * nr_cpus_dropped counts the enabled ones past that limit, nr_hotplug
     * those firmware marks online-capable (not enabled yet, but able to
     * be: "hotplug CPUs" in Xen's log).
     */
    unsigned int nr_cpus, nr_cpus_dropped, nr_hotplug;
    struct acpi_cpu cpu[NR_CPUS];
    struct acpi_ioapic ioapic[4];
    struct acpi_irq_override override[16];
};
extern struct acpi_madt acpi_madt;
void acpi_madt_parse(const void *table, uint32_t length);
/*
 * The GSI and INTI flags of ISA IRQ @isa_irq: its interrupt source
 * override if the MADT has one (true), else the same number and
 * "conforming" flags (false).
 */
bool acpi_isa_irq_to_gsi(unsigned int isa_irq, uint32_t *gsi,
                         uint16_t *flags);

/* What the MCFG says about PCI configuration space (arch/x86/acpi-mcfg.c). */
struct acpi_ecam {
    uint64_t base;          /* bus 0's place: 1 MiB a bus, 4 KiB a function */
    uint16_t segment;
    uint8_t bus_start, bus_end;
};
struct acpi_mcfg {
    unsigned int nr;
    struct acpi_ecam ecam[4];
};
extern struct acpi_mcfg acpi_mcfg;
void acpi_mcfg_parse(const void *table, uint32_t length);

/*
 * QEMU's ACPI PCI hotplug as the DSDT describes it (arch/x86/acpi-pcihp.c):
 * the PCST region's I/O port (0: no such interface), bus 0's selector
 * (BSEL; -1: bus 0 takes none) and each bridge's under \_SB.PCI0, by its
 * _ADR (device << 16 | function).
 */
#define ACPI_HEADER_SIZE        36
#define ACPI_PCIHP_MAX_BSEL     256
struct acpi_pcihp {
    uint16_t base;
    int root_bsel;
    unsigned int nr;
    struct {
        uint32_t adr, bsel;
    } bridge[32];
};
extern struct acpi_pcihp acpi_pcihp;
void acpi_pcihp_parse(const void *dsdt, uint32_t length);

/*
 * The fixed-feature power button (arch/x86/acpi-sci.c, ACPI 6.4 4.8.2.2):
 * acpi_sci_capture() keeps what the FADT says about the SCI and PM1 event
 * blocks (at acpi_init); acpi_sci_init() puts the machine in ACPI mode if
 * firmware didn't, enables only PWRBTN_EN, and routes the SCI to
 * ACPI_SCI_VECTOR; acpi_sci_interrupt() clears the status and raises
 * POWER_BUTTON_SOFTIRQ for a press, and a GPE's softirq for each GPE a
 * driver enabled.
 */
void acpi_sci_capture(const void *fadt, uint32_t length);
void acpi_sci_init(void);
void acpi_sci_interrupt(void);
/*
 * General-purpose event @gpe (of GPE0's first eight) on: its status
 * raises @softirq on CPU 0.  False where there is no SCI (no ACPI mode,
 * no GPE0 block), or @gpe is beyond the first eight.
 */
bool acpi_sci_enable_gpe(unsigned int gpe, unsigned int softirq);

#endif /* ARCH_X86_ACPI_H */
