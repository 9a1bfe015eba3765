/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * GDT, TSS and IDT (SDM vol. 3A, 3.4.5, 7.2.3, 6.14).  One IDT for all
 * CPUs: every vector goes to its stub in entry.S; NMI, #DF and #MC run on
 * IST stacks so a broken stack still gives a register dump.
 */
#include "arch/x86/desc.h"
#include "arch/x86/percpu.h"
#include "arch/x86/segment.h"

struct idt_entry {
    uint16_t off0;
    uint16_t sel;
    uint8_t ist;
    uint8_t type_attr;
    uint16_t off1;
    uint32_t off2;
    uint32_t rsvd;
} __packed;

struct desc_ptr {
    uint16_t limit;
    uint64_t base;
} __packed;

static struct idt_entry idt[256] __aligned(4096);
extern const char exception_stubs[], int82_entry[];

static const uint64_t reserved_gdt_template[] = {
    0x0000000000000000,     /* 0xe000 unused */
    0x00af9a000000ffff,     /* 0xe008 ring 0 code, 64-bit */
    0x00cf92000000ffff,     /* 0xe010 ring 0 data */
    0x0000000000000000,     /* 0xe018 reserved */
    0x00cffa000000ffff,     /* 0xe023 FLAT_RING3_CS32 */
    0x00cff2000000ffff,     /* 0xe02b FLAT_RING3_DS32 / SS */
    0x00affa000000ffff,     /* 0xe033 FLAT_RING3_CS64 */
    0x00cf9a000000ffff,     /* 0xe038 ring 0 code, compatibility */
};

/*
 * A 32-bit guest's flat selectors (xen-x86_32.h) at the same places as
 * Xen's compat_gdt: ring 1 code and data, ring 3 code and data.
 */
static const uint64_t compat_gdt_template[] = {
    0x00cfba000000ffff,     /* 0xe019 FLAT_RING1_CS */
    0x00cfb2000000ffff,     /* 0xe021 FLAT_RING1_DS / SS */
    0x00cffa000000ffff,     /* 0xe02b FLAT_RING3_CS */
    0x00cff2000000ffff,     /* 0xe033 FLAT_RING3_DS / SS */
};
static bool use_compat_gdt;

static void idt_init(void)
{
    unsigned int v;

    if ( idt[0].type_attr )
        return;
    for ( v = 0; v < 256; v++ )
    {
        uint64_t a = v == HYPERCALL_VECTOR ? (uint64_t)int82_entry
                                           : (uint64_t)exception_stubs + v * 16;

        idt[v].off0 = a;
        idt[v].sel = SHIM_CS;
        idt[v].type_attr = 0x8e;        /* present, DPL 0, interrupt gate */
        idt[v].off1 = a >> 16;
        idt[v].off2 = a >> 32;
    }
    /* int3 and into from the guest must arrive as #BP / #OF, not #GP. */
    idt[3].type_attr = 0xee;
    idt[4].type_attr = 0xee;
    /*
     * The compat hypercall gate: DPL 1, so a 32-bit guest's ring-1 kernel
     * may use it and its user mode (or a 64-bit guest, all ring 3) takes
     * #GP, as Xen's.  An interrupt gate: the entry decides about IF.
     */
    idt[HYPERCALL_VECTOR].type_attr = 0xae;
    idt[2].ist = IST_NMI;
    idt[8].ist = IST_DF;
    idt[18].ist = IST_MC;
    /*
     * #DB too: a breakpoint the CPU held back over `mov ss` arrives right
     * after a `syscall`, in ring 0 with the caller's %rsp still loaded
     * (XSA-260).
     */
    idt[1].ist = IST_DB;
}

void desc_init_cpu(struct percpu *pc)
{
    uint64_t *g = pc->gdt + GDT_RESERVED_ENTRY;
    char *stack = pc->stack;
    struct desc_ptr gdtr, idtr;

    idt_init();

    memcpy(g, reserved_gdt_template, sizeof(reserved_gdt_template));
    if ( use_compat_gdt )
        memcpy(&g[3], compat_gdt_template, sizeof(compat_gdt_template));
    set_tssldt_desc(&g[(TSS_SEL >> 3) - GDT_RESERVED_ENTRY],
                    (uint64_t)&pc->tss, sizeof(pc->tss) - 1,
                    SYS_DESC_tss_avail);
    /* A data segment whose limit is the CPU number: `lsl` reads it. */
    g[(PER_CPU_SEL >> 3) - GDT_RESERVED_ENTRY] =
        0x0000910000000000ULL | pc->cpu_id;

    pc->tss.ist[IST_NMI - 1] = (uint64_t)stack + (IST_NMI_PAGE + 1) * 4096;
    pc->tss.ist[IST_DF - 1] = (uint64_t)stack + (IST_DF_PAGE + 1) * 4096;
    pc->tss.ist[IST_MC - 1] = (uint64_t)stack + (IST_MC_PAGE + 1) * 4096;
    pc->tss.ist[IST_DB - 1] = (uint64_t)stack + (IST_DB_PAGE + 1) * 4096;
    pc->tss.rsp[0] = cpu_info_rsp0((struct cpu_info *)(stack + STACK_SIZE) - 1);
    pc->tss.iomap_base = sizeof(pc->tss);   /* no I/O bitmap */

    gdtr.limit = GDT_LIMIT;
    gdtr.base = (uint64_t)pc->gdt;
    idtr.limit = sizeof(idt) - 1;
    idtr.base = (uint64_t)idt;

    asm volatile ( "lgdt %0" :: "m" (gdtr) );
    asm volatile ( "lidt %0" :: "m" (idtr) );
    /* Reload CS through a far return, then the data segments. */
    asm volatile ( "pushq %[cs]\n\t"
                   "lea 1f(%%rip), %%rax\n\t"
                   "pushq %%rax\n\t"
                   "lretq\n"
                   "1:\n\t"
                   "mov %[ds], %%ss\n\t"
                   "mov %[ds], %%ds\n\t"
                   "mov %[ds], %%es\n\t"
                   : : [cs] "i" (SHIM_CS), [ds] "r" (SHIM_DS)
                   : "rax", "memory" );
    ltr(TSS_SEL);
    /*
     * No LDT until one is installed: firmware may leave LDTR's hidden base
     * at 0 (its reset value), which is guest memory once a guest runs,
     * where a forged call gate would lead to ring 0.
     */
    lldt(0);
}

/*
 * The guest is 32-bit: every CPU's reserved GDT entries become Xen's
 * compat_gdt's (a CPU brought up later gets them from desc_init_cpu()).
 * No guest selector is loaded yet, so no CPU holds the old ones.
 */
void desc_use_compat_gdt(void)
{
    unsigned int cpu;

    use_compat_gdt = true;
    for ( cpu = 0; cpu < NR_CPUS; cpu++ )
        if ( percpu_area[cpu] )
            memcpy(percpu_area[cpu]->gdt + GDT_RESERVED_ENTRY + 3,
                   compat_gdt_template, sizeof(compat_gdt_template));
}
