/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The container's PCI devices (PCI Local Bus 3.0, PCI Express Base 4.0
 * ch. 7): configuration space through ECAM where the MCFG gives it, else
 * port I/O 0xcf8/0xcfc; every function found at boot, its BARs sized;
 * MSI-X, or INTx where a function has no MSI-X.
 */
#ifndef DRIVERS_PCI_H
#define DRIVERS_PCI_H

#include "shim/lib.h"
#include "arch/x86/vector.h"

/* Configuration space header (type 0 and 1), PCI 3.0 6.1. */
#define PCI_VENDOR_ID           0x00
#define PCI_DEVICE_ID           0x02
#define PCI_COMMAND             0x04
#define  PCI_COMMAND_IO         (1u << 0)
#define  PCI_COMMAND_MEMORY     (1u << 1)
#define  PCI_COMMAND_MASTER     (1u << 2)
#define  PCI_COMMAND_INTX_OFF   (1u << 10)
#define PCI_STATUS              0x06
#define  PCI_STATUS_CAP_LIST    (1u << 4)
#define PCI_REVISION            0x08
#define PCI_CLASS_PROG          0x09
#define PCI_CLASS_DEVICE        0x0a
#define PCI_HEADER_TYPE         0x0e
#define  PCI_HEADER_MULTI_FN    0x80
#define  PCI_HEADER_TYPE_MASK   0x7f
#define  PCI_HEADER_BRIDGE      1
#define PCI_BAR0                0x10
#define  PCI_BAR_IO             (1u << 0)
#define  PCI_BAR_MEM_TYPE_MASK  (3u << 1)
#define  PCI_BAR_MEM_64         (2u << 1)
#define  PCI_BAR_PREFETCH       (1u << 3)
#define PCI_NUM_BARS_BRIDGE     2       /* type 1: BARs 0 and 1 */
#define PCI_SECONDARY_BUS       0x19    /* type 1 (PCI-to-PCI Bridge 1.2) */
#define PCI_SUBORDINATE_BUS     0x1a
#define PCI_MEMORY_BASE         0x20    /* bits 31:20 of the window */
#define PCI_MEMORY_LIMIT        0x22
#define PCI_PREF_MEMORY_BASE    0x24    /* low nibble 1: 64-bit */
#define PCI_PREF_MEMORY_LIMIT   0x26
#define PCI_PREF_BASE_UPPER32   0x28
#define PCI_PREF_LIMIT_UPPER32  0x2c
#define  PCI_WINDOW_ALIGN       (1UL << 20)
#define PCI_SUBSYS_ID           0x2e    /* type 0 */
#define PCI_CAP_PTR             0x34
#define PCI_INTERRUPT_LINE      0x3c
#define PCI_INTERRUPT_PIN       0x3d

/* Capabilities (PCI 3.0 6.7, appendix H). */
#define PCI_CAP_ID_MSI          0x05
#define PCI_MSI_FLAGS           2
#define  PCI_MSI_FLAGS_ENABLE   (1u << 0)
#define  PCI_MSI_FLAGS_QSIZE    (7u << 4)   /* messages enabled: one */
#define  PCI_MSI_FLAGS_64BIT    (1u << 7)
#define PCI_MSI_ADDRESS_LO      4
#define PCI_MSI_ADDRESS_HI      8           /* 64-bit capable only */
#define PCI_MSI_DATA_32         8
#define PCI_MSI_DATA_64         12
#define PCI_CAP_ID_EXP          0x10        /* PCIe 4.0 7.5.3 */
#define PCI_EXP_FLAGS           2
#define  PCI_EXP_FLAGS_TYPE     0x00f0u
#define   PCI_EXP_TYPE_ROOT_PORT 4
#define   PCI_EXP_TYPE_DOWNSTREAM 6
#define  PCI_EXP_FLAGS_SLOT     0x0100u     /* slot implemented */
#define  PCI_EXP_FLAGS_IRQ      0x3e00u     /* its interrupt message */
#define PCI_EXP_SLTCAP          0x14
#define  PCI_EXP_SLTCAP_PCP     (1u << 1)   /* power controller */
#define  PCI_EXP_SLTCAP_HPC     (1u << 6)   /* hot-plug capable */
#define  PCI_EXP_SLTCAP_PSN_SHIFT 19        /* physical slot number */
#define PCI_EXP_SLTCTL          0x18
#define  PCI_EXP_SLTCTL_ABPE    (1u << 0)   /* attention button */
#define  PCI_EXP_SLTCTL_PDCE    (1u << 3)   /* presence detect changed */
#define  PCI_EXP_SLTCTL_HPIE    (1u << 5)   /* hot-plug interrupt */
#define  PCI_EXP_SLTCTL_PIC     (3u << 8)   /* power indicator */
#define   PCI_EXP_SLTCTL_PIC_ON (1u << 8)
#define   PCI_EXP_SLTCTL_PIC_OFF (3u << 8)
#define  PCI_EXP_SLTCTL_PCC     (1u << 10)  /* set: power off */
#define PCI_EXP_SLTSTA          0x1a
#define  PCI_EXP_SLTSTA_ABP     (1u << 0)   /* button pressed */
#define  PCI_EXP_SLTSTA_PDC     (1u << 3)   /* presence changed */
#define  PCI_EXP_SLTSTA_PDS     (1u << 6)   /* a card is present */
#define  PCI_EXP_SLTSTA_EVENTS  0x011fu     /* the RW1C event bits */
#define PCI_CAP_ID_MSIX         0x11
#define PCI_CAP_ID_VNDR         0x09
#define PCI_MSIX_FLAGS          2
#define  PCI_MSIX_FLAGS_QSIZE   0x7ffu
#define  PCI_MSIX_FLAGS_MASKALL (1u << 14)
#define  PCI_MSIX_FLAGS_ENABLE  (1u << 15)
#define PCI_MSIX_TABLE          4
#define PCI_MSIX_PBA            8
#define  PCI_MSIX_BIR_MASK      7u
#define PCI_MSIX_ENTRY_SIZE     16
#define  PCI_MSIX_ENTRY_ADDR_LO 0
#define  PCI_MSIX_ENTRY_ADDR_HI 4
#define  PCI_MSIX_ENTRY_DATA    8
#define  PCI_MSIX_ENTRY_CTRL    12
#define   PCI_MSIX_ENTRY_MASKED 1u

#define PCI_NUM_BARS            6
#define PCI_CFG_SIZE            256     /* the part every function has */

struct pci_bar {
    uint64_t addr;          /* 0: not implemented, or not assigned */
    uint64_t size;
    bool io, is64, prefetch;
};

/* A bit for each device vector (arch/x86/vector.h), in 64-bit words. */
#define PCI_VECTOR_WORDS \
    ((DEVICE_VECTOR_LAST - DEVICE_VECTOR_FIRST + 1 + 63) / 64)

/* A bridge's memory window: [base, limit]; closed when base > limit. */
struct pci_window {
    uint64_t base, limit;
};

struct pci_dev {
    uint8_t bus, dev, fn;
    uint16_t vendor, device, subsys;
    uint8_t revision, header_type;
    uint32_t class;         /* base class, sub-class, prog-if */
    uint8_t irq_line, irq_pin;
    struct pci_bar bar[PCI_NUM_BARS];
    /* Snapshot of the first 256 bytes, for walking capabilities. */
    uint8_t cfg[PCI_CFG_SIZE];
    /* MSI-X: its capability (0: none), table size and mapping. */
    unsigned int msix_cap, msix_size;
    volatile uint8_t *msix_table;
    /* Bridges: the memory and prefetchable windows; the PCIe capability. */
    struct pci_window mem, pref;
    unsigned int exp_cap;
    bool hotplug;           /* a PCIe port whose slot takes hot-plug */
    /*
     * The host's removal (drivers/pci-hotplug.c): the disks and NICs
     * registered on the function not yet given back, whether the host
     * asked for it, whether it is gone (its entry free again).
     */
    unsigned int holds;
    bool removing, gone;
    bool fresh;             /* found, not yet offered (pci_scan_slot()) */
    bool given_back;        /* what held it let go (its driver stopped) */
    /*
     * What its driver took, given back a while after the host took the
     * function (pci-hotplug.c): the vectors bound to it (a bit each from
     * DEVICE_VECTOR_FIRST), and its memory, which dma_alloc() counts
     * under @owner (unique for each function found).
     */
    uint64_t vectors[PCI_VECTOR_WORDS];
    unsigned int owner;
};

/* Capability walking and BAR decoding on a snapshot (drivers/pci-cap.c). */
/*
 * The offset of the first capability with id @id after the one at @from
 * (0: from the list's start) in the 256-byte image @cfg; 0 if none.
 * Bounded: a pointer below 0x40 or back to a capability already passed
 * ends the walk, which starts at the list's head each time, so a caller
 * walking by @from ends too, whatever the device shows.
 */
unsigned int pci_cap_find(const uint8_t *cfg, unsigned int from, uint8_t id);
/*
 * BAR @i from its value (@lo, and @hi for the upper half of a 64-bit one)
 * and what reads back after writing all ones (@lo_ones, @hi_ones).
 * Returns how many registers it takes (2 for a 64-bit memory BAR).
 */
unsigned int pci_bar_decode(uint32_t lo, uint32_t hi, uint32_t lo_ones,
                            uint32_t hi_ones, struct pci_bar *bar);
/*
 * A type 1 header's memory windows from the image @cfg (PCI-to-PCI Bridge
 * 1.2 3.2.5.8-10): @mem the non-prefetchable one (32-bit), @pref the
 * prefetchable one (64-bit where its low nibble says so).
 */
void pci_bridge_windows(const uint8_t *cfg, struct pci_window *mem,
                        struct pci_window *pref);
/*
 * Whether a window is open: its base at most its limit, and not at 0,
 * where the registers are as reset (QEMU's bridge, which qboot leaves
 * so, would forward the first MiB: RAM on every PC).
 */
static inline bool pci_window_open(const struct pci_window *w)
{
    return w->base && w->base <= w->limit;
}

/* Configuration space reads and writes; @reg aligned to the width. */
uint32_t pci_conf_read32(const struct pci_dev *d, unsigned int reg);
uint16_t pci_conf_read16(const struct pci_dev *d, unsigned int reg);
uint8_t pci_conf_read8(const struct pci_dev *d, unsigned int reg);
void pci_conf_write32(const struct pci_dev *d, unsigned int reg, uint32_t v);
void pci_conf_write16(const struct pci_dev *d, unsigned int reg, uint16_t v);

/*
 * Find every function on every bus (following bridges from bus 0), and
 * offer each to the drivers (drivers/drivers.c).  At boot.
 */
void pci_init(void);
/* The functions found, in bus order. */
extern struct pci_dev pci_devs[];
extern unsigned int pci_nr_devs;
/*
 * A device put in slot @dev of bus @bus since the scan (hot-added): its
 * functions added as the scan adds them and offered to the drivers; how
 * many (0 for an empty slot, or one known already).
 */
unsigned int pci_scan_slot(unsigned int bus, unsigned int dev);
/* Whether @d is a function in slot @dev of bus @bus that is still there. */
static inline bool pci_in_slot(const struct pci_dev *d, unsigned int bus,
                               unsigned int dev)
{
    return d->bus == bus && d->dev == dev && !d->gone;
}
/* Whether slot @dev of bus @bus has a function the shim knows. */
bool pci_slot_known(unsigned int bus, unsigned int dev);
/* The bridge whose secondary bus is @bus (not 0), or NULL. */
struct pci_dev *pci_bridge_of(unsigned int bus);
/*
 * A disk or NIC registered on @d (its interface's registry counts them),
 * and given back (a removal): the last one back lets the host take the
 * function (pci-hotplug.c).
 */
void pci_hold(struct pci_dev *d);
void pci_unhold(struct pci_dev *d);

/*
 * Give the memory BARs firmware left at 0 a place: on bus 0 in the PCI
 * hole below 4 GiB, behind a bridge in its window (a prefetchable BAR in
 * the prefetchable one where it fits); false (logged) if one can't be
 * placed.
 */
bool pci_assign_bars(struct pci_dev *d);
/* BAR @i mapped uncached (the whole BAR), or NULL. */
volatile void *pci_map_bar(struct pci_dev *d, unsigned int i);
/*
 * Memory decoding and bus mastering on (and INTx off if @msix), and on
 * every bridge between it and bus 0 (which forward its BARs and its DMA).
 */
void pci_enable(struct pci_dev *d, bool msix);

/*
 * MSI-X (PCI 3.0 6.8.2): map the table, every entry masked, the function
 * enabled; false if it has no MSI-X.  Then entry @entry to a new vector
 * whose interrupts call @fn(@data) on CPU @cpu: the vector, 0 on failure.
 */
bool pci_msix_init(struct pci_dev *d);
unsigned int pci_msix_bind(struct pci_dev *d, unsigned int entry,
                           unsigned int cpu, vector_handler_t *fn,
                           void *data);
/*
 * MSI (PCI 3.0 6.8.1), one message: to a new vector whose interrupts call
 * @fn(@data) on CPU @cpu, enabled; the vector, 0 if it has no MSI.
 */
unsigned int pci_msi_bind(struct pci_dev *d, unsigned int cpu,
                          vector_handler_t *fn, void *data);

/* "00:04.0" into @buf (at least 8 bytes), for log lines. */
const char *pci_name(const struct pci_dev *d, char *buf);

#endif /* DRIVERS_PCI_H */
